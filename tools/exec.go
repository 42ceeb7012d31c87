package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/qsh-shell/qsh/tools/danger"
	"github.com/qsh-shell/qsh/tools/guarded"
)

//go:embed exec.md
var execDescription string

// execParams are execute_command's arguments.
type execParams struct {
	Command        string `json:"command" jsonschema:"the command line to run (bash syntax)"`
	TimeoutSeconds int    `json:"timeout_seconds,omitempty" jsonschema:"stop it after this many seconds (default 30, at most 300)"`
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
	q := ask{kind: "exec", verdict: v, subject: command, verb: "run"}
	switch {
	case v.Class >= danger.Dangerous:
		// "a" for a dangerous command covers only this exact text.
		q.match = func(s string) bool { return s == command }
	default:
		if rule, ok := danger.Scope(command, v); ok {
			q.match = rule.Match
		}
	}
	if t.r.cfg.DryRun && Decide(t.r.cfg.Confirm, v.Class, t.r.cfg.AllowedOnly) != Refuse {
		c.class, c.decision = v.Class.String(), "dry-run"
		return Result{Success: true, Output: fmt.Sprintf("dry run (QSH_AI_DRY_RUN): would run %s\n(%s: %s)", command, v.Class, reasons(v))}
	}
	if ok, res := t.r.approve(ctx, env, q, c); !ok {
		return res
	}
	if env.Run == nil {
		return failf("execute_command: no shell to run it in")
	}
	return t.run(ctx, env, command, ws, v.Class, p.TimeoutSeconds)
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

// run runs an approved command: through the run-time guard, in process
// groups that the timeout kills whole, its output shown as it comes and
// kept head and tail for the model.
func (t *execTool) run(ctx context.Context, env Env, command string, ws danger.Workspace, approved danger.Class, secs int) Result {
	timeout := t.r.cfg.ExecTimeout
	if secs > 0 {
		timeout = min(time.Duration(secs)*time.Second, MaxExecTimeout)
	}
	out := newOutput(env.Out, env.Terminal, t.r.cfg.ExecMaxOutput)
	r := env.Run(ctx, guarded.Request{Command: command, Workspace: ws, Approved: approved, Timeout: timeout}, out)
	status, stopped, err := r.Status, r.Stopped, r.Err
	out.finish()
	text, truncated := out.text()

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
	res.Output = sb.String()
	return res
}
