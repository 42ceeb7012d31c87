package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/qsh-shell/qsh/policy/danger"
	"github.com/qsh-shell/qsh/shell/guarded"
)

// StartFunc starts an approved command line in the background, in a
// subshell of the user's interpreter as RunFunc does: what it prints goes
// to out as it comes, ended is called once with how it ended, and stop
// ends it with everything it started.
type StartFunc = func(req guarded.Request, out io.Writer, ended func(guarded.Result)) (stop func(), err error)

// jobs are the conversation's background commands (execute_command with
// background), numbered from 1; they are stopped when the conversation
// ends (? /reset, ? /resume) and when the assistant does.
type jobs struct {
	mu   sync.Mutex
	list []*job
	next int
	max  int // bytes of output kept of each
	now  func() time.Time
}

// job is one background command.
type job struct {
	id      int
	command string
	max     int // bytes of output kept
	started time.Time
	stop    func()
	done    chan struct{} // closed when it ended

	mu     sync.Mutex
	tail   []byte // the last max bytes of its output
	total  int64  // bytes it printed
	read   int64  // bytes the model has been given
	wake   chan struct{}
	result guarded.Result
}

func (j *job) Write(p []byte) (int, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.tail = append(j.tail, p...)
	if len(j.tail) > 2*j.max {
		j.keep(j.max)
	}
	j.total += int64(len(p))
	if j.wake != nil {
		close(j.wake)
		j.wake = nil
	}
	return len(p), nil
}

// keep trims what is kept to the last max bytes.
func (j *job) keep(max int) {
	if len(j.tail) > max {
		j.tail = append([]byte(nil), j.tail[len(j.tail)-max:]...)
	}
}

// unread is the output the model has not been given, and how many bytes
// of it were dropped (only the last limit bytes are kept).
func (j *job) unread(limit int) (string, int64) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.keep(limit)
	kept := j.total - int64(len(j.tail))
	from := max(j.read, kept)
	text := string(j.tail[from-kept:])
	lost := from - j.read
	j.read = j.total
	return escapes().ReplaceAllString(strings.ToValidUTF8(text, "\uFFFD"), ""), lost
}

// waitFor waits until the output kept contains text, j ends, timeout
// passes or ctx ends; it reports whether the text came.
func (j *job) waitFor(ctx context.Context, text string, timeout time.Duration) bool {
	t := time.NewTimer(timeout)
	defer t.Stop()
	for {
		j.mu.Lock()
		if strings.Contains(string(j.tail), text) {
			j.mu.Unlock()
			return true
		}
		wake := make(chan struct{})
		j.wake = wake
		j.mu.Unlock()
		select {
		case <-wake:
		case <-j.done:
			j.mu.Lock()
			defer j.mu.Unlock()
			return strings.Contains(string(j.tail), text)
		case <-t.C:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

// state says in a few words whether it runs and since when, or how it
// ended.
func (j *job) state(now time.Time) string {
	select {
	case <-j.done:
	default:
		return fmt.Sprintf("running for %s", now.Sub(j.started).Round(time.Second))
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	r := j.result
	switch {
	case errors.Is(r.Err, context.Canceled):
		return "stopped; everything it started was killed"
	case r.Stopped != nil:
		return fmt.Sprintf("stopped at run time: %v", r.Stopped)
	case r.Err != nil:
		return fmt.Sprintf("ended: exit status %d: %v", r.Status, r.Err)
	}
	return fmt.Sprintf("ended: exit status %d", r.Status)
}

// start starts command as job N.
func (js *jobs) start(env Env, req guarded.Request) (*job, error) {
	if env.Start == nil {
		return nil, errors.New("the shell cannot run commands in the background here")
	}
	js.mu.Lock()
	js.next++
	j := &job{id: js.next, command: req.Command, max: js.max, started: js.now(), done: make(chan struct{})}
	js.mu.Unlock()
	stop, err := env.Start(req, j, func(r guarded.Result) {
		j.mu.Lock()
		j.result = r
		j.mu.Unlock()
		close(j.done)
	})
	if err != nil {
		return nil, err
	}
	j.stop = stop
	js.mu.Lock()
	js.list = append(js.list, j)
	js.mu.Unlock()
	return j, nil
}

// get is job id, nil when there is none.
func (js *jobs) get(id int) *job {
	js.mu.Lock()
	defer js.mu.Unlock()
	for _, j := range js.list {
		if j.id == id {
			return j
		}
	}
	return nil
}

// any reports whether a job was started in this conversation.
func (js *jobs) any() bool {
	js.mu.Lock()
	defer js.mu.Unlock()
	return len(js.list) > 0
}

// jobStopWait bounds the wait for a stopped job to end: its programs get
// SIGTERM, then SIGKILL.
const jobStopWait = 8 * time.Second

// stopJob stops j and waits for its end.
func stopJob(ctx context.Context, j *job) bool {
	j.stop()
	t := time.NewTimer(jobStopWait)
	defer t.Stop()
	select {
	case <-j.done:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}

// List writes the jobs, one a line, for ? /jobs; with stop, it stops the
// running ones first and forgets them all: the conversation ends.
func (js *jobs) List(w io.Writer, stop bool) {
	js.mu.Lock()
	list := append([]*job(nil), js.list...)
	if stop {
		js.list, js.next = nil, 0
	}
	js.mu.Unlock()
	now := js.now()
	for _, j := range list {
		select {
		case <-j.done:
			if !stop {
				fmt.Fprintf(w, "[%d]  %-40s  %s\n", j.id, j.state(now), j.command)
			}
			continue
		default:
		}
		if !stop {
			fmt.Fprintf(w, "[%d]  %-40s  %s\n", j.id, j.state(now), j.command)
			continue
		}
		if stopJob(context.Background(), j) {
			fmt.Fprintf(w, "[%d]  stopped  %s\n", j.id, j.command)
		} else {
			fmt.Fprintf(w, "[%d]  still running after %s: %s\n", j.id, jobStopWait, j.command)
		}
	}
	if !stop && len(list) == 0 {
		fmt.Fprintln(w, "no background commands in this conversation")
	}
}

// jobStartWait is how long a background command is watched after it
// started for an early end (a port in use, a typo) before the model is
// told it runs: until then, or its first output.
const jobStartWait = 2 * time.Second

// started is the result of starting j: its first output, or its end when
// it came at once.
func (js *jobs) started(ctx context.Context, j *job, notes []string) Result {
	t := time.NewTimer(jobStartWait)
	defer t.Stop()
	j.mu.Lock()
	wake := make(chan struct{})
	if j.total > 0 {
		close(wake)
	} else {
		j.wake = wake
	}
	j.mu.Unlock()
	select {
	case <-j.done:
	case <-wake:
		// The first output; what quickly follows it comes along.
		select {
		case <-j.done:
		case <-time.After(100 * time.Millisecond):
		}
	case <-t.C:
	case <-ctx.Done():
	}
	text, _ := j.unread(js.max)
	var sb strings.Builder
	sb.WriteString(text)
	if text != "" && !strings.HasSuffix(text, "\n") {
		sb.WriteByte('\n')
	}
	for _, n := range notes {
		sb.WriteString("sandbox: " + n + "\n")
	}
	res := Result{Success: true}
	select {
	case <-j.done:
		fmt.Fprintf(&sb, "[background job %d %s at once]\n", j.id, j.state(js.now()))
		j.mu.Lock()
		res.Success = j.result.Status == 0 && j.result.Err == nil
		j.mu.Unlock()
		if !res.Success {
			res.Error = "the background command ended at once"
		}
	default:
		fmt.Fprintf(&sb, "[background job %d: running. Read what it prints with job_output {\"id\": %d}, stop it with stop_job {\"id\": %d}; it is stopped when the conversation ends]\n", j.id, j.id, j.id)
	}
	res.Output = sb.String()
	return res
}

//go:embed job_output.md
var jobOutputDescription string

//go:embed stop_job.md
var stopJobDescription string

// jobParams are job_output's and stop_job's arguments.
type jobParams struct {
	ID int `json:"id,omitempty" jsonschema:"the background job's number, from execute_command's result"`
	// job_output only.
	WaitFor        string `json:"wait_for,omitempty" jsonschema:"first wait until its output contains this text (such as a server's ready line), it ends, or the timeout"`
	TimeoutSeconds int    `json:"timeout_seconds,omitempty" jsonschema:"how long wait_for waits (default 30, at most 300)"`
}

// jobTool is job_output or stop_job.
type jobTool struct {
	r      *Registry
	stop   bool
	schema json.RawMessage
}

func newJobTool(r *Registry, stop bool) *jobTool {
	s := schemaFor[jobParams](nil)
	s.Properties["id"].Minimum = ptr(1.0)
	if stop {
		s.Required = []string{"id"}
		delete(s.Properties, "wait_for")
		delete(s.Properties, "timeout_seconds")
		s.PropertyOrder = []string{"id"}
	} else {
		s.Properties["timeout_seconds"].Minimum = ptr(1.0)
		s.Properties["timeout_seconds"].Maximum = ptr(MaxExecTimeout.Seconds())
	}
	return &jobTool{r: r, stop: stop, schema: mustJSON(s)}
}

func (t *jobTool) Name() string {
	if t.stop {
		return "stop_job"
	}
	return "job_output"
}

func (t *jobTool) Description() string {
	if t.stop {
		return stopJobDescription
	}
	return jobOutputDescription
}

func (t *jobTool) Schema() json.RawMessage { return t.schema }

func (t *jobTool) Execute(ctx context.Context, env Env, args json.RawMessage) Result {
	return t.call(ctx, env, args, &call{})
}

// call reads or stops one of the conversation's own background commands:
// nothing to ask the user, as starting it was.
func (t *jobTool) call(ctx context.Context, env Env, args json.RawMessage, c *call) Result {
	var p jobParams
	if err := json.Unmarshal(args, &p); err != nil {
		return failf("%s: bad arguments: %v", t.Name(), err)
	}
	c.class, c.decision = danger.Safe.String(), decRun
	js := t.r.jobs
	if p.ID == 0 && !t.stop {
		var sb strings.Builder
		js.List(&sb, false)
		return Result{Success: true, Output: sb.String()}
	}
	j := js.get(p.ID)
	if j == nil {
		return failf("%s: there is no background job %d in this conversation (job_output without an id lists them)", t.Name(), p.ID)
	}
	if t.stop {
		if !stopJob(ctx, j) {
			return failf("stop_job: job %d did not end within %s", j.id, jobStopWait)
		}
	}
	var waited string
	if p.WaitFor != "" {
		timeout := 30 * time.Second
		if p.TimeoutSeconds > 0 {
			timeout = min(time.Duration(p.TimeoutSeconds)*time.Second, MaxExecTimeout)
		}
		if !j.waitFor(ctx, p.WaitFor, timeout) {
			waited = fmt.Sprintf("[%q did not come within %s]\n", p.WaitFor, timeout)
		}
	}
	text, lost := j.unread(js.max)
	var sb strings.Builder
	if lost > 0 {
		fmt.Fprintf(&sb, "[… %d bytes not kept …]\n", lost)
	}
	sb.WriteString(text)
	if text != "" && !strings.HasSuffix(text, "\n") {
		sb.WriteByte('\n')
	}
	if text == "" && lost == 0 {
		sb.WriteString("[no new output]\n")
	}
	sb.WriteString(waited)
	fmt.Fprintf(&sb, "[background job %d (%s): %s]\n", j.id, j.command, j.state(js.now()))
	return Result{Success: waited == "", Output: sb.String(), Error: strings.TrimSpace(waited)}
}

// Jobs lists the conversation's background commands on w (? /jobs); with
// stop, it stops them and forgets them, as a conversation ends (? /reset).
func (r *Registry) Jobs(w io.Writer, stop bool) { r.jobs.List(w, stop) }
