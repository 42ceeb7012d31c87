package shell

import (
	"fmt"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/pattern"
)

// histRules are bash's HISTCONTROL and HISTIGNORE: the lines history does
// not keep. The same rules, bar those about duplicates, keep a line out of
// the session record that questions send the assistant: a private line,
// such as one typed with a leading blank.
type histRules struct {
	ignoreSpace bool // ignorespace: a line starting with a blank
	ignoreDups  bool // ignoredups: a line equal to the previous entry
	eraseDups   bool // erasedups: earlier copies of the line go
	ignore      []histPattern
}

// histPattern is one pattern of HISTIGNORE.
type histPattern struct {
	src string
	rx  *regexp.Regexp // nil when the pattern holds & and is made per line
}

// patternMode is how HISTIGNORE patterns match, as in bash: the whole line,
// extended patterns allowed (bash follows extglob; qsh always allows them).
const patternMode = pattern.EntireString | pattern.ExtendedOperators | pattern.NoGlobStar

// newHistRules reads HISTCONTROL and HISTIGNORE. Unlike bash, where an
// unset HISTCONTROL keeps every line, qsh then ignores blanks and
// duplicates (ignoreboth), so that a leading blank keeps a line private
// unless the user asks otherwise; an empty HISTCONTROL keeps every line.
func newHistRules(control string, controlSet bool, ignore string) histRules {
	var r histRules
	if !controlSet {
		control = "ignoreboth"
	}
	for _, v := range strings.Split(control, ":") {
		switch v {
		case "ignorespace":
			r.ignoreSpace = true
		case "ignoredups":
			r.ignoreDups = true
		case "ignoreboth":
			r.ignoreSpace, r.ignoreDups = true, true
		case "erasedups":
			r.eraseDups = true
		}
	}
	for _, p := range strings.Split(ignore, ":") {
		if p == "" {
			continue
		}
		hp := histPattern{src: p}
		if !hasAmp(p) {
			rx, err := compilePattern(p)
			if err != nil {
				continue // bash: a bad pattern matches nothing
			}
			hp.rx = rx
		}
		r.ignore = append(r.ignore, hp)
	}
	return r
}

// hasAmp reports whether p has an & not escaped by a backslash.
func hasAmp(p string) bool {
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '&':
			return true
		}
	}
	return false
}

func compilePattern(p string) (*regexp.Regexp, error) {
	expr, err := pattern.Regexp(p, patternMode)
	if err != nil {
		return nil, err
	}
	return regexp.Compile(expr)
}

// withPrevious puts the previous history entry, quoted, for each & of p
// that no backslash escapes; with no previous entry, & stands for itself.
func withPrevious(p, prev string, hasPrev bool) string {
	rep := `\&`
	if hasPrev {
		rep = pattern.QuoteMeta(prev, patternMode)
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			b.WriteByte('\\')
			if i+1 < len(p) {
				i++
				b.WriteByte(p[i])
			}
		case '&':
			b.WriteString(rep)
		default:
			b.WriteByte(p[i])
		}
	}
	return b.String()
}

// keep reports whether history keeps entry, given the previous entry
// (hasPrev false when there is none). Like bash, it looks at the first
// line of a command of several lines, and its verdict holds for all.
func (r histRules) keep(entry, prev string, hasPrev bool) bool {
	if r.ignoreDups && hasPrev && entry == prev {
		return false
	}
	line, _, _ := strings.Cut(entry, "\n")
	if r.ignoreSpace && startsBlank(line) {
		return false
	}
	for _, p := range r.ignore {
		rx := p.rx
		if rx == nil {
			var err error
			if rx, err = compilePattern(withPrevious(p.src, prev, hasPrev)); err != nil {
				continue
			}
		}
		if rx.MatchString(line) {
			return false
		}
	}
	return true
}

// private reports whether entry stays out of the session record: it
// starts with a blank under ignorespace, or matches a HISTIGNORE pattern
// that is not about the previous entry (&): those are about duplicates,
// and a command run twice is no secret.
func (r histRules) private(entry string) bool {
	line, _, _ := strings.Cut(entry, "\n")
	if r.ignoreSpace && startsBlank(line) {
		return true
	}
	for _, p := range r.ignore {
		if p.rx != nil && p.rx.MatchString(line) {
			return true
		}
	}
	return false
}

func startsBlank(line string) bool {
	return line != "" && (line[0] == ' ' || line[0] == '\t')
}

// histRules is the rules as the session's variables now say, made again
// only when HISTCONTROL or HISTIGNORE changed.
func (s *Shell) histRules() histRules {
	control, set := s.lookupVar("HISTCONTROL")
	ignore, _ := s.lookupVar("HISTIGNORE")
	c := &s.rules
	if !c.made || c.control != control || c.set != set || c.ignore != ignore {
		*c = rulesCache{made: true, control: control, set: set, ignore: ignore,
			rules: newHistRules(control, set, ignore)}
	}
	return c.rules
}

// rulesCache keeps the rules made from the variables' last values.
type rulesCache struct {
	made            bool
	control, ignore string
	set             bool
	rules           histRules
}

// recorded is a command line of the session record; a private one is
// kept, so that the outputs the capture proxy keeps still line up, but
// never handed on.
type recorded struct {
	Command
	private bool
}

// public is the record without its private lines, with outputs[i] (when
// given) as the output of rec[i].
func public(rec []recorded, outputs []string) []Command {
	out := make([]Command, 0, len(rec))
	for i, r := range rec {
		if r.private {
			continue
		}
		c := r.Command
		if outputs != nil {
			c.Output = outputs[i]
		}
		out = append(out, c)
	}
	return out
}

// lookupVar is the value of a shell variable and whether it is set.
func (s *Shell) lookupVar(name string) (string, bool) { return s.r.Get(name) }

// settleHistory drops from the history file the copies erasedups removed
// from the session's list, when the REPL ends.
func (s *Shell) settleHistory() {
	s.hist.wait()
	if err := s.hist.settle(); err != nil {
		s.errorf("history not saved: %v", err)
	}
}

// switchVar is an on/off setting as the session's variable now says
// (set at the prompt or in ~/.qshrc, exported or not), else as the
// environment said at start; a value that is neither gets one line.
// strictSwitch is [Shell.switchVar] for a safety setting: a value that is
// neither on nor off may have meant the stricter one, so ok is false, and
// the line that says why the question is refused is printed.
func (s *Shell) strictSwitch(name string, start Switch) (on, ok bool) {
	v, set := s.lookupVar(name)
	if !set {
		return bool(start), true
	}
	var sw Switch
	if err := sw.UnmarshalText([]byte(v)); err != nil {
		fmt.Fprintf(s.stderr, "qsh: ?: %s=%q: expected on or off; the assistant will not start until it is fixed (a mistyped safety setting must not make it looser)\n", name, v)
		return false, false
	}
	return bool(sw), true
}

func (s *Shell) switchVar(name string, start Switch) bool {
	v, set := s.lookupVar(name)
	if !set {
		return bool(start)
	}
	var sw Switch
	if err := sw.UnmarshalText([]byte(v)); err != nil {
		s.errorf("%s=%q: expected on or off; using %s", name, v, start)
		return bool(start)
	}
	return bool(sw)
}
