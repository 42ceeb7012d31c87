package eval

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/qsh-shell/qsh/shell/pattern"
)

func cmdBuiltins() []*Builtin {
	return append([]*Builtin{
		{Name: "command", Usage: "command [-pVv] command [arg ...]", Guarded: true, Run: builtinCommand},
		{Name: "builtin", Usage: "builtin [shell-builtin [arg ...]]", Guarded: true, Run: builtinBuiltin},
		{Name: "type", Usage: "type [-afptP] name [name ...]", Guarded: true, Run: builtinType},
		{Name: "hash", Usage: "hash [-lr] [-p pathname] [-dt] [name ...]", Guarded: true, Run: builtinHash},
		{Name: "enable", Usage: "enable [-a] [-dnps] [-f filename] [name ...]", Guarded: true, Run: builtinEnable},
		{Name: "help", Usage: "help [-dms] [pattern ...]", Guarded: true, Run: builtinHelp},
		{Name: "caller", Usage: "caller [expr]", Guarded: true, Run: builtinCaller},
	}, aliasBuiltins()...)
}

// builtinCommand runs a command bypassing functions, or describes it (-v,
// -V).
func builtinCommand(b *B) int {
	r := b.R
	f, args, ok := b.flags("pVv", false)
	if !ok {
		return 2
	}
	if len(args) == 0 {
		return 0
	}
	if f.has('v') || f.has('V') {
		status := 0
		for _, name := range args {
			if !r.describe(b, name, describeOpts{short: f.has('v'), verbose: f.has('V'), noFuncs: false}) {
				if f.has('V') {
					b.Errorf("%s: not found", name)
				}
				status = 1
			}
		}
		return status
	}
	name := args[0]
	if bi := r.Builtin(name); bi != nil && !strings.Contains(name, "/") {
		r.runBuiltin(bi, args)
		return r.status
	}
	var env []string
	if f.has('p') {
		saved, had := r.Get("PATH")
		r.assign("PATH", "/usr/bin:/bin:/usr/sbin:/sbin", false)
		defer func() {
			if had {
				r.assign("PATH", saved, false)
			}
		}()
	}
	r.execProgram(args, env)
	return r.status
}

func builtinBuiltin(b *B) int {
	if len(b.Args) < 2 {
		return 0
	}
	name := b.Args[1]
	bi := b.R.Builtin(name)
	if bi == nil {
		b.Errorf("%s: not a shell builtin", name)
		return 1
	}
	b.R.runBuiltin(bi, b.Args[1:])
	return b.R.status
}

var keywords = []string{"if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until",
	"do", "done", "in", "function", "time", "{", "}", "!", "[[", "]]", "coproc"}

func isKeyword(s string) bool {
	for _, k := range keywords {
		if k == s {
			return true
		}
	}
	return false
}

type describeOpts struct {
	short, verbose, all, typeOnly, path, forcePath, noFuncs bool
}

// describe says what name is, as type and command -v/-V do; false when
// it is nothing.
func (r *Runner) describe(b *B, name string, o describeOpts) bool {
	w := b.Stdout()
	found := false
	if !o.forcePath {
		if v, ok := r.aliases.m[name]; ok && !o.path {
			found = true
			switch {
			case o.typeOnly:
				fmt.Fprintln(w, "alias")
			case o.short:
				fmt.Fprintf(w, "alias %s=%s\n", name, singleQuote(v))
			default:
				fmt.Fprintf(w, "%s is aliased to `%s'\n", name, v)
			}
			if !o.all {
				return true
			}
		}
		if isKeyword(name) && !o.path {
			found = true
			switch {
			case o.typeOnly:
				fmt.Fprintln(w, "keyword")
			case o.short:
				fmt.Fprintln(w, name)
			default:
				fmt.Fprintf(w, "%s is a shell keyword\n", name)
			}
			if !o.all {
				return true
			}
		}
		if fn := r.funcs.get(name); fn != nil && !o.noFuncs && !o.path {
			found = true
			switch {
			case o.typeOnly:
				fmt.Fprintln(w, "function")
			case o.short:
				fmt.Fprintln(w, name)
			default:
				fmt.Fprintf(w, "%s is a function\n%s", name, FuncText(fn))
			}
			if !o.all {
				return true
			}
		}
		if bi := r.Builtin(name); bi != nil && !o.path {
			found = true
			switch {
			case o.typeOnly:
				fmt.Fprintln(w, "builtin")
			case o.short:
				fmt.Fprintln(w, name)
			default:
				fmt.Fprintf(w, "%s is a shell builtin\n", name)
			}
			if !o.all {
				return true
			}
		}
	}
	var paths []string
	if o.all {
		pathVar, _ := r.Get("PATH")
		for _, d := range filepath.SplitList(pathVar) {
			if d == "" {
				d = "."
			}
			p := filepath.Join(d, name)
			if isExecutable(r.abs(p)) {
				paths = append(paths, p)
			}
		}
	} else if p, ok := r.hash.m[name]; ok && !o.forcePath {
		if o.typeOnly {
			fmt.Fprintln(w, "file")
			return true
		}
		if o.short || o.path || o.forcePath {
			fmt.Fprintln(w, p.path)
		} else {
			fmt.Fprintf(w, "%s is hashed (%s)\n", name, p.path)
		}
		return true
	} else if p, err := r.lookPath(name); err == nil && isExecutable(p) {
		if !strings.Contains(name, "/") {
			pathVar, _ := r.Get("PATH")
			p = findInPath(pathVar, r.dir, name)
		}
		paths = []string{p}
	}
	for _, p := range paths {
		found = true
		switch {
		case o.typeOnly:
			fmt.Fprintln(w, "file")
		case o.short || o.path || o.forcePath:
			fmt.Fprintln(w, p)
		default:
			fmt.Fprintf(w, "%s is %s\n", name, p)
		}
		if !o.all {
			break
		}
	}
	return found
}

func builtinType(b *B) int {
	f, args, ok := b.flags("afptP", false)
	if !ok {
		return 2
	}
	o := describeOpts{all: f.has('a'), typeOnly: f.has('t'), path: f.has('p'), forcePath: f.has('P'), noFuncs: f.has('f')}
	status := 0
	for _, name := range args {
		if !b.R.describe(b, name, o) {
			if !o.typeOnly && !o.path && !o.forcePath {
				b.Errorf("%s: not found", name)
			}
			status = 1
		}
	}
	return status
}

func builtinHash(b *B) int {
	r := b.R
	f, args, ok := b.flags("lrp:dt", false)
	if !ok {
		return 2
	}
	w := b.Stdout()
	if f.has('r') {
		r.hash.clear()
	}
	if p := f.val('p'); p != "" {
		for _, name := range args {
			r.hash.put(name, p)
		}
		return 0
	}
	if len(args) == 0 {
		if f.has('r') {
			return 0
		}
		names := r.hash.names()
		if len(names) == 0 {
			fmt.Fprintf(b.Stderr(), "hash: hash table empty\n")
			return 0
		}
		if f.has('l') {
			for _, n := range names {
				fmt.Fprintf(w, "builtin hash -p %s %s\n", r.hash.m[n].path, n)
			}
			return 0
		}
		fmt.Fprintln(w, "hits\tcommand")
		for _, n := range names {
			e := r.hash.m[n]
			fmt.Fprintf(w, "%4d\t%s\n", e.hits, e.path)
		}
		return 0
	}
	status := 0
	for _, name := range args {
		switch {
		case f.has('d'):
			if _, ok := r.hash.m[name]; !ok {
				b.Errorf("%s: not found", name)
				status = 1
				continue
			}
			r.hash.remove(name)
		case f.has('t'):
			e, ok := r.hash.m[name]
			if !ok {
				b.Errorf("%s: not found", name)
				status = 1
				continue
			}
			if len(args) > 1 {
				fmt.Fprintf(w, "%s\t%s\n", name, e.path)
			} else {
				fmt.Fprintln(w, e.path)
			}
		default:
			if strings.Contains(name, "/") || r.Builtin(name) != nil {
				continue
			}
			pathVar, _ := r.Get("PATH")
			p := findInPath(pathVar, r.dir, name)
			if p == "" {
				b.Errorf("%s: not found", name)
				status = 1
				continue
			}
			r.hash.put(name, p)
		}
	}
	return status
}

func builtinEnable(b *B) int {
	r := b.R
	f, args, ok := b.flags("adnpsf:", false)
	if !ok {
		return 2
	}
	if f.has('f') {
		b.Errorf("cannot load builtins from files")
		return 1
	}
	if len(args) == 0 {
		for _, n := range sortedKeys(r.sess.builtins) {
			bi := r.sess.builtins[n]
			if f.has('s') && !bi.Special {
				continue
			}
			switch {
			case f.has('a'):
				if bi.disabled {
					fmt.Fprintf(b.Stdout(), "enable -n %s\n", n)
				} else {
					fmt.Fprintf(b.Stdout(), "enable %s\n", n)
				}
			case f.has('n'):
				if bi.disabled {
					fmt.Fprintf(b.Stdout(), "enable -n %s\n", n)
				}
			default:
				if !bi.disabled {
					fmt.Fprintf(b.Stdout(), "enable %s\n", n)
				}
			}
		}
		return 0
	}
	status := 0
	for _, n := range args {
		bi := r.sess.builtins[n]
		if bi == nil {
			b.Errorf("%s: not a shell builtin", n)
			status = 1
			continue
		}
		bi.disabled = f.has('n')
	}
	return status
}

func builtinHelp(b *B) int {
	r := b.R
	f, args, ok := b.flags("dms", false)
	if !ok {
		return 2
	}
	if len(args) == 0 {
		fmt.Fprintf(b.Stdout(), "qsh, version %s\nThese shell commands are defined internally. Type `help name' to find out more about the function `name'.\n\n", BashVersion)
		for _, n := range r.BuiltinNames() {
			fmt.Fprintln(b.Stdout(), " "+r.sess.builtins[n].Usage)
		}
		return 0
	}
	status := 1
	for _, pat := range args {
		p, err := pattern.Compile(pat, 0)
		for _, n := range r.BuiltinNames() {
			if err == nil && p.Match(n) || n == pat {
				bi := r.sess.builtins[n]
				status = 0
				switch {
				case f.has('s'):
					fmt.Fprintf(b.Stdout(), "%s: %s\n", n, bi.Usage)
				case f.has('d'):
					fmt.Fprintf(b.Stdout(), "%s - %s\n", n, bi.Usage)
				default:
					fmt.Fprintf(b.Stdout(), "%s: %s\n", n, bi.Usage)
				}
			}
		}
		if status != 0 {
			b.Errorf("no help topics match `%s'.  Try `help help' or `man -k %s' or `info %s'.", pat, pat, pat)
		}
	}
	return status
}

func builtinCaller(b *B) int {
	r := b.R
	n := 0
	if len(b.Args) > 1 {
		v, err := strconv.Atoi(b.Args[1])
		if err != nil || v < 0 {
			b.Errorf("%s: invalid number", b.Args[1])
			return 2
		}
		n = v
	}
	// Frame n counts from the innermost call.
	idx := len(r.frames) - 1 - n
	if idx < 0 {
		return 1
	}
	fr := r.frames[idx]
	caller := "main"
	source := r.sess.scriptName
	if idx > 0 {
		caller = r.frames[idx-1].name
		source = r.frames[idx-1].source
	}
	if source == "" && len(b.Args) > 1 {
		source = "NULL"
	}
	if len(b.Args) > 1 {
		fmt.Fprintf(b.Stdout(), "%d %s %s\n", fr.callLine, caller, source)
	} else {
		fmt.Fprintf(b.Stdout(), "%d %s\n", fr.callLine, source)
	}
	return 0
}

var _ = os.Getpid
