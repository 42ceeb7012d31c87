package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"golang.org/x/term"

	"github.com/qsh-shell/qsh/assistant/ai"
	"github.com/qsh-shell/qsh/assistant/ai/conversation"
	"github.com/qsh-shell/qsh/assistant/mcp"
	"github.com/qsh-shell/qsh/assistant/tools"
	"github.com/qsh-shell/qsh/config"
	"github.com/qsh-shell/qsh/internal/ansi"
	"github.com/qsh-shell/qsh/keys"
	"github.com/qsh-shell/qsh/wire"
)

// ControlFD is the descriptor of the control channel in the assistant.
const ControlFD = 3

// Settings is the assistant's configuration: the ai and tools sections.
type Settings struct {
	AI    ai.Config
	Tools tools.Config
	// Problems are the values that were not used, for --config.
	Problems config.Problems
	// Refused says why the assistant will not answer: a safety setting
	// that did not parse (see config.Strict); empty when it will.
	Refused string
}

// LoadSettings reads the assistant's configuration from environ; bad
// values get one line each on stderr, but for safety settings', which
// make Refused.
func LoadSettings(environ []string, stderr io.Writer) Settings {
	var s Settings
	s.Problems = config.Load(environ, stderr, &s.AI, &s.Tools)
	s.Refused = strings.Join(config.Strict(s.Problems, &s.AI, &s.Tools), "; ")
	return s
}

// Main is qsh-assistant's main: it serves the control channel on fd 3 until
// qsh closes it. `--config` prints the assistant's variables instead.
func Main(args []string, stdin, stdout, stderr *os.File) int {
	if len(args) > 1 && args[1] == "--config" {
		s := LoadSettings(os.Environ(), stderr)
		config.Print(stdout, s.Problems, s.AI, s.Tools)
		// What the sandbox grants a command run from here.
		dir, _ := os.Getwd()
		for _, line := range tools.NewRegistry(s.Tools, tools.AuditLog("")).Status(tools.Env{Dir: dir, Environ: os.Environ()}) {
			fmt.Fprintln(stdout, "# "+line)
		}
		return 0
	}
	if len(args) > 1 {
		fmt.Fprintf(stderr, "qsh-assistant: %s: invalid option; qsh starts me on `?` lines (only --config is for people)\n", args[1])
		return 2
	}
	control := os.NewFile(ControlFD, "control")
	if _, err := control.Stat(); err != nil {
		fmt.Fprintln(stderr, "qsh-assistant: no control channel on fd 3: qsh starts me on `?` lines")
		return 2
	}
	// The terminal sends Ctrl-C (and Ctrl-Z, Ctrl-\) to the shell's whole
	// process group, this program included. They are the shell's business:
	// on Ctrl-C it sends a cancel for the turn under way. Acting on the
	// signal too would race with that: handled late, it could cancel the
	// next question instead. Caught, not ignored, so that what this program
	// starts gets the default dispositions back.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTSTP, syscall.SIGTTIN, syscall.SIGTTOU)
	defer signal.Stop(sigs)
	go func() {
		for range sigs {
		}
	}()

	s := newServer(wire.NewConn(control), LoadSettings(os.Environ(), stderr))
	s.stdin, s.stdout = stdin, stdout
	s.serve()
	control.Close()
	return 0
}

// newAgent makes the agent with its tools and the MCP servers, as
// cmd/qsh did in-process before the assistant became a program of its own.
func (s *server) newAgent() {
	reg := tools.NewRegistry(s.cfg.Tools)
	s.reg = reg
	var ts ai.ToolSet = reg
	if s.cfg.Tools.MCP {
		opts := []mcp.Option{
			// The registry confirms and audits MCP calls like any tool's.
			mcp.Confirm(nil),
			mcp.MaxOutput(s.cfg.Tools.ExecMaxOutput),
			// The servers see the session's variables (PATH set in .qshrc;
			// not its secrets, see mcp) and start in its cwd.
			mcp.Environ(func() []string { return s.last.Environ }),
			mcp.Dir(func() string { return s.last.Dir }),
			// They run the sandbox's policy for where they start.
			mcp.Start(func(path string, args, env []string, dir string) (string, []string, []*os.File, func(), error) {
				return reg.Confine(tools.Env{Dir: dir, Environ: env}, path, args)
			}),
		}
		if s.cfg.Tools.MCPConfig != "" {
			opts = append(opts, mcp.ConfigFile(s.cfg.Tools.MCPConfig))
		}
		s.mcps = mcp.New(opts...)
		ts = s.mcps.Set(reg)
	}
	s.agent = ai.New(s.cfg.AI, ts, ai.Conversations(conversation.Dir(os.Getenv)), ai.Permissions(reg.Permissions),
		ai.Undo(func(ctx context.Context, w io.Writer, env tools.Env, command, args string) error {
			if command == "/checkpoints" {
				return reg.Checkpoints(w, env)
			}
			return reg.Undo(ctx, w, env, args)
		}),
		ai.TurnEnd(reg.TurnEnd), ai.Jobs(reg.Jobs))
}

// ask answers one question.
func (s *server) ask(ctx context.Context, m wire.Message) error {
	if s.cfg.Refused != "" {
		return errors.New(s.cfg.Refused)
	}
	if s.agent == nil {
		s.newAgent()
	}
	if p, ok := s.reg.Expected(tools.Env{Dir: m.Dir, Environ: m.Environ}); ok && !m.Suggest && ctx.Err() == nil {
		// The first confined command finds its jail open.
		s.conn.Send(wire.Message{Type: wire.Prepare, Sandbox: &p})
	}
	rec := make([]ai.Command, len(m.Record))
	for i, c := range m.Record {
		rec[i] = ai.Command(c)
	}
	env := tools.Env{Run: s.run, Start: s.start, Preview: s.preview}
	if s.stdout != nil {
		out := s.stdout
		env.Columns = func() int {
			cols, _, err := term.GetSize(int(out.Fd()))
			if err != nil {
				return 0
			}
			return cols
		}
	}
	if m.Editable {
		env.Edit = s.edit
	}
	if m.Keys && s.stdin != nil {
		in := s.stdin
		env.ReadKey = func(ctx context.Context) (rune, error) { return keys.Read(ctx, in) }
		env.Discard = func() { keys.Discard(in) }
		env.Quiet = func() func() { return keys.Quiet(in) }
	}
	var out io.Writer = io.Discard
	if s.stdout != nil {
		out = s.stdout
	}
	var events io.Writer
	if m.JSON {
		events = out
	}
	err := s.agent.Ask(ctx, ai.Request{
		Text:      m.Text,
		Dir:       m.Dir,
		Record:    rec,
		Stdout:    out,
		Terminal:  m.Terminal,
		Environ:   m.Environ,
		Env:       env,
		NoContext: m.NoContext,
		Private:   m.Private,
		Suggest:   m.Suggest,
		Events:    events,
	})
	return err
}

// done is the message that ends a turn with err.
func done(err error) wire.Message {
	m := wire.Message{Type: wire.Done}
	var ended *ai.Ended
	if errors.As(err, &ended) {
		m.Ended = ended.Status
	}
	switch {
	case err == nil:
	case errors.Is(err, context.Canceled):
		m.Canceled = true
	default:
		// The shell prints it: a server's error message is shown, never
		// acted on (see package ansi).
		m.Error = ansi.Escape(err.Error())
	}
	return m
}
