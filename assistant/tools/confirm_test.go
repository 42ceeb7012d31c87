package tools

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/qsh-shell/qsh/policy/danger"
)

func devAsk(cmd string) ask {
	return ask{
		kind:    kindRun,
		verdict: danger.Verdict{Class: danger.Dev, Reasons: []string{"runs the Go toolchain in this project"}},
		subject: cmd,
		verb:    "run",
		rule:    &Rule{Kind: kindRun, Exact: cmd, Class: danger.Dev},
	}
}

func TestPromptLine(t *testing.T) {
	r, _ := testRegistry(t, DefaultConfig())
	out := new(bytes.Buffer)
	rk, _ := keys(t, 'y')
	ok, _ := r.approve(context.Background(), Env{Out: out, ReadKey: rk}, devAsk("go build ./..."), &call{})
	want := "⚠ dev  go build ./...   (runs the Go toolchain in this project)  undo: yes  run? [y/n/a/A] y\n"
	if !ok || out.String() != want {
		t.Errorf("prompt %q, want %q", out, want)
	}
	// On a terminal the same words, coloured.
	out.Reset()
	rk, _ = keys(t, 'y')
	r.approve(context.Background(), Env{Out: out, ReadKey: rk, Terminal: true}, devAsk("go vet"), &call{})
	if s := out.String(); !strings.Contains(s, "\x1b[") || stripANSI(s) != "⚠ dev  go vet   (runs the Go toolchain in this project)  undo: yes  run? [y/n/a/A] y\n" {
		t.Errorf("terminal prompt %q", s)
	}
}

func stripANSI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b {
			for i < len(s) && s[i] != 'm' {
				i++
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func TestConfirmKeys(t *testing.T) {
	canceled := func(context.Context) (rune, error) { return 0, context.Canceled }
	eof := func(context.Context) (rune, error) { return 0, io.EOF }
	for _, tc := range []struct {
		name     string
		keys     []rune
		readKey  func(context.Context) (rune, error)
		ok       bool
		decision string
		err      string
	}{
		{name: "y", keys: []rune{'y'}, ok: true, decision: decApproved},
		{name: "Y", keys: []rune{'Y'}, ok: true, decision: decApproved},
		{name: "n", keys: []rune{'n'}, decision: decDeclined, err: "the user declined"},
		{name: "Enter", keys: []rune{'\r'}, decision: decDeclined, err: "the user declined"},
		{name: "Esc", keys: []rune{0x1b}, decision: decDeclined, err: "the user declined"},
		{name: "a wrong key asks again", keys: []rune{'x', 'y'}, ok: true, decision: decApproved},
		{name: "a second wrong key is no", keys: []rune{'x', ' '}, decision: decDeclined, err: "the user declined"},
		{name: "a key not offered is wrong", keys: []rune{'e', 'e'}, decision: decDeclined, err: "the user declined"},
		{name: "Ctrl-D", keys: []rune{0x04}, decision: decDeclined, err: "the user declined"},
		{name: "a", keys: []rune{'a'}, ok: true, decision: decAlways},
		{name: "Ctrl-C key", keys: []rune{0x03}, decision: decCanceled, err: ErrCanceled.Error()},
		{name: "Ctrl-C context", readKey: canceled, decision: decCanceled, err: ErrCanceled.Error()},
		{name: "EOF", readKey: eof, decision: decDeclined, err: "the user declined"},
		{name: "no terminal", decision: decRefused, err: "there is no terminal to ask on"},
	} {
		r, _ := testRegistry(t, DefaultConfig())
		env := Env{Out: new(bytes.Buffer), ReadKey: tc.readKey}
		if tc.keys != nil {
			env.ReadKey, _ = keys(t, tc.keys...)
		}
		c := &call{}
		ok, res := r.approve(context.Background(), env, devAsk("go test ./..."), c)
		if ok != tc.ok || c.decision != tc.decision || !strings.Contains(res.Error, tc.err) {
			t.Errorf("%s: ok=%v decision=%q res=%+v", tc.name, ok, c.decision, res)
		}
		if canc := tc.decision == decCanceled; res.Canceled != canc || c.canceled != canc {
			t.Errorf("%s: canceled=%v, want %v", tc.name, res.Canceled, canc)
		}
	}
}

func TestAlwaysScope(t *testing.T) {
	r, _ := testRegistry(t, DefaultConfig())
	rk, n := keys(t, 'a', 'n', 'n')
	env := Env{Out: new(bytes.Buffer), ReadKey: rk}
	ctx := context.Background()
	if ok, _ := r.approve(ctx, env, devAsk("go test ./..."), &call{}); !ok {
		t.Fatal("a did not approve")
	}
	c := &call{}
	if ok, _ := r.approve(ctx, env, devAsk("go test ./..."), c); !ok || c.decision != decAlways || *n != 1 {
		t.Errorf("the same call after a: ok=%v decision=%q keys=%d", ok, c.decision, *n)
	}
	// The rule matched, but the call is worse than what was approved.
	worse := devAsk("go test ./...")
	worse.verdict.Class = danger.Dangerous
	if ok, _ := r.approve(ctx, env, worse, &call{}); ok || *n != 2 {
		t.Errorf("a dangerous call rode on a dev approval")
	}
	// Another kind of call is not covered.
	other := devAsk("go test ./...")
	other.kind = kindRead
	if ok, _ := r.approve(ctx, env, other, &call{}); ok || *n != 3 {
		t.Errorf("an fs call rode on an exec approval")
	}
	// Blocked is refused before anyone is asked, and 'a' is never offered
	// when there is no rule to make.
	blocked := devAsk("rm -rf ~")
	blocked.verdict = danger.Verdict{Class: danger.Blocked, Reasons: []string{"deletes the home directory"}}
	if ok, res := r.approve(ctx, env, blocked, &call{}); ok || !strings.Contains(res.Error, "is blocked (deletes the home directory)") {
		t.Errorf("blocked: %+v", res)
	}
	out := new(bytes.Buffer)
	rk, _ = keys(t, 'a', 'y')
	noRule := devAsk("sh -c x")
	noRule.rule = nil
	if ok, _ := r.approve(ctx, Env{Out: out, ReadKey: rk}, noRule, &call{}); !ok || !strings.Contains(out.String(), "run? [y/n] y\n") {
		t.Errorf("without a rule: %q", out)
	}
}

// TestWrongKeyHint checks the line a key that is not an answer gets: why
// it is not offered when it is an answer elsewhere, and the keys that are,
// then the question again.
func TestWrongKeyHint(t *testing.T) {
	mcp := ask{kind: kindCall, verdict: danger.Verdict{Class: danger.Dev}, subject: "fetch {}", tool: "fetch", verb: "call",
		rule: &Rule{Kind: kindCall, Tool: "fetch", Class: danger.Dev}}
	unconfined := devAsk("make")
	unconfined.rule = nil
	for _, tc := range []struct {
		name string
		q    ask
		keys []rune
		want string
	}{
		{"unknown", devAsk("go vet"), []rune{'x', 'y'}, "run? [y/n/a/A] \nx is not an answer: y run · n don't · " +
			"a allow alike this session · A always in this project · Enter/Esc/Ctrl-D no · Ctrl-C stop\nrun? [y/n/a/A] y\n"},
		{"control key", devAsk("go vet"), []rune{0x01, 'n'}, "run? [y/n/a/A] \n^A is not an answer: "},
		{"arrow", devAsk("go vet"), []rune{utf8.RuneError, 'n'}, "run? [y/n/a/A] \nthat key is not an answer: "},
		{"e at an MCP call", mcp, []rune{'e', 'n'}, "call? [y/n/a/A] \ne is not offered here: an MCP tool's call is not a command you could run yourself. y call · "},
		{"e with no prompt to come", devAsk("go vet"), []rune{'e', 'n'}, "e is not offered here: there is no prompt to come"},
		{"a unconfined", unconfined, []rune{'a', 'n'}, "run? [y/n] \na is not offered here: this call is approved one at a time. y run · n don't · Enter"},
		{"second wrong key", devAsk("go vet"), []rune{'x', 'z'}, "\nrun? [y/n/a/A] z is not an answer either: n\n"},
	} {
		r, _ := testRegistry(t, DefaultConfig())
		out := new(bytes.Buffer)
		rk, _ := keys(t, tc.keys...)
		r.approve(context.Background(), Env{Out: out, ReadKey: rk}, tc.q, &call{})
		if !strings.Contains(out.String(), tc.want) {
			t.Errorf("%s: %q\nlacks %q", tc.name, out, tc.want)
		}
	}
}

// TestPromptEffect checks that the line says what a command would change,
// asked of the shell only when the user is asked.
func TestPromptEffect(t *testing.T) {
	r, _ := testRegistry(t, DefaultConfig())
	var asked []string
	preview := func(_ context.Context, cmd string) string {
		asked = append(asked, cmd)
		return "deletes 3 files, 2.9 kB in build/"
	}
	out := new(bytes.Buffer)
	rk, _ := keys(t, 'n')
	q := devAsk("rm -r build")
	r.approve(context.Background(), Env{Out: out, ReadKey: rk, Preview: preview}, q, &call{})
	if !strings.Contains(out.String(), "(runs the Go toolchain in this project)  → deletes 3 files, 2.9 kB in build/  undo: yes  run? [y/n/a/A] n\n") {
		t.Errorf("prompt %q", out)
	}
	safe := devAsk("ls")
	safe.verdict.Class = danger.Safe
	read := devAsk("list /x")
	read.kind = kindRead
	rk, _ = keys(t, 'n')
	r.approve(context.Background(), Env{Out: out, Preview: preview}, safe, &call{})
	r.approve(context.Background(), Env{Out: out, ReadKey: rk, Preview: preview}, read, &call{})
	if len(asked) != 1 {
		t.Errorf("previews asked for %q", asked)
	}
}

// TestDiscardBeforeAsking checks that the keys typed ahead are dropped
// before each question is shown, and only when someone is asked.
func TestDiscardBeforeAsking(t *testing.T) {
	r, _ := testRegistry(t, DefaultConfig())
	out := new(bytes.Buffer)
	var at []int // how much was shown when keys were dropped
	rk, _ := keys(t, 'y')
	env := Env{Out: out, ReadKey: rk, Discard: func() { at = append(at, out.Len()) }}
	if ok, _ := r.approve(context.Background(), env, devAsk("go vet"), &call{}); !ok {
		t.Fatal("not approved")
	}
	safe := devAsk("ls")
	safe.verdict.Class = danger.Safe
	r.approve(context.Background(), env, safe, &call{})
	if len(at) != 1 || at[0] != 0 {
		t.Errorf("keys dropped at %v, want once, before the question", at)
	}
	// A wrong key asks again: what was typed with it is dropped too, so
	// that a paste of "xy" does not say yes.
	at = nil
	out.Reset()
	rk, _ = keys(t, 'x', 'y')
	env.ReadKey = rk
	r.approve(context.Background(), env, devAsk("go vet"), &call{})
	if len(at) != 2 || at[0] != 0 || at[1] == 0 || strings.Contains(out.String()[:at[1]], "not an answer") {
		t.Errorf("keys dropped at %v of %q, want before the question and again before the hint", at, out)
	}
}

func TestJudge(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ cmd, class string }{
		{"ls -la", "safe"},
		{"rm -rf ~", "blocked"},
		{"sudo rm -r /var/tmp/x", "dangerous"},
	} {
		class, why := Judge(dir, tc.cmd)
		if class != tc.class || class != "safe" && why == "" {
			t.Errorf("Judge(%q) = %q, %q; want class %q with reasons", tc.cmd, class, why, tc.class)
		}
	}
}
