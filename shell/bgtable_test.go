package shell

import (
	"context"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/internal/testtime"
	"github.com/qsh-shell/qsh/shell/marks"
)

// newBgTable is a table for a test that does not wait: its clock stands
// still.
func newBgTable() *bgTable { tb, _ := newFakeTable(); return tb }

// TestBgTablePid: which process $! is, given what the statement did.
func TestBgTablePid(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tests := []struct {
		name    string
		want    int
		do      func(tb *bgTable, tok string)
		pid     int  // 0: a stand-in
		running bool // for a stand-in: still running
	}{
		{"program at its place", 5, func(tb *bgTable, tok string) {
			tb.calling(tok, 5, true)
			tb.started(tok, 2, 1001) // a pipeline's first program
			tb.started(tok, 5, 1002)
		}, 1002, false},
		{"first program", marks.PlaceFirst, func(tb *bgTable, tok string) {
			tb.started(tok, 9, 1003)
			tb.started(tok, 2, 1004)
		}, 1003, false},
		{"ended before its program", 5, func(tb *bgTable, tok string) {
			tb.end(tok, 3)
		}, 0, false},
		{"a builtin at the place", 5, func(tb *bgTable, tok string) {
			tb.calling(tok, 5, false)
		}, 0, true},
		{"the program failed to start", 5, func(tb *bgTable, tok string) {
			tb.calling(tok, 5, true)
			tb.failed(tok, 5)
		}, 0, true},
		{"no place (a compound statement)", 0, func(tb *bgTable, tok string) {
			tb.started(tok, 3, 1005)
		}, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tb := newBgTable()
			tok := tb.reserve(tt.want, 0)
			tt.do(tb, tok)
			pid := tb.pid(ctx, tok)
			defer tb.end(tok, 0) // the stand-in goes
			if tt.pid != 0 {
				if pid != tt.pid {
					t.Fatalf("pid = %d, want %d", pid, tt.pid)
				}
				return
			}
			st := tb.stmts[tok]
			if st.standin == nil || pid != st.standin.pid || pid <= 0 {
				t.Fatalf("pid = %d, want a stand-in (%+v)", pid, st.standin)
			}
			alive := syscall.Kill(pid, 0) == nil
			if tt.running && !alive {
				t.Fatalf("the stand-in %d of a running statement is gone", pid)
			}
			// Asked again, the same.
			if again := tb.pid(ctx, tok); again != pid {
				t.Fatalf("pid again = %d, want %d", again, pid)
			}
			if found := tb.find(pid); found != st {
				t.Fatalf("find(%d) = %p, want %p", pid, found, st)
			}
		})
	}
}

// TestBgTableStandIn: the stand-in of a running statement lives until the
// statement ends; killing it stops the statement and wait says how.
func TestBgTableStandIn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tb := newBgTable()
	tok := tb.reserve(0, 0)
	pid := tb.pid(ctx, tok)
	if pid <= 0 {
		t.Fatal("no stand-in")
	}
	if err := syscall.Kill(pid, 0); err != nil {
		t.Fatalf("stand-in not running: %v", err)
	}
	tb.end(tok, 7)
	if !waitFor(func() bool { return syscall.Kill(pid, 0) != nil }) {
		t.Fatalf("stand-in %d still runs after its statement ended", pid)
	}
	if st, ok := tb.await(ctx, tb.find(pid)); !ok || st != 7 {
		t.Fatalf("await = %d, %v; want 7", st, ok)
	}

	tok = tb.reserve(0, 0)
	pid = tb.pid(ctx, tok)
	if tb.killedBy(tok) != 0 {
		t.Fatal("killed before kill")
	}
	syscall.Kill(pid, syscall.SIGTERM)
	tb.signalled(pid, syscall.SIGTERM) // as the kill builtin does
	if sig := tb.killedBy(tok); sig != syscall.SIGTERM {
		t.Fatalf("killedBy = %v", sig)
	}
	if st, ok := tb.await(ctx, tb.find(pid)); !ok || st != 143 {
		t.Fatalf("await after kill = %d, %v; want 143", st, ok)
	}

	// Killed from elsewhere (/bin/kill): the stand-in's end tells.
	tok = tb.reserve(0, 0)
	pid = tb.pid(ctx, tok)
	syscall.Kill(pid, syscall.SIGKILL)
	if !waitFor(func() bool { return tb.killedBy(tok) == syscall.SIGKILL }) {
		t.Fatal("the stand-in's death was not noticed")
	}
	tb.end(tok, 0)
	if st, _ := tb.await(ctx, tb.find(pid)); st != 137 {
		t.Fatalf("await = %d, want 137", st)
	}

	// A signal that does not end a process stops nothing.
	tok = tb.reserve(0, 0)
	pid = tb.pid(ctx, tok)
	tb.signalled(pid, syscall.SIGCONT)
	tb.signalled(pid, 0)
	if sig := tb.killedBy(tok); sig != 0 {
		t.Fatalf("killedBy after SIGCONT = %v", sig)
	}
	tb.end(tok, 0)

	// A cancelled wait gives up.
	tok = tb.reserve(0, 0)
	pid = tb.pid(ctx, tok)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, ok := tb.await(cctx, tb.find(pid)); ok {
		t.Fatal("await ignored its context")
	}
	tb.end(tok, 0)
	if tb.pid(ctx, "b999999") != 0 || tb.find(-5) != nil {
		t.Fatal("an unknown token or pid was found")
	}
}

// TestBgTableWaitsForProgram: $! waits for the program to start.
func TestBgTableWaitsForProgram(t *testing.T) {
	t.Parallel()
	tb, clk := newFakeTable()
	tok := tb.reserve(3, 0)
	pid := make(chan int, 1)
	go func() { pid <- tb.pid(context.Background(), tok) }()
	clk.awaitTimers(t, 1) // $! waits
	tb.calling(tok, 3, true)
	tb.started(tok, 3, 4242)
	if got := returns(t, "pid", func() int { return <-pid }); got != 4242 {
		t.Fatalf("pid = %d, want 4242", got)
	}
}

func TestBgTableTrim(t *testing.T) {
	t.Parallel()
	tb := newBgTable()
	running := tb.reserve(0, 0)
	for range maxBgStmts + 10 {
		tb.end(tb.reserve(0, 0), 0)
	}
	if len(tb.stmts) > maxBgStmts || tb.stmts[running] == nil {
		t.Fatalf("%d statements kept (running one kept: %v)", len(tb.stmts), tb.stmts[running] != nil)
	}
}

func waitFor(ok func() bool) bool { return testtime.Until(30*time.Second, ok) }

// TestBgTableForward: a program that starts after $! settled for a
// stand-in (its statement waited on a redirection) gets the stand-in's
// signal, as it would have been bash's $!.
func TestBgTableForward(t *testing.T) {
	t.Parallel()
	tb, clk := newFakeTable()
	tok := tb.reserve(4, 0)
	go func() {
		clk.awaitTimers(t, 1)
		clk.advance(lookupWait) // nothing comes: a stand-in
	}()
	standin := returns(t, "pid", func() int { return tb.pid(context.Background(), tok) })
	prog := exec.Command("sleep", "30")
	if err := prog.Start(); err != nil {
		t.Skip(err)
	}
	defer prog.Process.Kill()
	tb.calling(tok, 4, true)
	tb.started(tok, 4, prog.Process.Pid)
	syscall.Kill(standin, syscall.SIGTERM)
	tb.signalled(standin, syscall.SIGTERM)
	err := prog.Wait()
	if ws, _ := prog.ProcessState.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Fatalf("the program ended with %v, want SIGTERM", err)
	}
	tb.end(tok, 143)
}

// TestBgTableSignalledJob: a job spec's kill stops the statement of the
// job's programs when its $! is no program (a loop), and not a simple
// command's, whose program had the signal itself.
func TestBgTableSignalledJob(t *testing.T) {
	t.Parallel()
	tb := newBgTable()
	loop := tb.reserve(0, 0)
	tb.started(loop, 7, 1001)
	simple := tb.reserve(9, 0)
	tb.calling(simple, 9, true)
	tb.started(simple, 9, 1002)
	tb.signalledJob([]int{1001, 1002}, syscall.SIGSTOP, false)
	if tb.killedBy(loop) != 0 {
		t.Fatal("SIGSTOP stopped the loop")
	}
	tb.signalledJob([]int{1001, 1002}, syscall.SIGTERM, false)
	if got := tb.killedBy(loop); got != syscall.SIGTERM {
		t.Errorf("the loop's statement: killed by %v, want SIGTERM", got)
	}
	if got := tb.killedBy(simple); got != 0 {
		t.Errorf("the simple command's statement: killed by %v, want none", got)
	}
	// The job's line cancelled: its statements stop before their end
	// marks, so they are ended here (wait and wait -n would wait for ever).
	tb.signalledJob([]int{1002}, syscall.SIGTERM, true)
	st, _, found, ok := tb.awaitNext(context.Background(), func(st *bgStmt) bool { return st == tb.stmts[simple] })
	if !found || !ok || st != 143 {
		t.Errorf("the simple command's statement after its line was cancelled: %d, found %v", st, found)
	}
}

// TestBgTableSettle: a job lookup waits for a young background statement
// to start a program, end, or reach $!'s command without one; for no
// longer than lookupWait after the statement began.
func TestBgTableSettle(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		want int
		do   func(tb *bgTable, tok string)
		long bool // settle waits lookupWait
	}{
		{"starts a program", 5, func(tb *bgTable, tok string) { tb.started(tok, 5, 1001) }, false},
		{"starts a pipeline's first program", 5, func(tb *bgTable, tok string) { tb.started(tok, 2, 1002) }, false},
		{"ends", 0, func(tb *bgTable, tok string) { tb.end(tok, 0) }, false},
		{"a builtin at $!'s place", 5, func(tb *bgTable, tok string) { tb.calling(tok, 5, false) }, false},
		{"command not found", 5, func(tb *bgTable, tok string) { tb.failed(tok, 5) }, false},
		{"a builtin elsewhere", 5, func(tb *bgTable, tok string) { tb.calling(tok, 2, false) }, true},
		{"nothing", 0, func(tb *bgTable, tok string) {}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tb, clk := newFakeTable()
			old := tb.reserve(0, 0) // began long ago: not waited for
			tb.stmts[old].began = clk.now().Add(-time.Hour)
			tok := tb.reserve(tt.want, 0)
			done := make(chan struct{})
			go func() {
				tb.settle(context.Background())
				close(done)
			}()
			clk.awaitTimers(t, 1) // settle waits
			select {
			case <-done:
				t.Fatal("settle returned before the statement did anything")
			default:
			}
			tt.do(tb, tok)
			if tt.long {
				// Woken (do may change nothing), it waits again, until
				// lookupWait is over.
				tb.mu.Lock()
				tb.broadcast()
				tb.mu.Unlock()
				ended := func() bool {
					select {
					case <-done:
						return true
					default:
						return false
					}
				}
				testtime.Until(30*time.Second, func() bool { return ended() || clk.timersMade() >= 2 })
				if ended() {
					t.Fatal("settle returned before lookupWait was over")
				}
				clk.advance(lookupWait)
			}
			returns(t, "settle", func() bool { <-done; return true })
			// Settled, or too old now: at once.
			made := clk.timersMade()
			returns(t, "settle again", func() bool { tb.settle(context.Background()); return true })
			if clk.timersMade() != made {
				t.Fatal("settle again waited")
			}
		})
	}
	t.Run("cancelled", func(t *testing.T) {
		t.Parallel()
		tb, clk := newFakeTable()
		tb.reserve(5, 0)
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			clk.awaitTimers(t, 1)
			cancel()
		}()
		returns(t, "a cancelled settle", func() bool { tb.settle(ctx); return true })
	})
	t.Run("unused table", func(t *testing.T) {
		newBgTable().settle(context.Background()) // returns, without a panic
	})
}
