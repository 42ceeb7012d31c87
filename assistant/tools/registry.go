package tools

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/qsh-shell/qsh/assistant/checkpoint"
	"github.com/qsh-shell/qsh/policy/danger"
	"github.com/qsh-shell/qsh/policy/sandbox"
	"github.com/qsh-shell/qsh/policy/sandbox/proxy"
	"github.com/qsh-shell/qsh/policy/secret"
)

// Registry is the set of tools one session offers the model, with the
// session's state: the "always" answers given at the prompt, the web
// search rate limit, where the audit log and backups go.
type Registry struct {
	cfg       Config
	builtin   []Tool
	added     []Tool
	auditPath string
	backupDir string
	client    *http.Client
	now       func() time.Time
	sleep     func(context.Context, time.Duration) error
	support   func() (string, error) // what confines programs here, or why nothing does
	probe     func() (sandbox.Layers, error)
	editor    EditorFunc // runs the user's editor for "e" at a write

	mu         sync.Mutex
	approvals  []Rule       // the session's "a" answers
	perms      *permissions // the saved "A" answers; nil when saving is off
	lastSearch time.Time
	noted      bool              // the session was told its commands run unconfined
	roots      map[string]string // each directory asked from → where it led first (see policy)
	proxies    map[string]*proxy.Listener
	proxyDir   string
	// cpBase is where checkpoints are kept ("" for nowhere), cps the
	// stores opened, by workspace, and cpNo why a workspace has none.
	cpBase string
	cps    map[string]*checkpoint.Store
	cpNo   map[string]string
	undo   Tool // the undo tool, nil with checkpoints off
	undoOn bool // offered: a checkpoint was made this session
	// jobs are the conversation's background commands; jobTools, read
	// and stop, are offered once one was started.
	jobs     *jobs
	jobTools []Tool
}

// Option changes how NewRegistry builds a Registry.
type Option func(*Registry)

// AuditLog sets the audit log's path; "" turns the log off. The default is
// $XDG_STATE_HOME/qsh/audit.jsonl.
func AuditLog(path string) Option { return func(r *Registry) { r.auditPath = path } }

// BackupDir sets where the filesystem tool keeps a file's previous version
// before it overwrites or edits it. The default is $XDG_STATE_HOME/qsh/backups.
func BackupDir(dir string) Option { return func(r *Registry) { r.backupDir = dir } }

// HTTPClient sets the client web_search uses.
func HTTPClient(c *http.Client) Option { return func(r *Registry) { r.client = c } }

// Clock sets the time source and the wait used for timing calls and for
// spacing web searches; tests use a fake one.
func Clock(now func() time.Time, sleep func(context.Context, time.Duration) error) Option {
	return func(r *Registry) { r.now, r.sleep = now, sleep }
}

// NewRegistry returns the built-in tools that cfg enables, ready to call.
func NewRegistry(cfg Config, opts ...Option) *Registry {
	r := &Registry{cfg: cfg.normalize(), now: time.Now, sleep: sleepCtx, support: sandbox.Support, probe: sandbox.Probe,
		editor: runEditor}
	if d := stateDir(); d != "" {
		r.auditPath = filepath.Join(d, "audit.jsonl")
		r.backupDir = filepath.Join(d, "backups")
		r.cpBase = undoCheckpointDir(d)
	}
	r.client = &http.Client{Timeout: 20 * time.Second}
	r.perms = newPermissions(cmp.Or(cfg.Permissions, defaultPermissionsFile()))
	for _, o := range opts {
		o(r)
	}
	r.jobs = &jobs{max: r.cfg.ExecMaxOutput, now: r.now}
	if r.cfg.FS {
		r.builtin = append(r.builtin, newFilesystem(r))
	}
	if r.cfg.Exec {
		if t := newExec(r); t != nil {
			r.builtin = append(r.builtin, t)
		}
		r.jobTools = []Tool{newJobTool(r, false), newJobTool(r, true)}
	}
	if r.cfg.Web {
		r.builtin = append(r.builtin, newWeb(r))
	}
	if bool(r.cfg.Checkpoints) && r.cpBase != "" && (r.cfg.FS && r.cfg.FSWrite || r.cfg.Exec) {
		// Offered once a run of this session made a checkpoint (see
		// checkpointed): until then it would cost every prompt its
		// description for nothing.
		r.undo = newUndo(r)
	}
	return r
}

// Config is the configuration the registry runs with, after defaults and
// limits were applied.
func (r *Registry) Config() Config { return r.cfg }

// Tools returns the enabled tools: the built-in ones, then the added ones.
func (r *Registry) Tools() []Tool {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := append([]Tool(nil), r.builtin...)
	if r.undoOn {
		out = append(out, r.undo)
	}
	if r.jobs.any() {
		out = append(out, r.jobTools...)
	}
	return append(out, r.added...)
}

// Add offers one more tool, such as an MCP server's. A tool with the name
// of a built-in one is ignored; one with the name of an added one replaces
// it. Calls to added tools are confirmed as dev (asked about unless yolo)
// unless the tool implements Classifier.
func (r *Registry) Add(t Tool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, b := range r.builtin {
		if b.Name() == t.Name() {
			return
		}
	}
	for i, a := range r.added {
		if a.Name() == t.Name() {
			r.added[i] = t
			return
		}
	}
	r.added = append(r.added, t)
}

// Classifier is implemented by an added tool that knows how much harm a
// call could do; the registry confirms the call according to the verdict.
type Classifier interface {
	Classify(args json.RawMessage) danger.Verdict
}

// call is what a built-in tool tells the audit log about one call.
type call struct {
	class    string
	decision string
	canceled bool
	sandbox  string   // the mode it ran confined in, "unconfined", or "" (off)
	denied   []string // what the sandbox kept from it
	// waited is how long the user took to answer the confirmation: not
	// the call's time.
	waited time.Duration
	// started logs the call as it is let go ahead, before it acts: what
	// it runs may bring down the process that would log its end (a
	// program that kills the shell, a power cut).
	started func()
}

// caller is implemented by the built-in tools: Execute with the audit
// record to fill in.
type caller interface {
	call(ctx context.Context, env Env, args json.RawMessage, c *call) Result
}

// Call runs the tool called name. Arguments are checked against the tool's
// schema first; an unknown tool, a missing or mistyped argument gets a
// Result that says what was wrong. Every call is timed and appended to the
// audit log. A Result with Canceled set means the user pressed Ctrl-C at a
// confirmation: end the turn.
func (r *Registry) Call(ctx context.Context, env Env, name string, args json.RawMessage) Result {
	start := r.now()
	c := &call{}
	c.started = func() {
		appendAudit(r.auditPath, entry{Time: start, Tool: name, Args: redactJSON(args, auditArgMax),
			Class: c.class, Decision: c.decision, Outcome: outcomeStarted})
	}
	var res Result
	t := r.lookup(name)
	// The hook sees the call as the model made it; what it rewrites is
	// validated, classified and confirmed like the model's own.
	hooked, vetoed := r.preHook(ctx, env, name, args)
	rewritten := false
	switch {
	case vetoed != nil:
		res = *vetoed
		c.decision = decVetoed
	case t == nil:
		names := []string{}
		for _, t := range r.Tools() {
			names = append(names, t.Name())
		}
		res = failf("unknown tool %q; the tools are %s", name, quoteList(names))
		c.decision = decInvalid
	default:
		rewritten = string(hooked) != string(args)
		args = hooked
		if err := validate(t.Schema(), args); err != nil {
			res = failf("%s: %v", name, err)
			c.decision = decInvalid
			break
		}
		if a := strings.TrimSpace(string(args)); a == "" || a == "null" {
			args = json.RawMessage(`{}`)
		}
		if b, ok := t.(caller); ok {
			res = b.call(ctx, env, args, c)
		} else {
			res = r.callAdded(ctx, env, t, args, c)
		}
	}
	if rewritten {
		// The model learns that what ran is not what it asked for.
		res.Output = "(the user's pre-tool hook changed the arguments to " + clip(string(args), 500) + ")\n" + res.Output
	}
	res.Duration = r.now().Sub(start) - c.waited
	if c.canceled {
		res.Canceled = true
	}
	res.Declined = c.decision == decDeclined
	res.Invalid = c.decision == decInvalid
	res.ReadOnly = c.class == danger.Safe.String()
	res.Class, res.Decision = c.class, c.decision
	appendAudit(r.auditPath, entry{
		Time:     start,
		Tool:     name,
		Args:     redactJSON(args, auditArgMax),
		Class:    c.class,
		Decision: c.decision,
		Outcome:  outcome(res),
		Duration: float64(res.Duration.Microseconds()) / 1000,
		Sandbox:  c.sandbox,
		Denied:   c.denied,
	})
	if vetoed == nil {
		r.postHook(ctx, env, name, args, res)
	}
	return res
}

func (r *Registry) lookup(name string) Tool {
	for _, t := range r.Tools() {
		if t.Name() == name {
			return t
		}
	}
	return nil
}

// callAdded confirms a call to an added tool, then runs it.
func (r *Registry) callAdded(ctx context.Context, env Env, t Tool, args json.RawMessage, c *call) Result {
	v := danger.Verdict{Class: danger.Dev, Reasons: []string{"a tool of an MCP server"}}
	if cl, ok := t.(Classifier); ok {
		v = cl.Classify(args)
	}
	name := t.Name()
	q := ask{
		kind:    kindCall,
		verdict: v,
		subject: name + " " + clip(string(args), 200),
		tool:    name,
		verb:    "call",
		rule:    &Rule{Kind: kindCall, Tool: name, Class: v.Class},
	}
	if v.Class >= danger.Dangerous {
		q.rule = &Rule{Kind: kindCall, Exact: q.subject, Class: v.Class}
	}
	if ok, res := r.approve(ctx, env, q, c); !ok {
		return res
	}
	if r.cfg.DryRun {
		return Result{Success: true, Output: "dry run: would call " + name + " with " + string(args)}
	}
	return t.Execute(ctx, env, args)
}

func outcome(res Result) string {
	switch {
	case res.Canceled:
		return "canceled"
	case res.Success:
		s := fmt.Sprintf("ok, %d bytes", len(res.Output))
		if res.Truncated {
			s += ", truncated"
		}
		return s
	}
	return "failed: " + clip(secret.Redact(res.Error), 300)
}

func failf(format string, args ...any) Result {
	return Result{Error: fmt.Sprintf(format, args...)}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
