package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/term"

	"github.com/qsh-shell/qsh/policy/sandbox"
	"github.com/qsh-shell/qsh/shell"
	"github.com/qsh-shell/qsh/shell/guarded"
	"github.com/qsh-shell/qsh/wire"
)

// assistantName is the assistant's program, installed next to qsh.
const assistantName = "qsh-assistant"

// stopWait is how long the assistant has to end a turn after Ctrl-C, and to
// exit (stopping its MCP servers) after the shell closes the channel.
const stopWait = 3 * time.Second

// assistant is the session's assistant process, started on the first `?`
// and kept for the session, so that the conversation and the MCP servers
// live across questions. It runs in a process of its own so that qsh does
// not link it (see package wire).
type assistant struct {
	path    string   // the program; found on first use when empty
	environ []string // qsh's own environment: the API keys included
	stdin   io.Reader
	stdout  io.Writer
	stderr  io.Writer
	// json makes every turn headless (qsh --json): its events go to
	// stdout as JSON lines, nobody is asked to confirm, and the line's
	// status says how the turn ended.
	json bool

	cmd    *exec.Cmd
	conn   *wire.Conn
	end    *os.File          // qsh's end of the channel
	msgs   chan wire.Message // from the assistant; closed when the channel is
	exited chan struct{}     // closed when the process has been waited for
	err    error             // how it exited

	// jails hold the commands the assistant runs confined: a question's
	// runs share one while their policy is the same; the session's /tmp
	// for them lives as long as the shell.
	jails *sandbox.Host

	// bg stops each background run (a server, a watcher) by its id; they
	// outlive their turn and end with the assistant.
	bgMu sync.Mutex
	bg   map[int]context.CancelFunc
	bgWG sync.WaitGroup
}

// findAssistant looks for qsh-assistant next to the running qsh, then on
// PATH.
func findAssistant() (string, error) {
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), assistantName)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	if p, err := exec.LookPath(assistantName); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("the assistant program %s is not installed next to qsh or on PATH (reinstall qsh: ./install.sh)", assistantName)
}

// start starts the assistant with one end of a socket pair as fd 3, in
// the session's environment (environ: what ~/.qshrc exported counts, such
// as QSH_AI_MODEL). It shares the terminal: it writes its answers and
// reads the confirmation keys itself.
func (a *assistant) start(dir string, environ []string) error {
	path := a.path
	if path == "" {
		p, err := findAssistant()
		if err != nil {
			return err
		}
		path = p
	}
	ours, theirs, err := socketPair()
	if err != nil {
		return fmt.Errorf("control channel: %v", err)
	}
	defer theirs.Close()
	cmd := exec.Command(path)
	cmd.Env = withKeys(environ, a.environ)
	cmd.Dir = dir
	cmd.ExtraFiles = []*os.File{theirs}
	// Only a real file is handed over: a reader would be copied from in
	// the background, eating input meant for the shell.
	if f, ok := a.stdin.(*os.File); ok {
		cmd.Stdin = f
	}
	cmd.Stdout, cmd.Stderr = a.stdout, a.stderr
	if err := cmd.Start(); err != nil {
		ours.Close()
		return fmt.Errorf("cannot start %s: %v", path, unwrap(err))
	}
	a.cmd, a.end, a.conn = cmd, ours, wire.NewConn(ours)
	a.msgs, a.exited = make(chan wire.Message), make(chan struct{})
	go func(conn *wire.Conn, msgs chan<- wire.Message) {
		defer close(msgs)
		for {
			m, err := conn.Receive()
			if err != nil {
				return
			}
			msgs <- m
		}
	}(a.conn, a.msgs)
	go func(cmd *exec.Cmd, exited chan struct{}) {
		a.err = cmd.Wait()
		close(exited)
	}(cmd, a.exited)
	return nil
}

// socketPair makes the control channel, close-on-exec so that the commands
// the shell runs never hold it open.
func socketPair() (ours, theirs *os.File, err error) {
	syscall.ForkLock.RLock()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fds[0])
		syscall.CloseOnExec(fds[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, nil, err
	}
	// Non-blocking, our end goes through Go's poller, so that closing it
	// ends the read under way and the assistant sees the end at once.
	if err := syscall.SetNonblock(fds[0], true); err != nil {
		syscall.Close(fds[0])
		syscall.Close(fds[1])
		return nil, nil, err
	}
	return os.NewFile(uintptr(fds[0]), "qsh-control"), os.NewFile(uintptr(fds[1]), "assistant-control"), nil
}

// ask answers one `?` line: it sends the question, then runs the commands
// the assistant asks for until it says the turn is done.
func (a *assistant) ask(ctx context.Context, q shell.Question) error {
	if a.cmd != nil && a.gone() {
		a.reset() // it died between questions: start a new one
	}
	if a.cmd == nil {
		if err := a.start(q.Dir, q.Environ); err != nil {
			return err
		}
	}
	// An assistant that dies while it reads a key leaves the terminal raw.
	if f, ok := a.stdin.(*os.File); ok && q.ReadKey != nil {
		if st, err := term.GetState(int(f.Fd())); err == nil {
			defer func() {
				if a.cmd == nil {
					term.Restore(int(f.Fd()), st)
				}
			}()
		}
	}
	rec := make([]wire.Command, len(q.Record))
	for i, c := range q.Record {
		rec[i] = wire.Command(c)
	}
	// `?? DESCRIPTION` reaches here as the question "? DESCRIPTION":
	// suggest mode, one command for the prompt line.
	text, suggest := strings.CutPrefix(q.Text, "?")
	if suggest {
		text = strings.TrimSpace(text)
	} else {
		text = q.Text
	}
	err := a.conn.Send(wire.Message{Type: wire.Ask, Text: text, Dir: q.Dir, Record: rec, NoContext: q.NoContext,
		Environ: q.Environ, Terminal: q.Terminal && !a.json, Keys: q.ReadKey != nil && !a.json, Editable: q.Edit != nil && !a.json,
		Private: q.Private, Suggest: suggest, JSON: a.json})
	if err != nil {
		return a.died()
	}
	if a.jails == nil {
		a.jails = sandbox.NewHost()
	}
	// While the model thinks: the first confined command finds its
	// jail's process started — unless the user turned the sandbox off,
	// when it would be a process for nothing.
	if sandboxOn(append(slices.Clip(a.environ), q.Environ...)) {
		go a.jails.Prepare()
	}
	defer a.jails.Idle()
	var (
		run     = guarded.Local(q.Run, guarded.Jails(a.jails))
		mu      sync.Mutex
		cancels = map[int]context.CancelFunc{}
		wg      sync.WaitGroup
		serial  sync.Mutex // shell.Run takes one command at a time
		timeout <-chan time.Time
		ran     []string                  // the commands run, for the history; under mu
		shown   = map[int]chan struct{}{} // the runs waiting to hand the terminal over; under mu
	)
	// A program that stops for the terminal gets it once the assistant
	// has said so on the screen; only where there is one to give.
	handOff := func(ctx context.Context, id int) context.Context {
		if q.ReadKey == nil || a.json {
			return ctx
		}
		return guarded.WithTerminal(ctx, func(program string) func() {
			ack := make(chan struct{}, 1)
			mu.Lock()
			shown[id] = ack
			mu.Unlock()
			if a.conn.Send(wire.Message{Type: wire.Terminal, ID: id, Command: program}) == nil {
				select {
				case <-ack:
				case <-time.After(stopWait):
				}
			}
			mu.Lock()
			delete(shown, id)
			mu.Unlock()
			return func() {}
		})
	}
	defer func() {
		mu.Lock()
		for _, c := range cancels {
			c()
		}
		mu.Unlock()
		wg.Wait()
		// Up recalls them: the user approved them, or the policy did.
		// Here, on the shell's goroutine, which owns the history.
		if q.Remember != nil {
			for _, c := range ran {
				q.Remember(c)
			}
		}
	}()
	canceled := ctx.Done()
	for {
		select {
		case m, ok := <-a.msgs:
			if !ok {
				return a.died()
			}
			switch m.Type {
			case wire.Run:
				if m.Background {
					serial.Lock()
					a.startBackground(q.Run, m)
					serial.Unlock()
					mu.Lock()
					ran = append(ran, m.Command)
					mu.Unlock()
					continue
				}
				rctx, cancel := context.WithCancel(ctx)
				mu.Lock()
				cancels[m.ID] = cancel
				mu.Unlock()
				wg.Add(1)
				go func(m wire.Message) {
					defer wg.Done()
					serial.Lock()
					r := run(handOff(rctx, m.ID), m.Request(), output{a.conn, m.ID})
					serial.Unlock()
					mu.Lock()
					delete(cancels, m.ID)
					// Not a post-edit check (Unguarded), which the
					// user never asked for, nor what the guard stopped.
					if !m.Unguarded && r.Stopped == nil {
						ran = append(ran, m.Command)
					}
					mu.Unlock()
					cancel()
					a.conn.Send(wire.ExitMessage(m.ID, r))
				}(m)
			case wire.Prepare:
				if m.Sandbox != nil {
					go a.jails.PrepareFor(*m.Sandbox)
				}
			case wire.Cancel:
				mu.Lock()
				if c := cancels[m.ID]; c != nil {
					c()
				}
				mu.Unlock()
				a.stopBackground(m.ID)
			case wire.Terminal:
				mu.Lock()
				if ack := shown[m.ID]; ack != nil {
					ack <- struct{}{}
				}
				mu.Unlock()
			case wire.Edit:
				if q.Edit != nil {
					q.Edit(m.Command)
				}
			case wire.Preview:
				// Off this loop: it reads the file system.
				wg.Add(1)
				go func(m wire.Message) {
					defer wg.Done()
					a.conn.Send(wire.Message{Type: wire.Preview, ID: m.ID, Text: preview(ctx, m.Command, q)})
				}(m)
			case wire.Done:
				switch {
				case m.Canceled:
					return context.Canceled
				case m.Ended != 0:
					return &turnStatus{status: m.Ended, msg: m.Error}
				case m.Error != "":
					return errors.New(m.Error)
				}
				return nil
			}
		case <-canceled:
			// Ctrl-C: the terminal signalled the assistant too, but a
			// shell without a terminal (a test, kill -INT) only tells it.
			a.conn.Send(wire.Message{Type: wire.Cancel})
			canceled = nil
			timeout = time.After(stopWait)
		case <-timeout:
			a.close()
			return errors.New("the assistant did not stop after Ctrl-C; it was killed and the conversation starts over")
		}
	}
}

// startBackground starts run m in the background (see guarded.Start):
// its output and exit go to the assistant whenever they come, and it
// runs until it ends, the assistant stops it, or the assistant ends.
func (a *assistant) startBackground(run guarded.ShellFunc, m wire.Message) {
	ctx, cancel := context.WithCancel(context.Background())
	a.bgMu.Lock()
	if a.bg == nil {
		a.bg = map[int]context.CancelFunc{}
	}
	a.bg[m.ID] = cancel
	a.bgMu.Unlock()
	conn := a.conn
	done := guarded.Start(run, ctx, m.Request(), output{conn, m.ID})
	a.bgWG.Add(1)
	go func() {
		defer a.bgWG.Done()
		r := <-done
		a.bgMu.Lock()
		delete(a.bg, m.ID)
		a.bgMu.Unlock()
		cancel()
		conn.Send(wire.ExitMessage(m.ID, r))
	}()
}

// stopBackground stops background run id, if it runs.
func (a *assistant) stopBackground(id int) {
	a.bgMu.Lock()
	if c := a.bg[id]; c != nil {
		c()
	}
	a.bgMu.Unlock()
}

// stopAllBackground stops every background run and waits for them: the
// assistant that started them is gone, and nobody could stop them.
func (a *assistant) stopAllBackground() {
	a.bgMu.Lock()
	for _, c := range a.bg {
		c()
	}
	a.bgMu.Unlock()
	a.bgWG.Wait()
}

// turnStatus is how a headless turn ended when it did not simply answer:
// the `?` line's exit status (see ai.Ended; package shell takes it).
type turnStatus struct {
	status int
	msg    string
}

func (e *turnStatus) Error() string   { return e.msg }
func (e *turnStatus) ExitStatus() int { return e.status }

// output sends what a run prints to the assistant.
type output struct {
	conn *wire.Conn
	id   int
}

func (o output) Write(p []byte) (int, error) {
	if err := o.conn.Send(wire.Message{Type: wire.Output, ID: o.id, Data: p}); err != nil {
		return 0, err
	}
	return len(p), nil
}

// gone reports whether the assistant's channel is closed.
func (a *assistant) gone() bool {
	select {
	case <-a.exited:
		return true
	default:
		return false
	}
}

// died is the error of an assistant that went away in the middle of a
// turn; the next question starts a new one.
func (a *assistant) died() error {
	a.end.Close()
	select {
	case <-a.exited:
	case <-time.After(stopWait):
		a.cmd.Process.Kill()
		<-a.exited
	}
	err := a.err
	a.reset()
	if err == nil {
		err = errors.New("exit status 0")
	}
	return fmt.Errorf("the assistant exited in the middle of the answer (%v); the next question starts a new conversation", err)
}

// reset forgets a dead assistant, and stops its background runs.
func (a *assistant) reset() {
	a.stopAllBackground()
	if a.end != nil {
		a.end.Close()
	}
	a.cmd, a.conn, a.end, a.msgs, a.exited, a.err = nil, nil, nil, nil, nil, nil
}

// close ends the session's assistant: closing the channel tells it to stop
// its MCP servers and exit; one that does not within stopWait is killed.
func (a *assistant) close() {
	a.stopAllBackground()
	if a.jails != nil {
		a.jails.Close()
	}
	if a.cmd == nil {
		return
	}
	a.end.Close()
	select {
	case <-a.exited:
	case <-time.After(stopWait):
		a.cmd.Process.Kill()
		<-a.exited
	}
	a.reset()
}

// sandboxOn reports whether QSH_AI_SANDBOX, in the session's environment,
// leaves the assistant's programs confined (the default).
func sandboxOn(environ []string) bool {
	on := true
	for _, kv := range environ { // the last one counts
		if v, ok := strings.CutPrefix(kv, "QSH_AI_SANDBOX="); ok {
			var m sandbox.Mode
			on = m.UnmarshalText([]byte(v)) != nil || m != sandbox.Off
		}
	}
	return on
}
