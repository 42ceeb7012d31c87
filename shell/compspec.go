package shell

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/qsh-shell/qsh/completions"
)

// The names bash files the -D, -E and -I compspecs under.
const (
	defaultSpec = "_DefaultCmD_"
	emptySpec   = "_EmptycmD_"
	initialSpec = "_InitialWorD_"
)

// compspecs are the compspecs `complete` registered, by command name.
type compspecs struct {
	mu    sync.Mutex
	names []string // in the order first registered, as `complete -p` lists them
	specs map[string]completions.Spec
}

func (t *compspecs) get(name string) (completions.Spec, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	sp, ok := t.specs[name]
	return sp, ok
}

func (t *compspecs) set(name string, sp completions.Spec) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.specs == nil {
		t.specs = map[string]completions.Spec{}
	}
	if _, ok := t.specs[name]; !ok {
		t.names = append(t.names, name)
	}
	t.specs[name] = sp
}

func (t *compspecs) remove(name string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.specs[name]; !ok {
		return false
	}
	delete(t.specs, name)
	t.names = slices.DeleteFunc(t.names, func(n string) bool { return n == name })
	return true
}

func (t *compspecs) clear() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.names, t.specs = nil, nil
}

func (t *compspecs) list() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.names)
}

// specNames are the names of a's operands: the one of -D, -E or -I (only
// one counts, in that order, as in bash), else the names given.
func specNames(a completions.Args) []string {
	switch {
	case a.Default:
		return []string{defaultSpec}
	case a.Empty:
		return []string{emptySpec}
	case a.Initial:
		return []string{initialSpec}
	}
	return a.Names
}

// shownName is how bash shows the name of a compspec.
func shownName(name string) string {
	switch name {
	case defaultSpec:
		return "-D"
	case emptySpec:
		return "-E"
	case initialSpec:
		return "-I"
	}
	return name
}

// complete is `complete`: it registers, prints (-p, or no arguments) or
// removes (-r) compspecs.
func (s *Shell) complete(b builtinIO, args []string) int {
	a, err := completions.ParseArgs("complete", args)
	if err != nil {
		return b.usage(err)
	}
	names := specNames(a)
	switch {
	case a.Remove:
		if len(names) == 0 {
			s.compspecs.clear()
			return 0
		}
		st := 0
		for _, n := range names {
			if !s.compspecs.remove(n) {
				st = b.fail(1, "%s: no completion specification", n)
			}
		}
		return st
	case a.Print || len(args) == 0:
		if len(names) == 0 {
			names = s.compspecs.list()
		}
		st := 0
		for _, n := range names {
			sp, ok := s.compspecs.get(n)
			if !ok {
				st = b.fail(1, "%s: no completion specification", n)
				continue
			}
			fmt.Fprintln(b.out, sp.Print(shownName(n)))
		}
		return st
	case len(names) == 0:
		fmt.Fprintf(b.err, "%s%s: usage: %s\n", b.where, b.name, completions.Usage("complete"))
		return 2
	}
	for _, n := range names {
		s.compspecs.set(n, a.Spec)
	}
	return 0
}

// compopt is `compopt`: it changes (-o, +o) or prints the options of the
// completion being generated, or of the named compspecs.
func (s *Shell) compopt(ctx context.Context, b builtinIO, args []string) int {
	a, err := completions.ParseArgs("compopt", args)
	if err != nil {
		return b.usage(err)
	}
	on, off := a.Spec.Options, a.Off
	names := specNames(a)
	if len(names) == 0 {
		c, ok := ctx.Value(compCallKey{}).(*compCall)
		if !ok || c.line == nil { // compgen -F's function is no completion
			return b.fail(1, "not currently executing completion function")
		}
		if on == 0 && off == 0 {
			fmt.Fprintln(b.out, completions.Spec{Options: c.opts}.PrintOptions(c.cmd))
			return 0
		}
		c.opts = c.opts&^off | on
		return 0
	}
	st := 0
	for _, n := range names {
		sp, ok := s.compspecs.get(n)
		if !ok {
			st = b.fail(1, "%s: no completion specification", n)
			continue
		}
		if on == 0 && off == 0 {
			fmt.Fprintln(b.out, sp.PrintOptions(shownName(n)))
			continue
		}
		sp.Options = sp.Options&^off | on
		s.compspecs.set(n, sp)
	}
	return st
}

// compspecFor finds the compspec for the command cmd: its own, the one of
// its base name, else the default (-D).
func (s *Shell) compspecFor(cmd string) (name string, sp completions.Spec, ok bool) {
	if sp, ok := s.compspecs.get(cmd); ok {
		return cmd, sp, true
	}
	if i := strings.LastIndexByte(cmd, '/'); i >= 0 {
		if sp, ok := s.compspecs.get(cmd[i+1:]); ok {
			return cmd[i+1:], sp, true
		}
	}
	sp, ok = s.compspecs.get(defaultSpec)
	return defaultSpec, sp, ok
}
