package shell

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/interp"
)

// getopts, as bash's: OPTIND and OPTARG, grouped options (-ab), option
// arguments in the same word or the next, --, a leading : in optstring
// for silent errors, OPTERR=0 for quiet ones.

// optposVar keeps where getopts is inside a word of grouped options, with
// the OPTIND it belongs to: bash's own hidden state. Setting OPTIND to
// another value starts over.
const optposVar = "__qsh_optpos"

// argsVar holds the positional parameters for a moment.
const argsVar = "__qsh_args"

func (s *Shell) getoptsBuiltin(ctx context.Context, hc interp.HandlerContext, b builtinIO, args []string) int {
	if len(args) < 2 {
		b.fail(2, "usage: getopts optstring name [arg ...]")
		return 2
	}
	optstring, name := args[0], args[1]
	if !validName(name) {
		return b.fail(1, "`%s': not a valid identifier", name)
	}
	params := args[2:]
	if len(args) == 2 {
		// A handler cannot see the positional parameters; eval can.
		hc.Builtin(ctx, []string{"eval", argsVar + `=("$@")`})
		params = hc.Env.Get(argsVar).List
		hc.Builtin(ctx, []string{"eval", "unset -v " + argsVar})
	}
	silent := strings.HasPrefix(optstring, ":")
	report := !silent && hc.Env.Get("OPTERR").String() != "0"

	optind, err := strconv.Atoi(strings.TrimSpace(hc.Env.Get("OPTIND").String()))
	if err != nil || optind < 1 {
		optind = 1
	}
	pos := 0
	if at, p, ok := strings.Cut(hc.Env.Get(optposVar).String(), ":"); ok && at == strconv.Itoa(optind) {
		pos, _ = strconv.Atoi(p)
	}
	assign := func(opt string, optarg *string, st int) int {
		src := name + "=" + singleQuote(opt) + " OPTIND=" + strconv.Itoa(optind)
		if optarg != nil {
			src += " OPTARG=" + singleQuote(*optarg)
		} else {
			src += "; unset -v OPTARG"
		}
		src += "; " + optposVar + "=" + strconv.Itoa(optind) + ":" + strconv.Itoa(pos)
		if hc.Builtin(ctx, []string{"eval", src}) != nil {
			return 1
		}
		return st
	}
	if pos == 0 {
		if optind > len(params) {
			optind = len(params) + 1
			return assign("?", nil, 1)
		}
		arg := params[optind-1]
		if arg == "--" {
			optind++
			return assign("?", nil, 1)
		}
		if len(arg) < 2 || arg[0] != '-' {
			return assign("?", nil, 1)
		}
		pos = 1
	}
	arg := params[optind-1]
	c := arg[pos]
	pos++
	if pos >= len(arg) {
		optind, pos = optind+1, 0
	}
	spec := strings.IndexByte(optstring, c)
	if c == ':' || spec < 0 {
		if silent {
			return assign("?", &[]string{string(c)}[0], 0)
		}
		if report {
			fmt.Fprintf(b.err, "%s: illegal option -- %c\n", s.name, c)
		}
		return assign("?", nil, 0)
	}
	if spec+1 >= len(optstring) || optstring[spec+1] != ':' {
		return assign(string(c), nil, 0)
	}
	var optarg string
	switch {
	case pos > 0:
		optarg = arg[pos:]
		optind, pos = optind+1, 0
	case optind <= len(params):
		optarg = params[optind-1]
		optind++
	case silent:
		return assign(":", &[]string{string(c)}[0], 0)
	default:
		if report {
			fmt.Fprintf(b.err, "%s: option requires an argument -- %c\n", s.name, c)
		}
		return assign("?", nil, 0)
	}
	return assign(string(c), &optarg, 0)
}
