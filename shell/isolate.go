package shell

import (
	"context"
	"maps"
	"slices"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// runKey marks the context of the assistant's subshell ([Shell.Run]).
type runKey struct{}

// inRun reports whether ctx is the assistant's subshell's.
func inRun(ctx context.Context) bool { return ctx.Value(runKey{}) != nil }

// keep saves what the session keeps outside its interpreter's variables —
// key bindings and readline variables, completion specs, traps, the umask, resource limits, history, prompt and
// exit flags — and returns a func that puts it back. bash runs a subshell
// in a process of its own, so what a subshell changes stays there; qsh's
// subshells share the process and the Shell, so the assistant's subshell
// is given back the session as it found it: a command it ran must not
// rebind Enter, trap Ctrl-C or lower the limits of the user's shell.
func (s *Shell) keep() (restore func()) {
	umask := syscall.Umask(0)
	syscall.Umask(umask)
	limits := make([]unix.Rlimit, len(ulimits))
	for i, u := range ulimits {
		unix.Getrlimit(u.res, &limits[i])
	}
	keys := s.keys.clone()
	viKeys := maps.Clone(s.viKeys)
	for name, m := range viKeys {
		viKeys[name] = m.clone()
	}
	rlVars := maps.Clone(s.rlVars)
	s.compspecs.mu.Lock()
	names, specs := slices.Clone(s.compspecs.names), maps.Clone(s.compspecs.specs)
	s.compspecs.mu.Unlock()
	restoreTraps := s.keepTraps()
	aliases := maps.Clone(s.aliases)
	restoreHash := s.hash.keep()
	exitTrap, debug := s.exitTrap, s.debug.cmd.Load()
	noPromptVars, exitCalled := s.noPromptVars, s.exitCalled.Load()
	histFiles := s.histFiles
	var hist []string
	if s.hist != nil {
		s.joinHistory(true)
		hist = slices.Clone(s.hist.entries)
	}
	return func() {
		syscall.Umask(umask)
		for i, u := range ulimits {
			var now unix.Rlimit
			if unix.Getrlimit(u.res, &now) == nil && now != limits[i] {
				unix.Setrlimit(u.res, &limits[i])
			}
		}
		s.keys.mu.Lock()
		s.keys.list, s.keys.first = keys.list, keys.first
		s.keys.mu.Unlock()
		s.viKeys, s.rlVars = viKeys, rlVars
		s.compspecs.mu.Lock()
		s.compspecs.names, s.compspecs.specs = names, specs
		s.compspecs.mu.Unlock()
		restoreTraps()
		s.aliases = aliases
		restoreHash()
		s.exitTrap = exitTrap
		s.debug.cmd.Store(debug)
		s.noPromptVars = noPromptVars
		s.exitCalled.Store(exitCalled)
		s.histFiles = histFiles
		if s.hist != nil {
			s.hist.entries = hist
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
