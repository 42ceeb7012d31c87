package shell

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/qsh-shell/qsh/shell/eval"
)

// bindBuiltin is bash's `bind`: it binds keys to readline functions,
// macros and shell commands (-x) in the session's [keymap], and lists
// them. What qsh's editor cannot do is said in one line and skipped,
// never fatal: vi keymaps are kept and unused, as are readline variables
// (`set …`) but editing-mode, which is set -o vi or emacs.
func (s *Shell) bindBuiltin(r *eval.Runner, b builtinIO, args []string) int {
	var (
		keymapName          string
		exec                bool
		list                byte // one of l p P s S v V X
		query, unbindFn, rm []string
		files               []string
	)
	st := 0
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) > 1 {
		a := args[0]
		args = args[1:]
		if a == "--" {
			break
		}
		for i := 1; i < len(a); i++ {
			switch c := a[i]; c {
			case 'm', 'q', 'u', 'r', 'f', 'x':
				val := a[i+1:]
				if val == "" {
					if len(args) == 0 {
						return b.fail(2, "-%c: option requires an argument", c)
					}
					val, args = args[0], args[1:]
				}
				switch c {
				case 'm':
					keymapName = val
				case 'q':
					query = append(query, val)
				case 'u':
					unbindFn = append(unbindFn, val)
				case 'r':
					rm = append(rm, val)
				case 'f':
					files = append(files, val)
				case 'x':
					exec = true
					args = append([]string{val}, args...)
				}
				i = len(a)
			case 'l', 'p', 'P', 's', 'S', 'v', 'V', 'X':
				list = c
			default:
				return b.fail(2, "-%c: invalid option\nbind: usage: bind [-lpsvPSVX] [-m keymap] [-f filename] [-q name] [-u name] [-r keyseq] [-x keyseq:shell-command] [keyseq:readline-function or readline-command]", c)
			}
		}
	}
	m, prefix, defaults, err := s.keymapOf(keymapName)
	if err != nil {
		return b.fail(1, "%v", err)
	}
	switch list {
	case 'l':
		for _, name := range bashFuncs {
			fmt.Fprintln(b.out, name)
		}
	case 'p', 'P':
		listFuncs(b.out, effective(m, defaults), list == 'P')
	case 's', 'S':
		listBound(b.out, effective(m, defaults), list == 'S', func(k binding) string { return k.macro })
	case 'X':
		listBound(b.out, effective(m, defaults), false, func(k binding) string { return k.cmd })
	case 'v', 'V':
		vi, _ := r.Opt("vi")
		term, _ := r.Get("TERM")
		s.listRlVars(b.out, list == 'V', vi, term == "" || term == "dumb")
	}
	for _, fn := range query {
		keys := keysOf(effective(m, defaults), fn)
		if !isBashFunc(fn) {
			st = b.fail(1, "`%s': unknown function name", fn)
		} else if len(keys) == 0 {
			fmt.Fprintf(b.out, "%s is not bound to any keys.\n", fn)
			st = 1
		} else {
			fmt.Fprintf(b.out, "%s can be invoked via %s.\n", fn, strings.Join(keys, ", "))
		}
	}
	for _, fn := range unbindFn {
		for _, k := range m.bindings() {
			if k.fn == fn {
				m.set(binding{seq: k.seq})
			}
		}
	}
	for _, r := range rm {
		seq, err := parseKeyseq(r)
		if err != nil {
			st = b.fail(1, "%v", err)
			continue
		}
		m.set(binding{seq: prefix + seq})
	}
	for _, name := range files {
		if !s.bindFile(b, name, m, prefix, defaults, 0) {
			st = 1
		}
	}
	for _, a := range args {
		if s.bindLine(b, m, a, prefix, defaults, exec) != 0 {
			st = 1
		}
	}
	if mode, ok := s.rlVars["editing-mode"]; ok {
		delete(s.rlVars, "editing-mode") // the option holds it
		if mode == "vi" || mode == "emacs" {
			r.SetOpt(mode, true)
		}
	}
	return st
}

// bindFile is bind -f: the lines of readline's init file at path, with
// its conditionals ($if, $else, $endif: the editing mode, the terminal,
// readline's version, a variable's value, the program — qsh answers to
// Bash as well as to its own name) and $include; `set keymap` chooses
// the keymap of the bindings after it, to the end of the file.
func (s *Shell) bindFile(b builtinIO, path string, m *keymap, prefix string, defaults bool, depth int) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		b.fail(1, "%s: cannot read: %v", path, errText(errors.Unwrap(err)))
		return false
	}
	ok := true
	defer func(was, system bool) { s.viSection, s.systemInit = was, system }(s.viSection, s.systemInit)
	s.viSection = false
	s.systemInit = strings.HasPrefix(path, "/etc/")
	// skip is one entry per $if open: 0 reading, 1 skipping this branch,
	// 2 skipping to $endif (a branch was read, or an outer $if skips).
	var skip []int
	skipping := func() bool { return len(skip) > 0 && skip[len(skip)-1] != 0 }
	n := 0
	for line := range strings.Lines(string(data)) {
		n++
		// Messages say where, as readline's do; errorf would say bind's
		// caller's line instead.
		b := b
		b.where, b.name, b.errorf = "qsh: ", fmt.Sprintf("%s: line %d", path, n), nil
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		if line[0] == '$' {
			word, arg, _ := strings.Cut(line[1:], " ")
			arg = strings.TrimSpace(arg)
			switch word {
			case "if":
				switch {
				case skipping():
					skip = append(skip, 2)
				case s.inputrcTest(arg):
					skip = append(skip, 0)
				default:
					skip = append(skip, 1)
				}
			case "else":
				// The branch skipped starts being read; one read, or
				// an outer skip, skips on to $endif.
				if n := len(skip); n > 0 {
					if skip[n-1] == 1 {
						skip[n-1] = 0
					} else {
						skip[n-1] = 2
					}
				}
			case "endif":
				if n := len(skip); n > 0 {
					skip = skip[:n-1]
				}
			case "include":
				if skipping() {
					continue
				}
				if strings.HasPrefix(arg, "~/") {
					arg = filepath.Join(s.Var("HOME"), arg[2:])
				}
				if depth >= 8 || !s.bindFile(b, arg, m, prefix, defaults, depth+1) {
					ok = false
				}
			default:
				b.fail(0, "%s: unknown parser directive", line)
			}
			continue
		}
		if skipping() {
			continue
		}
		if name, rest, found := strings.Cut(line, " "); found && name == "set" {
			if v, value, _ := strings.Cut(strings.TrimSpace(rest), " "); v == "keymap" {
				km, p, d, err := s.keymapOf(strings.TrimSpace(value))
				if err != nil {
					b.fail(1, "%v", err)
					ok = false
					continue
				}
				m, prefix, defaults = km, p, d
				s.viSection = !d
			}
		}
		if s.bindLine(b, m, line, prefix, defaults, false) != 0 {
			ok = false
		}
	}
	return ok
}

// inputrcTest is a $if's condition: mode=emacs or vi, term=NAME (the
// whole of $TERM, or its part before a -), version OP N (readline 8.2's,
// bash 5.2's), VARIABLE == VALUE (or !=), or a program's name.
func (s *Shell) inputrcTest(cond string) bool {
	if mode, ok := strings.CutPrefix(cond, "mode="); ok {
		current := "emacs"
		if s.optNow("vi") || s.rlVars["editing-mode"] == "vi" {
			current = "vi"
		}
		return mode == current
	}
	if name, ok := strings.CutPrefix(cond, "term="); ok {
		term := s.Var("TERM")
		short, _, _ := strings.Cut(term, "-")
		return name == term || name == short
	}
	fields := strings.Fields(cond)
	if len(fields) == 3 && fields[0] == "version" {
		want, err := strconv.ParseFloat(fields[2], 64)
		if err != nil {
			return false
		}
		const have = 8.2
		switch fields[1] {
		case "==", "=":
			return have == want
		case "!=":
			return have != want
		case ">=":
			return have >= want
		case "<=":
			return have <= want
		case ">":
			return have > want
		case "<":
			return have < want
		}
		return false
	}
	if len(fields) == 3 && (fields[1] == "==" || fields[1] == "=" || fields[1] == "!=") && s.rlVarDefault(fields[0]) != "" {
		v := s.rlVar(fields[0])
		want := fields[2]
		if d := s.rlVarDefault(fields[0]); d == "on" || d == "off" {
			want = map[bool]string{true: "on", false: "off"}[isOn(want)]
		}
		return (strings.EqualFold(v, want)) == (fields[1] != "!=")
	}
	return strings.EqualFold(cond, "bash") || strings.EqualFold(cond, "qsh")
}

// keymapOf is the keymap bind -m names and the bytes its sequences
// start with there; defaults is set for qsh's own, whose keys the
// editor has. vi keymaps are kept for bind to list, and not used: vi
// mode has its keys fixed (see vi.go).
func (s *Shell) keymapOf(name string) (m *keymap, prefix string, defaults bool, err error) {
	switch name {
	case "", "emacs", "emacs-standard":
		return &s.keys, "", true, nil
	case "emacs-meta":
		return &s.keys, "\x1b", true, nil
	case "emacs-ctlx":
		return &s.keys, "\x18", true, nil
	case "vi", "vi-move", "vi-command", "vi-insert":
		if name != "vi-insert" {
			name = "vi-command"
		}
		if s.viKeys == nil {
			s.viKeys = map[string]*keymap{}
		}
		if s.viKeys[name] == nil {
			s.viKeys[name] = new(keymap)
		}
		return s.viKeys[name], "", false, nil
	}
	return nil, "", false, fmt.Errorf("`%s': invalid keymap name", name)
}

// rlVarRefusal is why qsh's line editor cannot do what readline variable
// name set to value asks, or "" when it does it. Those it does not follow
// are refused only for the values that ask for something: set to what
// qsh's editor does anyway (most often readline's default), they change
// nothing.
func rlVarRefusal(name, value string) string {
	on := isOn(value)
	switch name {
	case "blink-matching-paren":
		if on {
			return "it does not show the matching parenthesis"
		}
	case "byte-oriented":
		if on {
			return "it edits characters, not bytes"
		}
	case "convert-meta":
		if on {
			return "it reads 8-bit characters as text, not as Meta keys"
		}
	case "input-meta", "meta-flag", "output-meta":
		if !on {
			return "it reads and shows 8-bit characters as they are"
		}
	case "enable-meta-key":
		if !on {
			return "it leaves the terminal's meta key as it is"
		}
	case "echo-control-characters":
		if !on {
			return "the terminal echoes control characters as it is set to (stty -echoctl)"
		}
	case "enable-active-region":
		if on {
			return "it does not highlight the region"
		}
	case "enable-keypad":
		if on {
			return "it leaves the keypad in the mode the terminal has"
		}
	case "expand-tilde":
		if on {
			return "completion keeps ~ as typed"
		}
	case "history-preserve-point":
		if on {
			return "recalled lines put the cursor at their end"
		}
	case "history-size":
		return "qsh's history keeps HISTSIZE entries: set HISTSIZE"
	case "horizontal-scroll-mode":
		if on {
			return "long lines wrap"
		}
	case "keyseq-timeout":
		if value != "500" {
			return "its wait for the rest of a key sequence is fixed"
		}
	case "mark-modified-lines":
		if on {
			return "it does not mark recalled lines that were edited"
		}
	case "revert-all-at-newline":
		if on {
			return "edited history lines stay as edited"
		}
	case "show-mode-in-prompt":
		if on {
			return "the prompt does not show the editing mode"
		}
	case "bind-tty-special-chars":
		if !on {
			return "the terminal's erase and kill characters stay bound"
		}
	}
	return ""
}

// isOn is a boolean readline variable's value as readline reads it: on,
// 1 or nothing.
func isOn(value string) bool {
	return value == "" || strings.EqualFold(value, "on") || value == "1"
}

// setRlVar is `set NAME VALUE`: kept for bind -v and for the line
// editor, which follows most of them; what it cannot do is said once.
func (s *Shell) setRlVar(b builtinIO, name, value string) int {
	def := s.rlVarDefault(name)
	if def == "" && name != "isearch-terminators" {
		return b.fail(0, "%s: unknown variable name", name)
	}
	switch {
	case def == "on" || def == "off":
		if isOn(value) {
			value = "on"
		} else {
			value = "off"
		}
	case name == "bell-style":
		switch v := strings.ToLower(value); v {
		case "none", "visible", "audible":
			value = v
		case "off":
			value = "none"
		case "on":
			value = "audible"
		default:
			return b.fail(0, "%s: could not set value to `%s'", name, value)
		}
	}
	if s.rlVars == nil {
		s.rlVars = map[string]string{}
	}
	if name == "prefer-visible-bell" {
		// readline's old name: bell-style visible, or audible.
		s.rlVars["bell-style"] = map[bool]string{true: "visible", false: "audible"}[value == "on"]
	}
	s.rlVars[name] = value
	if why := rlVarRefusal(name, value); why != "" && !s.saidRlVar[name] {
		if s.saidRlVar == nil {
			s.saidRlVar = map[string]bool{}
		}
		s.saidRlVar[name] = true
		return b.fail(0, "%s %s: qsh's line editor cannot do this: %s (kept for bind -v)", name, value, why)
	}
	return 0
}

// rlVarDefault is bash's default for readline variable name, "" for a
// name readline does not have.
func (s *Shell) rlVarDefault(name string) string {
	i, ok := slices.BinarySearchFunc(rlVars, name, func(v [2]string, name string) int { return strings.Compare(v[0], name) })
	if !ok {
		return ""
	}
	return rlVars[i][1]
}

// bindLine makes the binding of one inputrc line: `"keyseq": function`,
// `"keyseq": "macro"`, `Control-x: function`, or with exec,
// `"keyseq": shell-command`. `set NAME VALUE` is accepted.
func (s *Shell) bindLine(b builtinIO, m *keymap, line, prefix string, used, exec bool) int {
	line = strings.TrimLeft(line, " \t")
	if name, rest, ok := strings.Cut(line, " "); ok && name == "set" {
		name, value, _ := strings.Cut(strings.TrimSpace(rest), " ")
		return s.setRlVar(b, name, strings.TrimSpace(value))
	}
	var key, rest string
	if strings.HasPrefix(line, `"`) {
		end := closingQuote(line, 1, '"')
		if end < 0 {
			return b.fail(1, "%s: no closing `\"' in key binding", line)
		}
		key, rest = line[1:end], line[end+1:]
		seq, err := parseKeyseq(key)
		if err != nil {
			return b.fail(1, "%v", err)
		}
		key = seq
	} else {
		name, after, ok := strings.Cut(line, ":")
		if !ok {
			return b.fail(1, "%s: missing colon separator", line)
		}
		seq, err := parseKeyname(strings.TrimSpace(name))
		if err != nil {
			return b.fail(1, "%v", err)
		}
		key, rest = seq, ":"+after
	}
	rest = strings.TrimLeft(rest, " \t")
	if !strings.HasPrefix(rest, ":") {
		return b.fail(1, "%s: missing colon separator", line)
	}
	rest = strings.TrimSpace(rest[1:])
	k := binding{seq: prefix + key}
	switch {
	case exec:
		if len(rest) >= 2 && (rest[0] == '"' || rest[0] == '\'') && rest[len(rest)-1] == rest[0] {
			rest = rest[1 : len(rest)-1]
		}
		if rest == "" {
			return b.fail(1, "%s: no command to bind", line)
		}
		k.cmd = rest
	case strings.HasPrefix(rest, `"`) || strings.HasPrefix(rest, "'"):
		end := closingQuote(rest, 1, rest[0])
		if end < 0 {
			end = len(rest)
		}
		macro, err := parseKeyseq(rest[1:end])
		if err != nil {
			return b.fail(1, "%v", err)
		}
		k.macro = macro
	default:
		fn, _, _ := strings.Cut(rest, " ")
		if fn == "magic-space" { // history expansion, which qsh does not do, then a space
			fn = "self-insert"
		}
		if _, ok := findFunc(fn); !ok {
			if !isBashFunc(fn) {
				return b.fail(1, "%s: unknown function name (bind -l lists them)", fn)
			}
			if used {
				if !s.systemInit {
					b.fail(0, "%s: qsh's line editor does not do it; \"%s\" is left as it was", fn, keyseqString(k.seq))
				}
				return 0
			}
		}
		k.fn = fn
	}
	if !used && !s.saidRlVar["vi keymaps"] && (s.viSection || s.optNow("vi") || s.rlVars["editing-mode"] == "vi") {
		// A vi keymap's binding, where the user meant it for qsh: kept
		// for bind -p, and said once. (Scripts such as fzf's bind keys in
		// every keymap: in emacs mode bash does not use the vi ones
		// either.)
		if s.saidRlVar == nil {
			s.saidRlVar = map[string]bool{}
		}
		s.saidRlVar["vi keymaps"] = true
		b.fail(0, "\"%s\": qsh's vi mode has its keys fixed and does not read the vi keymaps (kept for bind -p)", keyseqString(k.seq))
	}
	if !m.set(k) {
		return b.fail(1, "too many key bindings")
	}
	return 0
}

func isBashFunc(name string) bool {
	_, ok := slices.BinarySearch(bashFuncs, name)
	return ok
}

// rlVar is the value of readline variable name: bind's, else bash's
// default.
func (s *Shell) rlVar(name string) string {
	if v, ok := s.rlVars[name]; ok {
		return v
	}
	return s.rlVarDefault(name)
}

// listRlVars is bind -v, or -V when readable: the readline variables, as
// bash has them unless `bind 'set …'` changed one. On a dumb terminal
// readline turns off what needs escape sequences, bracketed paste and the
// active region.
func (s *Shell) listRlVars(w io.Writer, readable, vi, dumb bool) {
	// readline lists its on/off variables first, then the others; a
	// boolean's default is on or off, no other variable's is.
	for _, bools := range []bool{true, false} {
		for _, v := range rlVars {
			if (v[1] == "on" || v[1] == "off") != bools {
				continue
			}
			value := v[1]
			if set, ok := s.rlVars[v[0]]; ok {
				value = set
			}
			if v[0] == "editing-mode" && vi {
				value = "vi"
			}
			if _, set := s.rlVars[v[0]]; !set && dumb &&
				(v[0] == "enable-bracketed-paste" || v[0] == "enable-active-region") {
				value = "off"
			}
			if readable {
				fmt.Fprintf(w, "%s is set to `%s'\n", v[0], value)
			} else {
				fmt.Fprintf(w, "set %s %s\n", v[0], value)
			}
		}
	}
}

// closingQuote is the index of the quote q that closes a string
// starting before from, backslash escapes skipped; -1 if none.
func closingQuote(s string, from int, q byte) int {
	for i := from; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case q:
			return i
		}
	}
	return -1
}

// effective is every key of keymap m, its bindings over the editor's own
// keys when defaults, sorted by sequence.
func effective(m *keymap, defaults bool) []binding {
	var out []binding
	bound := m.bindings()
	if defaults {
		for _, k := range emacsKeys {
			if !slices.ContainsFunc(bound, func(b binding) bool { return b.seq == k.seq }) {
				out = append(out, binding{seq: k.seq, fn: k.fn})
			}
		}
	}
	out = append(out, bound...)
	slices.SortFunc(out, func(a, b binding) int { return strings.Compare(a.seq, b.seq) })
	return out
}

// keysOf is the keys of keys bound to function fn, as bind writes them.
func keysOf(keys []binding, fn string) []string {
	var out []string
	for _, k := range keys {
		if k.fn == fn {
			out = append(out, `"`+keyseqString(k.seq)+`"`)
		}
	}
	return out
}

// listFuncs is bind -p, or -P when readable.
func listFuncs(w io.Writer, keys []binding, readable bool) {
	for _, fn := range bashFuncs {
		bound := keysOf(keys, fn)
		switch {
		case readable && len(bound) == 0:
			fmt.Fprintf(w, "%s is not bound to any keys\n", fn)
		case readable:
			fmt.Fprintf(w, "%s can be found on %s.\n", fn, strings.Join(bound, ", "))
		case len(bound) == 0:
			fmt.Fprintf(w, "# %s (not bound)\n", fn)
		default:
			for _, k := range bound {
				fmt.Fprintf(w, "%s: %s\n", k, fn)
			}
		}
	}
}

// listBound is bind -s, -S and -X: the macros or commands what gives.
func listBound(w io.Writer, keys []binding, readable bool, what func(binding) string) {
	for _, k := range keys {
		v := what(k)
		if v == "" {
			continue
		}
		if readable {
			fmt.Fprintf(w, "%s outputs %s\n", keyseqString(k.seq), keyseqString(v))
			continue
		}
		if k.cmd != "" {
			fmt.Fprintf(w, "\"%s\": \"%s\"\n", keyseqString(k.seq), strings.ReplaceAll(v, `"`, `\"`))
			continue
		}
		fmt.Fprintf(w, "\"%s\": \"%s\"\n", keyseqString(k.seq), keyseqString(v))
	}
}
