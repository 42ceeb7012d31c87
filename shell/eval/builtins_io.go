package eval

import (
	"errors"
	"strings"
	"syscall"
)

// ioBuiltins are the builtins that read and write (echo, printf, read,
// mapfile, getopts, test), move about the directories (cd, pwd, dirs,
// pushd, popd) and set what the shell's programs get from the process
// (umask, ulimit, times).
func ioBuiltins() []*Builtin {
	return []*Builtin{
		{Name: "echo", Usage: "echo [-neE] [arg ...]", Guarded: true, Run: builtinEcho},
		{Name: "test", Usage: "test [expr]", Guarded: true, Run: testBuiltin},
		{Name: "[", Usage: "[ arg... ]", Guarded: true, Run: testBuiltin},
		{Name: "printf", Usage: "printf [-v var] format [arguments]", Guarded: true, Run: builtinPrintf},
		{Name: "read", Usage: "read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]", Guarded: true, Run: builtinRead},
		{Name: "mapfile", Usage: mapfileUsage, Guarded: true, Run: builtinMapfile},
		{Name: "readarray", Usage: strings.Replace(mapfileUsage, "mapfile", "readarray", 1), Guarded: true, Run: builtinMapfile},
		{Name: "getopts", Usage: "getopts optstring name [arg ...]", Guarded: true, Run: builtinGetopts},
		{Name: "cd", Usage: "cd [-L|[-P [-e]] [-@]] [dir]", Guarded: true, Run: builtinCd},
		{Name: "pwd", Usage: "pwd [-LP]", Guarded: true, Run: builtinPwd},
		{Name: "dirs", Usage: "dirs [-clpv] [+N] [-N]", Guarded: true, Run: builtinDirs},
		{Name: "pushd", Usage: "pushd [-n] [+N | -N | dir]", Guarded: true, Run: builtinPushd},
		{Name: "popd", Usage: "popd [-n] [+N | -N]", Guarded: true, Run: builtinPopd},
		{Name: "umask", Usage: "umask [-p] [-S] [mode]", Guarded: true, Run: builtinUmask},
		{Name: "ulimit", Usage: "ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]", Guarded: true, Run: builtinUlimit},
		{Name: "times", Usage: "times", Special: true, Guarded: true, Run: builtinTimes},
	}
}

// builtinEcho is bash's echo: leading words made of n, e and E only are
// flags (-n no newline, -e escapes, -E none, the last of e and E winning;
// shopt xpg_echo makes -e the default).
func builtinEcho(b *B) int {
	args := b.Args[1:]
	newline, escapes := true, b.R.opts.shopt[optXpgEcho]
	for len(args) > 0 && isEchoFlag(args[0]) {
		for _, c := range args[0][1:] {
			switch c {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
		args = args[1:]
	}
	var out []byte
	for i, a := range args {
		if i > 0 {
			out = append(out, ' ')
		}
		if !escapes {
			out = append(out, a...)
			continue
		}
		var stop bool
		if out, stop = echoEscapes(out, a); stop {
			newline = false
			break
		}
	}
	if newline {
		out = append(out, '\n')
	}
	return writeOut(b, out, 0)
}

func isEchoFlag(a string) bool {
	return len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "neE") == ""
}

// echoEscapes appends a with echo -e's escapes decoded: printf %b's, but
// for octal, which must start with \0. stop reports \c: nothing more is
// printed.
func echoEscapes(out []byte, a string) (_ []byte, stop bool) {
	for i := 0; i < len(a); {
		if a[i] != '\\' {
			out = append(out, a[i])
			i++
			continue
		}
		if i+1 < len(a) && a[i+1] >= '1' && a[i+1] <= '7' {
			out = append(out, '\\', a[i+1])
			i += 2
			continue
		}
		out, i, stop = unescape(out, a, i, true, func(string) {})
		if stop {
			return out, true
		}
	}
	return out, false
}

// writeOut writes what a builtin printed, in one write, and returns its
// status: status, or 1 after a write error. A closed pipe ends it quietly
// with 141, as SIGPIPE ends bash's forked builtin.
func writeOut(b *B, out []byte, status int) int {
	if len(out) == 0 {
		return status
	}
	if _, err := b.Stdout().Write(out); err != nil {
		if errors.Is(err, syscall.EPIPE) {
			return 128 + int(syscall.SIGPIPE)
		}
		b.Errorf("write error: %s", errText(err))
		if c := b.R.outCheck; c != nil {
			c.err = nil // reported
		}
		return 1
	}
	return status
}

// assignRef assigns value to ref, a variable's name or an array element's
// (name[subscript], the subscript expanded as in an assignment), as the
// builtins that take a name do: printf -v, read, getopts. set -a exports
// what they assign, as any assignment.
func (r *Runner) assignRef(ref, value string) error {
	name, sub, hasSub, ok := splitRef(ref)
	if !ok || hasSub && sub == "" {
		return &identError{ref}
	}
	var err error
	if hasSub {
		target, _, _ := r.resolve(name)
		if v, _ := r.vars.find(target); v != nil && v.m != nil {
			err = r.assignElem(target, r.assocKey(sub), value, false)
		} else {
			err = r.assignElem(target, r.arithText(sub), value, false)
		}
		name = target
	} else {
		err = r.assign(name, value, false)
	}
	if err == nil && r.opts.set[optAllexport] {
		r.Export(name)
	}
	return err
}

// identError is a word that names no variable.
type identError struct{ name string }

func (e *identError) Error() string { return "`" + e.name + "': not a valid identifier" }

// assignError reports an error of [Runner.assignRef] as bash does and
// returns the builtin's status: a bad name is the builtin's own error; an
// arithmetic error in an integer variable's value is an expansion error,
// which abandons the command line; anything else (a readonly variable) is
// the shell's.
func (b *B) assignError(err error) int {
	var ie *identError
	var ae *arithError
	switch {
	case errors.As(err, &ie):
		b.Errorf("%s", err.Error())
	case errors.As(err, &ae):
		b.Errorf("%s", err.Error())
		panic(abort{status: 1})
	default:
		b.R.errorf("%s", err.Error())
	}
	return 1
}
