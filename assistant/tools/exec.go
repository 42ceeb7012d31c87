package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/qsh-shell/qsh/internal/ansi"
	"github.com/qsh-shell/qsh/policy/danger"
	"github.com/qsh-shell/qsh/policy/sandbox"
	"github.com/qsh-shell/qsh/shell/guarded"
)

//go:embed exec.md
var execDescription string

// execParams are execute_command's arguments.
type execParams struct {
	Command        string `json:"command" jsonschema:"the command line to run (bash syntax)"`
	TimeoutSeconds int    `json:"timeout_seconds,omitempty" jsonschema:"stop it after this many seconds (default 30, at most 300)"`
	Unconfined     bool   `json:"unconfined,omitempty" jsonschema:"run outside the sandbox (the user is asked)"`
	Background     bool   `json:"background,omitempty" jsonschema:"keep it running (a server)"`
}

// execTool is execute_command.
type execTool struct {
	r      *Registry
	schema json.RawMessage
}

func newExec(r *Registry) Tool {
	s := schemaFor[execParams](nil)
	s.Properties["timeout_seconds"].Minimum = ptr(1.0)
	s.Properties["timeout_seconds"].Maximum = ptr(MaxExecTimeout.Seconds())
	if r.cfg.Sandbox == sandbox.Off {
		delete(s.Properties, "unconfined")
		s.PropertyOrder = slices.DeleteFunc(s.PropertyOrder, func(p string) bool { return p == "unconfined" })
	}
	return &execTool{r: r, schema: mustJSON(s)}
}

func (t *execTool) Name() string            { return "execute_command" }
func (t *execTool) Description() string     { return execDescription }
func (t *execTool) Schema() json.RawMessage { return t.schema }

func (t *execTool) Execute(ctx context.Context, env Env, args json.RawMessage) Result {
	return t.call(ctx, env, args, &call{})
}

func (t *execTool) call(ctx context.Context, env Env, args json.RawMessage, c *call) Result {
	var p execParams
	if err := json.Unmarshal(args, &p); err != nil {
		return failf("execute_command: bad arguments: %v", err)
	}
	command := strings.TrimSpace(p.Command)
	if command == "" {
		return failf("execute_command: the command is empty")
	}
	ws := dangerWorkspace(env.Dir)
	v := danger.Classify(command, ws)
	unconfined := p.Unconfined && t.r.confining()
	if unconfined && v.Class < danger.Dangerous {
		// Only the user's y to a dangerous call lifts the sandbox.
		v = danger.Verdict{Class: danger.Dangerous, Reasons: append(v.Reasons, "asks to run outside the sandbox")}
	}
	q := ask{kind: kindRun, verdict: v, subject: command, verb: "run", sandboxed: true}
	if !unconfined {
		// No "a" for an unconfined run: it would approve a sandboxed
		// run, not the one asked for. For a dangerous command it
		// covers only this exact text.
		q.rule = ruleFor(command, v)
	}
	if env.Edit != nil {
		q.edit = func(context.Context) Result { return takeOver(env, command) }
	}
	if t.r.cfg.DryRun && Decide(t.r.cfg.Confirm, v.Class, t.r.cfg.AllowedOnly) != Refuse {
		c.class, c.decision = v.Class.String(), "dry-run"
		return Result{Success: true, Output: fmt.Sprintf("dry run (QSH_AI_DRY_RUN): would run %s\n(%s: %s)", command, v.Class, reasons(v))}
	}
	if ok, res := t.r.approve(ctx, env, q, c); !ok {
		return res
	}
	if env.Run == nil && !p.Background {
		return failf("execute_command: no shell to run it in")
	}
	t.r.noteUnconfined(env.Out)
	confined := t.r.confined(v.Class, c.decision)
	c.sandbox = t.r.sandboxName(confined)
	var policy *sandbox.Policy
	var notes []string
	if confined {
		pol, rules, n := t.r.policy(env)
		n = append(n, t.r.withProxy(&pol, rules)...)
		policy, notes = &pol, n
	}
	if p.Background {
		return t.background(ctx, env, command, ws, v.Class, policy, notes)
	}
	return t.run(ctx, env, command, ws, v.Class, p.TimeoutSeconds, policy, notes, c)
}

// background starts an approved command as a background job of the
// conversation, confined as a run would be, and without a timeout: it
// runs until it ends, stop_job, or the conversation's end. No checkpoint
// is taken: what a server writes while it runs has no "after".
func (t *execTool) background(ctx context.Context, env Env, command string, ws danger.Workspace, approved danger.Class,
	policy *sandbox.Policy, notes []string) Result {
	j, err := t.r.jobs.start(env, guarded.Request{Command: command, Workspace: ws, Approved: approved, Sandbox: policy, Background: true})
	if err != nil {
		return failf("execute_command: not started: %v", err)
	}
	if env.Out != nil {
		l := fmt.Sprintf("[background job %d]", j.id)
		if env.Terminal {
			l = "\x1b[2m" + l + "\x1b[0m"
		}
		fmt.Fprintln(env.Out, l)
	}
	return t.r.jobs.started(ctx, j, notes)
}

// dangerWorkspace is what the classifier needs to know about where a command runs.
func dangerWorkspace(dir string) danger.Workspace {
	if dir == "" {
		dir, _ = os.Getwd()
	}
	home, _ := os.UserHomeDir()
	if home != "" {
		home = realPath(home)
	}
	return danger.Workspace{Dir: realPath(dir), Home: home}
}

// run runs an approved command: through the run-time guard, confined by
// policy unless it is nil, in process groups that the timeout kills whole,
// its output shown as it comes and kept head and tail for the model.
func (t *execTool) run(ctx context.Context, env Env, command string, ws danger.Workspace, approved danger.Class, secs int,
	policy *sandbox.Policy, notes []string, c *call) Result {
	timeout := t.r.cfg.ExecTimeout
	if secs > 0 {
		timeout = min(time.Duration(secs)*time.Second, MaxExecTimeout)
	}
	out := newOutput(env.Out, env.Terminal, t.r.cfg.ExecMaxOutput)
	var w io.Writer = out
	var denials *sandbox.Denials
	changed := func() []string { return nil }
	if policy != nil {
		denials = sandbox.NewDenials(*policy, env.Dir)
		w = io.MultiWriter(out, denials)
		changed = sandbox.Watch(policy.Workspace)
		t.r.refusals(*policy) // an earlier run's, or an MCP server's
	}
	cp, noCP := t.r.checkpoint(env, command)
	r := env.Run(ctx, guarded.Request{Command: command, Workspace: ws, Approved: approved, Timeout: timeout, Sandbox: policy}, w)
	status, stopped, err := r.Status, r.Stopped, r.Err
	out.finish()
	text, truncated := out.text()
	var denied, later []string
	if denials != nil {
		for _, l := range append(r.Denied, t.r.refusals(*policy)...) {
			denials.Add(l)
		}
		denied = denials.Lines()
		c.denied = denied
		later = changed()
		for _, n := range notes {
			later = append(later, "sandbox: "+n)
		}
		showDenied(env, append(append([]string{}, denied...), later...))
	}

	var sb strings.Builder
	sb.WriteString(text)
	if text != "" && !strings.HasSuffix(text, "\n") {
		sb.WriteByte('\n')
	}
	res := Result{Truncated: truncated}
	switch {
	case ctx.Err() != nil:
		fmt.Fprintf(&sb, "[canceled by the user; everything it started was stopped]\n")
		res.Error, res.Canceled = "canceled by the user", true
	case errors.Is(err, context.DeadlineExceeded):
		fmt.Fprintf(&sb, "[stopped after %s (timeout); everything it started was killed]\n", timeout)
		res.Error = fmt.Sprintf("timed out after %s; ask for a longer timeout_seconds (at most %d) or run something quicker", timeout, int(MaxExecTimeout.Seconds()))
	case stopped != nil:
		fmt.Fprintf(&sb, "[stopped at run time: %v]\n", stopped)
		res.Error = fmt.Sprintf("stopped at run time: what it really ran is worse than what was approved (%s): %v. Do not try to get around this.", approved, stopped)
	case err != nil:
		fmt.Fprintf(&sb, "[exit status %d: %v]\n", status, err)
		res.Error = fmt.Sprintf("exit status %d: %v", status, err)
	default:
		fmt.Fprintf(&sb, "[exit status %d]\n", status)
		res.Success = status == 0
		if status != 0 {
			res.Error = fmt.Sprintf("exit status %d", status)
		}
	}
	if truncated {
		fmt.Fprintf(&sb, "[output cut to %d bytes, beginning and end kept]\n", t.r.cfg.ExecMaxOutput)
	}
	for _, p := range r.HandedOff {
		fmt.Fprintf(&sb, "[%s asked at the terminal, which was handed to the user: they answered it there, unseen by you]\n", p)
	}
	if policy != nil && needsTerminal(text) {
		sb.WriteString("[a program wanted a terminal: in the sandbox there is none; outside it (\"unconfined\": true, which the user must approve) the terminal is handed to the user to answer]\n")
	}
	if len(denied) > 0 {
		for _, l := range denied {
			sb.WriteString(l + "\n")
		}
		sb.WriteString("[the sandbox kept this from the command: say so to the user; if the task really needs it, call again with \"unconfined\": true, which the user must approve]\n")
	}
	for _, l := range later {
		sb.WriteString(l + "\n")
	}
	sb.WriteString(t.r.checkpointed(cp, noCP))
	res.Output = sb.String()
	return res
}

// needsTerminal reports whether output says a program failed for want of
// a terminal (sudo, ssh, read from /dev/tty).
func needsTerminal(output string) bool {
	for _, s := range []string{"a terminal is required", "/dev/tty: No such device or address", "no tty present"} {
		if strings.Contains(output, s) {
			return true
		}
	}
	return false
}

// showDenied shows the user what the sandbox kept from a call, dimmed
// like the output it explains.
func showDenied(env Env, lines []string) {
	if env.Out == nil {
		return
	}
	for _, l := range lines {
		l = ansi.Escape(l) // paths the command's output named
		if env.Terminal {
			l = "\x1b[2m" + l + "\x1b[0m"
		}
		fmt.Fprintln(env.Out, l)
	}
}

// takeOver is the "e" answer to a command: it goes onto the user's next
// prompt line, and the turn ends.
func takeOver(env Env, command string) Result {
	if err := env.Edit(command); err != nil {
		return failf("not run: the user chose to edit %s themselves, but it could not be put on their prompt line (%v); tell them what you wanted to run.", command, err)
	}
	return Result{Success: true, TakenOver: true, Output: "not run by you: the user took the command over. It is on their prompt line to edit and run as their own (or not); the turn ends here. Their next question will show what they ran and how it went."}
}
