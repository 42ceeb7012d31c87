package danger

import (
	"strings"
)

// sedScript is what a sed script does besides editing text, as GNU sed(1)
// reads it: e runs a command (the pattern space when none is given, as
// does the e flag of s), r and R read files, w and W (and the w flag of s)
// write them.
type sedScript struct {
	execs  []string // commands e runs; "" for the pattern space
	reads  []string
	writes []string
	bad    bool // a command sed does not have: the script is not understood
}

// parseSed reads a sed script command by command.
func parseSed(script string) sedScript {
	var sc sedScript
	p := &sedParser{s: script}
	for !p.done() {
		p.skip(" \t\n;")
		if p.done() {
			break
		}
		if p.peek() == '#' {
			p.line()
			continue
		}
		p.address()
		p.skip(" \t")
		for !p.done() && p.peek() == '!' {
			p.i++
			p.skip(" \t")
		}
		if p.done() {
			break
		}
		c := p.next()
		switch c {
		case '{', '}', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		case ':', 'b', 't', 'T', 'v':
			p.until(";\n")
		case 'a', 'i', 'c':
			p.text()
		case 'q', 'Q', 'l', 'L':
			p.skip(" \t")
			p.skip("0123456789")
		case 'r', 'R':
			sc.reads = append(sc.reads, strings.TrimSpace(p.line()))
		case 'w', 'W':
			sc.writes = append(sc.writes, strings.TrimSpace(p.line()))
		case 'e':
			sc.execs = append(sc.execs, strings.TrimSpace(p.line()))
		case 's', 'y':
			if p.done() {
				sc.bad = true
				return sc
			}
			delim := p.next()
			if delim == '\n' || delim == '\\' {
				sc.bad = true
				return sc
			}
			p.delimited(delim)
			repl := p.delimited(delim)
			if c == 'y' {
				break
			}
			for !p.done() && !strings.ContainsRune(";\n}", rune(p.peek())) {
				switch f := p.next(); f {
				case 'e':
					sc.execs = append(sc.execs, "")
					if r, ok := sedReplacement(repl); ok {
						// s/.*/rm -rf ~/e: the edited line, run, holds
						// the replacement.
						sc.execs = append(sc.execs, r)
					}
				case 'w':
					sc.writes = append(sc.writes, strings.TrimSpace(p.line()))
				case 'g', 'p', 'i', 'I', 'm', 'M', ' ', '\t', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
				default:
					sc.bad = true
					return sc
				}
			}
		default:
			sc.bad = true
			return sc
		}
	}
	return sc
}

type sedParser struct {
	s string
	i int
}

func (p *sedParser) done() bool { return p.i >= len(p.s) }
func (p *sedParser) peek() byte { return p.s[p.i] }
func (p *sedParser) next() byte {
	c := p.s[p.i]
	p.i++
	return c
}

// skip passes over any of the bytes in set.
func (p *sedParser) skip(set string) {
	for !p.done() && strings.IndexByte(set, p.peek()) >= 0 {
		p.i++
	}
}

// until returns the text up to (not including) one of the bytes in set.
func (p *sedParser) until(set string) string {
	start := p.i
	for !p.done() && strings.IndexByte(set, p.peek()) < 0 {
		p.i++
	}
	return p.s[start:p.i]
}

// line returns the rest of the line: file names and commands take it all,
// semicolons included.
func (p *sedParser) line() string {
	s := p.until("\n")
	if !p.done() {
		p.i++
	}
	return s
}

// text passes over the text of a, i and c: to the end of the line, and
// over lines that end in a backslash.
func (p *sedParser) text() {
	for !p.done() {
		c := p.next()
		if c == '\\' && !p.done() {
			p.i++
			continue
		}
		if c == '\n' {
			return
		}
	}
}

// delimited passes over a regular expression or replacement up to an
// unescaped delim.
// sedReplacement is the text a replacement puts in, its escapes undone;
// ok is false when it holds what was matched (&, \1).
func sedReplacement(repl string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		switch {
		case c == '&':
			return "", false
		case c == '\\' && i+1 < len(repl):
			i++
			switch n := repl[i]; {
			case n >= '0' && n <= '9':
				return "", false
			case n == 'n':
				b.WriteByte('\n')
			default:
				b.WriteByte(n)
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

func (p *sedParser) delimited(delim byte) string {
	start := p.i
	for !p.done() {
		c := p.next()
		if c == '\\' && !p.done() {
			p.i++
			continue
		}
		if c == delim {
			return p.s[start : p.i-1]
		}
	}
	return p.s[start:p.i]
}

// address passes over zero, one or two addresses: numbers, first~step, $,
// /regexp/ or \cregexpc with I and M flags, +N and ~N.
func (p *sedParser) address() {
	for n := 0; n < 2; n++ {
		if p.done() {
			return
		}
		switch c := p.peek(); {
		case c >= '0' && c <= '9', c == '+', c == '~':
			p.i++
			p.skip("0123456789~")
		case c == '$':
			p.i++
		case c == '/':
			p.i++
			p.delimited('/')
			p.skip("IM")
		case c == '\\':
			p.i++
			if p.done() {
				return
			}
			p.delimited(p.next())
			p.skip("IM")
		default:
			return
		}
		p.skip(" \t")
		if n == 0 {
			if p.done() || p.peek() != ',' {
				return
			}
			p.i++
			p.skip(" \t")
		}
	}
}

// sed judges a sed command: its script's e, r and w commands, and the
// files -i rewrites.
func (w *walker) sed(chain string, args []arg, io ioInfo) {
	inPlace, sandbox, haveScript := false, false, false
	var script []string
	var files []arg
	for i := 1; i < len(args); i++ {
		a := args[i].s
		next := func() (string, bool) {
			if i+1 < len(args) {
				i++
				return args[i].s, true
			}
			return "", false
		}
		switch {
		case a == "--sandbox":
			sandbox = true
		case a == "-i" || a == "--in-place" || strings.HasPrefix(a, "--in-place="):
			inPlace = true
		case a == "-e" || a == "--expression":
			if v, ok := next(); ok {
				script, haveScript = append(script, v), true
			}
		case strings.HasPrefix(a, "--expression="):
			script, haveScript = append(script, strings.TrimPrefix(a, "--expression=")), true
		case a == "-f" || a == "--file" || strings.HasPrefix(a, "--file="):
			f, ok := strings.CutPrefix(a, "--file=")
			if !ok {
				f, _ = next()
			}
			haveScript = true
			script = append(script, w.sedFile(f, io))
		case a == "-l" || a == "--line-length":
			next()
		case a == "--" || a == "-":
			if a == "-" {
				files = append(files, args[i])
			}
		case strings.HasPrefix(a, "--"):
		case strings.HasPrefix(a, "-"):
			// A cluster such as -ne or -i.bak: -i takes the rest as its
			// suffix; -e, -f and -l take the next argument.
			for j := 1; j < len(a); j++ {
				switch a[j] {
				case 'i':
					inPlace = true
					j = len(a)
				case 'e':
					if rest := a[j+1:]; rest != "" {
						script = append(script, rest)
					} else if v, ok := next(); ok {
						script = append(script, v)
					}
					haveScript, j = true, len(a)
				case 'f':
					f := a[j+1:]
					if f == "" {
						f, _ = next()
					}
					script, haveScript, j = append(script, w.sedFile(f, io)), true, len(a)
				case 'l':
					if a[j+1:] == "" {
						next()
					}
					j = len(a)
				}
			}
		case !haveScript:
			script, haveScript = append(script, a), true
		default:
			files = append(files, args[i])
		}
	}
	text := strings.Join(script, "\n")
	if !sandbox {
		w.sedDoes(chain, text)
	}
	if inPlace {
		if len(files) == 0 {
			w.res.add(Safe, "`"+chain+" -i`: no files")
		}
		for _, f := range files {
			w.writeTo(f.s, chain+" -i", f.text)
		}
		return
	}
	w.res.add(Safe, "`"+chain+"`: prints edited text")
}

// sedFile is the script a sed -f file holds, when it is known (a
// here-string on standard input), else a script that stands for the worst.
func (w *walker) sedFile(f string, io ioInfo) string {
	if (f == "-" || f == "/dev/stdin") && io.in.kind == inData {
		return io.in.data
	}
	if p, ok := w.abs(f); ok && w.shared.scripts[p] != "" && !hasHole(w.shared.scripts[p]) {
		return w.shared.scripts[p]
	}
	return hole
}

// sedDoes judges what a sed script runs, reads and writes.
func (w *walker) sedDoes(chain, script string) {
	if hasHole(script) {
		w.res.add(Dangerous, "`"+chain+"`: the script is not known before running, and sed scripts can run commands")
		return
	}
	sc := parseSed(script)
	if sc.bad {
		w.res.add(Dangerous, "`"+chain+"`: a script the classifier does not understand")
	}
	for _, e := range sc.execs {
		if e == "" {
			w.res.add(Dangerous, "`"+chain+"`: the e command or flag runs the edited text as a command")
			continue
		}
		w.res.add(Dev, "`"+chain+"`: the e command runs `"+e+"`")
		w.nested(e, input{})
	}
	for _, f := range sc.reads {
		p, ok := w.abs(f)
		w.readFile(p, ok, "`"+chain+" r "+f+"`")
	}
	for _, f := range sc.writes {
		w.writeTo(f, chain+" w", f)
	}
}
