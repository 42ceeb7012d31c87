package tools

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/qsh-shell/qsh/policy/sandbox"
)

// EditorFunc opens path in the user's editor (the command line editor,
// run by /bin/sh as git runs it) on the terminal and waits for it.
type EditorFunc func(ctx context.Context, editor, path string, environ []string) error

// Editor sets how the filesystem tool's "e" runs the user's editor;
// tests use a fake one.
func Editor(f EditorFunc) Option { return func(r *Registry) { r.editor = f } }

// editorFor is the user's editor as the session sets it — $VISUAL, else
// $EDITOR, else vi when it is installed — or "" when there is none, or
// no terminal to run it on: then "e" is not offered for a write.
func (r *Registry) editorFor(env Env) string {
	if env.ReadKey == nil || r.editor == nil {
		return ""
	}
	get := func(name string) string {
		v := ""
		for _, kv := range env.Environ {
			if val, ok := strings.CutPrefix(kv, name+"="); ok {
				v = val
			}
		}
		return strings.TrimSpace(v)
	}
	for _, name := range []string{"VISUAL", "EDITOR"} {
		if v := get(name); v != "" {
			return v
		}
	}
	if _, err := exec.LookPath("vi"); err == nil {
		return "vi"
	}
	return ""
}

// runEditor is the EditorFunc on the controlling terminal, which the
// assistant shares with the shell.
func runEditor(ctx context.Context, editor, path string, environ []string) error {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("no terminal for the editor: %v", err)
	}
	defer tty.Close()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", editor+` "$@"`, editor, path)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.Env = environ
	return cmd.Run()
}

// editChange is "e" at a write or edit: the proposed content opens in the
// user's editor, and what they save is written, atomically like any
// change; quitting the editor with an error writes nothing.
func (t *filesystem) editChange(ctx context.Context, env Env, editor string, q ask, pl place, op string, old []byte, existed bool, proposed string, pol *sandbox.Policy, c *call) Result {
	dir, err := os.MkdirTemp("", "qsh-edit-")
	if err != nil {
		return failf("%s %s: not written: the user chose to edit it, but no temporary file could be made: %v", op, pl.show(), plainErr(err))
	}
	defer os.RemoveAll(dir)
	tmp := filepath.Join(dir, filepath.Base(pl.abs)) // the name tells the editor the file's type
	if err := os.WriteFile(tmp, []byte(proposed), 0o600); err != nil {
		return failf("%s %s: not written: %v", op, pl.show(), plainErr(err))
	}
	if err := t.r.editor(ctx, editor, tmp, env.Environ); err != nil {
		return failf("%s %s: not written: the user opened your content in their editor (%s) and left it without saving (%v). Ask them what they want.", op, pl.show(), editor, err)
	}
	b, err := os.ReadFile(tmp)
	if err != nil {
		return failf("%s %s: not written: %v", op, pl.show(), plainErr(err))
	}
	if int64(len(b)) > t.r.cfg.FSMaxSize {
		return failf("%s %s: not written: what the user saved is %d bytes, over the limit of %d (QSH_AI_FS_MAX_SIZE)", op, pl.show(), len(b), t.r.cfg.FSMaxSize)
	}
	saved := string(b)
	res := t.commit(ctx, env, q, pl, op, old, existed, saved, unifiedDiff(pl.show(), string(old), saved), pol, c)
	if !res.Success {
		return res
	}
	note := "The user opened your content in their editor and saved it unchanged.\n"
	if saved != proposed {
		note = "The user edited your content before it was written; what they changed from your version:\n" +
			clip(unifiedDiff(pl.show(), proposed, saved), maxDiffShown) + "\n"
	}
	res.Output = note + res.Output
	return res
}
