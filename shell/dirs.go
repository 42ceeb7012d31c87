package shell

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/interp"
)

// dirs, pushd and popd, as bash's. The stack's first entry is always the
// current directory, so cd changes it; the others are kept in a variable
// of the shell's own (a subshell's pushd stays in the subshell). interp's
// DIRSTACK does not follow them (see docs/COMPATIBILITY.md).

const dirsVar = "__qsh_dirs"

// dirStack is the stack, current directory first.
func dirStack(hc interp.HandlerContext) []string {
	return append([]string{hc.Dir}, hc.Env.Get(dirsVar).List...)
}

// setDirStack keeps the entries after the first.
func setDirStack(ctx context.Context, hc interp.HandlerContext, stack []string) {
	src := "declare -g -a " + dirsVar + "=("
	for _, d := range stack[1:] {
		src += singleQuote(d) + " "
	}
	hc.Builtin(ctx, []string{"eval", src + ")"})
}

// stackIndex reads +N (from the left, 0 the current directory) or -N
// (from the right) for a stack of n entries.
func stackIndex(arg string, n int) (i int, isIndex, ok bool) {
	if len(arg) < 2 || arg[0] != '+' && arg[0] != '-' {
		return 0, false, false
	}
	v, err := strconv.Atoi(arg[1:])
	if err != nil || v < 0 {
		return 0, true, false
	}
	if arg[0] == '-' {
		v = n - 1 - v
	}
	return v, true, v >= 0 && v < n
}

func (s *Shell) dirsBuiltin(hc interp.HandlerContext, b builtinIO, args []string) int {
	var clear, long, perLine, numbered bool
	stack := dirStack(hc)
	pick := -1
	for _, a := range args {
		if i, isIndex, ok := stackIndex(a, len(stack)); isIndex && (a[0] == '+' || a[1] >= '0' && a[1] <= '9') {
			if !ok {
				return b.fail(1, "%s: directory stack index out of range", strings.TrimLeft(a, "+"))
			}
			pick = i
			continue
		}
		if len(a) < 2 || a[0] != '-' {
			b.fail(1, "too many arguments")
			return 1
		}
		for _, c := range a[1:] {
			switch c {
			case 'c':
				clear = true
			case 'l':
				long = true
			case 'p':
				perLine = true
			case 'v':
				perLine, numbered = true, true
			default:
				b.fail(2, "%s: invalid number", a)
				fmt.Fprintln(b.err, "dirs: usage: dirs [-clpv] [+N] [-N]")
				return 2
			}
		}
	}
	if clear {
		return 0 // the caller empties the stack
	}
	show := func(d string) string {
		if long {
			return d
		}
		return tildeHome(hc, d)
	}
	if pick >= 0 {
		if numbered {
			fmt.Fprintf(b.out, "%2d  %s\n", pick, show(stack[pick]))
		} else {
			fmt.Fprintln(b.out, show(stack[pick]))
		}
		return 0
	}
	printStack(b.out, stack, show, perLine, numbered)
	return 0
}

func printStack(w io.Writer, stack []string, show func(string) string, perLine, numbered bool) {
	var sb strings.Builder
	for i, d := range stack {
		switch {
		case numbered:
			fmt.Fprintf(&sb, "%2d  %s\n", i, show(d))
		case perLine:
			sb.WriteString(show(d) + "\n")
		default:
			if i > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(show(d))
		}
	}
	if !perLine {
		sb.WriteByte('\n')
	}
	io.WriteString(w, sb.String())
}

// tildeHome writes $HOME at the start of d as ~.
func tildeHome(hc interp.HandlerContext, d string) string {
	home := strings.TrimSuffix(hc.Env.Get("HOME").String(), "/")
	switch {
	case home == "":
		return d
	case d == home:
		return "~"
	case strings.HasPrefix(d, home+"/"):
		return "~" + d[len(home):]
	}
	return d
}

// dirsCall is dirs, which may empty the stack (-c).
func (s *Shell) dirsCall(ctx context.Context, hc interp.HandlerContext, b builtinIO, args []string) int {
	st := s.dirsBuiltin(hc, b, args)
	if st == 0 && clearsStack(args) {
		setDirStack(ctx, hc, dirStack(hc)[:1])
	}
	return st
}

func clearsStack(args []string) bool {
	for _, a := range args {
		if len(a) > 1 && a[0] == '-' && strings.ContainsRune(a, 'c') {
			return true
		}
	}
	return false
}

func (s *Shell) pushd(ctx context.Context, hc interp.HandlerContext, b builtinIO, args []string) int {
	noCd := false
	for len(args) > 0 {
		if args[0] == "-n" {
			noCd, args = true, args[1:]
			continue
		}
		if args[0] == "--" {
			args = args[1:]
		}
		break
	}
	stack := dirStack(hc)
	if len(args) > 1 {
		return b.fail(1, "too many arguments")
	}
	var next []string
	switch {
	case len(args) == 0:
		if len(stack) < 2 {
			return b.fail(1, "no other directory")
		}
		next = append([]string{stack[1], stack[0]}, stack[2:]...)
	default:
		a := args[0]
		if i, isIndex, ok := stackIndex(a, len(stack)); isIndex && (a[0] == '+' || len(a) > 1 && a[1] >= '0' && a[1] <= '9') {
			if !ok {
				return b.fail(1, "%s: directory stack index out of range", a)
			}
			next = append(stack[i:], stack[:i]...)
			break
		} else if len(a) > 1 && a[0] == '-' {
			b.fail(2, "%s: invalid option", a)
			fmt.Fprintln(b.err, "pushd: usage: pushd [-n] [+N | -N | dir]")
			return 2
		}
		if noCd {
			next = append([]string{stack[0], a}, stack[1:]...)
			break
		}
		st, dir := s.cdDir(ctx, hc, builtinIO{name: "pushd", out: io.Discard, err: b.err, where: b.where}, []string{a})
		if st != 0 {
			return st
		}
		next = append([]string{dir}, stack...)
	}
	return s.settleStack(ctx, hc, b, next, noCd)
}

// settleStack makes next the stack, moving to its first entry unless
// noCd, and prints it.
func (s *Shell) settleStack(ctx context.Context, hc interp.HandlerContext, b builtinIO, next []string, noCd bool) int {
	if noCd {
		// The current directory stays first.
		next[0] = hc.Dir
	} else if next[0] != hc.Dir {
		st, dir := s.cdDir(ctx, hc, builtinIO{name: b.name, out: io.Discard, err: b.err, where: b.where}, []string{next[0]})
		if st != 0 {
			return st
		}
		next[0] = dir
	}
	setDirStack(ctx, hc, next)
	printStack(b.out, next, func(d string) string { return tildeHome(hc, d) }, false, false)
	return 0
}

func (s *Shell) popd(ctx context.Context, hc interp.HandlerContext, b builtinIO, args []string) int {
	noCd := false
	for len(args) > 0 {
		if args[0] == "-n" {
			noCd, args = true, args[1:]
			continue
		}
		if args[0] == "--" {
			args = args[1:]
		}
		break
	}
	stack := dirStack(hc)
	drop := 0
	if noCd {
		drop = 1
	}
	if len(args) > 0 {
		a := args[0]
		i, isIndex, ok := stackIndex(a, len(stack))
		switch {
		case len(args) > 1 || !isIndex && (len(a) < 2 || a[0] != '-'):
			b.fail(2, "%s: invalid argument", a)
			fmt.Fprintln(b.err, "popd: usage: popd [-n] [+N | -N]")
			return 2
		case !isIndex || a[0] == '-' && (a[1] < '0' || a[1] > '9'):
			b.fail(2, "%s: invalid number", a)
			fmt.Fprintln(b.err, "popd: usage: popd [-n] [+N | -N]")
			return 2
		case !ok:
			return b.fail(1, "%s: directory stack index out of range", a)
		}
		drop = i
	}
	if len(stack) < 2 {
		return b.fail(1, "directory stack empty")
	}
	next := append(append([]string{}, stack[:drop]...), stack[drop+1:]...)
	return s.settleStack(ctx, hc, b, next, noCd || drop > 0)
}
