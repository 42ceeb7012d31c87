package ai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/qsh-shell/qsh/assistant/ai/anthropic"
	"github.com/qsh-shell/qsh/assistant/ai/chat"
	"github.com/qsh-shell/qsh/assistant/ai/openai"
	"github.com/qsh-shell/qsh/assistant/tools"
	"github.com/qsh-shell/qsh/internal/ansi"
)

// ToolSet is what the agent needs of the tool registry.
type ToolSet interface {
	Tools() []tools.Tool
	Call(ctx context.Context, env tools.Env, name string, args json.RawMessage) tools.Result
}

// preparer is a ToolSet with work to do before each turn, such as MCP
// servers that start on the first question; it returns lines to show.
type preparer interface {
	Prepare(ctx context.Context) []string
}

// statuser is a ToolSet with lines of its own for `? /status`, for tool
// calls made in env (the sandbox's paths depend on where).
type statuser interface {
	Status(env tools.Env) []string
}

// Request is one `?` line with what the assistant needs from the session.
type Request struct {
	// Text is the line after `?`, trimmed; empty for a bare `?`, which asks
	// about the last command of Record.
	Text string
	// Dir is the shell's cwd.
	Dir string
	// Record is the session's recent commands, oldest first.
	Record []Command
	// Stdout receives the answer, tool lines and notes.
	Stdout io.Writer
	// Terminal reports whether Stdout is a terminal: colour, spinner.
	Terminal bool
	// Env is handed to the tools; its empty Dir, Out and Terminal are
	// filled from the fields above.
	Env tools.Env
	// Environ is the session's exported variables (NAME=value), whose
	// secret-looking values are kept from the model; nil means os.Environ.
	Environ []string
	// NoContext is set when the shell sends no session record
	// (QSH_AI_CONTEXT=off).
	NoContext bool
	// Private is set for a question on a private line: it goes to the
	// model and stays in the conversation for follow-ups, but its turn is
	// never saved to disk nor exported.
	Private bool
	// Suggest is set for a `??` line: Text describes one command, asked
	// for without tools and put on the prompt line through Env.Edit.
	Suggest bool
	// Events, when set, makes the turn headless (qsh --json): nothing is
	// rendered, and its events go to Events as JSON lines (see Event);
	// Stdout and Terminal are then unused. Ask's error is then an *Ended
	// for a turn that did not simply answer.
	Events io.Writer
}

// outcome is what a headless turn's end event says besides its error.
type outcome struct {
	turn    bool   // a question was answered, not a /command
	refused string // the first call refused, said in a few words
	stopped bool   // a limit ended the turn
	usage   tally
}

// Agent is the assistant of one shell session: it keeps the conversation
// across questions. Its methods are safe to call from one goroutine at a
// time; a second Ask waits for the first.
type Agent struct {
	cfg      Config
	tools    ToolSet
	backoff  func(attempt int, retryAfter time.Duration) time.Duration
	hc       *http.Client
	now      func() time.Time
	retries  int
	maxCalls int

	// afterFunc starts QSH_AI_TIMEOUT's timer: time.AfterFunc, or in
	// tests one that fires when they say.
	afterFunc func(time.Duration, func()) *time.Timer

	mu     sync.Mutex
	ready  bool
	ep     Endpoint
	epErr  error
	stream chat.StreamFunc
	osname string
	msgs   []chat.Message
	// since is the start of the newest command already shown to the model.
	since time.Time
	usage tally // this session's tokens
	saved savedState
	// noTools holds the models whose server refused tools this session:
	// with protocol auto they get fenced blocks instead.
	noTools map[string]bool
	window  window
	// perms is `? /permissions`; nil without tools.
	perms PermissionsFunc
	// undo is `? /undo` and `? /checkpoints`; nil without checkpoints.
	undo UndoFunc
	// turnEnd runs the user's turn-end hook; nil without one.
	turnEnd TurnEndFunc
	// jobs lists the conversation's background commands, or stops them
	// as it ends; nil without tools.
	jobs JobsFunc
}

// Option configures an Agent.
type Option func(*Agent)

// Backoff sets how long to wait before retry number attempt (0 for the
// first) of a rate-limited or failed request; retryAfter is the server's
// Retry-After, zero when it sent none.
func Backoff(f func(attempt int, retryAfter time.Duration) time.Duration) Option {
	return func(a *Agent) { a.backoff = f }
}

// Retries sets how many times a request that got 429 or 5xx is sent again.
func Retries(n int) Option { return func(a *Agent) { a.retries = n } }

// MaxCalls caps the tool calls of one turn; calls beyond it are answered
// with an error the model reads.
func MaxCalls(n int) Option { return func(a *Agent) { a.maxCalls = n } }

// HTTPClient sets the client used for model requests.
func HTTPClient(c *http.Client) Option { return func(a *Agent) { a.hc = c } }

// Conversations sets the directory where conversations are saved (see
// package conversation); without it they are not.
func Conversations(dir string) Option { return func(a *Agent) { a.saved.dir = dir } }

// PermissionsFunc is `? /permissions ARGS` for a question asked in dir:
// it lists or revokes what the user allowed with a and A (see
// tools.Registry.Permissions).
type PermissionsFunc func(w io.Writer, dir, args string) error

// Permissions sets what `? /permissions` does.
func Permissions(f PermissionsFunc) Option { return func(a *Agent) { a.perms = f } }

// UndoFunc is `? /undo [N]` (command "/undo") and `? /checkpoints` for a
// question asked with env: it lists the workspace's checkpoints, or puts
// the files back as they were before the last N runs once the user agrees
// (see tools.Registry.Undo).
type UndoFunc func(ctx context.Context, w io.Writer, env tools.Env, command, args string) error

// Undo sets what `? /undo` and `? /checkpoints` do.
func Undo(f UndoFunc) Option { return func(a *Agent) { a.undo = f } }

// TurnEndFunc runs the user's turn-end hook (QSH_AI_HOOK_TURN_END) with
// p; its error says why the hook failed (see tools.Registry.TurnEnd).
type TurnEndFunc func(ctx context.Context, env tools.Env, p tools.HookPayload) error

// TurnEnd sets what runs at the end of each turn.
func TurnEnd(f TurnEndFunc) Option { return func(a *Agent) { a.turnEnd = f } }

// JobsFunc writes the conversation's background commands on w, one a
// line (`? /jobs`); with stop, it stops them, as the conversation ends
// (see tools.Registry.Jobs).
type JobsFunc func(w io.Writer, stop bool)

// Jobs sets what `? /jobs` lists and what a new conversation stops.
func Jobs(f JobsFunc) Option { return func(a *Agent) { a.jobs = f } }

// Clock sets the time source of the context block.
func Clock(now func() time.Time) Option { return func(a *Agent) { a.now = now } }

// New returns the assistant. Nothing is resolved or connected until the
// first question, so a shell that never asks pays nothing. ts may be nil:
// the assistant then has no tools.
func New(cfg Config, ts ToolSet, opts ...Option) *Agent {
	a := &Agent{cfg: cfg, tools: ts, backoff: defaultBackoff, now: time.Now, retries: 3, maxCalls: 25,
		noTools: map[string]bool{}, afterFunc: time.AfterFunc}
	for _, o := range opts {
		o(a)
	}
	// A Config not loaded through package config may hold zeros.
	if a.cfg.MaxIter <= 0 {
		a.cfg.MaxIter = 10
	}
	if a.cfg.Timeout <= 0 {
		a.cfg.Timeout = 120 * time.Second
	}
	if a.cfg.MaxOutput <= 0 {
		a.cfg.MaxOutput = 4096
	}
	return a
}

// fenced reports whether the current model gets its tools as ```tool
// blocks in the prompt rather than as functions.
func (a *Agent) fenced() bool {
	return a.ep.Protocol == ProtocolFenced || a.ep.Protocol == ProtocolAuto && a.noTools[a.ep.Model]
}

// defaultBackoff doubles from half a second, honouring Retry-After, and
// never waits more than 20 seconds.
func defaultBackoff(attempt int, retryAfter time.Duration) time.Duration {
	d := retryAfter
	if d <= 0 {
		d = 500 * time.Millisecond << attempt
	}
	return min(d, 20*time.Second)
}

// init resolves the provider and makes the client, once.
func (a *Agent) init() {
	if a.ready {
		return
	}
	a.ready = true
	a.osname = osName()
	a.ep, a.epErr = a.cfg.Resolve()
	if a.epErr != nil {
		return
	}
	hc := a.hc
	if hc == nil {
		hc = &http.Client{}
	}
	switch a.ep.Provider {
	case Anthropic:
		c := &anthropic.Client{BaseURL: a.ep.BaseURL, Key: a.ep.APIKey, HTTP: hc}
		a.stream = c.Stream
	default:
		c := &openai.Client{BaseURL: a.ep.BaseURL, Key: a.ep.APIKey, HTTP: hc}
		a.stream = c.Stream
	}
}

// Ask answers one `?` line, streaming to req.Stdout. The error, if any, is
// one line for the user (print it as "qsh: " + err); a cancelled ctx
// returns an error matching context.Canceled, after which the conversation
// is still usable.
func (a *Agent) Ask(ctx context.Context, req Request) (err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	defer func() {
		// The shell must outlive any bug in here.
		if r := recover(); r != nil {
			err = fmt.Errorf("assistant: internal error: %v", r)
		}
	}()
	var ev *events
	out := req.Stdout
	if req.Events != nil {
		ev = newEvents(req.Events)
		req.Stdout, req.Terminal = io.Discard, false
	}
	var o outcome
	err = a.ask(ctx, req, ev, &o)
	ended := ending(err, &o)
	if o.turn && a.turnEnd != nil {
		a.endHook(ctx, req, ended, o, out, ev)
	}
	if ev == nil {
		return err
	}
	return ev.end(ended, o.usage)
}

// endHook runs the turn-end hook; a failing one is said in one line.
func (a *Agent) endHook(ctx context.Context, req Request, ended *Ended, o outcome, out io.Writer, ev *events) {
	p := tools.HookPayload{Dir: req.Dir, Question: strings.TrimSpace(req.Text), Reason: ended.Reason,
		InputTokens: o.usage.in, OutputTokens: o.usage.out}
	if ended.Err != nil {
		p.Error = ended.Err.Error()
	}
	env := tools.Env{Dir: req.Dir, Environ: sessionEnviron(req)}
	// Its own time: a turn cancelled with Ctrl-C is still reported.
	err := a.turnEnd(context.WithoutCancel(ctx), env, p)
	switch {
	case err == nil:
	case ev != nil:
		ev.emit(Event{Type: "note", Text: err.Error()})
	case out != nil:
		fmt.Fprintln(out, ansi.Escape(err.Error()))
	}
}

// ask is Ask's work; ev is nil but for a headless turn, o what it tells
// its end.
func (a *Agent) ask(ctx context.Context, req Request, ev *events, o *outcome) error {
	if req.Stdout == nil {
		req.Stdout = io.Discard
	}
	a.init()
	text := strings.TrimSpace(req.Text)
	if strings.HasPrefix(text, "/") && !req.Suggest {
		w := req.Stdout
		var buf bytes.Buffer
		if ev != nil {
			req.Stdout = &buf
		}
		done, err := a.command(ctx, req, text)
		if buf.Len() > 0 {
			ev.emit(Event{Type: "text", Text: buf.String()})
		}
		if done {
			return err
		}
		req.Stdout = w
	}
	if a.epErr != nil {
		return a.epErr
	}
	if a.ep.APIKey == "" && a.ep.Provider != Ollama {
		return fmt.Errorf("%s: no API key — set %s (or QSH_AI_API_KEY), or choose another provider with QSH_AI_PROVIDER", a.ep.Provider, a.ep.KeyVar)
	}
	o.turn = true
	if req.Suggest {
		return a.suggest(ctx, req, text, ev, o)
	}
	if text == "" {
		if req.NoContext {
			return errors.New("QSH_AI_CONTEXT is off, so a bare ? has no command to explain: ask a question after ?")
		}
		if len(req.Record) == 0 {
			return errors.New("nothing to explain yet: run a command first, or ask a question after ?")
		}
		text = bareQuestion(req.Record[len(req.Record)-1])
	}
	red, since, question := a.question(req, text)
	scr := a.screen(req, ev)
	env := req.Env
	if env.Dir == "" {
		env.Dir = req.Dir
	}
	if env.Out == nil {
		env.Out, env.Terminal = req.Stdout, req.Terminal
	}
	if env.Environ == nil {
		env.Environ = sessionEnviron(req)
	}
	if env.Question == "" {
		env.Question = strings.TrimSpace(req.Text)
		if req.Private {
			// A rule made with A saves it with the rule.
			env.Question = "(a private question)"
		}
	}
	// A bare ? diagnoses: nothing changes until the user asks for a fix.
	env.ReadOnly = env.ReadOnly || strings.TrimSpace(req.Text) == ""
	if env.Out == req.Stdout {
		// Through the screen, which then knows where the line ends.
		env.Out = scr
	}
	if p, ok := a.tools.(preparer); ok {
		for _, w := range p.Prepare(ctx) {
			scr.Line(w)
		}
	}
	kept := trim(a.msgs, maxHistory)
	a.learnWindow(ctx)
	t := &turn{a: a, ctx: ctx, scr: scr, env: env, red: red, msgs: append(kept[:len(kept):len(kept)], question), first: len(kept)}
	if !req.Private {
		t.save = a.saver(question, req.Dir, red, scr)
	}
	t.events = ev
	err := t.run()
	o.refused, o.stopped, o.usage = t.refused, t.stopped, t.usage
	if t.usage != (tally{}) && scr.term {
		scr.Line(a.cfg.describe(t.usage))
	}
	if err != nil && len(t.msgs) == len(kept)+1 {
		// Nothing came back: drop the question, so that asking again
		// sends it once, with its context.
		a.since = since
		return err
	}
	if req.Private {
		for i := len(kept); i < len(t.msgs); i++ {
			t.msgs[i].Private = true
		}
	}
	a.msgs = t.msgs
	return err
}

// maxHistory bounds the conversation sent with each question, in bytes of
// text (about a quarter as many tokens).
const maxHistory = 200_000

// trim drops the oldest questions, each with its answers and tool results,
// until the conversation fits in max bytes or one question is left.
func trim(msgs []chat.Message, max int) []chat.Message {
	size := 0
	for _, m := range msgs {
		size += len(m.Text)
		for _, c := range m.Calls {
			size += len(c.Args)
		}
	}
	for size > max {
		// The next question after the first message starts the next turn.
		next := -1
		for i := 1; i < len(msgs); i++ {
			if msgs[i].Role == chat.RoleUser {
				next = i
				break
			}
		}
		if next < 0 {
			break
		}
		for _, m := range msgs[:next] {
			size -= len(m.Text)
			for _, c := range m.Calls {
				size -= len(c.Args)
			}
		}
		msgs = msgs[next:]
	}
	return msgs
}

// command runs an in-band command such as /reset; done is false when the
// line is a question that merely starts with a slash.
func (a *Agent) command(ctx context.Context, req Request, line string) (done bool, err error) {
	name, arg, _ := strings.Cut(line, " ")
	arg = strings.TrimSpace(arg)
	w := req.Stdout
	switch name {
	case "/reset":
		a.msgs, a.since = nil, time.Time{}
		a.endSaved()
		a.stopJobs(w)
		fmt.Fprintln(w, "new conversation")
	case "/resume":
		err := a.resume(req, arg)
		if err == nil && arg != "" {
			a.stopJobs(w) // those of the conversation left
		}
		return true, err
	case "/jobs":
		if a.jobs == nil {
			fmt.Fprintln(w, "no background commands: the assistant has no tools here")
			return true, nil
		}
		a.jobs(w, false)
	case "/export":
		return true, a.export(req, arg)
	case "/status":
		a.status(w, req)
	case "/context":
		a.showContext(req)
	case "/permissions":
		if a.perms == nil {
			fmt.Fprintln(w, "no permissions: the assistant has no tools here")
			return true, nil
		}
		return true, a.perms(w, req.Dir, arg)
	case "/undo", "/checkpoints":
		if a.undo == nil {
			fmt.Fprintln(w, "no checkpoints: the assistant has no tools that change files here")
			return true, nil
		}
		env := req.Env
		if env.Dir == "" {
			env.Dir = req.Dir
		}
		if env.Out == nil {
			env.Out, env.Terminal = w, req.Terminal
		}
		if env.Environ == nil {
			env.Environ = sessionEnviron(req)
		}
		return true, a.undo(ctx, w, env, name, arg)
	case "/model":
		if a.epErr != nil {
			return true, a.epErr
		}
		if arg == "" {
			fmt.Fprintf(w, "model: %s (switch with ? /model NAME)\n", a.ep.Model)
			return true, nil
		}
		a.ep.Model = arg
		fmt.Fprintf(w, "model: %s for this session\n", arg)
	case "/help":
		io.WriteString(w, helpText)
	default:
		return false, nil
	}
	return true, nil
}

// stopJobs stops the conversation's background commands, which end
// with it, saying so on w.
func (a *Agent) stopJobs(w io.Writer) {
	if a.jobs != nil {
		a.jobs(w, true)
	}
}

// Help describes the in-band commands, for `qsh --help` and `? /help`.
const Help = helpText

const helpText = `? QUESTION     ask the assistant; follow-up questions continue the conversation
?              explain the last command (why it failed, how to fix it)
? /reset       start a new conversation
? /status      provider, model, base URL, tools and tokens used this session
? /context     what the next question sends (the context block, sizes), without asking
? /resume [N]  list the saved conversations, or continue number N
? /export [FILE]
               write this conversation as Markdown (default: qsh-conversation-DATE.md here)
? /permissions [revoke N | clear]
               what you allowed with a (this session) and A (always, in this project);
               revoke one, or forget this session's
? /checkpoints list the checkpoints of this workspace: the files before each command
               or edit the assistant made
? /undo [N]    put the files back as they were before the assistant's last run (or last N
               runs), after showing what changes; refused if you changed the same files since
? /jobs        the background commands the assistant started (servers, watchers);
               a new conversation stops them
? /model NAME  use another model for this session
? /help        this text
Ctrl-C cancels an answer. Configuration: QSH_AI_* variables (qsh --config).
`

// protocolStatus says how tools reach the model and why.
func (a *Agent) protocolStatus() string {
	switch {
	case a.ep.Protocol != ProtocolAuto:
		return string(a.ep.Protocol) + " (QSH_AI_TOOL_PROTOCOL)"
	case a.fenced():
		return fmt.Sprintf("fenced: %s does not support tools (auto)", a.ep.Model)
	}
	return "native (auto: fenced for a model whose server refuses tools)"
}

func (a *Agent) status(w io.Writer, req Request) {
	if a.epErr != nil {
		fmt.Fprintf(w, "assistant: not configured: %v\n", a.epErr)
		a.toolStatus(w, req)
		return
	}
	provider := string(a.ep.Provider)
	if p := strings.ToLower(strings.TrimSpace(string(a.cfg.Provider))); p == "" || p == "auto" {
		provider += " (auto)"
	}
	key := "none"
	if a.ep.APIKey != "" {
		key = "from " + a.ep.KeyVar
	}
	var names []string
	if a.tools != nil {
		for _, t := range a.tools.Tools() {
			names = append(names, t.Name())
		}
	}
	tl := "none"
	if len(names) > 0 {
		tl = ansi.Escape(strings.Join(names, ", "))
	}
	fmt.Fprintf(w, "provider  %s\nmodel     %s\nbase URL  %s\napi key   %s\ntools     %s (at most %d round trips)\nprotocol  %s\nanswers   at most %d tokens and %s each\nwindow    %s\ntokens    %s this session%s\nmessages  %d in this conversation\n",
		provider, a.ep.Model, a.ep.BaseURL, key, tl, a.cfg.MaxIter, a.protocolStatus(), a.cfg.MaxOutput, a.cfg.Timeout, a.windowStatus(),
		a.cfg.describe(a.usage), a.cfg.budgetStatus(a.usage), len(a.msgs))
	a.toolStatus(w, req)
}

// sessionEnviron is the session's exported variables, or this process's
// when the request does not say.
func sessionEnviron(req Request) []string {
	if req.Environ != nil {
		return req.Environ
	}
	return os.Environ()
}

// toolStatus writes the tools' own status lines: the sandbox, the MCP
// servers.
func (a *Agent) toolStatus(w io.Writer, req Request) {
	s, ok := a.tools.(statuser)
	if !ok {
		return
	}
	env := tools.Env{Dir: req.Dir, Environ: sessionEnviron(req)}
	for _, line := range s.Status(env) {
		fmt.Fprintln(w, ansi.Escape(line)) // MCP servers' names and errors among them
	}
}

// question is text as the model gets it: after the context block of what
// the session did since the last question, secrets redacted. It returns
// the redactor and when the block began too, and moves that on.
func (a *Agent) question(req Request, text string) (red *Redactor, since time.Time, m chat.Message) {
	red = a.redactor(req.Environ)
	since = a.since
	block := contextBlock(a.osname, req.Dir, a.now(), req.Record, since)
	for _, c := range req.Record {
		if c.Start.After(a.since) {
			a.since = c.Start
		}
	}
	return red, since, chat.Message{Role: chat.RoleUser, Text: red.Redact(block + "\n" + text)}
}

// screen is where a turn's answer is drawn; a headless turn's notes go
// out as events.
func (a *Agent) screen(req Request, ev *events) *screen {
	scr := newScreen(req.Stdout, req.Terminal, a.cfg.NoColor == "")
	scr.cols = req.Env.Columns
	if ev != nil {
		scr.note = func(s string) { ev.emit(Event{Type: "note", Text: s}) }
	}
	return scr
}
