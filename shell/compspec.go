package shell

import (
	"slices"
	"strings"
	"sync"

	"github.com/qsh-shell/qsh/shell/completions"
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

// compspecFor finds the compspec for the command cmd: its own, the one of
// its base name, else the default (-D).
func (c *evalCompletion) compspecFor(cmd string) (name string, sp completions.Spec, ok bool) {
	if sp, ok := c.specs.get(cmd); ok {
		return cmd, sp, true
	}
	if i := strings.LastIndexByte(cmd, '/'); i >= 0 {
		if sp, ok := c.specs.get(cmd[i+1:]); ok {
			return cmd[i+1:], sp, true
		}
	}
	sp, ok = c.specs.get(defaultSpec)
	return defaultSpec, sp, ok
}
