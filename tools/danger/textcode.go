package danger

import "strings"

// Checks for text tools whose scripts can run commands or write files.

func (w *walker) sed(chain string, args []arg, io ioInfo) {
	inPlace := false
	script := ""
	var files []arg
	haveScript := false
	for i := 1; i < len(args); i++ {
		a := args[i].s
		switch {
		case a == "-i" || a == "--in-place" || strings.HasPrefix(a, "--in-place=") || strings.HasPrefix(a, "-i") && !strings.HasPrefix(a, "--"):
			inPlace = true
		case a == "-e" || a == "--expression":
			if i+1 < len(args) {
				script += "\n" + args[i+1].s
				haveScript = true
				i++
			}
		case a == "-f" || a == "--file":
			haveScript = true
			i++
			script += "\ne"
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && len(a) > 1 && letters(a[1:]):
			if strings.Contains(a, "i") {
				inPlace = true
			}
			if strings.HasSuffix(a, "e") && i+1 < len(args) {
				script += "\n" + args[i+1].s
				haveScript = true
				i++
			}
		case strings.HasPrefix(a, "-") && a != "-":
		case !haveScript:
			script = a
			haveScript = true
		default:
			files = append(files, args[i])
		}
	}
	for _, line := range strings.FieldsFunc(script, func(r rune) bool { return r == '\n' || r == ';' }) {
		l := strings.TrimLeft(strings.TrimSpace(line), "0123456789,$/!^.*[]\\ ")
		if f, ok := strings.CutPrefix(l, "r "); ok {
			p, ok := w.abs(strings.TrimSpace(f))
			w.readFile(p, ok, "`sed r "+f+"`")
		}
	}
	if sedRuns(script) {
		w.res.add(Dangerous, "`"+chain+"`: the script can run commands or write files")
		for _, line := range strings.FieldsFunc(script, func(r rune) bool { return r == '\n' || r == ';' }) {
			l := strings.TrimLeft(strings.TrimSpace(line), "0123456789,$/!^.*[]\\ ")
			if cmd, ok := strings.CutPrefix(l, "e "); ok {
				w.literal1(cmd)
			}
		}
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

// sedRuns reports whether a sed script uses e (execute) or w (write).
func sedRuns(script string) bool {
	if hasHole(script) {
		return true
	}
	for _, line := range strings.FieldsFunc(script, func(r rune) bool { return r == '\n' || r == ';' }) {
		l := strings.TrimSpace(line)
		l = strings.TrimLeft(l, "0123456789,$/!^.*[]\\ ")
		if l == "" {
			continue
		}
		switch l[0] {
		case 'e', 'w', 'W', 'r', 'R':
			if len(l) == 1 || l[1] == ' ' || l[0] == 'e' {
				return l[0] == 'e' || l[0] == 'w' || l[0] == 'W'
			}
		case 's', 'y':
			if len(l) > 1 {
				sep := l[1]
				parts := strings.Split(l[2:], string(sep))
				if len(parts) >= 3 {
					flags := parts[len(parts)-1]
					if strings.ContainsAny(flags, "ew") {
						return true
					}
				}
			}
		}
	}
	return false
}

func (w *walker) awk(chain string, args []arg, io ioInfo) {
	r := &rule{vals: "-F -v -f --field-separator --assign --file"}
	ops := scan(r, args)
	for i, a := range args {
		if (a.s == "-f" || a.s == "--file") && i+1 < len(args) {
			w.res.add(Dev, "`awk -f`: runs a program from a file")
			return
		}
	}
	if len(ops) == 0 {
		return
	}
	prog := args[ops[0]].s
	w.inline("awk", prog)
}
