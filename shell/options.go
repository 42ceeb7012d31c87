package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
)

// qsh owns `set` and `shopt`: it knows every option bash has, so that rc
// files and scripts written for bash can set them. interp implements some;
// qsh implements others itself; some only matter to bash's own line
// editor, history or completion, and are kept and shown but do nothing;
// the rest change what commands do in ways qsh cannot, and setting them
// fails, said once a session, so that a script can tell (shopt -s failglob
// || …) and `set -e` stops where bash would have failed later.

// optHow is what qsh does with an option.
type optHow uint8

const (
	optInterp optHow = iota // interp implements it: set there too
	optQsh                  // qsh implements it
	optKept                 // kept and shown; nothing in qsh depends on it
	optFixed                // qsh behaves as its default only: the other state fails
	optLacks                // qsh lacks what it does: setting it fails
)

// shellOpt is one option of `set -o` (set is true) or of shopt.
type shellOpt struct {
	name string
	flag byte // set's one-letter flag, 0 for none
	set  bool
	on   bool // bash's default in a non-interactive shell
	how  optHow
}

// shellOpts lists bash 5.2's options, each group sorted as bash lists it.
var shellOpts = []shellOpt{
	{name: "allexport", flag: 'a', set: true, how: optInterp},
	{name: "braceexpand", flag: 'B', set: true, on: true, how: optFixed},
	{name: "emacs", set: true, how: optKept},
	{name: "errexit", flag: 'e', set: true, how: optInterp},
	{name: "errtrace", flag: 'E', set: true, how: optKept},
	{name: "functrace", flag: 'T', set: true, how: optKept},
	{name: "hashall", flag: 'h', set: true, on: true, how: optQsh},
	{name: "histexpand", flag: 'H', set: true, how: optFixed},
	{name: "history", set: true, how: optQsh},
	{name: "ignoreeof", set: true, how: optQsh},
	{name: "interactive-comments", set: true, on: true, how: optFixed},
	{name: "keyword", flag: 'k', set: true, how: optLacks},
	{name: "monitor", flag: 'm', set: true, how: optKept},
	{name: "noclobber", flag: 'C', set: true, how: optQsh},
	{name: "noexec", flag: 'n', set: true, how: optInterp},
	{name: "noglob", flag: 'f', set: true, how: optInterp},
	{name: "nolog", set: true, how: optKept},
	{name: "notify", flag: 'b', set: true, how: optKept},
	{name: "nounset", flag: 'u', set: true, how: optInterp},
	{name: "onecmd", flag: 't', set: true, how: optLacks},
	{name: "physical", flag: 'P', set: true, how: optQsh},
	{name: "pipefail", set: true, how: optInterp},
	{name: "posix", set: true, how: optLacks},
	{name: "privileged", flag: 'p', set: true, how: optLacks},
	{name: "verbose", flag: 'v', set: true, how: optLacks},
	{name: "vi", set: true, how: optQsh}, // see vi.go
	{name: "xtrace", flag: 'x', set: true, how: optInterp},

	{name: "autocd", how: optQsh},
	{name: "assoc_expand_once", how: optLacks},
	{name: "cdable_vars", how: optQsh},
	{name: "cdspell", how: optKept},
	{name: "checkhash", how: optKept},
	{name: "checkjobs", how: optKept},
	{name: "checkwinsize", on: true, how: optKept},
	{name: "cmdhist", on: true, how: optKept},
	{name: "compat31", how: optLacks},
	{name: "compat32", how: optLacks},
	{name: "compat40", how: optLacks},
	{name: "compat41", how: optLacks},
	{name: "compat42", how: optLacks},
	{name: "compat43", how: optLacks},
	{name: "compat44", how: optLacks},
	{name: "complete_fullquote", on: true, how: optKept},
	{name: "direxpand", how: optKept},
	{name: "dirspell", how: optKept},
	{name: "dotglob", how: optInterp},
	{name: "execfail", how: optLacks},
	{name: "expand_aliases", how: optInterp},
	{name: "extdebug", how: optLacks},
	{name: "extglob", how: optInterp},
	{name: "extquote", on: true, how: optKept},
	{name: "failglob", how: optLacks},
	{name: "force_fignore", on: true, how: optKept},
	{name: "globasciiranges", on: true, how: optFixed},
	{name: "globskipdots", on: true, how: optFixed},
	{name: "globstar", how: optInterp},
	{name: "gnu_errfmt", how: optKept},
	{name: "histappend", how: optKept},
	{name: "histreedit", how: optKept},
	{name: "histverify", how: optKept},
	{name: "hostcomplete", on: true, how: optKept},
	{name: "huponexit", how: optKept},
	// interp's command substitutions always inherit set -e.
	{name: "inherit_errexit", on: true, how: optFixed},
	{name: "interactive_comments", on: true, how: optFixed},
	{name: "lastpipe", how: optLacks},
	{name: "lithist", how: optKept},
	{name: "localvar_inherit", how: optLacks},
	{name: "localvar_unset", how: optLacks},
	{name: "login_shell", how: optFixed},
	{name: "mailwarn", how: optKept},
	{name: "no_empty_cmd_completion", how: optKept},
	{name: "nocaseglob", how: optInterp},
	{name: "nocasematch", how: optLacks},
	{name: "noexpand_translation", how: optKept},
	{name: "nullglob", how: optInterp},
	{name: "patsub_replacement", on: true, how: optFixed},
	{name: "progcomp", on: true, how: optKept},
	{name: "progcomp_alias", how: optKept},
	{name: "promptvars", on: true, how: optQsh}, // see prompt.go
	{name: "restricted_shell", how: optFixed},
	{name: "shift_verbose", how: optKept},
	{name: "sourcepath", on: true, how: optKept},
	{name: "varredir_close", how: optLacks},
	{name: "xpg_echo", how: optQsh},
}

const (
	// optsVar holds, in the shell's own variables, the names of the
	// options whose state is not their default, so that a subshell's
	// changes stay in the subshell, as bash's do. interp's own options
	// are there too, as qsh cannot read interp's state (nor $- from a
	// handler); every change goes through `set` and `shopt`, which update
	// both.
	optsVar = "__qsh_opts"

	setUsage   = "set: usage: set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]"
	shoptUsage = "shopt: usage: shopt [-pqsu] [-o] [optname ...]"
)

func findOpt(name string, set bool) *shellOpt {
	for i := range shellOpts {
		if o := &shellOpts[i]; o.name == name && o.set == set {
			return o
		}
	}
	return nil
}

func optByFlag(flag byte) *shellOpt {
	for i := range shellOpts {
		if o := &shellOpts[i]; o.flag == flag {
			return o
		}
	}
	return nil
}

// optStates is the shell's options as one command sees them.
type optStates struct {
	interactive, login bool
	toggled            []string // options not in their default state
}

func (s *Shell) optStates(env expand.Environ) optStates {
	return optStates{
		interactive: s.interactive,
		login:       s.login,
		toggled:     strings.Fields(env.Get(optsVar).String()),
	}
}

// defaultOn is an option's state in a fresh shell.
func (st optStates) defaultOn(o *shellOpt) bool {
	switch o.name {
	case "emacs", "history", "monitor", "expand_aliases":
		return st.interactive
	case "login_shell":
		return st.login
	}
	return o.on
}

func (st optStates) on(o *shellOpt) bool {
	return st.defaultOn(o) != slices.Contains(st.toggled, o.name)
}

// opt reports whether the named option is on for the command of env.
func (s *Shell) opt(env expand.Environ, name string) bool {
	for i := range shellOpts {
		if o := &shellOpts[i]; o.name == name {
			return s.optStates(env).on(o)
		}
	}
	return false
}

// optNow is opt between command lines, for the REPL.
func (s *Shell) optNow(name string) bool {
	return s.opt(expand.ListEnviron(optsVar+"="+s.Var(optsVar)), name)
}

// optChange is one option to turn on or off.
type optChange struct {
	opt *shellOpt
	on  bool
}

// applyOpts makes the changes, in interp too for its options, and fails
// (1) if any is one qsh refuses.
func (s *Shell) applyOpts(ctx context.Context, hc interp.HandlerContext, b builtinIO, changes []optChange) int {
	if len(changes) == 0 {
		return 0
	}
	// emacs and vi are the line editor's modes: one turns the other off.
	for _, c := range changes {
		if c.on && (c.opt.name == "emacs" || c.opt.name == "vi") {
			other := map[string]string{"emacs": "vi", "vi": "emacs"}[c.opt.name]
			changes = append(changes, optChange{findOpt(other, true), false})
		}
	}
	states := s.optStates(hc.Env)
	before := slices.Clone(states.toggled)
	var setArgs, shoptOn, shoptOff []string
	st := 0
	for _, c := range changes {
		o := c.opt
		switch o.how {
		case optLacks, optFixed:
			if c.on != states.defaultOn(o) {
				if o.name == "login_shell" || o.name == "restricted_shell" {
					st = b.fail(1, "%s: cannot set option", o.name)
				} else {
					st = s.refuseOpt(b, o, c.on)
				}
				continue
			}
		case optInterp:
			sign := map[bool]string{true: "-o", false: "+o"}[c.on]
			switch {
			case o.set:
				setArgs = append(setArgs, sign, o.name)
			case c.on:
				shoptOn = append(shoptOn, o.name)
			default:
				shoptOff = append(shoptOff, o.name)
			}
		}
		if o.name == "promptvars" {
			s.noPromptVars = !c.on
		}
		i := slices.Index(states.toggled, o.name)
		switch toggle := c.on != states.defaultOn(o); {
		case toggle && i < 0:
			states.toggled = append(states.toggled, o.name)
		case !toggle && i >= 0:
			states.toggled = slices.Delete(states.toggled, i, i+1)
		}
	}
	if len(setArgs) > 0 {
		hc.Builtin(ctx, append([]string{"set"}, setArgs...))
	}
	if len(shoptOn) > 0 {
		hc.Builtin(ctx, append([]string{"shopt", "-s"}, shoptOn...))
	}
	if len(shoptOff) > 0 {
		hc.Builtin(ctx, append([]string{"shopt", "-u"}, shoptOff...))
	}
	if !slices.Equal(states.toggled, before) {
		hc.Builtin(ctx, []string{"eval", "declare -g " + optsVar + "=" + singleQuote(strings.Join(states.toggled, " "))})
	}
	return st
}

// refuseOpt says, once a session for each option, that qsh cannot do what
// it asks, and fails.
func (s *Shell) refuseOpt(b builtinIO, o *shellOpt, on bool) int {
	s.mu.Lock()
	said := s.refused[o.name]
	if s.refused == nil {
		s.refused = map[string]bool{}
	}
	s.refused[o.name] = true
	s.mu.Unlock()
	if !said {
		state := "on"
		if !on {
			state = "off"
		}
		b.fail(1, "%s: qsh cannot turn this option %s", o.name, state)
	}
	return 1
}

// setBuiltin is bash's set: options, positional parameters, and with no
// arguments the list of variables.
func (s *Shell) setBuiltin(ctx context.Context, hc interp.HandlerContext, b builtinIO, args []string) int {
	if len(args) == 0 {
		return s.listVars(hc, b)
	}
	var changes []optChange
	var params []string
	setParams, list := false, ""
	for len(args) > 0 {
		a := args[0]
		if a == "--" || a == "-" {
			params, args = args[1:], nil
			if a == "-" {
				changes = append(changes, optChange{findOpt("xtrace", true), false}, optChange{findOpt("verbose", true), false})
				setParams = len(params) > 0
			} else {
				setParams = true
			}
			break
		}
		if len(a) < 2 || a[0] != '-' && a[0] != '+' {
			params, setParams = args, true
			break
		}
		args = args[1:]
		on := a[0] == '-'
		for _, c := range []byte(a[1:]) {
			if c == 'o' {
				if len(args) == 0 || strings.HasPrefix(args[0], "-") || strings.HasPrefix(args[0], "+") {
					list = a[:1]
					continue
				}
				o := findOpt(args[0], true)
				if o == nil {
					b.fail(2, "%s: invalid option name", args[0])
					return 2
				}
				changes = append(changes, optChange{o, on})
				args = args[1:]
				continue
			}
			o := optByFlag(c)
			if o == nil {
				b.fail(2, "%c%c: invalid option", a[0], c)
				fmt.Fprintln(b.err, setUsage)
				return 2
			}
			changes = append(changes, optChange{o, on})
		}
	}
	st := s.applyOpts(ctx, hc, b, changes)
	if setParams {
		hc.Builtin(ctx, append([]string{"set", "--"}, params...))
	}
	if list != "" {
		s.listOpts(hc, b, true, list == "+", nil)
	}
	return st
}

// listOpts prints the options (those of set, or of shopt) as `set -o`
// does, or as commands that set them again (`set +o`, `shopt -p`); only
// those in which, if not nil, and those that are on or off if onlyOn or
// onlyOff.
func (s *Shell) listOpts(hc interp.HandlerContext, b builtinIO, set, commands bool, only func(on bool) bool) {
	states := s.optStates(hc.Env)
	var sb strings.Builder
	for i := range shellOpts {
		o := &shellOpts[i]
		if o.set != set {
			continue
		}
		on := states.on(o)
		if only != nil && !only(on) {
			continue
		}
		writeOpt(&sb, o, on, commands)
	}
	b.out.Write([]byte(sb.String()))
}

func writeOpt(sb *strings.Builder, o *shellOpt, on, commands bool) {
	switch {
	case commands && o.set:
		sign := "+"
		if on {
			sign = "-"
		}
		fmt.Fprintf(sb, "set %so %s\n", sign, o.name)
	case commands:
		sign := "-u"
		if on {
			sign = "-s"
		}
		fmt.Fprintf(sb, "shopt %s %s\n", sign, o.name)
	default:
		state := "off"
		if on {
			state = "on"
		}
		fmt.Fprintf(sb, "%-15s\t%s\n", o.name, state)
	}
}

// shoptBuiltin is bash's shopt.
func (s *Shell) shoptBuiltin(ctx context.Context, hc interp.HandlerContext, b builtinIO, args []string) int {
	var set, unset, print, quiet, setOpts bool
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		a := args[0]
		args = args[1:]
		if a == "--" {
			break
		}
		for _, c := range a[1:] {
			switch c {
			case 's':
				set = true
			case 'u':
				unset = true
			case 'p':
				print = true
			case 'q':
				quiet = true
			case 'o':
				setOpts = true
			default:
				b.fail(2, "-%c: invalid option", c)
				fmt.Fprintln(b.err, shoptUsage)
				return 2
			}
		}
	}
	if set && unset {
		return b.fail(1, "cannot set and unset shell options simultaneously")
	}
	if len(args) == 0 {
		if quiet {
			return 0
		}
		var only func(bool) bool
		switch {
		case set:
			only = func(on bool) bool { return on }
		case unset:
			only = func(on bool) bool { return !on }
		}
		s.listOpts(hc, b, setOpts, print, only)
		return 0
	}
	states := s.optStates(hc.Env)
	st := 0
	var changes []optChange
	var sb strings.Builder
	for _, name := range args {
		o := findOpt(name, setOpts)
		if o == nil {
			if setOpts {
				b.fail(1, "%s: invalid option name", name)
				continue // bash's status stays as it was
			}
			st = b.fail(1, "%s: invalid shell option name", name)
			continue
		}
		if set || unset {
			changes = append(changes, optChange{o, set})
			continue
		}
		on := states.on(o)
		if !on {
			st = 1
		}
		if !quiet {
			writeOpt(&sb, o, on, print)
		}
	}
	b.out.Write([]byte(sb.String()))
	if s.applyOpts(ctx, hc, b, changes) != 0 {
		st = 1
	}
	return st
}

// noclobber is the open handler's part of set -C: a redirection with > does
// not overwrite an existing regular file. It also creates files as bash
// does, readable and writable by all that the umask allows (interp asks
// for 0644).
func (s *Shell) noclobber(next interp.OpenHandlerFunc) interp.OpenHandlerFunc {
	return func(ctx context.Context, path string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
		if flag&os.O_CREATE != 0 && perm == 0o644 {
			perm = 0o666
		}
		if flag&os.O_TRUNC != 0 && s.opt(interp.HandlerCtx(ctx).Env, "noclobber") {
			abs := path
			if !filepath.IsAbs(abs) {
				abs = filepath.Join(interp.HandlerCtx(ctx).Dir, path)
			}
			if fi, err := os.Stat(abs); err == nil && fi.Mode().IsRegular() {
				return nil, &os.PathError{Op: "open", Path: path, Err: errors.New("cannot overwrite existing file")}
			}
		}
		return next(ctx, path, flag, perm)
	}
}

// IsOption reports whether name is an option of `set -o`, or of shopt.
func IsOption(name string, shopt bool) bool { return findOpt(name, !shopt) != nil }

// SetOptions sets the options of qsh's command line: as `shopt` with each
// pair of shopt (-s NAME, -u NAME), then `set` with set's flags.
func (s *Shell) SetOptions(ctx context.Context, set, shopt []string) {
	src := optionsText(set, shopt)
	if src == "" {
		return
	}
	if f, st := s.parse(src, "qsh"); st == 0 {
		s.runFile(ctx, f)
	}
}

// optionsText is the set and shopt commands of qsh's command line flags.
func optionsText(set, shopt []string) string {
	var src strings.Builder
	for i := 0; i+1 < len(shopt); i += 2 {
		fmt.Fprintf(&src, "shopt %s %s\n", shopt[i], quote(shopt[i+1]))
	}
	if len(set) > 0 {
		src.WriteString("set")
		for _, a := range set {
			src.WriteString(" " + quote(a))
		}
		src.WriteString("\n")
	}
	return src.String()
}
