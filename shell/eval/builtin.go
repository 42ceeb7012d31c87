package eval

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"syscall"
)

// Builtin is a command the shell runs itself. One table holds them all —
// the evaluator's and those the interactive shell adds — so that type,
// enable, help, compgen -b and the assistant's guarded runs read one list.
type Builtin struct {
	Name string
	// Run runs the builtin and returns its status.
	Run func(b *B) int
	// Usage is bash's synopsis, for help and for usage errors.
	Usage string
	// Special marks POSIX's special builtins.
	Special bool
	// Guarded marks builtins that may run in the assistant's guarded
	// runs: they change nothing outside the shell's own state.
	Guarded bool
	// disabled is enable -n's.
	disabled bool
}

func (b *Builtin) enabled() bool { return !b.disabled }

// B is what a builtin gets: its arguments (Args[0] is its name), the
// shell, its standard streams.
type B struct {
	Args []string
	Ctx  context.Context
	R    *Runner
	def  *Builtin
}

func (b *B) Stdin() io.Reader  { return b.R.stdin() }
func (b *B) Stdout() io.Writer { return b.R.stdout() }
func (b *B) Stderr() io.Writer { return b.R.stderr() }

// Errorf prints a message of the builtin's: "name: message".
func (b *B) Errorf(format string, args ...any) {
	b.R.errorf("%s: %s", b.Args[0], fmt.Sprintf(format, args...))
}

// UsageError reports a bad option as bash does and returns 2.
func (b *B) UsageError(opt string) int {
	b.R.errorf("%s: %s: invalid option", b.Args[0], opt)
	b.usage()
	return 2
}

func (b *B) usage() {
	if b.def != nil && b.def.Usage != "" {
		fmt.Fprintf(b.Stderr(), "%s: usage: %s\n", b.Args[0], b.def.Usage)
	}
}

// Printf writes to the builtin's standard output.
func (b *B) Printf(format string, args ...any) { fmt.Fprintf(b.Stdout(), format, args...) }

// flags reads a builtin's options as bash's builtins do: -abc, -o value
// or -ovalue for letters followed by ':' in spec, '--' ends them, and a
// lone '-' or a word not starting with '-' is an operand. With plus,
// +x options are read too (declare, set). An unknown option is a usage
// error (ok false, the status 2 already out).
type flagSet struct {
	on   map[byte]bool
	off  map[byte]bool // +x
	vals map[byte][]string
	// order is the options given, in order, for those whose last wins.
	order []byte
}

func (f *flagSet) has(c byte) bool { return f.on[c] }
func (f *flagSet) val(c byte) string {
	v := f.vals[c]
	if len(v) == 0 {
		return ""
	}
	return v[len(v)-1]
}

func (b *B) flags(spec string, plus bool) (*flagSet, []string, bool) {
	f := &flagSet{on: map[byte]bool{}, off: map[byte]bool{}, vals: map[byte][]string{}}
	args := b.Args[1:]
	for len(args) > 0 {
		a := args[0]
		if a == "--" {
			args = args[1:]
			break
		}
		if len(a) < 2 || a[0] != '-' && !(plus && a[0] == '+') {
			break
		}
		sign := a[0]
		args = args[1:]
		for i := 1; i < len(a); i++ {
			c := a[i]
			k := strings.IndexByte(spec, c)
			if k < 0 || c == ':' {
				b.UsageError(string(sign) + string(c))
				return nil, nil, false
			}
			takes := k+1 < len(spec) && spec[k+1] == ':'
			if sign == '+' {
				f.off[c] = true
			} else {
				f.on[c] = true
			}
			f.order = append(f.order, c)
			if takes {
				var v string
				if i+1 < len(a) {
					v = a[i+1:]
				} else if len(args) > 0 {
					v, args = args[0], args[1:]
				} else {
					b.R.errorf("%s: %s: option requires an argument", b.Args[0], string(sign)+string(c))
					b.usage()
					return nil, nil, false
				}
				f.vals[c] = append(f.vals[c], v)
				break
			}
		}
	}
	return f, args, true
}

// runBuiltin runs a builtin with its arguments.
func (r *Runner) runBuiltin(def *Builtin, args []string) {
	b := &B{Args: args, Ctx: r.ctx, R: r, def: def}
	r.status = r.checkWrites(b, func() int { return def.Run(b) })
}

// checkWrites runs a builtin; for one that only prints, a write to its
// stdout that failed is reported and makes its status 1, as in bash.
func (r *Runner) checkWrites(b *B, run func() int) int {
	if !onlyPrints(b.Args[0]) {
		return run()
	}
	saved := r.outCheck
	check := &writeCheck{}
	r.outCheck = check
	defer func() { r.outCheck = saved }()
	status := run()
	if check.err != nil && !errors.Is(check.err, syscall.EPIPE) {
		b.Errorf("write error: %s", errText(check.err))
		status = 1
	}
	return status
}

// onlyPrints names the builtins that run no command and whose output's
// failed write bash reports for them (`type ls >/dev/full`): echo and
// printf report their own.
func onlyPrints(name string) bool {
	switch name {
	case "type", "declare", "typeset", "local", "export", "readonly", "alias", "set", "hash", "help",
		"shopt", "enable", "trap", "dirs", "umask", "times", "ulimit", "pwd":
		return true
	}
	return false
}

// writeCheck keeps the first error of the writes through it.
type writeCheck struct {
	w   io.Writer
	err error
}

func (c *writeCheck) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}

// Builtin is the builtin named name, nil when there is none (or it is
// disabled).
func (r *Runner) Builtin(name string) *Builtin {
	b := r.sess.builtins[name]
	if b == nil || b.disabled {
		return nil
	}
	return b
}

// BuiltinNames lists the enabled builtins.
func (r *Runner) BuiltinNames() []string {
	var ns []string
	for n, b := range r.sess.builtins {
		if !b.disabled {
			ns = append(ns, n)
		}
	}
	sortStrings(ns)
	return ns
}

// builtinTable is the evaluator's own builtins.
func builtinTable() []*Builtin {
	var all []*Builtin
	for _, set := range [][]*Builtin{flowBuiltins(), varBuiltins(), cmdBuiltins(), jobBuiltins(), ioBuiltins()} {
		all = append(all, set...)
	}
	return all
}
