package tools

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/qsh-shell/qsh/assistant/checkpoint"
	"github.com/qsh-shell/qsh/policy/danger"
	"github.com/qsh-shell/qsh/policy/sandbox"
	"github.com/qsh-shell/qsh/shell/guarded"
)

// maxPromptDiffLines bounds the diff shown at the confirmation prompt.
const maxPromptDiffLines = 120

func (t *filesystem) writeFile(ctx context.Context, env Env, pl place, p fsParams, pol *sandbox.Policy, c *call) Result {
	if int64(len(p.Content)) > t.r.cfg.FSMaxSize {
		return failf("write %s: the content is %d bytes, over the limit of %d (QSH_AI_FS_MAX_SIZE)", pl.show(), len(p.Content), t.r.cfg.FSMaxSize)
	}
	old, existed, err := t.current(pl, "write")
	if err != nil {
		return Result{Error: err.Error()}
	}
	return t.change(ctx, env, pl, "write", old, existed, p.Content, pol, c)
}

func (t *filesystem) edit(ctx context.Context, env Env, pl place, p fsParams, pol *sandbox.Policy, c *call) Result {
	if p.OldText == "" {
		return failf("edit %s: old_text is empty; give the exact text to replace (use write to create or replace a whole file)", pl.show())
	}
	old, existed, err := t.current(pl, "edit")
	if err != nil {
		return Result{Error: err.Error()}
	}
	if !existed {
		return failf("edit %s: no such file; use write to create it", pl.show())
	}
	text := string(old)
	switch n := strings.Count(text, p.OldText); n {
	case 1:
	case 0:
		hint := "read the file and copy the text exactly, including indentation and line breaks"
		if squash(text) != "" && strings.Contains(squash(text), squash(p.OldText)) {
			hint = "the text is there with different whitespace or indentation; copy it exactly"
		}
		return failf("edit %s: old_text was not found (0 matches); %s", pl.show(), hint)
	default:
		return failf("edit %s: old_text occurs %d times (at lines %s); it must occur exactly once: include more of the surrounding lines", pl.show(), n, matchLines(text, p.OldText))
	}
	updated := strings.Replace(text, p.OldText, p.NewText, 1)
	if int64(len(updated)) > t.r.cfg.FSMaxSize {
		return failf("edit %s: the file would be %d bytes, over the limit of %d (QSH_AI_FS_MAX_SIZE)", pl.show(), len(updated), t.r.cfg.FSMaxSize)
	}
	return t.change(ctx, env, pl, "edit", old, true, updated, pol, c)
}

// current reads the file a write or edit will replace, if there is one.
func (t *filesystem) current(pl place, op string) ([]byte, bool, error) {
	fi, err := os.Stat(pl.abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("%s %s: %v", op, pl.show(), plainErr(err))
	}
	if fi.IsDir() {
		return nil, false, fmt.Errorf("%s %s: it is a directory", op, pl.show())
	}
	if !fi.Mode().IsRegular() {
		return nil, false, fmt.Errorf("%s %s: not a regular file (%s)", op, pl.show(), fi.Mode().Type())
	}
	if fi.Size() > t.r.cfg.FSMaxSize {
		return nil, false, fmt.Errorf("%s %s: the file is %d bytes, over the limit of %d (QSH_AI_FS_MAX_SIZE)", op, pl.show(), fi.Size(), t.r.cfg.FSMaxSize)
	}
	b, err := os.ReadFile(pl.abs)
	if err != nil {
		return nil, false, fmt.Errorf("%s %s: %v", op, pl.show(), plainErr(err))
	}
	if kind, bin := binary(b[:min(len(b), sniffLen)]); bin || !utf8.Valid(b) {
		if op == "edit" {
			return nil, false, fmt.Errorf("edit %s: binary file (%s, %d bytes); the filesystem tool edits text only", pl.show(), kind, len(b))
		}
	}
	return b, true, nil
}

// change confirms, backs up and writes new content, then runs the
// post-edit command. pol is the sandbox's policy when it is on.
func (t *filesystem) change(ctx context.Context, env Env, pl place, op string, old []byte, existed bool, updated string, pol *sandbox.Policy, c *call) Result {
	diff := unifiedDiff(pl.show(), string(old), updated)
	if !existed && updated == "" {
		diff = "(new empty file)\n"
	}
	if existed && diff == "" {
		c.class, c.decision = danger.Safe.String(), decRun
		return Result{Success: true, Output: fmt.Sprintf("%s %s: no change, the content is the same", op, pl.show())}
	}
	if t.r.cfg.DryRun {
		c.decision = "dry-run"
		return Result{Success: true, Output: fmt.Sprintf("dry run (QSH_AI_DRY_RUN): would %s %s, %d bytes:\n%s", op, pl.show(), len(updated), clip(diff, maxDiffShown))}
	}
	q := t.changeAsk(env, op, pl, updated, existed, diff, pol)
	if editor := t.r.editorFor(env); editor != "" {
		q.edit = func(ctx context.Context) Result {
			return t.editChange(ctx, env, editor, q, pl, op, old, existed, updated, pol, c)
		}
	}
	if ok, res := t.r.approve(ctx, env, q, c); !ok {
		return res
	}
	return t.commit(ctx, env, q, pl, op, old, existed, updated, diff, pol, c)
}

// commit writes an approved change: the previous version backed up, the
// new one written atomically, then the post-edit command.
func (t *filesystem) commit(ctx context.Context, env Env, q ask, pl place, op string, old []byte, existed bool, updated, diff string, pol *sandbox.Policy, c *call) Result {
	if why := t.r.refusal(pol, q.verdict.Class, c, pl.abs, true); why != "" {
		return failf("%s %s: not written: %s; the user can make the change themselves", op, pl.show(), why)
	}
	var note string
	mode := fs.FileMode(0o644)
	if existed {
		mode = fileMode(pl.abs, mode)
		where, err := backup(t.r.backupDir, pl.abs, old, mode, t.r.now())
		if err != nil {
			return failf("%s %s: not written: could not keep a backup of the old version: %v", op, pl.show(), err)
		}
		note = "; the previous version is saved at " + where
	}
	if err := os.MkdirAll(filepath.Dir(pl.abs), 0o755); err != nil {
		return failf("%s %s: not written: %v", op, pl.show(), plainErr(err))
	}
	var cp *checkpoint.Pending
	noCP := ""
	if within(pl.abs, t.r.checkpointRoot(env)) {
		cp, noCP = t.r.checkpoint(env, op+" "+pl.show(), pl.abs)
	}
	if err := writeAtomic(pl.abs, []byte(updated), mode, t.write); err != nil {
		return failf("%s %s: not written, the file is unchanged: %v", op, pl.show(), plainErr(err))
	}
	if c := t.r.checkpointed(cp, noCP); c != "" {
		note += "\n" + strings.TrimSuffix(c, "\n")
	}
	verb := "wrote"
	if op == "edit" {
		verb = "edited"
	} else if !existed {
		verb = "created"
	}
	out := fmt.Sprintf("%s %s (%d bytes)%s\n%s", verb, pl.show(), len(updated), note, clip(diff, maxDiffShown))
	out += t.postEdit(ctx, env, pl, pol)
	return Result{Success: true, Output: out}
}

// changeAsk classifies a write or edit: dev in the workspace, dangerous
// outside it, on a file that may hold secrets, or where the sandbox (pol,
// when on) keeps programs from writing. An "a" for dev approves changes
// anywhere in this workspace; for dangerous, only this exact change.
func (t *filesystem) changeAsk(env Env, op string, pl place, updated string, existed bool, diff string, pol *sandbox.Policy) ask {
	ws := realPath(env.Dir)
	why := "changes a file in this project"
	if !existed {
		why = "creates a file in this project"
	}
	v := danger.Verdict{Class: danger.Dev, Reasons: []string{why}}
	switch {
	case pl.secret != "":
		v = danger.Verdict{Class: danger.Dangerous, Reasons: []string{pl.secret}}
	case !pl.inside:
		v = danger.Verdict{Class: danger.Dangerous, Reasons: []string{"outside the workspace " + ws}}
	case t.r.perms != nil && within(pl.abs, realPath(filepath.Dir(t.r.perms.path))):
		v = danger.Verdict{Class: danger.Dangerous, Reasons: []string{"changes qsh's own configuration (saved permissions, MCP servers)"}}
	case pol != nil && !pol.Allows(pl.abs, true):
		v = danger.Verdict{Class: danger.Dangerous, Reasons: []string{"the sandbox keeps programs from writing here (" + pol.Refusal(pl.abs, true) + ")"}}
	}
	body := diff
	if lines := strings.Split(body, "\n"); len(lines) > maxPromptDiffLines {
		body = strings.Join(lines[:maxPromptDiffLines], "\n") + fmt.Sprintf("\n… %d more lines\n", len(lines)-maxPromptDiffLines)
	}
	sum := sha256.Sum256([]byte(updated))
	id := op + " " + pl.abs + " " + hex.EncodeToString(sum[:8])
	q := ask{kind: kindWrite, verdict: v, subject: op + " " + pl.show(), id: id, path: pl.abs, body: body, verb: op, sandboxed: true}
	if v.Class == danger.Dev {
		q.rule = &Rule{Kind: kindWrite, Under: ws, Class: v.Class}
	} else {
		q.rule = &Rule{Kind: kindWrite, Exact: id, Class: v.Class}
	}
	return q
}

// postEdit runs QSH_AI_FS_POST_EDIT on the file and returns what it said;
// confined by pol when the sandbox is on: the file it checks came from the
// model.
func (t *filesystem) postEdit(ctx context.Context, env Env, pl place, pol *sandbox.Policy) string {
	cmd := t.r.cfg.PostEdit
	if cmd == "" {
		return ""
	}
	cmd = strings.ReplaceAll(cmd, "{file}", shellQuote(pl.abs))
	if env.Run == nil {
		return fmt.Sprintf("\n[post-edit %q not run: no shell to run it in]\n", cmd)
	}
	var out bytes.Buffer
	r := env.Run(ctx, guarded.Request{Command: cmd, Unguarded: true, Timeout: t.r.cfg.ExecTimeout, Sandbox: pol}, &out)
	res := fmt.Sprintf("\n[post-edit: %s → exit %d]\n", cmd, r.Status)
	if errors.Is(r.Err, context.DeadlineExceeded) {
		res = fmt.Sprintf("\n[post-edit: %s → stopped after %s]\n", cmd, t.r.cfg.ExecTimeout)
	}
	return res + clip(out.String(), maxDiffShown)
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+=:@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// squash drops all whitespace, to tell "not there" from "there, spaced
// differently".
func squash(s string) string {
	return strings.Join(strings.Fields(s), "")
}

// matchLines lists the line numbers where sub starts in s.
func matchLines(s, sub string) string {
	var at []string
	off := 0
	for len(at) < 10 {
		i := strings.Index(s[off:], sub)
		if i < 0 {
			break
		}
		at = append(at, fmt.Sprint(strings.Count(s[:off+i], "\n")+1))
		off += i + max(len(sub), 1)
	}
	return strings.Join(at, ", ")
}
