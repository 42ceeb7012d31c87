package main

import (
	"context"

	"github.com/qsh-shell/qsh/ai"
	"github.com/qsh-shell/qsh/shell"
	"github.com/qsh-shell/qsh/tools"
	"github.com/qsh-shell/qsh/tools/mcp"
)

// assistant returns what answers `?` lines and what to call when the shell
// exits. Everything of the assistant — the agent, its tools, the MCP
// servers — is made on the first question: a shell that never asks pays
// nothing for it.
func assistant(cfg config) (shell.AskFunc, func()) {
	var (
		agent *ai.Agent
		mcps  *mcp.Manager
		last  shell.Question // the question being answered, for the MCP servers' env and cwd
	)
	ask := func(ctx context.Context, q shell.Question) error {
		last = q
		if agent == nil {
			reg := tools.NewRegistry(cfg.Tools)
			var ts ai.ToolSet = reg
			if cfg.Tools.MCP {
				opts := []mcp.Option{
					// The registry confirms and audits MCP calls like any tool's.
					mcp.Confirm(nil),
					mcp.MaxOutput(cfg.Tools.ExecMaxOutput),
					// The servers see the session's variables (PATH set in
					// .qshrc, not the API keys) and start in its cwd.
					mcp.Environ(func() []string { return last.Environ }),
					mcp.Dir(func() string { return last.Dir }),
				}
				if cfg.Tools.MCPConfig != "" {
					opts = append(opts, mcp.ConfigFile(cfg.Tools.MCPConfig))
				}
				mcps = mcp.New(opts...)
				ts = mcps.Set(reg)
			}
			agent = ai.New(cfg.AI, ts)
		}
		rec := make([]ai.Command, len(q.Record))
		for i, c := range q.Record {
			rec[i] = ai.Command(c)
		}
		return agent.Ask(ctx, ai.Request{
			Text:     q.Text,
			Dir:      q.Dir,
			Record:   rec,
			Stdout:   q.Stdout,
			Terminal: q.Terminal,
			Environ:  q.Environ,
			Env:      tools.Env{ReadKey: q.ReadKey, Run: tools.RunFunc(q.Run)},
		})
	}
	stop := func() {
		if mcps != nil {
			mcps.Close()
		}
	}
	return ask, stop
}
