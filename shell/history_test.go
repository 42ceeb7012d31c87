package shell

import (
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/qsh-shell/qsh/internal/needs"
)

func TestHistoryEncoding(t *testing.T) {
	t.Parallel()
	for _, e := range []string{"echo hi", "for i in 1; do\necho $i\ndone", `printf 'a\nb\\'`, "tail\\", "a\\nb", "ünïcode ✓",
		"echo caf\xe9 \xff\x00 \\x41", `echo \xe9`, "#1700000000", "#12 not a time"} {
		line := encodeEntry(e)
		if strings.Contains(line, "\n") {
			t.Errorf("encodeEntry(%q) = %q has a newline", e, line)
		}
		got, ok := decodeEntry(line)
		if !ok || got != e {
			t.Errorf("round trip of %q: %q, %v", e, got, ok)
		}
	}
	for _, bad := range []string{"trailing\\", `bad\x`, `bad\xg1`, `bad\x4`, "nul\x00", "\xff\xfe"} {
		if _, ok := decodeEntry(bad); ok {
			t.Errorf("decodeEntry(%q) accepted", bad)
		}
	}
}

func TestReadHistory(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", maxHistoryLine+1)
	tests := []struct {
		name  string
		file  string
		limit int64
		want  []string
		bad   int
		lines int
		cut   bool
	}{
		{"empty file", "", 0, nil, 0, 0, false},
		{"plain", "echo a\necho b\n", 0, []string{"echo a", "echo b"}, 0, 2, false},
		{"last line without newline", "echo a\necho b", 0, []string{"echo a", "echo b"}, 0, 2, false},
		{"empty lines", "\necho a\n\n\necho b\n\n", 0, []string{"echo a", "echo b"}, 0, 6, false},
		{"CRLF", "echo a\r\necho b\r\n", 0, []string{"echo a", "echo b"}, 0, 2, false},
		{"escapes", `for i in 1; do\necho \\ $i\ndone` + "\n" + `a\\nb` + "\n", 0,
			[]string{"for i in 1; do\necho \\ $i\ndone", `a\nb`}, 0, 2, false},
		{"bad escape", "one\nbad\\q\ntwo\n", 0, []string{"one", "two"}, 1, 3, false},
		{"trailing backslash", "one\ntail\\\ntwo\n", 0, []string{"one", "two"}, 1, 3, false},
		{"invalid UTF-8", "one\n\xff\xfe garbage\nü ✓\n", 0, []string{"one", "ü ✓"}, 1, 3, false},
		{"NUL", "one\na\x00b\n\x00\ntwo", 0, []string{"one", "two"}, 2, 4, false},
		{"line over the cap", "before\n" + long + "\nafter\n", 0, []string{"before", "after"}, 1, 3, false},
		{"only the end of a big file", "cmd 1\ncmd 2\ncmd 3\ncmd 4\n", 14, []string{"cmd 3", "cmd 4"}, 0, 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "history")
			if err := os.WriteFile(path, []byte(tt.file), 0o600); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			limit := cmp.Or(tt.limit, maxHistoryRead)
			d, err := readHistory(f, limit, false)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(d.entries, tt.want) || d.bad != tt.bad || d.lines != tt.lines || d.cut != tt.cut {
				t.Errorf("entries %.80q, bad %d, lines %d, cut %v\nwant %q, bad %d, lines %d, cut %v",
					d.entries, d.bad, d.lines, d.cut, tt.want, tt.bad, tt.lines, tt.cut)
			}
		})
	}
}

// TestHistoryParseAllocs checks that loading does not allocate per entry:
// entries without escapes are pieces of the file's contents.
func TestHistoryParseAllocs(t *testing.T) {
	var b strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&b, "echo %d\n", i)
	}
	b.WriteString(`with\nescape` + "\n")
	data := b.String()
	allocs := testing.AllocsPerRun(10, func() {
		var d historyData
		d.parse(data)
		if len(d.entries) != 1001 {
			t.Fatalf("%d entries", len(d.entries))
		}
	})
	if allocs > 3 {
		t.Errorf("%v allocations to parse 1001 entries, want the two slices and the escaped one", allocs)
	}
}

// TestHistoryTrimmedKeepsOnlyEntries checks that when few of the file's
// entries are kept, they do not hold on to the whole file.
func TestHistoryTrimmedKeepsOnlyEntries(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "history")
	var b strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&b, "command number %d\n", i)
	}
	os.WriteFile(path, []byte(b.String()), 0o600)
	h := newHistory(3)
	if err := h.open(path); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(h.entries, []string{"command number 997", "command number 998", "command number 999"}) {
		t.Fatalf("entries %q", h.entries)
	}
	// The three are consecutive pieces of one small string.
	first, last := unsafe.StringData(h.entries[0]), unsafe.StringData(h.entries[2])
	if span := uintptr(unsafe.Pointer(last)) - uintptr(unsafe.Pointer(first)); span != uintptr(2*len("command number 997")) {
		t.Errorf("entries are %d bytes apart, not copied together", span)
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
				if note := h.add(fmt.Sprintf("shell %d entry %d\nsecond line", i, j)); note != "" {
					t.Error(note)
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
	if note := h.add("three"); note != "" {
		t.Fatal(note)
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
	if note := h.add("kept in memory"); note != "" {
		t.Fatal(note)
	}
	if !slices.Equal(h.entries, []string{"kept in memory"}) {
		t.Fatalf("entries %q", h.entries)
	}
}

// TestHistoryStart checks that start only opens the file: the entries
// come with begin, or with wait when nothing began the read.
func TestHistoryStart(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "history")
	os.WriteFile(path, []byte("one\ntwo\n"), 0o600)
	for _, begin := range []bool{true, false} {
		h := newHistory(10)
		if err := h.start(path); err != nil {
			t.Fatal(err)
		}
		if h.entries != nil || h.loading == nil {
			t.Fatalf("start read the entries %q before begin (loading %v)", h.entries, h.loading)
		}
		if begin {
			h.begin()
			h.begin() // once only: a second read would close loading again
		}
		h.wait()
		if !slices.Equal(h.entries, []string{"one", "two"}) || h.path != path {
			t.Fatalf("begin %v: entries %q, path %q", begin, h.entries, h.path)
		}
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

// BenchmarkHistoryOpen loads a 10,000-entry history, as the first prompt
// of a long-used shell waits for it.
func BenchmarkHistoryOpen(b *testing.B) {
	path := filepath.Join(b.TempDir(), "history")
	var buf strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&buf, "git commit -m 'change number %d' && go test ./... | grep -v ok%d\n", i, i%7)
		if i%100 == 0 {
			buf.WriteString(`for f in *; do\n  echo "$f"\ndone` + "\n")
		}
	}
	if err := os.WriteFile(path, []byte(buf.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		h := newHistory(50000)
		if err := h.open(path); err != nil {
			b.Fatal(err)
		}
		if len(h.entries) != 10100 {
			b.Fatalf("%d entries", len(h.entries))
		}
	}
}

// TestREPLHistoryInBackground runs the REPL on an existing history file
// with a corrupt line: its entries reach the line reader before the
// first command line's, `history` lists them, and the warning comes once,
// before the first command runs (or, with no command, when the REPL ends).
func TestREPLHistoryInBackground(t *testing.T) {
	const file = "old one\nbad\x00\nold\\ntwo\n"
	const warning = "skipped 1 unreadable line(s)"
	write := func(s *Shell) {
		path := filepath.Join(s.Var("XDG_STATE_HOME"), "qsh", "history")
		os.MkdirAll(filepath.Dir(path), 0o700)
		if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s, r, out := newTestShell(t, []string{"echo hi", "history"})
	write(s)
	s.REPL(t.Context())
	want := []string{"old one", "old\ntwo", "echo hi", "history"}
	if !slices.Equal(r.history, want) {
		t.Errorf("line reader's history %q, want %q", r.history, want)
	}
	got := out.String()
	if strings.Count(got, warning) != 1 || strings.Index(got, warning) > strings.Index(got, "hi\n") {
		t.Errorf("output %q: want one warning, before the first command's output", got)
	}
	if !strings.Contains(got, "    2  old\ntwo\n    3  echo hi\n") {
		t.Errorf("history builtin printed %q", got)
	}

	s, _, out = newTestShell(t, nil)
	write(s)
	s.REPL(t.Context())
	if strings.Count(out.String(), warning) != 1 {
		t.Errorf("output %q: want the warning once when the REPL ends", out)
	}
}

// TestHistoryFileFull: when the file cannot take an entry (a full disk;
// here the file size limit, which fails a write part way as a full disk
// does), the file keeps whole lines, the user is told once, and saving
// resumes, the waiting entries first, when the file takes them again. It
// runs in a process of its own, whose file size limit it lowers.
func TestHistoryFileFull(t *testing.T) {
	if os.Getenv("QSH_TEST_FILE_FULL") == "" {
		t.Parallel()
		cmd := exec.Command(os.Args[0], "-test.run=^TestHistoryFileFull$", "-test.count=1")
		cmd.Env = append(os.Environ(), "QSH_TEST_FILE_FULL=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return
	}
	path := filepath.Join(t.TempDir(), "history")
	h := newHistory(100)
	if err := h.open(path); err != nil {
		t.Fatal(err)
	}
	for _, e := range []string{"one", "two", "three"} {
		if note := h.add(e); note != "" {
			t.Fatal(note)
		}
	}
	before, _ := os.ReadFile(path)
	var lim unix.Rlimit
	unix.Getrlimit(unix.RLIMIT_FSIZE, &lim)
	full := lim
	full.Cur = uint64(len(before)) + 10
	if err := unix.Setrlimit(unix.RLIMIT_FSIZE, &full); err != nil {
		needs.Missing(t, "cannot limit the file size: %v", err)
	}
	note := h.add("a long entry that the file cannot take whole " + strings.Repeat("x", 100))
	if !strings.HasPrefix(note, "history not saved: ") {
		t.Errorf("note %q", note)
	}
	if note := h.add("four"); note != "" {
		t.Errorf("said again: %q", note)
	}
	if data, _ := os.ReadFile(path); string(data) != string(before) {
		t.Errorf("the file while full:\n%q\nwant\n%q", data, before)
	}
	if err := unix.Setrlimit(unix.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}
	if note := h.add("five"); note != "history saved again (3 entries that had waited)" {
		t.Errorf("note %q", note)
	}
	h2 := newHistory(100)
	if err := h2.open(path); err != nil {
		t.Fatal(err)
	}
	want := []string{"one", "two", "three", "a long entry that the file cannot take whole " + strings.Repeat("x", 100), "four", "five"}
	if !slices.Equal(h2.entries, want) {
		t.Errorf("entries %q", h2.entries)
	}
}

// TestHistoryCutLastLine: a file whose last line a crash cut short (no
// newline) keeps it as its own line when the next entry is appended.
func TestHistoryCutLastLine(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "history")
	os.WriteFile(path, []byte("one\ntw"), 0o600)
	h := newHistory(10)
	if err := h.open(path); err != nil {
		t.Fatal(err)
	}
	h.add("three")
	if data, _ := os.ReadFile(path); !regexp.MustCompile(`^one\ntw\n#[0-9]+\nthree\n$`).Match(data) {
		t.Errorf("file %q", data)
	}
}

// TestHistoryLongEntries: entries as long as a line may be (a pasted
// line) and with every escape come back from the file as they went in.
func TestHistoryLongEntries(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "history")
	h := newHistory(10)
	h.open(path)
	long := "echo " + strings.Repeat("pasted ", MaxLine/7)
	odd := "printf '%s\\n' a\\\\b\nsecond line\\"
	for _, e := range []string{long, odd, "after"} {
		if note := h.add(e); note != "" {
			t.Fatal(note)
		}
	}
	h2 := newHistory(10)
	if err := h2.open(path); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(h2.entries, []string{long, odd, "after"}) {
		t.Errorf("%d entries back; the first %d bytes", len(h2.entries), len(h2.entries[0]))
	}
}

// TestHistoryFormats reads files of qsh's and bash's formats: timestamps
// give the entries' times, and in bash's, when the file begins with one,
// where a multi-line entry ends.
func TestHistoryFormats(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		plain   bool
		file    string
		entries []string
		times   []int64
		stamped bool
	}{
		{"qsh's, old, without times", false, "a\nfor x\\ndone\n", []string{"a", "for x\ndone"}, []int64{0, 0}, false},
		{"qsh's with times", false, "#100\na\nb\n#200\n\\x23300\n", []string{"a", "b", "#300"}, []int64{100, 0, 200}, false},
		{"bash's without times", true, "ls\n\ncd /\n", []string{"ls", "cd /"}, []int64{0, 0}, false},
		{"bash's with times", true, "#100\nfor i in 1\ndo :\ndone\n#200\nls\n", []string{"for i in 1\ndo :\ndone", "ls"}, []int64{100, 200}, true},
		{"bash's, times after the start are skipped", true, "ls\n#100\npwd\n", []string{"ls", "pwd"}, []int64{0, 0}, false},
		{"bash's, empty", true, "", nil, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "h")
			os.WriteFile(path, []byte(tt.file), 0o600)
			d, err := (&history{plain: tt.plain}).readAll(path)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(d.entries, tt.entries) || !slices.Equal(d.times, tt.times) || tt.plain && d.stamped != tt.stamped {
				t.Errorf("entries %q times %v stamped %v\nwant %q %v %v", d.entries, d.times, d.stamped, tt.entries, tt.times, tt.stamped)
			}
		})
	}
}

// TestHistoryFormatRoundTrip writes entries in each format and reads them
// back unchanged, times included.
func TestHistoryFormatRoundTrip(t *testing.T) {
	t.Parallel()
	records := []histRecord{{"echo a", 100}, {"for i in 1\ndo :\ndone", 200}, {"#5 a comment", 300}, {`printf '\\n'`, 400}}
	for _, plain := range []bool{false, true} {
		h := &history{plain: plain, stamped: true}
		path := filepath.Join(t.TempDir(), "h")
		os.WriteFile(path, []byte(h.format(records)), 0o600)
		d, err := h.readAll(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range records {
			if i >= len(d.entries) || d.entries[i] != r.text || d.times[i] != r.time {
				t.Errorf("plain %v: read %q %v, want %v", plain, d.entries, d.times, records)
				break
			}
		}
	}
}

// TestREPLBashHistoryFile: a HISTFILE the rc files set is used in bash's
// format, which bash reads back (timestamps and multi-line entries), and
// HISTTIMEFORMAT shows the times; unsetting HISTFILE keeps history in
// memory only.
func TestREPLBashHistoryFile(t *testing.T) {
	s, _, out := newTestShell(t, []string{"echo one", "for i in 2; do\necho $i\ndone", "HISTTIMEFORMAT='<%Y> ' history 2"})
	path := filepath.Join(s.Var("HOME"), ".bash_history")
	if err := os.WriteFile(path, []byte("#1700000000\nold entry\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if own := s.Var("HISTFILE"); own != filepath.Join(s.Var("HOME"), "state", "qsh", "history") {
		t.Fatalf("HISTFILE before the rc files = %q", own)
	}
	s.r.Set("HISTFILE", path) // as ~/.bashrc would
	s.REPL(t.Context())
	year := time.Now().Format("2006")
	if want := "    3  <" + year + "> for i in 2; do\necho $i\ndone\n    4  <" + year + "> HISTTIMEFORMAT"; !strings.Contains(out.String(), want) {
		t.Errorf("output %q\nwant %q", out, want)
	}
	data, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(data), "#1700000000\nold entry\n#") || !strings.Contains(string(data), "\nfor i in 2; do\necho $i\ndone\n#") {
		t.Errorf("file %q", data)
	}
	if bash, err := exec.LookPath("bash"); err == nil {
		cmd := exec.Command(bash, "-c", `shopt -s lithist; HISTTIMEFORMAT="%Y "; HISTFILE=$1; set -o history; history`, "bash", path)
		got, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(got), "    1  2023 old entry\n") || !strings.Contains(string(got), "    3  "+year+" for i in 2; do\necho $i\ndone\n") {
			t.Errorf("bash read %q (%v)", got, err)
		}
	}

	s, _, _ = newTestShell(t, []string{"echo public", "unset HISTFILE", "echo private", "HISTFILE=h2", "echo elsewhere"})
	s.REPL(t.Context())
	own, _ := os.ReadFile(filepath.Join(s.Var("HOME"), "state", "qsh", "history"))
	other, _ := os.ReadFile(filepath.Join(s.Var("HOME"), "h2"))
	if !strings.Contains(string(own), "echo public") || strings.Contains(string(own)+string(other), "private") || !strings.Contains(string(other), "echo elsewhere") {
		t.Errorf("with HISTFILE unset, then set, files %q and %q", own, other)
	}
}

// TestHistoryShareOwnFile: `history -a; history -n` at every prompt (the
// usual rc line for sharing history between terminals) on the session's
// own file neither writes its lines twice nor reads them back.
func TestHistoryShareOwnFile(t *testing.T) {
	s, _, out := newTestShell(t, []string{"PROMPT_COMMAND='history -a; history -n'", "echo a", "echo b", "history"})
	s.REPL(t.Context())
	if want := "    1  PROMPT_COMMAND='history -a; history -n'\n    2  echo a\n    3  echo b\n    4  history\n"; !strings.HasSuffix(out.String(), want) {
		t.Errorf("output %q\nwant it to end %q", out, want)
	}
	d, err := (&history{}).readAll(filepath.Join(s.Var("XDG_STATE_HOME"), "qsh", "history"))
	if err != nil || len(d.entries) != 4 {
		t.Errorf("file %q (%v)", d.entries, err)
	}
}

// TestHistoryFileDevice: HISTFILE=/dev/null (a copy of it here) stays a
// device through history -w and the rewrite erasedups makes at exit, as
// in bash: renamed over, it became a file of the history's lines, and
// every later reader of /dev/null read them.
func TestHistoryFileDevice(t *testing.T) {
	dev := filepath.Join(t.TempDir(), "null")
	if err := unix.Mknod(dev, unix.S_IFCHR|0o666, int(unix.Mkdev(1, 3))); err != nil {
		t.Skipf("cannot make a copy of /dev/null: %v", err)
	}
	s, _, _ := newTestShell(t, []string{"HISTFILE=" + dev, "HISTCONTROL=erasedups", "echo a", "echo b", "echo a",
		"history -w", "history -w " + dev, "history -a " + dev})
	s.REPL(t.Context())
	if fi, err := os.Stat(dev); err != nil || fi.Mode().Type() != os.ModeDevice|os.ModeCharDevice {
		t.Fatalf("HISTFILE=%s after history -w and exit: %v (%v)", dev, fi.Mode(), err)
	}
}
