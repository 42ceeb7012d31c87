package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/qsh-shell/qsh/internal/ansi"
)

// Hooks are the user's own programs run around the assistant's work
// (QSH_AI_HOOK_PRE_TOOL, _POST_TOOL, _TURN_END): each gets one JSON object
// on stdin and QSH_AI_HOOK_TIMEOUT to finish. They are the user's policy,
// not the model's commands: they run unconfined, as the user, in the
// directory asked from.

// HookPayload is what a hook reads on stdin.
type HookPayload struct {
	Event    string          `json:"event"` // pre_tool, post_tool, turn_end
	Tool     string          `json:"tool,omitempty"`
	Args     json.RawMessage `json:"args,omitempty"`
	Dir      string          `json:"dir"`
	Question string          `json:"question,omitempty"`
	// post_tool: how the call ended.
	Result *HookResult `json:"result,omitempty"`
	// turn_end: how the turn ended (as qsh --json's end event says it),
	// its tokens and its calls.
	Reason       string `json:"reason,omitempty"`
	Error        string `json:"error,omitempty"`
	InputTokens  int    `json:"input_tokens,omitempty"`
	OutputTokens int    `json:"output_tokens,omitempty"`
}

// HookResult is a call's outcome, for the post-tool hook.
type HookResult struct {
	OK       bool   `json:"ok"`
	Output   string `json:"output"`
	Error    string `json:"error,omitempty"`
	Class    string `json:"class,omitempty"`
	Decision string `json:"decision,omitempty"`
}

// hookReply is what a pre-tool hook may print on stdout: a veto with its
// reason, or the arguments to call the tool with instead.
type hookReply struct {
	Deny string          `json:"deny"`
	Args json.RawMessage `json:"args"`
}

// hookMaxOutput bounds what a hook's stdout and stderr are read for.
const hookMaxOutput = 64 << 10

// runHook runs command with p on stdin and returns its stdout. A hook
// that exits non-zero, cannot start or does not finish in time fails:
// the error says why, with the last line of its stderr.
func runHook(ctx context.Context, command string, timeout time.Duration, env Env, p HookPayload) ([]byte, error) {
	in, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", command)
	cmd.Dir = env.Dir
	if env.Environ != nil {
		cmd.Env = env.Environ
	}
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr capped
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// Its own process group, killed whole at the time limit: what the
	// hook started must not hold the turn.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return nil, fmt.Errorf("did not finish within %s (QSH_AI_HOOK_TIMEOUT)", timeout)
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil:
		if last := lastLine(stderr.String()); last != "" {
			return nil, fmt.Errorf("%s", last)
		}
		return nil, err
	}
	return stdout.Bytes(), nil
}

// lastLine is the last non-empty line of s, trimmed and clipped.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return clip(strings.TrimSpace(lines[len(lines)-1]), 500)
}

// capped keeps the first hookMaxOutput bytes written to it.
type capped struct{ bytes.Buffer }

func (c *capped) Write(p []byte) (int, error) {
	if n := hookMaxOutput - c.Len(); n > 0 {
		c.Buffer.Write(p[:min(n, len(p))])
	}
	return len(p), nil
}

// preHook runs QSH_AI_HOOK_PRE_TOOL on a call. It returns the arguments to
// make the call with (the hook's, when it rewrote them) or, when the call
// must not be made, the result that tells the model why.
func (r *Registry) preHook(ctx context.Context, env Env, name string, args json.RawMessage) (json.RawMessage, *Result) {
	if r.cfg.HookPreTool == "" {
		return args, nil
	}
	veto := func(why string) (json.RawMessage, *Result) {
		res := failf("not run: the user's pre-tool hook (QSH_AI_HOOK_PRE_TOOL) vetoed this call: %s", why)
		res.Shown = "vetoed by the pre-tool hook: " + why
		return nil, &res
	}
	out, err := runHook(ctx, r.cfg.HookPreTool, r.cfg.HookTimeout, env, HookPayload{Event: "pre_tool", Tool: name, Args: args, Dir: env.Dir, Question: env.Question})
	if err != nil {
		return veto(err.Error())
	}
	if len(bytes.TrimSpace(out)) == 0 {
		return args, nil
	}
	var reply hookReply
	if err := json.Unmarshal(out, &reply); err != nil {
		return veto("its output is not a JSON object with deny or args: " + err.Error())
	}
	switch {
	case reply.Deny != "":
		return veto(reply.Deny)
	case len(reply.Args) > 0:
		return reply.Args, nil
	}
	return args, nil
}

// postHook runs QSH_AI_HOOK_POST_TOOL on a call that was made; a failing
// hook is said in one line, and changes nothing.
func (r *Registry) postHook(ctx context.Context, env Env, name string, args json.RawMessage, res Result) {
	if r.cfg.HookPostTool == "" {
		return
	}
	p := HookPayload{Event: "post_tool", Tool: name, Args: args, Dir: env.Dir, Question: env.Question,
		Result: &HookResult{OK: res.Success, Output: res.Output, Error: res.Error, Class: res.Class, Decision: res.Decision}}
	if _, err := runHook(ctx, r.cfg.HookPostTool, r.cfg.HookTimeout, env, p); err != nil {
		hookFailed(env.Out, "post-tool", err)
	}
}

// TurnEnd runs QSH_AI_HOOK_TURN_END at the end of a turn; the error says
// why it failed, for one line to the user.
func (r *Registry) TurnEnd(ctx context.Context, env Env, p HookPayload) error {
	if r.cfg.HookTurnEnd == "" {
		return nil
	}
	p.Event = "turn_end"
	if _, err := runHook(ctx, r.cfg.HookTurnEnd, r.cfg.HookTimeout, env, p); err != nil {
		return fmt.Errorf("the turn-end hook (QSH_AI_HOOK_TURN_END) failed: %s", oneLine(err.Error()))
	}
	return nil
}

// hookFailed says in one line that a hook failed; what it printed is
// shown, never acted on.
func hookFailed(w io.Writer, which string, err error) {
	if w != nil {
		fmt.Fprintf(w, "qsh: the %s hook failed: %s\n", which, ansi.Escape(oneLine(err.Error())))
	}
}
