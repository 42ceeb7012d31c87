package ai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/qsh-shell/qsh/assistant/ai/chat"
	"github.com/qsh-shell/qsh/assistant/ai/fenced"
	"github.com/qsh-shell/qsh/assistant/tools"
	"github.com/qsh-shell/qsh/internal/ansi"
)

// errTimeout is the cause of a request cancelled by QSH_AI_TIMEOUT.
var errTimeout = errors.New("timeout")

// errTooLong is the cause of a request whose answer went well past the
// output limit it asked for (QSH_AI_MAX_OUTPUT_TOKENS): a server that
// ignores the limit must not stream for ever (one streamed 50 MB).
var errTooLong = errors.New("the answer went past its limit")

// stopTooLong is the stop reason of an answer qsh stopped reading.
const stopTooLong = "qsh_limit"

// How far past its limit an answer may go before qsh stops reading it.
// Tokens are counted by what they cost to stream, with room for what a
// server that keeps to the limit sends: a token is an event or two (the
// events without text count, tool calls' arguments among them), and a
// few bytes of text.
const (
	limitEventsPerToken = 2
	limitBytesPerToken  = 16
	limitSlack          = 64 // events of their own: the role, the end, the usage
)

// turn is one question and the round trips that answer it.
type turn struct {
	a   *Agent
	ctx context.Context
	scr *screen
	env tools.Env
	red *Redactor
	// msgs is the conversation with this turn's messages; the agent keeps
	// it whatever happens, so it must stay valid: every call answered.
	msgs []chat.Message
	// first is the index of this turn's question in msgs.
	first int
	calls int
	// trimmed and cut are set once the user was told that the prompt was
	// fitted to the window, or that the server cut it.
	trimmed, cut bool
	usage        tally // the tokens of this turn's requests
	// save, when not nil, saves each message the turn adds.
	save func(chat.Message)
	// bad holds, by call id, what was wrong with a malformed ```tool block.
	bad map[string]string
	// canceled is set when the user pressed Ctrl-C at a confirmation,
	// which a tool reports in its result rather than through ctx.
	canceled bool
	// earlier is what this turn's calls came to, by callKey.
	earlier map[string]*earlier
	// loop, when set, is the call the model kept making: the turn ends.
	loop string
	// invalid counts the calls in a row that could not be made as asked
	// (see [turn.invalidCall]); broken, when set, ends the turn.
	invalid int
	broken  error
	// handed is set when the user took a command over (e at the
	// confirmation): the turn ends, and the prompt is theirs.
	handed bool
	// quiet keeps the answer off the screen as it streams: a suggestion
	// is shown as a command once it is whole.
	quiet bool
	// events, when not nil, gets the turn's events (qsh --json); last is
	// the result of the call just made, for its class and decision.
	events *events
	last   tools.Result
	// refused is the first call refused without the user (headless),
	// stopped is set when a limit ended the turn.
	refused string
	stopped bool
}

func (t *turn) run() error {
	specs, byName := t.toolSpecs()
	defer t.scr.End()
	for iter := 0; iter < t.a.cfg.MaxIter; iter++ {
		if err := t.a.cfg.overBudget(t.a.usage); err != nil {
			t.stopped = true
			return err
		}
		req := t.build(specs)
		reply, err := t.request(req)
		if err == nil || reply.Usage != (chat.Usage{}) {
			u := counted(req, reply)
			t.usage.add(u)
			t.a.usage.add(u)
		}
		t.checkWindow(req, reply)
		if t.refusedTools(err) {
			// The same question again, with the tools in the prompt; the
			// refused request does not count as a round trip.
			iter--
			continue
		}
		if reply.Text != "" {
			t.events.emit(Event{Type: "text", Text: reply.Text})
		}
		if err != nil {
			if reply.Text != "" {
				// Keep what the user saw, so a follow-up can refer to it.
				t.add(chat.Message{Role: chat.RoleAssistant, Text: reply.Text + "\n[" + stopped(err) + "]"})
			}
			return err
		}
		if reply.Stop == stopTooLong {
			t.scr.Line(fmt.Sprintf("(the answer went past its limit of %d tokens, QSH_AI_MAX_OUTPUT_TOKENS, which the server did not keep to: qsh stopped reading it — ask to go on, or raise it)", req.MaxTokens))
			reply.Text += "\n[stopped here: the answer went past QSH_AI_MAX_OUTPUT_TOKENS]"
		}
		if reply.Stop == "length" || reply.Stop == "max_tokens" {
			if req.MaxTokens < t.a.cfg.MaxOutput {
				t.scr.Line(fmt.Sprintf("(the answer stopped at %d tokens, all that %s's %s-token window left after the prompt — ask to go on, or ? /reset)",
					req.MaxTokens, t.a.ep.Model, thousands(t.a.window.tokens)))
			} else {
				t.scr.Line(fmt.Sprintf("(the answer stopped at its limit of %d tokens, QSH_AI_MAX_OUTPUT_TOKENS — ask to go on, or raise it)", req.MaxTokens))
			}
		}
		t.a.recheckWindow(t.ctx)
		t.add(chat.Message{Role: chat.RoleAssistant, Text: reply.Text, Calls: reply.Calls})
		if len(reply.Calls) == 0 {
			return nil
		}
		for _, c := range reply.Calls {
			t.last = tools.Result{}
			m := t.call(c, byName)
			t.add(m)
			t.emitCall(c, m)
		}
		if t.loop != "" {
			t.stopped = true
			return t.looping()
		}
		if t.broken != nil {
			t.stopped = true
			return t.broken
		}
		if t.handed {
			return nil
		}
		if err := t.ctx.Err(); err != nil {
			return err
		}
		if t.canceled {
			return context.Canceled
		}
	}
	t.stopped = true
	return fmt.Errorf("stopped after %d model round trips (QSH_AI_TOOLS_MAX_ITER) — ask again to let it go on", t.a.cfg.MaxIter)
}

// emitCall tells a headless turn's events of call c and m, its answer;
// the first call refused for want of a person to ask makes the turn's
// status.
func (t *turn) emitCall(c chat.Call, m chat.Message) {
	r := t.last
	if r.Decision == "refused" || r.Decision == "declined" || r.Decision == "vetoed" {
		if t.refused == "" {
			t.refused = fmt.Sprintf("%s was refused (%s): %s", c.Name, r.Class, oneLine(clip(m.Text, 300)))
		}
	}
	if t.events == nil {
		return
	}
	args := json.RawMessage(c.Args)
	if !json.Valid(args) {
		args, _ = json.Marshal(c.Args)
	}
	t.events.emit(Event{Type: "tool_call", ID: c.ID, Name: c.Name, Args: args, Class: r.Class, Decision: r.Decision})
	ok := !m.IsError
	ev := Event{Type: "tool_result", ID: c.ID, OK: &ok, Output: m.Text}
	t.events.emit(ev)
}

// refusedTools reports whether err says that the model does not take
// tools as functions when protocol auto may switch it to fenced blocks;
// the switch holds for the model for the rest of the session, and the
// user is told in one line.
func (t *turn) refusedTools(err error) bool {
	var ce *chat.Error
	if !errors.As(err, &ce) || ce.Kind != chat.NoTools || t.a.ep.Protocol != ProtocolAuto || t.a.fenced() {
		return false
	}
	t.a.noTools[t.a.ep.Model] = true
	t.scr.Line(fmt.Sprintf("(%s does not support tools, so they are described in its prompt as ```tool blocks from now on this session)", t.a.ep.Model))
	return true
}

// build makes the next request of the turn: the conversation so far, the
// tools as functions or as ```tool blocks described in the system prompt,
// and the output limit, all fitted to the model's window. The first time
// in a turn that fitting leaves something out, one line says what.
func (t *turn) build(specs []chat.Tool) chat.Request {
	fenced := t.a.fenced()
	sys := system(fenced, specs)
	if t.env.ReadOnly {
		sys += "\n" + diagnosisPrompt
	}
	req := chat.Request{Model: t.a.ep.Model, System: sys, Messages: t.msgs, MaxTokens: t.a.cfg.MaxOutput}
	if !fenced {
		req.Tools = specs
	}
	if c := t.a.window.fit(&req, t.first); c != (cuts{}) && !t.trimmed {
		t.trimmed = true
		t.scr.Line(fmt.Sprintf("(to fit %s's %s-token window, left out %s)", t.a.ep.Model, thousands(t.a.window.tokens), c))
	}
	if fenced {
		req.Messages = fencedMessages(req.Messages)
	}
	return req
}

// checkWindow learns from what the server counted in the request: a
// prompt as long as the window was cut (Ollama cuts its start: the system
// prompt and the tools' instructions), which the user is told in one line,
// and a server counting more tokens than estimated makes the next
// estimates more cautious.
func (t *turn) checkWindow(req chat.Request, reply chat.Reply) {
	w := &t.a.window
	in := reply.Usage.Input
	if w.tokens <= 0 || in <= 0 {
		return
	}
	if in >= w.tokens {
		w.ratio = max(minRatio, w.ratio*0.75)
		if !t.cut {
			t.cut = true
			t.scr.Line(fmt.Sprintf("(the prompt filled all %s tokens of %s's window, so the server cut its start: the answer may have missed instructions or context — ? /reset, or give the model a larger window: num_ctx, OLLAMA_CONTEXT_LENGTH, QSH_AI_CONTEXT_TOKENS)",
				thousands(w.tokens), t.a.ep.Model))
		}
		return
	}
	// A server that reuses a cached prefix may count less than it was
	// sent, never more: only a lower ratio is believed.
	if r := float64(promptBytes(req)) / float64(in); r < w.ratio {
		w.ratio = max(minRatio, r)
	}
}

// promptBytes is the size of what a request sends the model.
func promptBytes(req chat.Request) int {
	n := len(req.System)
	if len(req.Tools) > 0 {
		b, _ := json.Marshal(req.Tools)
		n += len(b)
	}
	for _, m := range req.Messages {
		n += len(m.Text)
		for _, c := range m.Calls {
			n += len(c.Name) + len(c.Args)
		}
	}
	return n
}

// stopped says in the conversation why an answer ends early, so that a
// follow-up knows it was cut.
func stopped(err error) string {
	switch {
	case errors.Is(err, context.Canceled):
		return "stopped here: the user pressed Ctrl-C"
	case errors.Is(err, errTimeout):
		return "stopped here: QSH_AI_TIMEOUT"
	}
	return "stopped here: the answer broke off"
}

// add appends a message to the conversation, and saves it.
func (t *turn) add(m chat.Message) {
	m = capped(m)
	t.msgs = append(t.msgs, m)
	if t.save != nil {
		t.save(m)
	}
}

// maxMessage bounds one message of a conversation, as it is saved and as
// it is sent again with each follow-up: past it (an answer from a server
// that did not keep to its limit, a saved file from before one was kept)
// a message keeps its beginning and its end. Twice the largest read the
// filesystem tool makes by default, so that no message of a turn that
// kept its limits is cut.
const maxMessage = 2 << 20

// capped is m within maxMessage: its text cut in the middle, arguments
// past it (which cannot be cut and stay JSON) replaced by {}.
func capped(m chat.Message) chat.Message {
	if len(m.Text) > maxMessage {
		half := maxMessage/2 - 64
		head, tail := m.Text[:half], m.Text[len(m.Text)-half:]
		m.Text = strings.ToValidUTF8(head, "") + fmt.Sprintf("\n[… %d bytes cut …]\n", len(m.Text)-2*half) + strings.ToValidUTF8(tail, "")
	}
	for i, c := range m.Calls {
		if len(c.Args) > maxMessage {
			m.Calls = append([]chat.Call(nil), m.Calls...)
			m.Calls[i].Args = "{}"
		}
	}
	return m
}

// toolSpecs describes the tools to the model.
func (t *turn) toolSpecs() ([]chat.Tool, map[string]bool) {
	byName := map[string]bool{}
	if t.a.tools == nil {
		return nil, byName
	}
	var specs []chat.Tool
	list := t.a.tools.Tools()
	if t.env.ReadOnly {
		list = tools.ReadOnly(list)
	}
	for _, tl := range list {
		specs = append(specs, chat.Tool{Name: tl.Name(), Description: tl.Description(), Schema: tl.Schema()})
		byName[tl.Name()] = true
	}
	return specs, byName
}

// request sends one model request, retrying 429 and 5xx answers that came
// before any text, and streams the answer to the screen.
func (t *turn) request(req chat.Request) (chat.Reply, error) {
	for attempt := 0; ; attempt++ {
		reply, streamed, err := t.once(req)
		var ce *chat.Error
		if err == nil || streamed || !errors.As(err, &ce) || !ce.Retryable() || attempt >= t.a.retries {
			if err != nil {
				err = t.explain(err, streamed)
			}
			return reply, err
		}
		wait := t.a.backoff(attempt, ce.RetryAfter)
		if t.scr.term && wait >= time.Second {
			t.scr.Line(fmt.Sprintf("%s: %s — retrying in %s", t.a.ep.Provider, clip(oneLine(ce.Error()), 100), wait.Round(time.Second)))
		}
		t.scr.spin()
		timer := time.NewTimer(wait)
		select {
		case <-timer.C:
		case <-t.ctx.Done():
			timer.Stop()
			t.scr.Stop()
			return chat.Reply{}, t.ctx.Err()
		}
	}
}

// once sends the request a single time; streamed reports whether any text
// reached the screen.
func (t *turn) once(req chat.Request) (reply chat.Reply, streamed bool, err error) {
	ctx, cancel := context.WithCancelCause(t.ctx)
	defer cancel(nil)
	// The timeout bounds the whole request, first byte to last: a model
	// that never stops must not hold the shell.
	timer := t.a.afterFunc(t.a.cfg.Timeout, func() { cancel(errTimeout) })
	defer timer.Stop()
	show := func(s string) {
		if t.quiet {
			return
		}
		if s != "" {
			streamed = true
		}
		t.scr.Text(s)
	}
	var parser *fenced.Parser
	text := show
	if t.a.fenced() {
		parser = fenced.New(show)
		text = parser.Feed
	}
	// The limit is kept here too: the request asks for it, a server may
	// not keep to it.
	events, size := 0, 0
	meter := func(s string) {
		events, size = events+1, size+len(s)
		if events > limitEventsPerToken*req.MaxTokens+limitSlack || size > limitBytesPerToken*req.MaxTokens {
			cancel(errTooLong)
			return
		}
		text(s)
	}
	t.scr.spin()
	reply, err = t.a.stream(ctx, req, meter)
	t.scr.Stop()
	if parser != nil {
		parser.Close()
		if err == nil {
			if t.bad == nil {
				t.bad = map[string]string{}
			}
			reply.Calls = fencedCalls(parser.Calls(), len(t.msgs), t.bad)
		}
	}
	switch {
	case err != nil && t.ctx.Err() != nil:
		err = t.ctx.Err()
	case errors.Is(context.Cause(ctx), errTooLong):
		// What came is kept as an answer; its calls, cut, are not made.
		err, reply.Stop, reply.Calls = nil, stopTooLong, nil
	case err != nil && errors.Is(context.Cause(ctx), errTimeout):
		err = errTimeout
	}
	return reply, streamed, err
}

// explain turns a failed request into one line saying what to do;
// streamed tells whether part of the answer was shown.
func (t *turn) explain(err error, streamed bool) error {
	ep := t.a.ep
	p := ep.Provider
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) && t.ctx.Err() != nil {
		return err
	}
	if errors.Is(err, errTimeout) && streamed {
		return &lineError{fmt.Sprintf("%s: the answer was stopped after %s (QSH_AI_TIMEOUT bounds each answer) — what came is kept; ask to go on, or raise QSH_AI_TIMEOUT", p, t.a.cfg.Timeout), err}
	}
	if errors.Is(err, errTimeout) {
		return &lineError{fmt.Sprintf("%s: no answer within %s — try again, or raise QSH_AI_TIMEOUT", p, t.a.cfg.Timeout), err}
	}
	var ce *chat.Error
	if !errors.As(err, &ce) {
		return &lineError{fmt.Sprintf("%s: %v", p, err), err}
	}
	msg := clip(oneLine(ce.Message), 160)
	var line string
	switch ce.Kind {
	case chat.Auth:
		line = fmt.Sprintf("%s: %d unauthorized — check %s", p, ce.Status, ep.KeyVar)
	case chat.NoModel:
		line = fmt.Sprintf("%s: unknown model %q — set QSH_AI_MODEL or switch with ? /model NAME", p, ep.Model)
	case chat.RateLimit:
		line = fmt.Sprintf("%s: 429 rate limited (%s) — wait a minute and ask again", p, msg)
	case chat.Server:
		status := "server error"
		if ce.Status != 0 {
			status = fmt.Sprintf("%d server error", ce.Status)
		}
		line = fmt.Sprintf("%s: %s (%s) — the provider is having trouble; try again later", p, status, msg)
	case chat.Connect:
		line = fmt.Sprintf("%s: cannot connect to %s — is it running and reachable? (QSH_AI_BASE_URL)", p, ep.BaseURL)
		if p == Ollama {
			// Most often nobody set a provider up and auto fell through to
			// a local Ollama that is not there: say how to set one up.
			line = fmt.Sprintf("%s: cannot connect to %s — start ollama, or set OPENAI_API_KEY, ANTHROPIC_API_KEY or OLLAMA_HOST (see qsh --help)", p, ep.BaseURL)
		}
	case chat.NoTools:
		line = fmt.Sprintf("%s: %s takes no tools here (%s) — set QSH_AI_TOOL_PROTOCOL=auto or fenced, or choose a model with tools", p, ep.Model, msg)
	case chat.Cut:
		line = fmt.Sprintf("%s: the answer was cut off (%s) — ask again", p, msg)
	case chat.BadRequest:
		line = fmt.Sprintf("%s: %d bad request: %s", p, ce.Status, msg)
	default:
		line = fmt.Sprintf("%s: %v", p, ce)
	}
	return &lineError{line, err}
}

// lineError is a one-line message for the user over the error behind it.
type lineError struct {
	line string
	err  error
}

func (e *lineError) Error() string { return e.line }
func (e *lineError) Unwrap() error { return e.err }

// call runs one tool call and returns the message answering it. Every
// call gets an answer, even when cancelled, refused or malformed.
func (t *turn) call(c chat.Call, known map[string]bool) chat.Message {
	answer := func(text string, failed bool) chat.Message {
		return chat.Message{Role: chat.RoleTool, CallID: c.ID, Text: t.red.Redact(text), IsError: failed}
	}
	if t.ctx.Err() != nil || t.canceled {
		return answer("not run: the user cancelled the turn", true)
	}
	if t.loop != "" || t.broken != nil {
		return answer("not run: the turn was stopped", true)
	}
	if t.handed {
		return answer("not run: the user took a command over and the turn ended", true)
	}
	t.calls++
	if t.calls > t.a.maxCalls {
		return answer(fmt.Sprintf("not run: at most %d tool calls per question; answer with what you have", t.a.maxCalls), true)
	}
	if msg, ok := t.bad[c.ID]; ok {
		// A malformed ```tool block: the parser said what was wrong.
		t.scr.ToolStart(c.Name, "")
		return t.invalidCall(c, "malformed tool block", msg)
	}
	t.scr.ToolStart(c.Name, c.Args)
	if !known[c.Name] {
		var names []string
		for n := range known {
			names = append(names, n)
		}
		return t.invalidCall(c, "unknown tool", fmt.Sprintf("there is no tool named %q; the tools are: %s", c.Name, strings.Join(names, ", ")))
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(c.Args), &obj); err != nil || obj == nil {
		why := "not a JSON object"
		if err != nil {
			why = err.Error()
		}
		return t.invalidCall(c, "invalid JSON arguments from the model",
			fmt.Sprintf("the arguments are not valid JSON (%s); call again with one JSON object that matches the schema", why))
	}
	if m, ok := t.repeated(c, answer); ok {
		return m
	}
	res := t.exec(c)
	m := t.result(res)
	m.CallID = c.ID
	t.remember(c, res, m)
	if res.Invalid {
		t.invalid++
		t.checkInvalid()
	} else {
		t.invalid = 0
	}
	return m
}

// invalidCall answers a call that cannot be made as asked, saying what
// was wrong (what, on the tool line; why, to the model).
func (t *turn) invalidCall(c chat.Call, what, why string) chat.Message {
	t.invalid++
	t.scr.ToolEnd(false, what, 0, 0)
	m := chat.Message{Role: chat.RoleTool, CallID: c.ID, Text: t.red.Redact(why), IsError: true}
	if t.checkInvalid() {
		m.Text += "\n[the turn ends here: this was the third call in a row that could not be made]"
	}
	return m
}

// checkInvalid ends the turn once more than maxRepeats calls in a row
// could not be made: a model that keeps sending a tool that does not
// exist, or arguments that are not JSON, would use every round trip.
func (t *turn) checkInvalid() bool {
	if t.invalid <= maxRepeats || t.broken != nil {
		return t.broken != nil
	}
	t.broken = &lineError{line: fmt.Sprintf("%s keeps making calls that cannot be made (%d in a row: an unknown tool, arguments that are not JSON or do not fit), so the turn stops here — ask differently, or try a larger model",
		t.a.ep.Model, t.invalid)}
	return true
}

// exec makes one call.
func (t *turn) exec(c chat.Call) tools.Result {
	start := time.Now()
	res := t.a.tools.Call(t.ctx, t.env, c.Name, json.RawMessage(c.Args))
	if res.Duration == 0 {
		res.Duration = time.Since(start)
	}
	t.last = res
	return res
}

// result shows how a call ended and makes the message that tells the model.
func (t *turn) result(res tools.Result) chat.Message {
	answer := func(text string, failed bool) chat.Message {
		return chat.Message{Role: chat.RoleTool, Text: t.red.Redact(text), IsError: failed}
	}
	d := res.Duration
	if res.Canceled {
		t.canceled = true
	}
	if (t.ctx.Err() != nil || t.canceled) && !res.Success {
		t.scr.ToolEnd(false, "cancelled", len(res.Output), d)
		return answer("cancelled by the user: "+res.Error+"\n"+res.Output, true)
	}
	if res.TakenOver {
		t.handed = true
		t.scr.ToolEnd(true, "yours to edit on the prompt line", 0, d)
		return answer(res.Output, false)
	}
	text := res.Output
	if res.Truncated {
		text += "\n[output truncated]"
	}
	if !res.Success {
		what := "failed"
		switch {
		case res.Shown != "":
			what = res.Shown // said for the user, whole
		case res.Error != "":
			what = "failed: " + ansi.Clip(oneLine(res.Error), 80) // written for the model
		}
		t.scr.ToolEnd(false, what, len(res.Output), d)
		if res.Error != "" {
			text = "error: " + res.Error + "\n" + text
		}
		return answer(strings.TrimRight(text, "\n"), true)
	}
	t.scr.ToolEnd(true, "ok", len(res.Output), d)
	if text == "" {
		text = "(no output)"
	}
	return answer(text, false)
}
