package shell

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// chunks reads its strings one per Read, as a terminal hands out what
// arrived.
type chunks []string

func (c *chunks) Read(p []byte) (int, error) {
	if len(*c) == 0 {
		return 0, io.EOF
	}
	n := copy(p, (*c)[0])
	if n < len((*c)[0]) {
		(*c)[0] = (*c)[0][n:]
	} else {
		*c = (*c)[1:]
	}
	return n, nil
}

// drain reads in to the end, writing each one-line paste as {text} (or
// {TOO LONG}) where its pasteRune stood.
func drain(t *testing.T, in *lineInput) string {
	t.Helper()
	var out []byte
	var b [1]byte
	for {
		n, err := in.Read(b[:])
		if n > 0 {
			out = append(out, b[0])
		}
		if errors.Is(err, io.EOF) || (n == 0 && err != nil) {
			break
		}
	}
	s := string(out)
	for strings.ContainsRune(s, pasteRune) {
		text, over := in.takePaste()
		if over {
			text = "TOO LONG"
		}
		s = strings.Replace(s, string(pasteRune), "{"+text+"}", 1)
	}
	return s
}

func TestLineInputPaste(t *testing.T) {
	long := strings.Repeat("y", MaxLine*4+10)
	run := strings.Repeat("r", bulkRun)
	for _, tc := range []struct {
		name      string
		in        chunks
		bracketed bool
		want      string
	}{
		{"typed keys pass", chunks{"ls\r"}, true, "ls\r"},
		{"one line pasted", chunks{"a\x1b[200~echo hi\x1b[201~b"}, true, "a{echo hi}b"},
		{"markers cut by reads", chunks{"\x1b[2", "00~echo ", "split\x1b[20", "1~\r"}, true, "{echo split}\r"},
		{"several lines go as typed", chunks{"\x1b[200~echo 1\recho 2\r\x1b[201~"}, true, "echo 1\recho 2\r"},
		{"control characters dropped", chunks{"\x1b[200~a\x1b[31mb\tc\x07\x1b[201~"}, true, "{a[31mb\tc}"},
		{"too long", chunks{"\x1b[200~", long[:len(long)/2], long[len(long)/2:], "\x1b[201~\r"}, true, "{TOO LONG}\r"},
		{"a stray end marker is dropped", chunks{"x\x1b[201~y"}, true, "xy"},
		{"Escape alone is a key", chunks{"\x1b", "b"}, true, "\x1bb"},
		{"arrow keys pass", chunks{"\x1b[A\x1b[B"}, true, "\x1b[A\x1b[B"},
		{"not asked for: bytes as they are", chunks{"\x1b[200~x\x1b[201~"}, false, "\x1b[200~x\x1b[201~"},
		{"end of input inside a paste", chunks{"\x1b[200~half"}, true, "{half}"},
		{"keys that came together go in at once", chunks{"echo " + run + "\r"}, false, "{echo " + run + "}\r"},
		{"a few keys go as keys", chunks{"ls -l\r", "echo " + run + "\r"}, true, "ls -l\r{echo " + run + "}\r"},
		{"not over a control key", chunks{"echo " + run + "\x01def"}, false, "{echo " + run + "}\x01def"},
		{"not over a cut character", chunks{"echo " + run + "\xc3", "\xa9\r"}, false, "{echo " + run + "}é\r"},
		{"raw bytes stay raw", chunks{"x\xe9y\xff"}, false, "x" + raw(0xe9) + "y" + raw(0xff)},
		{"raw bytes in a paste", chunks{"\x1b[200~a\xe9b\x1b[201~"}, true, "{a" + raw(0xe9) + "b}"},
		{"raw bytes in lines pasted", chunks{"\x1b[200~a\xe9\rb\r\x1b[201~"}, true, "a" + raw(0xe9) + "\rb\r"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := &lineInput{f: &tc.in, bracketed: tc.bracketed}
			if got := drain(t, in); got != tc.want {
				if len(got) > 200 {
					got = got[:200] + "…"
				}
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// idleCheck is a terminal that records whether idle had run by its first
// read.
type idleCheck struct {
	idled, before *bool
	chunks
}

func (c *idleCheck) Read(p []byte) (int, error) {
	if c.before == nil {
		c.before = new(bool)
		*c.before = *c.idled
	}
	return c.chunks.Read(p)
}

// TestLineInputIdle checks that idle runs once, when the editor first
// waits for the terminal, not while it takes an answer queued for it.
func TestLineInputIdle(t *testing.T) {
	idled, calls := false, 0
	term := &idleCheck{idled: &idled, chunks: chunks{"ab", "c"}}
	in := &lineInput{f: term, idle: func() { idled = true; calls++ }}
	in.answer(column1Reply)
	var b [1]byte
	for range len(column1Reply) {
		in.Read(b[:])
	}
	if idled {
		t.Fatal("idle ran before the terminal was read")
	}
	if got := drain(t, in); got != "abc" {
		t.Fatalf("read %q", got)
	}
	if calls != 1 || term.before == nil || !*term.before {
		t.Fatalf("idle ran %d times, before the first read: %v", calls, term.before != nil && *term.before)
	}
}

// TestErrTooLongFigures checks the figure ErrTooLong spells out.
func TestErrTooLongFigures(t *testing.T) {
	want := fmt.Sprintf("the limit is %d characters", MaxLine)
	if !strings.Contains(ErrTooLong.Error(), want) {
		t.Errorf("ErrTooLong %q does not say %q", ErrTooLong, want)
	}
}

// raw is the rune a byte that is not UTF-8 stands for, as UTF-8.
func raw(b byte) string { return string(rune(rawRune + rune(b))) }

func TestUnraw(t *testing.T) {
	for _, s := range []string{"plain", "é ✓", "\xe9t\xe9", "\xff\xfe\x80", "a\xf4\x8f\xbe"} {
		if got := unraw(rawText(s)); got != s {
			t.Errorf("unraw(rawText(%q)) = %q", s, got)
		}
	}
}
