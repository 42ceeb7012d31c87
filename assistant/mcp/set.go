package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"sync"

	"github.com/qsh-shell/qsh/assistant/tools"
)

// Registry is what a Set needs of tools.Registry: it confirms, validates
// and audits every call of the tools added to it.
type Registry interface {
	Tools() []tools.Tool
	Add(tools.Tool)
	Call(ctx context.Context, env tools.Env, name string, args json.RawMessage) tools.Result
}

// Set offers the servers' tools through a registry, for the agent: at the
// start of each turn Prepare starts the servers and adds their tools to the
// registry; Tools lists the registry's tools less those of servers that are
// down, so the model is never offered a tool that cannot run.
type Set struct {
	m   *Manager
	reg Registry

	mu   sync.Mutex
	live map[string]bool // names of the MCP tools Prepare last returned
}

// Set joins the manager's tools to reg. The manager should be made with
// Confirm(nil): the registry confirms each call itself.
func (m *Manager) Set(reg Registry) *Set {
	return &Set{m: m, reg: reg, live: map[string]bool{}}
}

// Prepare starts the servers that are not running, waiting at most the
// start-up timeout, and returns one warning line for each that failed.
func (s *Set) Prepare(ctx context.Context) []string {
	list, warnings := s.m.Tools(ctx)
	live := map[string]bool{}
	for _, t := range list {
		s.reg.Add(t)
		live[t.Name()] = true
	}
	s.mu.Lock()
	s.live = live
	s.mu.Unlock()
	return warnings
}

// Tools lists the registry's tools, without the MCP tools of servers that
// were down at the last Prepare.
func (s *Set) Tools() []tools.Tool {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []tools.Tool
	for _, t := range s.reg.Tools() {
		if _, ok := t.(*Tool); ok && !s.live[t.Name()] {
			continue
		}
		out = append(out, t)
	}
	return out
}

// Call calls a tool through the registry.
func (s *Set) Call(ctx context.Context, env tools.Env, name string, args json.RawMessage) tools.Result {
	return s.reg.Call(ctx, env, name, args)
}

// Status is the registry's lines (the sandbox of calls made in env), then
// one line per configured server for the assistant's status, and the
// configuration file's error if it has one. It starts nothing.
func (s *Set) Status(env tools.Env) []string {
	st, err := s.m.Status()
	var lines []string
	if r, ok := s.reg.(interface{ Status(tools.Env) []string }); ok {
		lines = r.Status(env)
	}
	if err != nil {
		lines = append(lines, "mcp: "+strings.TrimPrefix(err.Error(), "mcp "))
	}
	if len(st) == 0 && err == nil {
		where := "Servers()"
		if s.m.servers == nil {
			where = s.m.configPath
		}
		lines = append(lines, "mcp: no servers configured in "+where)
	}
	for _, x := range st {
		lines = append(lines, "mcp: "+x.String())
	}
	return lines
}

// Close stops the servers.
func (s *Set) Close() error { return s.m.Close() }
