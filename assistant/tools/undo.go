package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/qsh-shell/qsh/assistant/checkpoint"
	"github.com/qsh-shell/qsh/internal/ansi"
	"github.com/qsh-shell/qsh/policy/danger"
	"github.com/qsh-shell/qsh/policy/sandbox"
)

// kindUndo is the undo tool's call: no rule covers it, the user is asked
// every time.
const kindUndo = "undo"

// CheckpointDir sets where checkpoints are kept; "" turns them off. The
// default is $XDG_STATE_HOME/qsh/checkpoints.
func CheckpointDir(dir string) Option { return func(r *Registry) { r.cpBase = dir } }

// OnOff is a setting that is on or off (QSH_AI_CHECKPOINTS).
type OnOff bool

// UnmarshalText accepts on/off, true/false, yes/no, 1/0.
func (o *OnOff) UnmarshalText(b []byte) error {
	switch strings.ToLower(strings.TrimSpace(string(b))) {
	case "on", "true", "yes", "1":
		*o = true
	case "off", "false", "no", "0":
		*o = false
	default:
		return errors.New("expected on or off")
	}
	return nil
}

// String is on or off.
func (o OnOff) String() string {
	if o {
		return "on"
	}
	return "off"
}

// MarshalText writes on or off.
func (o OnOff) MarshalText() ([]byte, error) {
	if o {
		return []byte("on"), nil
	}
	return []byte("off"), nil
}

// checkpointRoot is the workspace a call made from dir checkpoints: the
// git work tree's top, else dir (never the home directory's repository,
// as the sandbox's workspace).
func (r *Registry) checkpointRoot(env Env) string {
	pl := r.place(env)
	return sandbox.Root(sandbox.Resolve("/", pl.Dir), sandbox.Resolve("/", pl.Home))
}

// store is the checkpoint store of env's workspace, opened once a
// session; nil with why when checkpoints are off or impossible there.
func (r *Registry) store(env Env) (*checkpoint.Store, string) {
	if !r.cfg.Checkpoints || r.cpBase == "" {
		return nil, "checkpoints are off (QSH_AI_CHECKPOINTS)"
	}
	root := r.checkpointRoot(env)
	r.mu.Lock()
	defer r.mu.Unlock()
	if why := r.cpNo[root]; why != "" {
		return nil, why
	}
	if s := r.cps[root]; s != nil {
		return s, ""
	}
	lim := checkpoint.DefaultLimits
	lim.Keep = r.cfg.CheckpointKeep
	s, err := checkpoint.Open(r.cpBase, root, lim)
	if err != nil {
		r.noCheckpoints(root, err.Error())
		return nil, err.Error()
	}
	if r.cps == nil {
		r.cps = map[string]*checkpoint.Store{}
	}
	r.cps[root] = s
	return s, ""
}

// noCheckpoints remembers for the session why root is not checkpointed;
// r.mu is held.
func (r *Registry) noCheckpoints(root, why string) {
	if r.cpNo == nil {
		r.cpNo = map[string]string{}
	}
	r.cpNo[root] = why
}

// checkpoint begins the checkpoint before a run of label: of the whole
// workspace, or of paths only. A nil Pending comes with why there is
// none, for the model.
func (r *Registry) checkpoint(env Env, label string, paths ...string) (*checkpoint.Pending, string) {
	s, why := r.store(env)
	if s == nil {
		return nil, why
	}
	var p *checkpoint.Pending
	var err error
	if len(paths) > 0 {
		p, err = s.BeginPaths(label, paths...)
	} else {
		p, err = s.Begin(label)
	}
	if err != nil {
		why := "no checkpoint: " + err.Error()
		if errors.Is(err, checkpoint.ErrTooLarge) {
			why = "no checkpoint: the workspace is " + err.Error()
			r.mu.Lock()
			r.noCheckpoints(s.Root, why)
			r.mu.Unlock()
		}
		return nil, why
	}
	return p, ""
}

// checkpointed ends the checkpoint p after its run and says what the
// model is told of it: that the user can undo it, or why they cannot.
func (r *Registry) checkpointed(p *checkpoint.Pending, why string) string {
	if p == nil {
		if why == "" {
			return ""
		}
		return "[" + why + "; this cannot be undone with ? /undo]\n"
	}
	cp, err := p.Commit()
	switch {
	case err != nil:
		return "[no checkpoint: " + err.Error() + "]\n"
	case cp == nil:
		return ""
	}
	r.mu.Lock()
	r.undoOn = r.undo != nil
	r.mu.Unlock()
	return fmt.Sprintf("[checkpoint: this changed %s; the user can undo it with `? /undo`, or you can call undo, which they must confirm]\n",
		plural(len(cp.Changes), "path"))
}

// undoable is what the confirmation line says of undoing the call q, run
// unconfined or not: "undo: yes", or "undo: no" and why.
func (r *Registry) undoable(env Env, q ask, unconfined bool) string {
	if !r.cfg.Checkpoints || r.cpBase == "" {
		return "undo: no (QSH_AI_CHECKPOINTS=off)"
	}
	r.mu.Lock()
	why := r.cpNo[r.checkpointRoot(env)]
	r.mu.Unlock()
	if why != "" {
		return "undo: no (" + strings.TrimPrefix(why, "no checkpoint: ") + ")"
	}
	switch q.kind {
	case kindWrite:
		if q.path != "" && !within(q.path, r.checkpointRoot(env)) {
			return "undo: no (outside the workspace)"
		}
		return "undo: yes"
	case kindRun:
		if what := remoteEffect(q.subject); what != "" {
			return "undo: no (" + what + ")"
		}
		switch {
		case r.cfg.Sandbox == sandbox.Off:
			// The user's choice: the line stays as before the sandbox.
			return "undo: yes (in the workspace)"
		case unconfined:
			return "undo: only in the workspace (runs unconfined)"
		}
		return "undo: yes"
	}
	return ""
}

// Checkpoints is `? /checkpoints` for a question asked in env's
// directory: the workspace's checkpoints, newest first, numbered as
// `? /undo N` counts.
func (r *Registry) Checkpoints(w io.Writer, env Env) error {
	s, why := r.store(env)
	if s == nil {
		return errors.New(why)
	}
	cps, problem := s.List()
	if problem != "" {
		fmt.Fprintln(w, ansi.Escape(problem))
	}
	if len(cps) == 0 {
		fmt.Fprintf(w, "no checkpoints in %s\n", tildePath(s.Root))
		return nil
	}
	fmt.Fprintf(w, "checkpoints of %s (? /undo N goes back to before N):\n", tildePath(s.Root))
	now := r.now()
	for i, cp := range cps {
		fmt.Fprintf(w, "%3d  %-9s %s  (%s)\n", i+1, ago(now.Sub(cp.Time)), ansi.Escape(clip(oneLine(cp.Label), 120)),
			plural(len(cp.Changes), "path"))
	}
	return nil
}

// ago says how long ago a duration is, shortly.
func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh ago", int(d/time.Hour))
	}
	return fmt.Sprintf("%dd ago", int(d/(24*time.Hour)))
}

// Undo is `? /undo [N]` for a question asked in env's directory: what
// undoing the last N runs would change, then, once the user agrees, the
// files put back. It refuses when the user changed the same files since,
// and offers the differences.
func (r *Registry) Undo(ctx context.Context, w io.Writer, env Env, args string) error {
	n := 1
	if a := strings.TrimSpace(args); a != "" {
		v, err := strconv.Atoi(a)
		if err != nil || v < 1 {
			return errors.New("? /undo N: N is a number from ? /checkpoints")
		}
		n = v
	}
	s, why := r.store(env)
	if s == nil {
		return errors.New(why)
	}
	plan, err := s.Plan(n)
	if err != nil {
		if errors.Is(err, checkpoint.ErrNone) {
			return fmt.Errorf("nothing to undo: no checkpoints in %s", tildePath(s.Root))
		}
		return fmt.Errorf("? /undo %d: %v", n, err)
	}
	if no := undoRefusal(plan); no != "" {
		fmt.Fprintln(w, no)
		if len(plan.Conflicts) > 0 && env.ReadKey != nil {
			if yes, err := askYN(ctx, env, w, "show what changed since?"); err != nil || !yes {
				return err
			}
			r.showConflicts(w, env, s, plan)
		}
		return nil
	}
	io.WriteString(w, r.summary(s, plan, env.Terminal))
	if len(plan.Steps) == 0 {
		fmt.Fprintln(w, "nothing to restore: the files are as they were")
		return nil
	}
	if env.ReadKey == nil {
		return errors.New("not restored: there is no terminal to confirm on")
	}
	yes, err := askYN(ctx, env, w, "restore?")
	if err != nil || !yes {
		return err
	}
	if err := s.Restore(plan); err != nil {
		return fmt.Errorf("undo: %v", err)
	}
	fmt.Fprintf(w, "restored %s as before %s\n", plural(len(plan.Steps), "path"), labelOf(plan.Undo[len(plan.Undo)-1]))
	return nil
}

// labelOf names a checkpoint's run for a line.
func labelOf(cp checkpoint.Checkpoint) string {
	return "`" + ansi.Escape(clip(oneLine(cp.Label), 80)) + "`"
}

// undoRefusal is the line that says why plan cannot be carried out; "" when
// it can.
func undoRefusal(plan *checkpoint.Plan) string {
	switch {
	case len(plan.Conflicts) > 0:
		var paths []string
		for _, c := range plan.Conflicts {
			paths = append(paths, ansi.Escape(c.Path))
		}
		return fmt.Sprintf("undo refused: %s changed since %s ran: %s (nothing was restored)",
			plural(len(paths), "path"), labelOf(plan.Undo[0]), strings.Join(clipList(paths, 8), ", "))
	case len(plan.Lost) > 0:
		return fmt.Sprintf("undo refused: the earlier content of %s was not kept (over the size limit, or unreadable): %s (nothing was restored)",
			plural(len(plan.Lost), "file"), strings.Join(clipList(plan.Lost, 8), ", "))
	}
	return ""
}

func clipList(l []string, n int) []string {
	if len(l) <= n {
		return l
	}
	return append(l[:n:n], fmt.Sprintf("and %d more", len(l)-n))
}

// summary is what plan changes, as `git diff --stat` would say it: one
// line a path.
func (r *Registry) summary(s *checkpoint.Store, plan *checkpoint.Plan, term bool) string {
	var b strings.Builder
	what := labelOf(plan.Undo[0])
	if len(plan.Undo) > 1 {
		what = fmt.Sprintf("the last %d runs, back to before %s", len(plan.Undo), labelOf(plan.Undo[len(plan.Undo)-1]))
	}
	fmt.Fprintf(&b, "undo %s:\n", what)
	width := 0
	for _, st := range plan.Steps {
		width = max(width, min(len(st.Path), 50))
	}
	for _, st := range plan.Steps {
		fmt.Fprintf(&b, " %-*s | %s\n", width, ansi.Escape(st.Path), r.stepStat(s, st, term))
	}
	for _, k := range plan.Kept {
		fmt.Fprintf(&b, " %-*s | changed since: left as it is\n", width, ansi.Escape(k))
	}
	return b.String()
}

// stepStat says what putting one path back does.
func (r *Registry) stepStat(s *checkpoint.Store, st checkpoint.Step, term bool) string {
	switch {
	case st.To == nil:
		return "remove (" + kindName(st.Now) + " the run made)"
	case st.Now == nil:
		return "put back (" + st.To.String() + ")"
	case st.Now.Kind != st.To.Kind:
		return "put back " + st.To.String() + " for the " + kindName(st.Now)
	case st.To.Kind == checkpoint.Link:
		return "link back to " + ansi.Escape(st.To.Target)
	case st.To.Kind == checkpoint.Dir:
		return fmt.Sprintf("mode %04o → %04o", st.Now.Mode.Perm(), st.To.Mode.Perm())
	}
	var parts []string
	if st.Now.Blob != st.To.Blob {
		parts = append(parts, r.lineStat(s, st, term))
	}
	if st.Now.Mode != st.To.Mode {
		parts = append(parts, fmt.Sprintf("mode %04o → %04o", uint32(st.Now.Mode.Perm()), uint32(st.To.Mode.Perm())))
	}
	return strings.Join(parts, ", ")
}

// lineStat is "3 +-" for a text file's change back: lines added and
// removed by the undo; "binary" for others.
func (r *Registry) lineStat(s *checkpoint.Store, st checkpoint.Step, term bool) string {
	old, err := os.ReadFile(s.Abs(st.Path))
	if err != nil {
		return "content"
	}
	to, err := s.Content(st.To)
	if err != nil {
		return "content"
	}
	if _, bin := binary(old[:min(len(old), sniffLen)]); bin {
		return fmt.Sprintf("binary %d → %d bytes", len(old), len(to))
	}
	if _, bin := binary(to[:min(len(to), sniffLen)]); bin {
		return fmt.Sprintf("binary %d → %d bytes", len(old), len(to))
	}
	add, del := 0, 0
	for _, l := range strings.Split(unifiedDiff(st.Path, string(old), string(to)), "\n") {
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
		case strings.HasPrefix(l, "+"):
			add++
		case strings.HasPrefix(l, "-"):
			del++
		}
	}
	return fmt.Sprintf("%d %s%s", add+del, paint(term, "32", strings.Repeat("+", min(add, 20))), paint(term, "31", strings.Repeat("-", min(del, 20))))
}

func kindName(e *checkpoint.Entry) string {
	switch e.Kind {
	case checkpoint.Dir:
		return "directory"
	case checkpoint.Link:
		return "link"
	}
	return "file"
}

// showConflicts prints, for each path changed since, how it differs from
// what the run left.
func (r *Registry) showConflicts(w io.Writer, env Env, s *checkpoint.Store, plan *checkpoint.Plan) {
	for _, c := range plan.Conflicts {
		left := ""
		if c.Want != nil && c.Want.Kind == checkpoint.File {
			if b, err := s.Content(c.Want); err == nil {
				left = string(b)
			}
		}
		now := ""
		if c.Now != nil && c.Now.Kind == checkpoint.File {
			if b, err := os.ReadFile(s.Abs(c.Path)); err == nil {
				now = string(b)
			}
		}
		d := unifiedDiff(c.Path, left, now)
		if d == "" || c.Want == nil || c.Now == nil || c.Want.Kind != checkpoint.File || c.Now.Kind != checkpoint.File {
			fmt.Fprintf(w, "%s: the run left %s; now %s\n", ansi.Escape(c.Path), ansi.Escape(c.Want.String()), ansi.Escape(c.Now.String()))
			continue
		}
		for _, line := range strings.SplitAfter(strings.TrimSuffix(clip(d, maxDiffShown), "\n"), "\n") {
			line = ansi.Escape(strings.TrimSuffix(line, "\n"))
			switch {
			case strings.HasPrefix(line, "+++"), strings.HasPrefix(line, "---"):
			case strings.HasPrefix(line, "+"):
				line = paint(env.Terminal, "32", line)
			case strings.HasPrefix(line, "-"):
				line = paint(env.Terminal, "31", line)
			}
			fmt.Fprintln(w, line)
		}
	}
}

// askYN asks question and reads y or n (anything else is no); Ctrl-C
// returns ErrCanceled.
func askYN(ctx context.Context, env Env, w io.Writer, question string) (bool, error) {
	if env.Quiet != nil {
		defer env.Quiet()()
	}
	if env.Discard != nil {
		env.Discard()
	}
	fmt.Fprint(w, paint(env.Terminal, "1", question)+" [y/n] ")
	k, err := env.ReadKey(ctx)
	if err != nil && !errors.Is(err, io.EOF) || k == keyCtrlC {
		fmt.Fprintln(w, "^C")
		return false, ErrCanceled
	}
	if k == 'y' || k == 'Y' {
		fmt.Fprintln(w, "y")
		return true, nil
	}
	fmt.Fprintln(w, "n")
	return false, nil
}

// undoParams are the undo tool's arguments.
type undoParams struct {
	Steps int `json:"steps,omitempty" jsonschema:"runs to undo (default 1)"`
}

// undoTool lets the model put the workspace back as it was before its
// last runs, each time with the user's confirmation.
type undoTool struct {
	r      *Registry
	schema json.RawMessage
}

func newUndo(r *Registry) Tool {
	s := schemaFor[undoParams](nil)
	s.Properties["steps"].Minimum = ptr(1.0)
	return &undoTool{r: r, schema: mustJSON(s)}
}

func (t *undoTool) Name() string { return "undo" }
func (t *undoTool) Description() string {
	return "Put the workspace's files back as before your last runs (commands, edits); the user confirms."
}
func (t *undoTool) Schema() json.RawMessage { return t.schema }

func (t *undoTool) Execute(ctx context.Context, env Env, args json.RawMessage) Result {
	return t.call(ctx, env, args, &call{})
}

func (t *undoTool) call(ctx context.Context, env Env, args json.RawMessage, c *call) Result {
	var p undoParams
	if err := json.Unmarshal(args, &p); err != nil {
		return failf("undo: bad arguments: %v", err)
	}
	n := max(p.Steps, 1)
	s, why := t.r.store(env)
	if s == nil {
		return failf("undo: %s", why)
	}
	plan, err := s.Plan(n)
	if err != nil {
		if errors.Is(err, checkpoint.ErrNone) {
			return failf("undo: there is no checkpoint to go back to in %s", s.Root)
		}
		return failf("undo %d: %v", n, err)
	}
	if no := undoRefusal(plan); no != "" {
		return failf("%s. Tell the user; they can look with `? /undo` and decide.", no)
	}
	if len(plan.Steps) == 0 {
		return Result{Success: true, Output: "nothing to restore: the files are as they were before"}
	}
	q := ask{kind: kindUndo, verb: "restore",
		verdict: danger.Verdict{Class: danger.Dangerous, Reasons: []string{"puts files back as they were; asked every time"}},
		subject: fmt.Sprintf("undo %d", n), body: t.r.summary(s, plan, false)}
	if ok, res := t.r.approve(ctx, env, q, c); !ok {
		return res
	}
	if err := s.Restore(plan); err != nil {
		return failf("undo: %v", err)
	}
	return Result{Success: true, Output: fmt.Sprintf("restored %s as before %s:\n%s", plural(len(plan.Steps), "path"),
		plan.Undo[len(plan.Undo)-1].Label, t.r.summary(s, plan, false))}
}

// undoCheckpointDir is the default place of the checkpoints.
func undoCheckpointDir(state string) string {
	if state == "" {
		return ""
	}
	return filepath.Join(state, "checkpoints")
}
