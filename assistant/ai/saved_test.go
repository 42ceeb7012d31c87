package ai

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
	"github.com/qsh-shell/qsh/assistant/ai/chat"
	"github.com/qsh-shell/qsh/assistant/ai/conversation"
	"github.com/qsh-shell/qsh/internal/testtime"
)

func TestSavedConversation(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := aitest.NewOpenAI(t,
		aitest.Reply{Text: "Checking.", Chunks: 2, Calls: []aitest.Call{{Name: "echo", Args: `{"text": "supersecretvalue"}`}}},
		aitest.Say("The tool echoed it.", 2),
		aitest.Say("You asked about the tool.", 2))
	cfg := providers[0].cfg(srv.URL)
	cfg.KeepConversations = 10
	env := []string{"MY_TOKEN=supersecretvalue", "HOME=/home/u"}
	askIn := func(a *Agent, text string) (string, error) {
		var out bytes.Buffer
		err := a.Ask(context.Background(), Request{Text: text, Dir: "/home/u/src", Stdout: &out, Environ: env})
		return out.String(), err
	}

	a := New(cfg, newSet(echo()), noWait, Conversations(dir))
	if out, err := askIn(a, "/resume"); err != nil || !strings.Contains(out, "no saved conversations yet") {
		t.Errorf("/resume with none: %q %v", out, err)
	}
	if _, err := askIn(a, "what does the tool say?"); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("files %q", files)
	}
	data, _ := os.ReadFile(files[0])
	if bytes.Contains(data, []byte("supersecretvalue")) || !bytes.Contains(data, []byte("[REDACTED:MY_TOKEN]")) {
		t.Errorf("saved file not redacted:\n%s", data)
	}
	if _, msgs, _, err := conversation.ReadFile(files[0]); err != nil || len(msgs) != 4 {
		t.Errorf("saved %d messages, %v", len(msgs), err)
	}
	// The conversation under way is not listed.
	if out, _ := askIn(a, "/resume"); !strings.Contains(out, "no saved conversations yet") {
		t.Errorf("/resume lists the current conversation:\n%s", out)
	}

	// A new session continues it.
	os.WriteFile(filepath.Join(dir, "damaged.jsonl"), []byte("{\n"), 0o600)
	b := New(cfg, newSet(echo()), noWait, Conversations(dir))
	out, _ := askIn(b, "/resume")
	if !strings.Contains(out, "  1  ") || !strings.Contains(out, "~/src  what does the tool say?") ||
		!strings.Contains(out, "skipped a damaged conversation: "+filepath.Join(dir, "damaged.jsonl")) {
		t.Errorf("/resume:\n%s", out)
	}
	if _, err := askIn(b, "/resume 2"); err == nil || !strings.Contains(err.Error(), "no such conversation") {
		t.Errorf("/resume 2: %v", err)
	}
	if out, err := askIn(b, "/resume 1"); err != nil || !strings.Contains(out, "(4 messages)") {
		t.Fatalf("/resume 1: %q %v", out, err)
	}
	if _, err := askIn(b, "and what did I ask?"); err != nil {
		t.Fatal(err)
	}
	last := sent(srv.Requests()[2])
	for _, want := range []string{"what does the tool say?", "The tool echoed it.", "and what did I ask?"} {
		if !strings.Contains(last, want) {
			t.Errorf("the follow-up lacks %q", want)
		}
	}
	// It went on in the same file.
	if _, msgs, _, _ := conversation.ReadFile(files[0]); len(msgs) != 6 {
		t.Errorf("the resumed file has %d messages, want 6", len(msgs))
	}

	exp := filepath.Join(t.TempDir(), "talk.md")
	if out, err := askIn(b, "/export "+exp); err != nil || !strings.Contains(out, "wrote "+exp) {
		t.Fatalf("/export: %q %v", out, err)
	}
	md, _ := os.ReadFile(exp)
	for _, want := range []string{"# qsh conversation", "## ? what does the tool say?", "The tool echoed it.", "## ? and what did I ask?", "**→ echo** `[REDACTED:MY_TOKEN]`"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("export lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(string(md), "supersecretvalue") {
		t.Errorf("export has a secret:\n%s", md)
	}
	// A FIFO (as /dev/stdout may be) is written, not replaced by a file.
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	read := make(chan string, 1)
	go func() {
		b, _ := os.ReadFile(fifo)
		read <- string(b)
	}()
	if out, err := askIn(b, "/export "+fifo); err != nil || !strings.Contains(out, "wrote "+fifo) {
		t.Fatalf("/export to a FIFO: %q %v", out, err)
	}
	select {
	case got := <-read:
		if !strings.Contains(got, "## ? and what did I ask?") {
			t.Errorf("the FIFO read:\n%s", got)
		}
	case <-time.After(testtime.Scaled(30 * time.Second)):
		os.Remove(fifo)
		t.Fatal("nothing was written to the FIFO")
	}
	if fi, err := os.Stat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("after /export the FIFO is %v (%v)", fi.Mode(), err)
	}

	// /reset starts another file.
	askIn(b, "/reset")
	srv.Push(aitest.Say("ok", 1))
	askIn(b, "another")
	if files, _ := filepath.Glob(filepath.Join(dir, "2*.jsonl")); len(files) != 2 {
		t.Errorf("after /reset: files %q", files)
	}
}

func TestNotSaved(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := aitest.NewOpenAI(t, aitest.Say("hi", 1))
	cfg := providers[0].cfg(srv.URL)
	cfg.KeepConversations = 0
	a := New(cfg, nil, noWait, Conversations(dir))
	ask(t, a, "hello")
	if files, _ := os.ReadDir(dir); len(files) != 0 {
		t.Errorf("QSH_AI_KEEP_CONVERSATIONS=0 saved %d files", len(files))
	}
	if _, err := ask(t, a, "/resume"); err == nil || !strings.Contains(err.Error(), "not saved") {
		t.Errorf("/resume: %v", err)
	}
}

// TestPrivateNotSaved checks that a private question's turn is sent and
// followed up, but never written: not as the start of a file, not within
// one, not in an export.
func TestPrivateNotSaved(t *testing.T) {
	t.Parallel()
	dir, work := t.TempDir(), t.TempDir()
	srv := aitest.NewOpenAI(t, aitest.Use("echo", `{"text": "x"}`, 1), aitest.Say("hush-answer", 1), aitest.Say("public answer", 1),
		aitest.Say("hush-again", 1), aitest.Say("last", 1))
	cfg := providers[0].cfg(srv.URL)
	cfg.KeepConversations = 10
	set := newSet(echo())
	a := New(cfg, set, noWait, Conversations(dir))
	askAs := func(text string, private bool) string {
		t.Helper()
		var out bytes.Buffer
		if err := a.Ask(context.Background(), Request{Text: text, Dir: work, Stdout: &out, Private: private}); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		return out.String()
	}
	askAs("hush-first", true)
	// The tools get no text of it: a rule made with A saves the question.
	if len(set.envs) != 1 || strings.Contains(set.envs[0].Question, "hush") {
		t.Errorf("the tool calls of a private question: %+v", set.envs)
	}
	if files, _ := os.ReadDir(dir); len(files) != 0 {
		t.Errorf("a private first question started a file")
	}
	if err := a.Ask(context.Background(), Request{Text: "/export x.md", Dir: work, Stdout: io.Discard}); err == nil ||
		!strings.Contains(err.Error(), "private") {
		t.Errorf("/export of a private conversation: %v", err)
	}
	askAs("public question", false)
	askAs("hush-second", true)
	askAs("public follow-up", false)
	if last := sent(srv.Requests()[4]); !strings.Contains(last, "hush-first") || !strings.Contains(last, "hush-again") {
		t.Errorf("the follow-up lacks the private turns: %s", last)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("files %q", files)
	}
	if _, msgs, _, err := conversation.ReadFile(files[0]); err != nil || len(msgs) != 4 {
		t.Errorf("saved %d messages, %v; want the 4 public ones", len(msgs), err)
	}
	if out := askAs("/export x.md", false); !strings.Contains(out, "(4 messages)") {
		t.Errorf("/export: %s", out)
	}
	for _, f := range append(files, filepath.Join(work, "x.md")) {
		if data, _ := os.ReadFile(f); bytes.Contains(data, []byte("hush")) {
			t.Errorf("%s keeps a private turn:\n%s", f, data)
		}
	}
}

func TestRepair(t *testing.T) {
	t.Parallel()
	u := func(s string) chat.Message { return chat.Message{Role: chat.RoleUser, Text: s} }
	as := func(s string, ids ...string) chat.Message {
		m := chat.Message{Role: chat.RoleAssistant, Text: s}
		for _, id := range ids {
			m.Calls = append(m.Calls, chat.Call{ID: id, Name: "x", Args: "{}"})
		}
		return m
	}
	tool := func(id string) chat.Message { return chat.Message{Role: chat.RoleTool, CallID: id, Text: "r"} }
	cut := func(id string) chat.Message {
		return chat.Message{Role: chat.RoleTool, CallID: id, Text: "not run: the conversation was cut off", IsError: true}
	}
	for _, tc := range []struct{ in, want []chat.Message }{
		{[]chat.Message{u("q"), as("a")}, []chat.Message{u("q"), as("a")}},
		{[]chat.Message{as("a"), tool("x"), u("q")}, []chat.Message{u("q")}},
		{[]chat.Message{u("q"), as("a", "1", "2"), tool("1")}, []chat.Message{u("q"), as("a", "1", "2"), tool("1"), cut("2")}},
		{[]chat.Message{u("q"), as("a", "1"), u("q2")}, []chat.Message{u("q"), as("a", "1"), cut("1"), u("q2")}},
		{[]chat.Message{u("q"), tool("9"), as("a", "1"), tool("1"), tool("1")}, []chat.Message{u("q"), as("a", "1"), tool("1")}},
	} {
		if got := repair(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("repair(%+v)\n = %+v\nwant %+v", tc.in, got, tc.want)
		}
	}
}
