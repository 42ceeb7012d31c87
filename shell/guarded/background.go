package guarded

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/qsh-shell/qsh/policy/sandbox"
	"github.com/qsh-shell/qsh/shell/eval"
)

// Start starts req in the background, with run, the shell's subshell,
// and returns at once; done gets how it ended, once, when its command
// line has run to its end or ctx ended (the assistant stopped it, the
// conversation or the shell ended), which kills every program of it
// with its process group, or its jail.
//
// The shell runs the line as a background statement of the subshell
// (`{ LINE; } &`), so that the subshell returns as soon as the line has
// started and, like the shell's own jobs, the line keeps bash's meaning
// (`make && ./server` starts the server once make succeeded). Its end is
// told by a last command of a name no one else knows, which the exec
// middleware takes (run again by an EXIT trap, for an `exit` in the line;
// a line that sets its own EXIT trap and exits is known to have ended
// only when it is stopped). A confined run has a jail of its own: the jail a
// question's runs share is emptied at the end of each.
//
// A program of it that stops for the terminal is stopped for good: a
// background run never has it. The caller serialises Start with the
// subshell's other runs as it does Local's.
func Start(run ShellFunc, ctx context.Context, req Request, out io.Writer) (done <-chan Result) {
	ch := make(chan Result, 1)
	var cancel context.CancelFunc
	if req.Timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, req.Timeout)
	} else {
		ctx, cancel = context.WithCancel(ctx)
	}
	runCtx, cancelRun := context.WithCancel(WithTerminal(ctx, nil))
	var host *sandbox.Host
	if req.Sandbox != nil {
		host = sandbox.NewHost()
	}
	finish := func(r Result) {
		cancelRun()
		if host != nil {
			host.Close() // everything in its jail
		}
		cancel()
		ch <- r
	}
	g, res := newGuard(host, req, cancelRun, out)
	if g == nil {
		finish(res)
		return ch
	}
	var b [8]byte
	rand.Read(b[:])
	last := "qsh-background-end-" + hex.EncodeToString(b[:])
	ended := make(chan int, 1)
	// The programs running, so that a stopped run is known to be over
	// once they are gone, whether or not the shell runs on to its end.
	var mu sync.Mutex
	running := 0
	idle := make(chan struct{}, 1)
	execMW := func(next eval.ExecHandler) eval.ExecHandler {
		inner := g.execMW(next)
		return func(ctx context.Context, c *eval.Call) int {
			if len(c.Args) == 2 && c.Args[0] == last {
				st, _ := strconv.Atoi(c.Args[1])
				select {
				case ended <- st:
				default:
				}
				return st
			}
			mu.Lock()
			running++
			mu.Unlock()
			defer func() {
				mu.Lock()
				running--
				if running == 0 {
					select {
					case idle <- struct{}{}:
					default:
					}
				}
				mu.Unlock()
			}()
			return inner(ctx, c)
		}
	}
	// The EXIT trap tells an `exit` in the line too.
	line := fmt.Sprintf("{ trap '%[2]s $?' EXIT; { %[1]s\n}; %[2]s $?; } &", req.Command, last)
	st, err := run(runCtx, line, out, out, execMW, g.openMW)
	if err != nil || st != 0 {
		// It did not start: a syntax error, or Ctrl-C as it did.
		finish(g.result(ctx, st, err))
		return ch
	}
	go func() {
		var st int
		select {
		case st = <-ended:
		case <-runCtx.Done():
			// Its programs are killed by the context, and no other starts.
			st = 143
			mu.Lock()
			n := running
			mu.Unlock()
			limit := time.After(2*killGrace + time.Second)
			for n > 0 {
				select {
				case st = <-ended:
					n = 0
				case <-idle: // maybe an earlier program's: look again
					mu.Lock()
					n = running
					mu.Unlock()
				case <-limit:
					n = 0
				}
			}
		}
		finish(g.result(ctx, st, nil))
	}()
	return ch
}
