package shell

import (
	"context"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// funcsArgs reads `declare -f`/`declare -F` (typeset too), which qsh
// answers itself: interp knows no -F and prints functions its own way.
// ok is false for any other flag, which leaves the declaration to interp.
func funcsArgs(args []string) (namesOnly bool, names []string, ok bool) {
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) > 1 {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		for _, c := range args[0][1:] {
			switch c {
			case 'f':
				ok = true
			case 'F':
				ok, namesOnly = true, true
			default:
				return false, nil, false
			}
		}
		args = args[1:]
	}
	return namesOnly, args, ok
}

// declareFuncs prints the functions named, or all of them in name order,
// as bash does: their definitions, or with namesOnly (-F) their names
// (alone when named, else as `declare -f NAME`). A name that is no
// function prints nothing and makes the status 1.
//
// Whether a name is a function is asked of the interpreter running the
// command, so a subshell's own functions count; the definition is printed
// from the shell's table when it has it (in bash's layout), else as interp
// prints it.
func (s *Shell) declareFuncs(ctx context.Context, hc interp.HandlerContext, b builtinIO, namesOnly bool, names []string) int {
	all := len(names) == 0
	if all {
		names = s.funcNames(hc)
	}
	st := 0
	for _, name := range names {
		if !syntax.ValidName(name) && !validFuncName(name) ||
			hc.Builtin(ctx, []string{"eval", "declare -f " + singleQuote(name) + " >/dev/null 2>&1"}) != nil {
			st = 1
			continue
		}
		switch {
		case namesOnly && all:
			fmt.Fprintf(b.out, "declare -f %s\n", name)
		case namesOnly:
			fmt.Fprintln(b.out, name)
		default:
			if text := s.funcText(hc, name); text != "" {
				fmt.Fprintln(b.out, text)
			} else if hc.Builtin(ctx, []string{"eval", "declare -f " + singleQuote(name)}) != nil {
				st = 1
			}
		}
	}
	return st
}

// validFuncName reports whether name can name a function: bash takes more
// than variable names (a-b, x.y), but no blanks, quotes or shell syntax.
func validFuncName(name string) bool {
	return name != "" && !strings.ContainsAny(name, " \t\n'\"\\$`;&|<>()")
}
