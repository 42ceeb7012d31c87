package shell

import (
	"context"
	"strconv"
	"strings"
	"sync/atomic"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/shell/marks"
)

// The DEBUG trap, as bash runs it: before each simple command of the
// shell itself (not inside functions, whose commands bash leaves alone
// without functrace, nor in command substitutions), with $BASH_COMMAND
// the command about to run and $? the status before it, which the
// command then gets back. bash-preexec (under starship, atuin) runs its
// preexec functions from it.
//
// interp has no such hook. [Shell.call] sees every simple command, but a
// call handler cannot run shell code; so it turns the command into
// [debugMark], a builtin, whose exec handler runs the trap in the
// session's current scope (interp's eval, through HandlerContext.Builtin)
// and then the command itself, again through eval, marked with
// [debuggedMark] so that the trap does not run for it twice. $? is put
// back with [statusMark] in an if's condition, where neither set -e nor
// an ERR trap heed it.

const (
	debugMark    = "__qsh_debug"    // builtin: run the trap, then the command
	subshellVar  = "__qsh_subshell" // set in ( … ) while the trap is set: no trap there
	debuggedMark = "__qsh_debugged" // prefix: the command, its trap run
	statusMark   = "__qsh_status"   // builtin: exit with the status given
	bgDebugMark  = "__qsh_bgdebug"  // builtin: the trap of a background statement, in the shell
	cmdTextVar   = "__qsh_cmdtext"  // a command's text, for BASH_COMMAND
)

// debugTrap is the state of the DEBUG trap, read by calls on any
// goroutine.
type debugTrap struct {
	cmd     atomic.Pointer[string] // nil: no trap
	running atomic.Int32           // traps running: no trap runs inside one
	depth   atomic.Int32           // functions called from a trapped command
}

// setDebugTrap sets the DEBUG trap's command, or clears it ("" or "-").
func (s *Shell) setDebugTrap(b builtinIO, cmd string) int {
	if cmd == "-" || cmd == "" {
		s.debug.cmd.Store(nil)
		return 0
	}
	if _, err := syntax.NewParser().Parse(strings.NewReader(cmd), ""); err != nil {
		return b.fail(1, "DEBUG: %s", syntaxError(err, "trap"))
	}
	s.debug.cmd.Store(&cmd)
	return 0
}

// debugTrapCmd is the DEBUG trap's command, "" when none.
func (s *Shell) debugTrapCmd() string {
	if p := s.debug.cmd.Load(); p != nil {
		return *p
	}
	return ""
}

// debugCall is for [Shell.call]: the command becomes [debugMark] when
// the trap is to run before it. ok is false when args are unchanged.
func (s *Shell) debugCall(hc interp.HandlerContext, args []string) ([]string, bool) {
	if s.debug.cmd.Load() == nil || strings.HasPrefix(args[0], marks.Prefix) || strings.HasPrefix(args[0], builtinMark) ||
		!s.debugHere(hc) || s.bgToken(hc) != "" {
		return nil, false
	}
	return append([]string{debugMark}, args...), true
}

// debugHere reports whether the trap runs for a command of hc: not in
// the trap, a function, a substitution or a subshell.
func (s *Shell) debugHere(hc interp.HandlerContext) bool {
	return s.debug.running.Load() == 0 && s.debug.depth.Load() == 0 &&
		!inSubstitution(hc) && !hc.Env.Get(subshellVar).IsSet()
}

// inSubstitution reports whether the command of hc runs in a command
// substitution: its output goes to the substitution's buffer, or the
// line's marks say so (see [marks.NoJobVar]; interactive shells only).
func inSubstitution(hc interp.HandlerContext) bool {
	if _, ok := hc.Stdout.(*strings.Builder); ok {
		return true
	}
	return hc.Env.Get(marks.NoJobVar).IsSet()
}

// markBackgrounds puts before each background statement of node
// `__qsh_bgdebug 'TEXT' && __qsh_status 0`: bash runs the trap for `cmd &`
// in the shell, before the statement starts, where its variables stay
// (bash-preexec's preexec runs for it); qsh runs the statement on a
// goroutine of its own. The && list keeps $? and set -e as they were.
// Only while the trap is set (see [Shell.markCode]).
func (s *Shell) markBackgrounds(node syntax.Node) {
	if s.debug.cmd.Load() == nil {
		return
	}
	marks.EachList(node, false, func(list *[]*syntax.Stmt) {
		var out []*syntax.Stmt
		for i, st := range *list {
			if !marks.IsBackground(st) || marks.IsMarkedBackground(st) {
				if out != nil {
					out = append(out, st)
				}
				continue
			}
			if out == nil {
				out = append(out, (*list)[:i]...)
			}
			var b strings.Builder
			syntax.NewPrinter(syntax.SingleLine(true)).Print(&b, st.Cmd)
			out = append(out, marks.ParseStmt(bgDebugMark+" "+quote(b.String())+" && "+statusMark+" 0"), st)
		}
		if out != nil {
			*list = out
		}
	})
}

// bgDebugBuiltin is [bgDebugMark]: the trap, with BASH_COMMAND text; its
// status is $? before it.
func (s *Shell) bgDebugBuiltin(ctx context.Context, hc interp.HandlerContext, args []string) error {
	if trap := s.debugTrapCmd(); trap != "" && len(args) == 1 && s.debugHere(hc) && s.bgToken(hc) == "" {
		st := strconv.Itoa(hc.LastExitStatus)
		s.debug.running.Add(1)
		hc.Builtin(ctx, []string{"eval", "BASH_COMMAND=" + quote(args[0])})
		hc.Builtin(ctx, []string{"eval", s.beforeRedirs(hc, withStatus(st, trap))})
		s.debug.running.Add(-1)
	}
	return statusBuiltin([]string{strconv.Itoa(hc.LastExitStatus)})
}

// markCommandText gives each simple command of node that may run the
// trap its text as written, in [cmdTextVar] as a prefix assignment, for
// $BASH_COMMAND: the call handler sees the command expanded only. Only
// while the trap is set (see [Shell.markCode]).
func (s *Shell) markCommandText(node syntax.Node) {
	if s.debug.cmd.Load() == nil {
		return
	}
	p := syntax.NewPrinter(syntax.SingleLine(true))
	syntax.Walk(node, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.FuncDecl:
			return false
		case *syntax.Stmt:
			call, ok := n.Cmd.(*syntax.CallExpr)
			if !ok || len(call.Args) == 0 || strings.HasPrefix(call.Args[0].Lit(), marks.Prefix) {
				return true
			}
			st := *n
			st.Background, st.Disown, st.Negated, st.Comments = false, false, false, nil
			var b strings.Builder
			if p.Print(&b, &st) != nil {
				return true
			}
			as := &syntax.Assign{Name: &syntax.Lit{Value: cmdTextVar},
				Value: &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: ansiC.Replace(b.String()), Dollar: true}}}}
			call.Assigns = append([]*syntax.Assign{as}, call.Assigns...)
		}
		return true
	})
}

// ansiC escapes text for $'…'.
var ansiC = strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`)

// markSubshells marks the commands in the subshells of node ( … ) with
// [subshellVar], as a prefix assignment that functions called there see
// too: bash runs no DEBUG trap in them. Only while the trap is set, and
// only in what the shell marks (see [Shell.markCode]).
func (s *Shell) markSubshells(node syntax.Node) {
	if s.debug.cmd.Load() == nil {
		return
	}
	syntax.Walk(node, func(n syntax.Node) bool {
		if _, ok := n.(*syntax.Subshell); !ok {
			return true
		}
		syntax.Walk(n, func(n syntax.Node) bool {
			if call, ok := n.(*syntax.CallExpr); ok {
				marks.PrefixVar(call, subshellVar)
			}
			return true
		})
		return false
	})
}

// debugBuiltin is [debugMark]: the trap, then the command (args).
func (s *Shell) debugBuiltin(ctx context.Context, hc interp.HandlerContext, args []string) error {
	st := strconv.Itoa(hc.LastExitStatus)
	if trap := s.debugTrapCmd(); trap != "" {
		text := strings.Join(args, " ")
		if vr := hc.Env.Get(cmdTextVar); vr.IsSet() {
			text = vr.String()
		}
		s.debug.running.Add(1)
		hc.Builtin(ctx, []string{"eval", "BASH_COMMAND=" + quote(text)})
		hc.Builtin(ctx, []string{"eval", s.beforeRedirs(hc, withStatus(st, trap))})
		s.debug.running.Add(-1)
	}
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = quote(a)
	}
	if s.isFuncAt(hc, args[0]) {
		s.debug.depth.Add(1)
		defer s.debug.depth.Add(-1)
	}
	return hc.Builtin(ctx, []string{"eval", withStatus(st, debuggedMark+" "+strings.Join(quoted, " "))})
}

// beforeRedirs is src with the shell's own output: bash runs the trap
// before the command's redirections, so that `make >log` gets no
// terminal title a preexec function prints; interp has applied them when
// the call handler runs. The shell's output is its process's (interp
// redirects no process fds).
func (s *Shell) beforeRedirs(hc interp.HandlerContext, src string) string {
	if hc.Stdout != s.stdout {
		src = "{\n" + src + "\n} >/dev/stdout"
	}
	if hc.Stderr != s.stderr {
		src = "{\n" + src + "\n} 2>/dev/stderr"
	}
	return src
}

// withStatus is src run with $? st: in both branches of an if whose
// condition sets it.
func withStatus(st, src string) string {
	return "if " + statusMark + " " + st + "; then\n" + src + "\nelse\n" + src + "\nfi"
}

// statusBuiltin is [statusMark].
func statusBuiltin(args []string) error {
	if len(args) == 1 {
		if n, err := strconv.Atoi(args[0]); err == nil && n != 0 {
			return interp.ExitStatus(uint8(n))
		}
	}
	return nil
}
