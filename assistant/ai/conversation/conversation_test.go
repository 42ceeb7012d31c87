package conversation

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/assistant/ai/chat"
)

var t0 = time.Date(2026, 11, 25, 14, 3, 0, 0, time.UTC)

var sample = []chat.Message{
	{Role: chat.RoleUser, Text: "<context>\ncwd: /src\n</context>\n\nwhy did make fail?"},
	{Role: chat.RoleAssistant, Text: "Let me look.", Calls: []chat.Call{{ID: "c1", Name: "execute_command", Args: `{"command":"make"}`}}},
	{Role: chat.RoleTool, CallID: "c1", Text: "cc: error <x> & ```y```", IsError: true},
	{Role: chat.RoleAssistant, Text: "**Missing** header."},
}

func TestSaveAndRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	f, err := Create(dir, Header{Started: t0, Dir: "/src", Provider: "openai", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range sample {
		if err := f.Append(m, t0); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	if filepath.Base(f.Path()) != "20261125T140300Z.jsonl" {
		t.Errorf("name %s", f.Path())
	}
	h, msgs, _, err := ReadFile(f.Path())
	if err != nil {
		t.Fatal(err)
	}
	if h.Dir != "/src" || h.Model != "m" || !h.Started.Equal(t0) || !reflect.DeepEqual(msgs, sample) {
		t.Errorf("read back %+v\n%+v", h, msgs)
	}
	data, _ := os.ReadFile(f.Path())
	if !bytes.Contains(data, []byte("<context>")) {
		t.Errorf("escaped HTML in the file:\n%s", data)
	}
	// A second conversation in the same second gets a name of its own,
	// and Open appends to the first.
	g, err := Create(dir, Header{Started: t0})
	if err != nil || g.Path() == f.Path() {
		t.Fatalf("second file %v, %v", g, err)
	}
	g.Close()
	f, err = Open(f.Path())
	if err != nil {
		t.Fatal(err)
	}
	f.Append(chat.Message{Role: chat.RoleUser, Text: "and now?"}, t0)
	f.Close()
	if _, msgs, _, _ := ReadFile(f.Path()); len(msgs) != len(sample)+1 {
		t.Errorf("%d messages after Open and Append", len(msgs))
	}
}

func TestReadDamaged(t *testing.T) {
	t.Parallel()
	var good bytes.Buffer
	Write(&good, Header{Started: t0}, sample, t0)
	whole := good.String()
	lines := strings.SplitAfter(whole, "\n")
	for _, tc := range []struct {
		name, in string
		msgs     int
		skipped  string // the lines skipped, as said
		err      string
	}{
		{"whole", whole, 4, "", ""},
		{"last line cut", whole[:len(whole)-10], 3, "", ""},
		{"last line cut to nothing", strings.Join(lines[:4], ""), 3, "", ""},
		{"a bad line in the middle", lines[0] + lines[1] + "{oops\n" + lines[2], 2, "line 3 (invalid character 'o' looking for beginning of object key string)", ""},
		{"a bad last line with its newline", whole + "{oops\n", 4, "line 6 (", ""},
		{"unknown role", lines[0] + `{"role":"system","text":"x"}` + "\n", 0, `line 2 (unknown role "system")`, ""},
		{"tool without call", lines[0] + `{"role":"tool","text":"x"}` + "\n", 0, "line 2 (a tool result without its call)", ""},
		{"two values on a line", lines[0] + `{"role":"user"} {"role":"user"}` + "\n", 0, "line 2 (more than one JSON value)", ""},
		{"binary garbage", lines[0] + "\x00\xff\xfe\n" + strings.Join(lines[1:], ""), 4, "line 2 (", ""},
		{"empty", "", 0, "", "empty"},
		{"not ours", `{"format":"other"}` + "\n", 0, "", "not a qsh conversation"},
		{"newer", `{"format":"qsh conversation","version":2}` + "\n", 0, "", "version 2"},
	} {
		_, msgs, skipped, err := Read(strings.NewReader(tc.in))
		var said []string
		for _, s := range skipped {
			said = append(said, s.String())
		}
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
		case len(msgs) != tc.msgs:
			t.Errorf("%s: %d messages, want %d", tc.name, len(msgs), tc.msgs)
		case tc.skipped == "" && len(said) > 0 || !strings.HasPrefix(strings.Join(said, ", "), tc.skipped):
			t.Errorf("%s: skipped %q, want %q", tc.name, said, tc.skipped)
		}
	}
}

func TestListAndPrune(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var paths []string
	for i, q := range []string{"first", "second", "third"} {
		f, err := Create(dir, Header{Started: t0.Add(time.Duration(i) * time.Hour), Dir: "/d" + q})
		if err != nil {
			t.Fatal(err)
		}
		f.Append(chat.Message{Role: chat.RoleUser, Text: "<context>\n</context>\n\n" + q + " question"}, t0)
		f.Close()
		os.Chtimes(f.Path(), t0, t0.Add(time.Duration(i)*time.Hour))
		paths = append(paths, f.Path())
	}
	os.WriteFile(filepath.Join(dir, "broken.jsonl"), []byte("not json\n"), 0o600)
	os.Chtimes(filepath.Join(dir, "broken.jsonl"), t0, t0.Add(-time.Hour))
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o600)
	list, errs := List(dir)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "broken.jsonl: line 1") {
		t.Errorf("errors %v", errs)
	}
	var firsts []string
	for _, s := range list {
		firsts = append(firsts, s.First+" in "+s.Header.Dir)
	}
	if want := []string{"third question in /dthird", "second question in /dsecond", "first question in /dfirst"}; !reflect.DeepEqual(firsts, want) {
		t.Errorf("list %q, want %q", firsts, want)
	}
	// Keep 1, and the oldest, which is in use; the damaged file goes too.
	// Then by age.
	Prune(dir, 1, 1000*time.Hour, paths[0], t0.Add(3*time.Hour))
	if list, errs := List(dir); len(list) != 2 || list[0].Path != paths[2] || list[1].Path != paths[0] || len(errs) != 0 {
		t.Errorf("after pruning by count: %+v", list)
	}
	Prune(dir, 10, 2*time.Hour, "", t0.Add(3*time.Hour))
	if list, _ := List(dir); len(list) != 1 || list[0].Path != paths[2] {
		t.Errorf("after pruning by age: %+v", list)
	}
	if list, errs := List(filepath.Join(dir, "none")); list != nil || errs != nil {
		t.Errorf("a missing directory: %v %v", list, errs)
	}
}

func TestMarkdown(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	Markdown(&b, Header{Started: t0, Dir: "/src", Provider: "openai", Model: "m"}, sample)
	want := "# qsh conversation\n\nStarted 2026-11-25 14:03 · in `/src` · openai m\n\n" +
		"## ? why did make fail?\n\n<details><summary>context</summary>\n\n```\n<context>\ncwd: /src\n</context>\n```\n\n</details>\n\n" +
		"Let me look.\n\n**→ execute_command** `make`\n\n(failed)\n\n````\ncc: error <x> & ```y```\n````\n\n**Missing** header.\n\n"
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestSplitQuestion(t *testing.T) {
	t.Parallel()
	for in, want := range map[string][2]string{
		"<context>\na\n</context>\n\nwhy?": {"<context>\na\n</context>\n", "why?"},
		"why?":                             {"", "why?"},
		"<context> never closed":           {"", "<context> never closed"},
	} {
		c, q := SplitQuestion(in)
		if c != want[0] || q != want[1] {
			t.Errorf("SplitQuestion(%q) = %q, %q", in, c, q)
		}
	}
}

// FuzzRead checks that any file reads without a panic, and that what it
// reads is written back to a file that reads the same.
func FuzzRead(f *testing.F) {
	var good bytes.Buffer
	Write(&good, Header{Started: t0, Dir: "/src"}, sample, t0)
	f.Add(good.Bytes())
	f.Add(good.Bytes()[:good.Len()-7])
	f.Add([]byte(`{"format":"qsh conversation","version":1}` + "\n" + `{"role":"tool","call_id":"x","text":"\u0000"}`))
	f.Add([]byte("{}\n{}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, msgs, _, err := Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		var again bytes.Buffer
		if err := Write(&again, h, msgs, t0); err != nil {
			t.Fatal(err)
		}
		h2, msgs2, skipped, err := Read(&again)
		if err != nil || len(skipped) > 0 {
			t.Fatalf("what was read does not read back: %v\n%s", err, again.String())
		}
		h.Format, h.Version = format, Version
		if !h.Started.Equal(h2.Started) || h.Dir != h2.Dir || len(msgs) != len(msgs2) {
			t.Fatalf("read back %+v %d, want %+v %d", h2, len(msgs2), h, len(msgs))
		}
		for i := range msgs {
			if !reflect.DeepEqual(msgs[i], msgs2[i]) {
				t.Fatalf("message %d: %+v, want %+v", i, msgs2[i], msgs[i])
			}
		}
	})
}
