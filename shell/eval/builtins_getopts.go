package eval

import (
	"fmt"
	"strconv"
	"strings"
)

// getopts, as bash's: OPTIND and OPTARG, grouped options (-ab), an
// option's argument in the same word or the next, --, a leading : in
// optstring for silent errors, OPTERR=0 for quiet ones.

// getoptsState is where getopts stopped inside a word of grouped options,
// for each OPTIND variable it ran with: a function with a local OPTIND
// parses its own arguments, and its caller's getopts takes up its word
// again after it returns, as in bash. An assignment to OPTIND forgets the
// variable's place ([Runner.assigned]). Entries are never changed in
// place, so that a subshell's copy shares nothing it could change.
type getoptsState struct {
	at []getoptsPos // newest first
}

type getoptsPos struct {
	v   *Var // the OPTIND variable
	ind int  // the OPTIND getopts set
	pos int  // the next character of the word at ind, 0 for the next word
}

// maxGetoptsPos bounds the places kept: one per OPTIND in use.
const maxGetoptsPos = 8

// pos is where getopts is in the word at ind of v, 0 at a word's start.
func (s getoptsState) pos(v *Var, ind int) int {
	for _, p := range s.at {
		if p.v == v {
			if p.ind == ind {
				return p.pos
			}
			return 0
		}
	}
	return 0
}

// with is s with v's place set.
func (s getoptsState) with(v *Var, ind, pos int) getoptsState {
	at := []getoptsPos{{v, ind, pos}}
	for _, p := range s.forget(v).at {
		if len(at) < maxGetoptsPos {
			at = append(at, p)
		}
	}
	return getoptsState{at: at}
}

// forget is s without v's place.
func (s getoptsState) forget(v *Var) getoptsState {
	for i, p := range s.at {
		if p.v == v {
			at := append(append([]getoptsPos{}, s.at[:i]...), s.at[i+1:]...)
			return getoptsState{at: at}
		}
	}
	return s
}

func builtinGetopts(b *B) int {
	r := b.R
	_, args, ok := b.flags("", false)
	if !ok {
		return 2
	}
	if len(args) < 2 {
		b.usage()
		return 2
	}
	optstring, name := args[0], args[1]
	params := r.params
	if len(args) > 2 {
		params = args[2:]
	}
	silent := strings.HasPrefix(optstring, ":")
	report := !silent
	if v, ok := r.Get("OPTERR"); ok && v == "0" {
		report = false
	}
	optind := 1
	if v, ok := r.Get("OPTIND"); ok {
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n > 0 {
			optind = n
		}
	}
	v, _ := r.vars.find("OPTIND")
	pos := r.getopts.pos(v, optind)
	opt, optarg, hasArg := getopt(r, params, optstring, &optind, &pos, report)

	// OPTIND is set in every case, to step over "--".
	r.assign("OPTIND", strconv.Itoa(optind), false)
	v, _ = r.vars.find("OPTIND")
	r.getopts = r.getopts.with(v, optind, pos)

	bind := func(v string) int {
		if !validName(name) {
			b.Errorf("`%s': not a valid identifier", name)
			return 1
		}
		if err := r.assignRef(name, v); err != nil {
			b.assignError(err)
			return 2
		}
		return 0
	}
	switch {
	case opt == 0: // the end of the options
		r.unsetVar("OPTARG")
		if st := bind("?"); st != 0 {
			return st
		}
		return 1
	case opt == '?' || opt == ':':
		if silent {
			r.assignRef("OPTARG", optarg)
		} else {
			opt = '?'
			r.unsetVar("OPTARG")
		}
		return bind(string(opt))
	}
	if hasArg {
		r.assignRef("OPTARG", optarg)
	} else {
		r.unsetVar("OPTARG")
	}
	return bind(string(opt))
}

// getopt is the next option in params from *optind (1 for the first) and
// *pos (the character in that word, 0 for its start), as POSIX's getopt:
// opt is 0 at the end of the options, '?' for a bad one (optarg the
// letter) and ':' for a missing argument (optarg the letter).
func getopt(r *Runner, params []string, optstring string, optind, pos *int, report bool) (opt byte, optarg string, hasArg bool) {
	spec := strings.TrimPrefix(optstring, ":")
	if *optind-1 >= len(params) {
		*optind = len(params) + 1
		*pos = 0
		return 0, "", false
	}
	word := params[*optind-1]
	if *pos == 0 || *pos >= len(word) {
		if word == "--" {
			*optind++
			return 0, "", false
		}
		if len(word) < 2 || word[0] != '-' {
			return 0, "", false
		}
		*pos = 1
	}
	c := word[*pos]
	*pos++
	if *pos >= len(word) {
		// The word's last character: OPTIND moves on.
		*optind++
		*pos = 0
	}
	k := strings.IndexByte(spec, c)
	if k < 0 || c == ':' {
		if report {
			fmt.Fprintf(r.stderr(), "%s: illegal option -- %c\n", r.arg0, c)
		}
		return '?', string(c), false
	}
	if k+1 >= len(spec) || spec[k+1] != ':' {
		return c, "", false
	}
	switch {
	case *pos > 0:
		// The rest of the word is the argument.
		optarg = word[*pos:]
		*optind++
	case *optind-1 < len(params):
		optarg = params[*optind-1]
		*optind++
	default:
		if report {
			fmt.Fprintf(r.stderr(), "%s: option requires an argument -- %c\n", r.arg0, c)
		}
		return ':', string(c), false
	}
	*pos = 0
	return c, optarg, true
}
