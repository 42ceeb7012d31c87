package shell

import (
	"context"
	"maps"
	"slices"
	"strings"
)

// runKey marks the context of the assistant's subshell ([Shell.Run]).
type runKey struct{}

// inRun reports whether ctx is the assistant's subshell's.
func inRun(ctx context.Context) bool { return ctx.Value(runKey{}) != nil }

// keep saves what the session keeps outside its evaluator — key bindings
// and readline variables, completion specs, history — and returns a func
// that puts it back. The evaluator's own state (variables, traps, the
// umask, limits, aliases) a subshell never changes; what the shell keeps
// beside it, the assistant's subshell is given back as it found it: a
// command it ran must not rebind Enter or empty the user's history.
func (s *Shell) keep() (restore func()) {
	keys := s.keys.clone()
	viKeys := maps.Clone(s.viKeys)
	for name, m := range viKeys {
		viKeys[name] = m.clone()
	}
	rlVars := maps.Clone(s.rlVars)
	specs := &s.comp.specs
	specs.mu.Lock()
	names, list := slices.Clone(specs.names), maps.Clone(specs.specs)
	specs.mu.Unlock()
	histFiles := s.histFiles
	var hist []string
	var times []int64
	if s.hist != nil {
		s.joinHistory(true)
		hist, times = slices.Clone(s.hist.entries), slices.Clone(s.hist.times)
	}
	return func() {
		s.keys.mu.Lock()
		s.keys.list, s.keys.first = keys.list, keys.first
		s.keys.mu.Unlock()
		s.viKeys, s.rlVars = viKeys, rlVars
		specs.mu.Lock()
		specs.names, specs.specs = names, list
		specs.mu.Unlock()
		s.histFiles = histFiles
		if s.hist != nil {
			s.hist.entries, s.hist.times = hist, times
		}
	}
}

// bindReadsFile reports whether bind's arguments have -f, which reads a
// file of bindings.
func bindReadsFile(args []string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || len(a) < 2 || a[0] != '-' {
			return false
		}
		if strings.ContainsRune(a[1:], 'f') {
			return true
		}
		if strings.ContainsAny(a[1:], "mqurx") { // takes the next word
			i++
		}
	}
	return false
}

// clone returns a copy of m's bindings.
func (m *keymap) clone() *keymap {
	m.mu.Lock()
	defer m.mu.Unlock()
	return &keymap{list: slices.Clone(m.list), first: m.first}
}
