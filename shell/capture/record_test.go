package capture

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/internal/testtime"
)

func TestParseMark(t *testing.T) {
	t.Parallel()
	tests := []struct {
		payload string
		kind    byte
		status  int
		ok      bool
	}{
		{"133;A;aid=7", 'A', -1, true},
		{"133;B;aid=7", 'B', -1, true},
		{"133;C;aid=7", 'C', -1, true},
		{"133;D;0;aid=7", 'D', 0, true},
		{"133;D;130;aid=7", 'D', 130, true},
		{"133;D;aid=7", 'D', -1, true},
		{"133;D;2;k=v;aid=7;x=y", 'D', 2, true},
		{"133;A", 0, 0, false},             // no aid: not ours
		{"133;A;aid=8", 0, 0, false},       // a nested shell's
		{"133;D;x;aid=7", 0, 0, false},     // bad status
		{"133;Z;aid=7", 0, 0, false},       // unknown kind
		{"133;AB;aid=7", 0, 0, false},      // not a kind
		{"133;", 0, 0, false},              //
		{"0;title", 0, 0, false},           // another OSC
		{"1337;aid=7", 0, 0, false},        //
		{"133;C;aid=77", 0, 0, false},      // prefix of id
		{"133;C;aid=", 0, 0, false},        //
		{"133;C;aid=7;aid=8", 0, 0, false}, // last aid wins
	}
	for _, tc := range tests {
		kind, status, ok := parseMark([]byte(tc.payload), "7")
		if kind != tc.kind || status != tc.status || ok != tc.ok {
			t.Errorf("parseMark(%q) = %q, %d, %v; want %q, %d, %v", tc.payload, kind, status, ok, tc.kind, tc.status, tc.ok)
		}
	}
	for _, k := range []byte{promptStart, promptEnd, commandStart, commandEnd} {
		m := mark(k, "42", 3)
		kind, _, ok := parseMark([]byte(m[2:len(m)-1]), "42")
		if !ok || kind != k {
			t.Errorf("mark(%q) = %q does not parse back", k, m)
		}
	}
}

// stream is a terminal stream with two commands between our marks, and
// everything that must not confuse the scanner: colour, a title, a
// hyperlink ended by ST, marks of a nested shell, an aborted OSC, a lone
// ESC, and an OSC longer than any mark.
var stream = strings.Join([]string{
	"\x1b]0;title\x07",
	mark('A', "9", 0), "\x1b[1m$ \x1b[m", mark('B', "9", 0), "ls --color\r\n",
	mark('C', "9", 0),
	"\x1b[34mdir\x1b[0m  file\r\n",
	"\x1b]8;;file:///x\x1b\\x\x1b]8;;\x1b\\\r\n",
	"\x1b]133;A;aid=1\x07nested$ \x1b]133;C;aid=1\x07in nested\r\n\x1b]133;D;0;aid=1\x07",
	"\x1b]133;Dnot-ended\x1b[31mstill output\x1b[0m\r\n",
	"esc\x1b\x1bmore\x1b]52;c;", strings.Repeat("QUJD", 40), "\x07\r\n",
	mark('D', "9", 0),
	mark('A', "9", 0), "$ ", mark('B', "9", 0), "make\r\n",
	mark('C', "9", 0),
	"10%\r50%\r\x1b[Kerror: boom\r\n",
	mark('D', "9", 2),
	mark('A', "9", 0), "$ ", mark('B', "9", 0), "\r\n",
	mark('D', "9", 0), // an end without a start records nothing
	mark('A', "9", 0), "$ ",
}, "")

var streamRaw = []string{
	"\x1b[34mdir\x1b[0m  file\r\n" +
		"\x1b]8;;file:///x\x1b\\x\x1b]8;;\x1b\\\r\n" +
		"\x1b]133;A;aid=1\x07nested$ \x1b]133;C;aid=1\x07in nested\r\n\x1b]133;D;0;aid=1\x07" +
		"\x1b]133;Dnot-ended\x1b[31mstill output\x1b[0m\r\n" +
		"esc\x1b\x1bmore\x1b]52;c;" + strings.Repeat("QUJD", 40) + "\x07\r\n",
	"10%\r50%\r\x1b[Kerror: boom\r\n",
}

var streamOut = []Output{
	{Status: 0, Text: "dir  file\nx\nnested$ in nested\nstill output\nescmore\n", Size: int64(len(streamRaw[0]))},
	{Status: 2, Text: "error: boom\n", Size: int64(len(streamRaw[1]))},
}

func checkStream(t *testing.T, r *recorder, how string) {
	t.Helper()
	if len(r.done) != 2 {
		t.Fatalf("%s: recorded %d commands, want 2", how, len(r.done))
	}
	for i, e := range r.done {
		if got := string(e.out.Bytes()); got != streamRaw[i] {
			t.Fatalf("%s: command %d teed\n%q\nwant\n%+v", how, i, got, streamRaw[i])
		}
	}
	if r.ends != 3 || r.cur != nil {
		t.Fatalf("%s: ends = %d, running = %v; want 3, none", how, r.ends, r.cur != nil)
	}
	got := r.outputs(5, 3, time.Second)
	if fmt.Sprint(got) != fmt.Sprint(streamOut) {
		t.Fatalf("%s: outputs\n%+v\nwant\n%+v", how, got, streamOut)
	}
}

func TestRecorderSplitAnywhere(t *testing.T) {
	t.Parallel()
	r := newRecorder("9", 1<<10, 10)
	r.Write([]byte(stream))
	checkStream(t, r, "one write")

	r = newRecorder("9", 1<<10, 10)
	for i := range len(stream) {
		r.Write([]byte{stream[i]})
	}
	checkStream(t, r, "byte by byte")

	for i := 1; i < len(stream); i++ {
		r := newRecorder("9", 1<<10, 10)
		r.Write([]byte(stream[:i]))
		r.Write([]byte(stream[i:]))
		checkStream(t, r, fmt.Sprintf("split at %d", i))
	}
}

func TestRecorderKeepsLastCommands(t *testing.T) {
	t.Parallel()
	r := newRecorder("1", 8, 3)
	for i := range 10 {
		fmt.Fprintf(r, "%s%s output %d\r\n%s", mark('C', "1", 0), strings.Repeat("x", i), i, mark('D', "1", i))
	}
	got := r.outputs(10, 10, time.Second)
	want := []Output{
		{Status: 7, Text: "tput 7\n", Size: 18},
		{Status: 8, Text: "tput 8\n", Size: 19},
		{Status: 9, Text: "tput 9\n", Size: 20},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("outputs = %+v, want %+v", got, want)
	}
	if got := r.outputs(1, 0, 0); len(got) != 1 || got[0].Status != 9 {
		t.Fatalf("outputs(1) = %+v", got)
	}
	if got := r.outputs(0, 0, 0); len(got) != 0 {
		t.Fatalf("outputs(0) = %+v", got)
	}
}

// TestRecorderTailDropsCutLine checks that a cut tail loses its partial
// first line, which may start inside an escape sequence.
func TestRecorderTailDropsCutLine(t *testing.T) {
	t.Parallel()
	r := newRecorder("1", 16, 3)
	fmt.Fprintf(r, "%sfirst line\r\n\x1b[31msecond\x1b[0m\r\nthird\r\n%s", mark('C', "1", 0), mark('D', "1", 1))
	got := r.outputs(1, 1, time.Second)
	if len(got) != 1 || got[0].Text != "third\n" {
		t.Fatalf("outputs = %+v, want third only", got)
	}
}

func TestRecorderBounded(t *testing.T) {
	t.Parallel()
	const size = 16 << 10
	r := newRecorder("1", size, 2)
	fmt.Fprint(r, mark('C', "1", 0))
	line := bytes.Repeat([]byte("\x1b[32m0123456789\x1b[0m abcdef\r\n"), 2000)
	var n int64
	for n < bigOutput {
		r.Write(line)
		n += int64(len(line))
		if c := cap(r.cur.buf); c > size {
			t.Fatalf("after %d bytes the command's buffer is %d bytes, want ≤ %d", n, c, size)
		}
	}
	fmt.Fprint(r, "the end\r\n", mark('D', "1", 0))
	got := r.outputs(1, 1, time.Second)
	if len(got) != 1 || got[0].Size != n+9 || len(got[0].Text) > size || !strings.HasSuffix(got[0].Text, "0123456789 abcdef\nthe end\n") {
		t.Fatalf("size %d, %d bytes of text ending %+v", got[0].Size, len(got[0].Text), got[0].Text[len(got[0].Text)-40:])
	}
}

// TestRecorderWaitsForEnd checks that a request naming more end marks than
// were read waits for them, and gives up after its wait.
func TestRecorderWaitsForEnd(t *testing.T) {
	t.Parallel()
	r := newRecorder("1", 64, 3)
	fmt.Fprintf(r, "%sone\r\n", mark('C', "1", 0))
	go func() {
		time.Sleep(50 * time.Millisecond)
		fmt.Fprint(r, mark('D', "1", 4))
	}()
	got := r.outputs(1, 1, testtime.Scaled(30*time.Second))
	if len(got) != 1 || got[0].Status != 4 || got[0].Text != "one\n" {
		t.Fatalf("outputs = %+v", got)
	}
	start := time.Now()
	got = r.outputs(1, 2, 100*time.Millisecond)
	if len(got) != 1 || time.Since(start) < 100*time.Millisecond {
		t.Fatalf("outputs = %+v after %v", got, time.Since(start))
	}
}

// FuzzRecorderSplit checks that the recorder sees the same commands
// however a stream is split between reads, and never panics.
func FuzzRecorderSplit(f *testing.F) {
	f.Add([]byte(stream), 17)
	f.Add([]byte("\x1b]133;C;aid=9\x07x\x1b]133;D;1;aid=9\x1b\\"), 3)
	f.Add([]byte("\x1b\x1b]\x1b]1\x1b]133\x07\x1b]133;C;aid=9\x1b\x1b]133;D;aid=9\x07"), 5)
	f.Fuzz(func(t *testing.T, data []byte, split int) {
		whole := newRecorder("9", 64, 4)
		whole.Write(data)
		parts := newRecorder("9", 64, 4)
		if len(data) == 0 {
			split = 0
		} else {
			split = (split%len(data) + len(data)) % len(data)
		}
		parts.Write(data[:split])
		parts.Write(data[split:])
		a, b := whole.outputs(10, 0, 0), parts.outputs(10, 0, 0)
		if fmt.Sprint(a) != fmt.Sprint(b) || whole.ends != parts.ends {
			t.Fatalf("split at %d: %+v (%d ends), whole: %+v (%d ends)", split, b, parts.ends, a, whole.ends)
		}
	})
}
