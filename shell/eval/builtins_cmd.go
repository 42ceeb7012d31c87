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
		// bash: -V wins over -v; the status is 0 when any name was found.
		o := describeOpts{short: true}
		if f.has('V') {
			o = describeOpts{absPath: true}
		}
		if f.has('p') {
			defer r.withStdPath()()
		}
		any := false
		for _, name := range args {
			if r.describe(b, name, o) {
				any = true
			} else if f.has('V') {
				b.Errorf("%s: not found", name)
			}
		}
		if !any {
			return 1
		}
		return 0
	}
	name := args[0]
	if bi := r.Builtin(name); bi != nil && !strings.Contains(name, "/") {
		r.runBuiltin(bi, args)
		return r.status
	}
	var env []string
	if f.has('p') {
		defer r.withStdPath()()
	}
	r.execProgram(args, env)
	return r.status
}

// withStdPath searches the system's standard PATH until the function it
// returns is called, for command -p; the hash table is left as it was.
func (r *Runner) withStdPath() func() {
	saved, had := r.Get("PATH")
	hash := r.hash.fork()
	r.assign("PATH", stdPath, false)
	return func() {
		if had {
			r.assign("PATH", saved, false)
		} else {
			r.unsetVar("PATH")
		}
		r.hash = hash
	}
}

func builtinBuiltin(b *B) int {
	_, args, ok := b.flags("", false)
	if !ok {
		return 2
	}
	if len(args) == 0 {
		return 0
	}
	name := args[0]
	bi := b.R.Builtin(name)
	if bi == nil {
		b.Errorf("%s: not a shell builtin", name)
		return 1
	}
	b.R.runBuiltin(bi, args)
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

// describeOpts are describe's ways to say what a name is, as bash's
// type, command -v and command -V ask for them.
type describeOpts struct {
	short    bool // command -v: a name, a path, or an alias as it would be defined
	typeOnly bool // -t: one word
	path     bool // -p, -P: a file's path only, nothing for the other kinds
	all      bool // -a: every kind and every file along PATH
	// forcePath is -P: only files, the hash table included.
	forcePath bool
	noFuncs   bool // -f
	absPath   bool // command -V: a file found along a relative PATH entry made absolute
}

// describe says what name is, as type and command -v/-V do; false when
// it is nothing. The order is bash's: alias (with expand_aliases),
// keyword, function, builtin, then a file — by its own name when it has a
// slash, else from the hash table (not with -a) or along PATH.
func (r *Runner) describe(b *B, name string, o describeOpts) bool {
	w := b.Stdout()
	found := false
	say := func(kind, long, short string) bool {
		found = true
		switch {
		case o.typeOnly:
			fmt.Fprintln(w, kind)
		case o.short:
			fmt.Fprintln(w, short)
		case o.path:
		default:
			fmt.Fprint(w, long)
		}
		return !o.all
	}
	if !o.forcePath {
		if v, ok := r.aliases.m[name]; ok && r.opts.shopt[optExpandAliases] {
			if say("alias", fmt.Sprintf("%s is aliased to `%s'\n", name, v), "alias "+name+"="+singleQuote(v)) {
				return true
			}
		}
		if isKeyword(name) {
			if say("keyword", name+" is a shell keyword\n", name) {
				return true
			}
		}
		if fn := r.funcs.get(name); fn != nil && !o.noFuncs {
			if say("function", fmt.Sprintf("%s is a function\n%s", name, FuncText(fn)), name) {
				return true
			}
		}
		if bi := r.Builtin(name); bi != nil {
			kind := "a shell builtin"
			if bi.Special && r.opts.set[optPosix] {
				kind = "a special shell builtin"
			}
			if say("builtin", name+" is "+kind+"\n", name) {
				return true
			}
		}
	}
	file := func(long, p string) {
		found = true
		switch {
		case o.typeOnly:
			fmt.Fprintln(w, "file")
		case o.short || o.path:
			fmt.Fprintln(w, p)
		default:
			fmt.Fprint(w, long)
		}
	}
	if strings.Contains(name, "/") {
		if isExecutable(r.abs(name)) {
			file(name+" is "+name+"\n", name)
			return true
		}
	}
	if !o.all || o.forcePath {
		if p, ok := r.hash.get(name); ok {
			file(fmt.Sprintf("%s is hashed (%s)\n", name, p), p)
			return true
		}
	}
	pathVar, _ := r.Get("PATH")
	home, _ := r.Get("HOME")
	var paths []string
	if o.all {
		paths = allInPath(pathVar, r.dir, home, name)
	} else if p := findInPath(pathVar, r.dir, home, name); p != "" {
		paths = []string{p}
	}
	for _, p := range paths {
		if o.absPath && !filepath.IsAbs(p) {
			p = filepath.Join(r.dir, p)
		}
		file(name+" is "+p+"\n", p)
	}
	return found
}

func builtinType(b *B) int {
	f, args, ok := b.flags("afptP", false)
	if !ok {
		return 2
	}
	o := describeOpts{all: f.has('a'), noFuncs: f.has('f')}
	// bash's last of -t, -p and -P wins; -P is -p that skips the
	// shell's own kinds.
	for _, c := range f.order {
		switch c {
		case 't':
			o.typeOnly, o.path, o.forcePath = true, false, false
		case 'p':
			o.typeOnly, o.path = false, true
		case 'P':
			o.typeOnly, o.path, o.forcePath = false, true, true
		}
	}
	status := 0
	for _, name := range args {
		if !b.R.describe(b, name, o) {
			if !o.typeOnly && !o.path {
				b.Errorf("%s: not found", name)
			}
			status = 1
		}
	}
	return status
}

func builtinHash(b *B) int {
	r := b.R
	if !r.opts.set[optHashall] {
		b.Errorf("hashing disabled")
		return 1
	}
	f, args, ok := b.flags("dlp:rt", false)
	if !ok {
		return 2
	}
	w := b.Stdout()
	if len(args) == 0 && (f.has('d') || f.has('t')) {
		opt := "-t"
		if f.has('d') {
			opt = "-d"
		}
		b.Errorf("%s: option requires an argument", opt)
		return 1
	}
	if len(args) == 0 && !f.has('r') {
		names := r.hash.names()
		if len(names) == 0 {
			if !r.opts.set[optPosix] && !f.has('l') {
				fmt.Fprintf(w, "%s: hash table empty\n", b.Args[0])
			}
			return 0
		}
		if !f.has('l') {
			fmt.Fprintln(w, "hits\tcommand")
		}
		for _, n := range names {
			e := r.hash.m[n]
			if f.has('l') {
				fmt.Fprintf(w, "builtin hash -p %s %s\n", printableName(e.path), printableName(n))
			} else {
				fmt.Fprintf(w, "%4d\t%s\n", e.hits, e.path)
			}
		}
		return 0
	}
	if f.has('r') {
		r.hash.clear()
	}
	status := 0
	if f.has('t') {
		for _, name := range args {
			p, ok := r.hash.get(name)
			switch {
			case !ok:
				b.Errorf("%s: not found", name)
				status = 1
			case f.has('l'):
				fmt.Fprintf(w, "builtin hash -p %s %s\n", printableName(p), printableName(name))
			case len(args) > 1:
				fmt.Fprintf(w, "%s\t%s\n", name, p)
			default:
				fmt.Fprintln(w, p)
			}
		}
		return status
	}
	for _, name := range args {
		switch {
		case strings.Contains(name, "/"):
		case f.vals['p'] != nil:
			p := f.val('p')
			if fi, err := os.Stat(r.abs(p)); err == nil && fi.IsDir() {
				b.Errorf("%s: Is a directory", p)
				status = 1
				continue
			}
			r.hash.put(name, p)
		case f.has('d'):
			if _, ok := r.hash.m[name]; !ok {
				b.Errorf("%s: not found", name)
				status = 1
				continue
			}
			r.hash.remove(name)
		default:
			if r.funcs.get(name) != nil || r.Builtin(name) != nil {
				continue
			}
			r.hash.remove(name)
			p := r.findInPath(name)
			if p == "" || !isExecutable(r.abs(p)) {
				b.Errorf("%s: not found", name)
				status = 1
				continue
			}
			r.hash.put(name, p)
		}
	}
	return status
}

// printableName quotes a file name for output meant to be read back, as
// bash's hash -l does: $'…' for control characters, '…' for a name with
// characters special to the shell.
func printableName(s string) string {
	for _, c := range []byte(s) {
		if c < ' ' || c == 0x7f {
			return ansiCQuote(s)
		}
	}
	if strings.ContainsAny(s, " \t\n'\"\\|&;()<>!{}*[?]^$`~#=%") {
		return singleQuote(s)
	}
	return s
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
	// bash's caller reads its arrays: BASH_LINENO[n], BASH_SOURCE[n+1],
	// FUNCNAME[n+1]; with no operand it says "NULL" for what is
	// missing, with one it fails.
	elem := func(name string, i int) (string, bool) {
		v := r.lookup(name)
		if v == nil {
			return "", false
		}
		if v.dyn != nil && v.dyn.get != nil {
			v = v.dyn.get(r)
		}
		return r.index(name, v, int64(i))
	}
	line, okLine := elem("BASH_LINENO", n)
	source, okSource := elem("BASH_SOURCE", n+1)
	if len(b.Args) == 1 {
		if !okLine {
			line = "NULL"
		}
		if !okSource {
			source = "NULL"
		}
		fmt.Fprintf(b.Stdout(), "%s %s\n", line, source)
		return 0
	}
	fn, okFn := elem("FUNCNAME", n+1)
	if !okLine || !okSource || !okFn {
		return 1
	}
	fmt.Fprintf(b.Stdout(), "%s %s %s\n", line, fn, source)
	return 0
}

var _ = os.Getpid
