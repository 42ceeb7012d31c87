package shell

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestHistoryEncoding(t *testing.T) {
	t.Parallel()
	for _, e := range []string{"echo hi", "for i in 1; do\necho $i\ndone", `printf 'a\nb\\'`, "tail\\", "a\\nb", "ünïcode ✓"} {
		line := encodeEntry(e)
		if strings.Contains(line, "\n") {
			t.Errorf("encodeEntry(%q) = %q has a newline", e, line)
		}
		got, ok := decodeEntry([]byte(line))
		if !ok || got != e {
			t.Errorf("round trip of %q: %q, %v", e, got, ok)
		}
	}
	for _, bad := range []string{"trailing\\", `bad\x`, "nul\x00", "\xff\xfe"} {
		if _, ok := decodeEntry([]byte(bad)); ok {
			t.Errorf("decodeEntry(%q) accepted", bad)
		}
	}
}

func TestHistoryConcurrentAppend(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "qsh", "history")
	const shells, each = 4, 100
	var wg sync.WaitGroup
	for i := range shells {
		h := newHistory(1000)
		if err := h.open(path); err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			for j := range each {
				if err := h.add(fmt.Sprintf("shell %d entry %d\nsecond line", i, j)); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	h := newHistory(1000)
	if err := h.open(path); err != nil {
		t.Fatal(err)
	}
	if len(h.entries) != shells*each {
		t.Fatalf("%d entries, want %d", len(h.entries), shells*each)
	}
	for _, e := range h.entries {
		if !strings.HasSuffix(e, "\nsecond line") {
			t.Fatalf("entry %q", e)
		}
	}
}

func TestHistoryCorruptFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "history")
	os.WriteFile(path, []byte("good one\n\x00\x01\x02garbage\xff\nbad\\q escape\ngood two\n"), 0o600)
	h := newHistory(100)
	err := h.open(path)
	if err == nil || !strings.Contains(err.Error(), "skipped 2") {
		t.Fatalf("warning %v", err)
	}
	if !slices.Equal(h.entries, []string{"good one", "good two"}) {
		t.Fatalf("entries %q", h.entries)
	}
	// Still appends.
	if err := h.add("three"); err != nil {
		t.Fatal(err)
	}
	h2 := newHistory(100)
	if err := h2.open(path); err != nil {
		t.Fatalf("after rewrite: %v", err)
	}
	if !slices.Equal(h2.entries, []string{"good one", "good two", "three"}) {
		t.Fatalf("entries %q", h2.entries)
	}
}

func TestHistoryTrim(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "history")
	var b strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&b, "cmd %d\n", i)
	}
	os.WriteFile(path, []byte(b.String()), 0o600)
	h := newHistory(10)
	if err := h.open(path); err != nil {
		t.Fatal(err)
	}
	if len(h.entries) != 10 || h.entries[9] != "cmd 999" {
		t.Fatalf("entries %q", h.entries)
	}
	data, _ := os.ReadFile(path)
	if n := strings.Count(string(data), "\n"); n != 10 {
		t.Fatalf("file has %d lines after trimming", n)
	}
}

func TestHistoryUnwritable(t *testing.T) {
	t.Parallel()
	// A path under a regular file fails even for root.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "file"), nil, 0o600)
	h := newHistory(10)
	err := h.open(filepath.Join(dir, "file", "qsh", "history"))
	if err == nil {
		t.Fatal("no warning for an unusable directory")
	}
	if err := h.add("kept in memory"); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(h.entries, []string{"kept in memory"}) {
		t.Fatalf("entries %q", h.entries)
	}
}

func TestHistoryFile(t *testing.T) {
	t.Parallel()
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	tests := []struct {
		cfg  Config
		env  map[string]string
		want string
		err  bool
	}{
		{Config{HistFile: "/x/h"}, nil, "/x/h", false},
		{Config{HistFile: "~/h"}, map[string]string{"HOME": "/home/u"}, "/home/u/h", false},
		{Config{}, map[string]string{"XDG_STATE_HOME": "/s", "HOME": "/home/u"}, "/s/qsh/history", false},
		{Config{}, map[string]string{"HOME": "/home/u"}, "/home/u/.local/state/qsh/history", false},
		{Config{}, nil, "", true},
	}
	for _, tt := range tests {
		got, err := historyFile(tt.cfg, env(tt.env))
		if got != tt.want || (err != nil) != tt.err {
			t.Errorf("historyFile(%+v, %v) = %q, %v", tt.cfg, tt.env, got, err)
		}
	}
}

func TestHistoryBuiltin(t *testing.T) {
	s, _, out := newTestShell(t, []string{"echo one", "echo two", "history", "history 1", "history -c", "history"})
	s.REPL(t.Context())
	// As in bash, the list after -c holds the history command itself.
	want := "one\ntwo\n    1  echo one\n    2  echo two\n    3  history\n    4  history 1\n    1  history\n"
	if out.String() != want {
		t.Fatalf("output %q\nwant %q", out.String(), want)
	}
}
