package shell

import (
	"context"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/internal/testtime"
)

// newBgTable is a table for a test; the Shell's is its zero value.
func newBgTable() *bgTable { return &bgTable{} }

func printNode(t *testing.T, n syntax.Node) string {
	t.Helper()
	var b strings.Builder
	if err := syntax.NewPrinter(syntax.SingleLine(true)).Print(&b, n); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(b.String())
}

func TestMarkBang(t *testing.T) {
	t.Parallel()
	lookup := `$(__qsh_pid "${__qsh_lastbg-}" 2>/dev/null)`
	unbound := `${!%%*}` // in the shell itself, for set -u
	tests := []struct {
		in, want string
		top      bool
	}{
		{`echo $!`, `echo ` + lookup, false},
		{`echo ${!}`, `echo ` + lookup, false},
		{`echo "pid $!."`, `echo "pid ` + lookup + `."`, false},
		{`echo $(( $! + 1 ))`, `echo $((` + lookup + ` + 1))`, false},
		{`kill -0 $! 2>/dev/null`, `kill -0 ` + lookup + ` 2>/dev/null`, false},
		{`echo ${!:-none}`, `echo $(__qsh_x=` + lookup + ` 2>/dev/null; printf %s "${__qsh_x:-none}" 2>/dev/null)`, false},
		{`echo ${#!}`, `echo $(__qsh_x=` + lookup + ` 2>/dev/null; printf %s "${#__qsh_x}" 2>/dev/null)`, false},
		{`echo $! $(echo "$!")`, `echo ` + lookup + ` $(echo "` + lookup + `")`, false},
		// In the shell itself, set -u may fail on it; not in a
		// subshell, a pipeline, a background statement, a function.
		{`echo "$!" ${!} $(echo $!); cat $! | cat $!`, `echo "` + lookup + unbound + `" ` + lookup + unbound + ` $(echo ` + lookup + `); cat ` + lookup + ` | cat ` + lookup, true},
		{`x=$! && (echo $!); f() { echo $!; }; echo $! & echo ${!:-x}`, `x=` + lookup + unbound + ` && (echo ` + lookup + `); f() { echo ` + lookup + `; }; echo ` + lookup + ` & echo $(__qsh_x=` + lookup + ` 2>/dev/null; printf %s "${__qsh_x:-x}" 2>/dev/null)`, true},
		// Not $!: indirection, a quoted or escaped one, history-free !.
		{`echo ${!x} '$!' \$! !`, `echo ${!x} '$!' \$! !`, false},
	}
	for _, tt := range tests {
		f, err := syntax.NewParser().Parse(strings.NewReader(tt.in), "")
		if err != nil {
			t.Fatal(err)
		}
		changed := markBang(f, tt.top)
		if got := printNode(t, f); got != tt.want || changed != (tt.in != tt.want) {
			t.Errorf("markBang(%q, %v) = %q, %v\nwant %q", tt.in, tt.top, got, changed, tt.want)
		}
		if markBang(f, tt.top) {
			t.Errorf("markBang(%q) marked twice: %q", tt.in, printNode(t, f))
		}
	}
}

func TestMarkPids(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in    string
		first bool
		want  []string // what the printed program contains, in order
	}{
		// The place is the offset+1 of the program's call.
		{in: `sleep 1 &`, want: []string{
			`declare -g __qsh_nextbg=$(__qsh_bg 1 2>/dev/null)`,
			`{ declare -g __qsh_bg=$__qsh_nextbg; __qsh_bgstart 2>/dev/null && : 2>/dev/null; sleep 1; __qsh_bgend 2>/dev/null; } &`,
			`declare -g __qsh_lastbg=$__qsh_nextbg`}},
		// A pipeline's last program; redirections stay on the statement.
		{in: `x; a | b >log &`, want: []string{`__qsh_bg 8 `, `__qsh_bgstart 2>/dev/null && : 2>/dev/null; a | b >log; __qsh_bgend`}},
		// Anything else has none: it gets a stand-in.
		{in: `{ a; b; } &`, want: []string{`__qsh_bg 0 `}},
		{in: `while :; do :; done &`, want: []string{`__qsh_bg 0 `}},
		// An eval string: the first program, places change.
		{in: `a | b &`, first: true, want: []string{`__qsh_bg -1 `}},
		// Nested lists, and a substitution.
		{in: `if x; then y & fi; z=$(w &)`, want: []string{`then declare -g __qsh_nextbg`, `$(declare -g __qsh_nextbg`}},
		// A job's mark sets $? to 0: the statement's first line goes
		// before it, so that $? in the statement is the one before.
		{in: `false; declare -g __qsh_job=$(__qsh_job 'x' 2>/dev/null); x &`, want: []string{
			`false; declare -g __qsh_nextbg=$(__qsh_bg `, `; declare -g __qsh_job=$(__qsh_job`, `{ declare -g __qsh_bg=`}},
		// $! and the statement together.
		{in: `sleep 1 & kill $!`, want: []string{`__qsh_lastbg=$__qsh_nextbg; kill $(__qsh_pid "${__qsh_lastbg-}" 2>/dev/null)${!%%*}`}},
	}
	for _, tt := range tests {
		f, err := syntax.NewParser().Parse(strings.NewReader(tt.in), "")
		if err != nil {
			t.Fatal(err)
		}
		if !markPids(f, tt.first) {
			t.Errorf("markPids(%q) changed nothing", tt.in)
		}
		got := printNode(t, f)
		rest := got
		for _, w := range tt.want {
			i := strings.Index(rest, w)
			if i < 0 {
				t.Errorf("markPids(%q) = %q\nwant it to contain, in order, %q", tt.in, got, tt.want)
				break
			}
			rest = rest[i+len(w):]
		}
		// Marking again changes nothing (a function body seen twice).
		if markPids(f, tt.first) {
			t.Errorf("markPids(%q) marked twice: %q", tt.in, printNode(t, f))
		}
	}
	f, _ := syntax.NewParser().Parse(strings.NewReader(`echo hi; true && false`), "")
	if markPids(f, false) {
		t.Errorf("markPids changed a program without & or $!: %q", printNode(t, f))
	}
}

func TestMayMark(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src  string
		want bool
	}{
		{"a && b || c", false},
		{"a >&2 2>&1 <&3 &>log |& cat &>>log", false},
		{"echo !x ${!x", true},
		{"echo ! hi", false},
		{"a &", true},
		{"a&", true},
		{"a & b", true},
		{"&& &", true},
		{"echo $!", true},
		{"echo ${!}", true},
		{"a&&", false},
	}
	for _, tt := range tests {
		if got := mayMark(tt.src); got != tt.want {
			t.Errorf("mayMark(%q) = %v, want %v", tt.src, got, tt.want)
		}
	}
}

// TestMarkPidsEvalPrinted: a function printed by declare -f and run by
// eval gets the place of its program in the eval string (its first).
func TestMarkPidsEvalPrinted(t *testing.T) {
	t.Parallel()
	f, _ := syntax.NewParser().Parse(strings.NewReader("f() { x; sleep 1 & }"), "")
	markPids(f, false)
	printed := printNode(t, f)
	if !strings.Contains(printed, "__qsh_bg 10 ") {
		t.Fatalf("marked: %q", printed)
	}
	out, changed := markPidsEval(printed)
	if !changed || !strings.Contains(out, "__qsh_bg -1 ") {
		t.Errorf("markPidsEval(%q) = %q, %v; want the place -1", printed, out, changed)
	}
}

func TestMarkPidsEval(t *testing.T) {
	t.Parallel()
	if got, ok := markPidsEval(`echo hi`); ok || got != `echo hi` {
		t.Errorf("markPidsEval(echo hi) = %q, %v", got, ok)
	}
	if got, ok := markPidsEval(`echo a && echo b`); ok || got != `echo a && echo b` {
		t.Errorf("markPidsEval(&&) = %q, %v", got, ok)
	}
	got, ok := markPidsEval(`sleep 1 & echo $!`)
	if !ok || !strings.Contains(got, `__qsh_bg -1 `) || !strings.Contains(got, `echo $(__qsh_pid`) {
		t.Errorf("markPidsEval = %q, %v", got, ok)
	}
	if _, err := syntax.NewParser().Parse(strings.NewReader(got), ""); err != nil {
		t.Errorf("markPidsEval made %q: %v", got, err)
	}
}

func TestProgramPlace(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want int
	}{
		{`sleep 1`, 1},
		{`  sleep 1`, 3},
		{`a | b`, 5},
		{`a | b | c`, 9},
		{`a |& b`, 6},
		{`x=1`, 0},
		{`a && b`, 0},
		{`(a)`, 0},
		{`f() { :; }`, 0},
	}
	for _, tt := range tests {
		f, err := syntax.NewParser().Parse(strings.NewReader(tt.in), "")
		if err != nil {
			t.Fatal(err)
		}
		if got := programPlace(f.Stmts[0]); got != tt.want {
			t.Errorf("programPlace(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

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
		{"first program", placeFirst, func(tb *bgTable, tok string) {
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

func TestMarkTrap(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{`echo hi`, `echo hi`},
		{`kill $!`, `kill ` + bangLookup},
		{`kill ${!}  ;echo "[$!]" '$!'`, `kill ` + bangLookup + `  ;echo "[` + bangLookup + `]" '$!'`},
		{`echo ${!:-x} ${!y}`, `echo ${!:-x} ${!y}`}, // left as they are
		{`if then`, `if then`}, // a syntax error: left for the trap to report
	}
	for _, tt := range tests {
		got := markTrap(tt.in)
		if got != tt.want {
			t.Errorf("markTrap(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if back := unmarkTrap(got); back != strings.ReplaceAll(tt.in, "${!}", "$!") {
			t.Errorf("unmarkTrap(%q) = %q, want %q", got, back, tt.in)
		}
	}
}

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

// TestMarkPidsText: a sourced file's marks keep its lines where they are,
// and each statement's place is its program's offset in the new text.
func TestMarkPidsText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in    string
		progs []string // the program of each statement marked, in order; "" none
	}{
		{"sleep 1 &\necho $!\n", []string{"sleep"}},
		{"a | b >log &  # c\nkill ${!}\n", []string{"b"}},
		{"if x; then\n  y & fi\n", []string{"y"}},
		{"case $1 in a) sleep 2 & ;; b) c & ;& esac\n", []string{"sleep", "c"}},
		{"(sleep 3 &)\n", []string{"sleep"}},
		{"cat <<EOF &\nbody $!\nEOF\necho done\n", []string{"cat"}},
		{"{ sleep 4 & } &\n", []string{"", "sleep"}},
		{"f() { sleep 5 & echo ${!:-none}; }\n", []string{"sleep"}},
		{"x=1 sleep 6 & y=$!\n", []string{"sleep"}},
		{"x=$(sleep 7 &) && z &\nw", []string{"", "sleep"}},
		{"! false &\n>log sleep 8 2>&1 &\ntime sleep 9 &\n", []string{"false", "sleep", ""}},
		{"echo $! ${#!}\n", nil},
		// Marks printed by declare -f: their place is the old text's.
		{"f() {\n\tdeclare -g __qsh_nextbg=$(__qsh_bg 0000000999 2>/dev/null)\n\t{\n\t\tdeclare -g __qsh_bg=$__qsh_nextbg\n\t\t__qsh_bgstart 2>/dev/null && : 2>/dev/null\n\t\tsleep 1\n\t\t__qsh_bgend 2>/dev/null\n\t} &\n\tdeclare -g __qsh_lastbg=$__qsh_nextbg\n}\n", []string{"sleep"}},
		{"echo no marks && true\n", nil},
		{"if then & $!\n", nil}, // a syntax error: as written
	}
	marks := regexp.MustCompile(`__qsh_bg ([0-9]+) `)
	for _, tt := range tests {
		out, changed := markPidsText(tt.in, "f.sh")
		if !strings.Contains(tt.in, "$!") && tt.progs == nil || strings.Contains(tt.in, "if then") {
			if changed || out != tt.in {
				t.Errorf("markPidsText(%q) = %q, %v; want it unchanged", tt.in, out, changed)
			}
			continue
		}
		if !changed {
			t.Errorf("markPidsText(%q) changed nothing", tt.in)
			continue
		}
		if strings.Count(out, "\n") != strings.Count(tt.in, "\n") {
			t.Errorf("markPidsText(%q) moved lines: %q", tt.in, out)
		}
		if _, err := syntax.NewParser().Parse(strings.NewReader(out), ""); err != nil {
			t.Errorf("markPidsText(%q) = %q: %v", tt.in, out, err)
		}
		if strings.Contains(out, "$!") || strings.Contains(out, "${!}") {
			t.Errorf("markPidsText(%q) left a $!: %q", tt.in, out)
		}
		var got []string
		for _, m := range marks.FindAllStringSubmatch(out, -1) {
			place, _ := strconv.Atoi(m[1])
			prog := ""
			if place > 0 {
				prog, _, _ = strings.Cut(out[place-1:], " ")
			}
			got = append(got, prog)
		}
		if strings.Join(got, ",") != strings.Join(tt.progs, ",") {
			t.Errorf("markPidsText(%q): places at %q, want %q\n%s", tt.in, got, tt.progs, out)
		}
		if again, changed := markPidsText(out, "f.sh"); changed {
			t.Errorf("markPidsText marked %q twice: %q", tt.in, again)
		}
	}
}

// TestMarkBackgroundPrinted: a function printed by declare -f at the
// prompt, with its job's and $!'s marks, and run again by eval: no second
// job mark, the job's text is the statement's, and $!'s place is anew.
func TestMarkBackgroundPrinted(t *testing.T) {
	t.Parallel()
	f, _ := syntax.NewParser().Parse(strings.NewReader("f() { sleep 1 & }"), "")
	markBackground(f)
	markPids(f, false)
	var b strings.Builder
	syntax.NewPrinter().Print(&b, f)
	f2, err := syntax.NewParser().Parse(strings.NewReader(b.String()), "")
	if err != nil {
		t.Fatal(err)
	}
	markBackground(f2)
	markPids(f2, true)
	got := printNode(t, f2)
	if n := strings.Count(got, "__qsh_job '"); n != 1 {
		t.Errorf("%d job marks, want 1: %q", n, got)
	}
	if !strings.Contains(got, "__qsh_job 'sleep 1'") {
		t.Errorf("the job's text is not the statement's: %q", got)
	}
	if !strings.Contains(got, "__qsh_bg -1 ") {
		t.Errorf("$!'s place is not anew: %q", got)
	}
}
