package shell

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/interp"
)

// bindBuiltin is bash's `bind`: it binds keys to readline functions,
// macros and shell commands (-x) in the session's [keymap], and lists
// them. What qsh's editor cannot do is said in one line and skipped,
// never fatal: vi keymaps are accepted and unused (qsh edits as emacs),
// readline variables (`set …`) are accepted.
func (s *Shell) bindBuiltin(hc interp.HandlerContext, b builtinIO, args []string) int {
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
	prefix, used, err := keymapPrefix(keymapName)
	if err != nil {
		return b.fail(1, "%v", err)
	}
	switch list {
	case 'l':
		for _, f := range rlFuncs {
			fmt.Fprintln(b.out, f.name)
		}
	case 'p', 'P':
		s.listFuncs(b.out, list == 'P')
	case 's', 'S':
		s.listBound(b.out, list == 'S', func(k binding) string { return k.macro })
	case 'X':
		s.listBound(b.out, false, func(k binding) string { return k.cmd })
	}
	for _, fn := range query {
		keys := s.keysOf(fn)
		if _, ok := findFunc(fn); !ok {
			st = b.fail(1, "`%s': unknown function name", fn)
		} else if len(keys) == 0 {
			fmt.Fprintf(b.out, "%s is not bound to any keys.\n", fn)
			st = 1
		} else {
			fmt.Fprintf(b.out, "%s can be invoked via %s.\n", fn, strings.Join(keys, ", "))
		}
	}
	for _, fn := range unbindFn {
		for _, k := range s.keys.bindings() {
			if k.fn == fn && used {
				s.keys.set(binding{seq: k.seq})
			}
		}
	}
	for _, r := range rm {
		seq, err := parseKeyseq(r)
		if err != nil {
			st = b.fail(1, "%v", err)
			continue
		}
		if used {
			s.keys.set(binding{seq: prefix + seq})
		}
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			st = b.fail(1, "%s: cannot read: %v", name, errText(errors.Unwrap(err)))
			continue
		}
		for line := range strings.Lines(string(data)) {
			line = strings.TrimSpace(line)
			if line == "" || line[0] == '#' || line[0] == '$' { // $if, $include…: not followed
				continue
			}
			if s.bindLine(b, line, prefix, used, false) != 0 {
				st = 1
			}
		}
	}
	for _, a := range args {
		if s.bindLine(b, a, prefix, used, exec) != 0 {
			st = 1
		}
	}
	return st
}

// keymapPrefix is what bind -m names: the bytes its sequences start with
// in qsh's one keymap, and whether qsh uses it (vi keymaps are not).
func keymapPrefix(name string) (prefix string, used bool, err error) {
	switch name {
	case "", "emacs", "emacs-standard":
		return "", true, nil
	case "emacs-meta":
		return "\x1b", true, nil
	case "emacs-ctlx":
		return "\x18", true, nil
	case "vi", "vi-move", "vi-command", "vi-insert":
		return "", false, nil
	}
	return "", false, fmt.Errorf("`%s': invalid keymap name", name)
}

// bindLine makes the binding of one inputrc line: `"keyseq": function`,
// `"keyseq": "macro"`, `Control-x: function`, or with exec,
// `"keyseq": shell-command`. `set NAME VALUE` is accepted.
func (s *Shell) bindLine(b builtinIO, line, prefix string, used, exec bool) int {
	line = strings.TrimLeft(line, " \t")
	if name, _, ok := strings.Cut(line, " "); ok && name == "set" {
		return 0 // a readline variable: qsh's editor has its own settings
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
	if !used {
		return 0 // a vi keymap's: qsh has none
	}
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
		f, ok := findFunc(fn)
		if !ok {
			return b.fail(1, "%s: unknown function name (qsh's are listed by bind -l)", fn)
		}
		k.fn = f.name
	}
	if !s.keys.set(k) {
		return b.fail(1, "too many key bindings")
	}
	return 0
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

// effective is every key the editor has, the session's bindings over
// its own keys, sorted by sequence.
func (s *Shell) effective() []binding {
	var out []binding
	bound := s.keys.bindings()
	for _, k := range emacsKeys {
		if !slices.ContainsFunc(bound, func(b binding) bool { return b.seq == k.seq }) {
			out = append(out, binding{seq: k.seq, fn: k.fn})
		}
	}
	out = append(out, bound...)
	slices.SortFunc(out, func(a, b binding) int { return strings.Compare(a.seq, b.seq) })
	return out
}

// keysOf is the keys bound to function fn, as bind writes them.
func (s *Shell) keysOf(fn string) []string {
	var keys []string
	for _, k := range s.effective() {
		if k.fn == fn {
			keys = append(keys, `"`+keyseqString(k.seq)+`"`)
		}
	}
	return keys
}

// listFuncs is bind -p, or -P when readable.
func (s *Shell) listFuncs(w io.Writer, readable bool) {
	for _, f := range rlFuncs {
		keys := s.keysOf(f.name)
		switch {
		case readable && len(keys) == 0:
			fmt.Fprintf(w, "%s is not bound to any keys\n", f.name)
		case readable:
			fmt.Fprintf(w, "%s can be found on %s.\n", f.name, strings.Join(keys, ", "))
		case len(keys) == 0:
			fmt.Fprintf(w, "# %s (not bound)\n", f.name)
		default:
			for _, k := range keys {
				fmt.Fprintf(w, "%s: %s\n", k, f.name)
			}
		}
	}
}

// listBound is bind -s, -S and -X: the macros or commands what gives.
func (s *Shell) listBound(w io.Writer, readable bool, what func(binding) string) {
	for _, k := range s.effective() {
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
