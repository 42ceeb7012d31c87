package ai

import (
	"bytes"
	"strings"
	"testing"
)

// tags rewrites a terminal's view of out as text with a tag at each change
// of style — {b} bold, {i} italic, {u} underline, {c} code colour, {d} dim,
// {} none — so that tests compare what the user sees, not how the escape
// sequences happen to be cut.
func tags(t *testing.T, out string) string {
	t.Helper()
	var b strings.Builder
	cur, shown := "", ""
	attrs := map[string]bool{}
	for len(out) > 0 {
		if strings.HasPrefix(out, "\x1b[") {
			end := strings.IndexByte(out, 'm')
			if end < 0 {
				t.Fatalf("cut escape sequence in %q", out)
			}
			for _, code := range strings.Split(out[2:end], ";") {
				switch code {
				case "0", "":
					clear(attrs)
				case "1":
					attrs["b"] = true
				case "2":
					attrs["d"] = true
				case "3":
					attrs["i"] = true
				case "4":
					attrs["u"] = true
				case "36":
					attrs["c"] = true
				default:
					t.Fatalf("unexpected SGR %q", code)
				}
			}
			cur = ""
			for _, k := range []string{"b", "c", "d", "i", "u"} {
				if attrs[k] {
					cur += k
				}
			}
			out = out[end+1:]
			continue
		}
		if out[0] == '\x1b' {
			t.Fatalf("unexpected escape in %q", out)
		}
		if cur != shown {
			b.WriteString("{" + cur + "}")
			shown = cur
		}
		if out[0] == '\n' && cur != "" {
			t.Fatalf("style %q left on at a newline", cur)
		}
		b.WriteByte(out[0])
		out = out[1:]
	}
	if cur != "" {
		t.Fatalf("style %q left on at the end", cur)
	}
	if shown != "" {
		b.WriteString("{}")
	}
	return b.String()
}

func TestMarkdown(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"plain text\n", "plain text\n"},
		{"a **bold** word\n", "a {b}bold{} word\n"},
		{"a *soft* and _soft_ word\n", "a {i}soft{} and {i}soft{} word\n"},
		{"***both*** x\n", "{bi}both{} x\n"},
		{"run `go test` now\n", "run {c}go test{} now\n"},
		{"``a ` b`` c\n", "{c}a ` b{} c\n"},
		{"**bold with `code` in it**\n", "{b}bold with {bc}code{b} in it{}\n"},
		{"*a **b** c*\n", "{i}a {bi}b{i} c{}\n"},
		// Marks that open nothing stay as they are.
		{"ls *.go *.txt\n", "ls *.go *.txt\n"},
		{"2 * 3 * 4\n", "2 * 3 * 4\n"},
		{"snake_case_name and __init__\n", "snake_case_name and {b}init{}\n"},
		{"a ** b\n", "a ** b\n"},
		{"unclosed **bold\nnext\n", "unclosed **bold\nnext\n"},
		{"unclosed `code\n", "unclosed `code\n"},
		{"****\n", "****\n"},
		{`\*not\* emphasis \` + "`x`\n", "*not* emphasis `x`\n"},
		{"a\\\n", "a\\\n"},
		// Headings, bullets.
		{"# Title\n## Sub *x*\n", "{bu}Title{}\n{b}Sub {bi}x{}\n"},
		{"#hashtag\n####### seven\n", "#hashtag\n####### seven\n"},
		{"- one\n* two **b**\n  + three\n", "• one\n• two {b}b{}\n  • three\n"},
		{"-not a bullet\n---\n", "-not a bullet\n---\n"},
		{"**bold** at the start\n", "{b}bold{} at the start\n"},
		{"1. first\n", "1. first\n"},
		// Code blocks: colour, no rendering inside.
		{"see:\n```go\nx := **y**\n```\ndone *ok*\n", "see:\n{d}```go{}\n{c}x := **y**{}\n{d}```{}\ndone {i}ok{}\n"},
		{"  ```\n  - a\n  ```\n", "  {d}```{}\n{c}  - a{}\n  {d}```{}\n"},
		{"é **ü** ✓\n", "é {b}ü{} ✓\n"},
		// The end of the stream renders what is held.
		{"no newline **b**", "no newline {b}b{}"},
		{"no newline *open", "no newline *open"},
		{"#", "#"},
		{"- ", "• "},
	} {
		// Whole, then cut at every place, then cut into bytes: the same.
		var whole bytes.Buffer
		m := newMarkdown(&whole, true)
		m.Write(tc.in)
		m.Flush()
		if got := tags(t, whole.String()); got != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.in, got, tc.want)
			continue
		}
		for i := 1; i < len(tc.in); i++ {
			var out bytes.Buffer
			m := newMarkdown(&out, true)
			m.Write(tc.in[:i])
			m.Write(tc.in[i:])
			m.Flush()
			if got := tags(t, out.String()); got != tc.want {
				t.Errorf("%q cut at %d:\n got %q\nwant %q", tc.in, i, got, tc.want)
				break
			}
		}
		var out bytes.Buffer
		m = newMarkdown(&out, true)
		for i := range len(tc.in) {
			m.Write(tc.in[i : i+1])
		}
		m.Flush()
		if got := tags(t, out.String()); got != tc.want {
			t.Errorf("%q byte by byte:\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

// TestMarkdownStreams checks that text goes out as it comes, waiting only
// for what it must.
func TestMarkdownStreams(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	m := newMarkdown(&out, true)
	for _, step := range []struct{ in, shown string }{
		{"Hello wor", "Hello wor"},
		{"ld, **this", "Hello world, "},
		{" is** bold", "Hello world, {b}this is{} bold"},
		{"\n- ", "Hello world, {b}this is{} bold\n• "},
		{"item", "Hello world, {b}this is{} bold\n• item"},
		{"\n```", "Hello world, {b}this is{} bold\n• item\n{d}```{}"},
		{"sh\nls *", "Hello world, {b}this is{} bold\n• item\n{d}```sh{}\n{c}ls *{}"},
	} {
		m.Write(step.in)
		if got := tags(t, out.String()); got != step.shown {
			t.Fatalf("after %q:\n got %q\nwant %q", step.in, got, step.shown)
		}
	}
}

func TestMarkdownPlain(t *testing.T) {
	t.Parallel()
	in := "# T\n**b** *i* `c`\n- x\n```sh\nls\n```\n"
	var out bytes.Buffer
	m := newMarkdown(&out, false)
	for i := range len(in) {
		m.Write(in[i : i+1])
	}
	m.Flush()
	if out.String() != in {
		t.Errorf("plain output %q, want the text as written", out.String())
	}
}

// TestMarkdownHold checks that a stray mark holds the stream back only so
// long.
func TestMarkdownHold(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	m := newMarkdown(&out, true)
	m.Write("a *b")
	if out.String() != "a " {
		t.Fatalf("shown %q", out.String())
	}
	m.Write(strings.Repeat("c", maxHold))
	if !strings.HasPrefix(out.String(), "a *bcc") {
		t.Fatalf("the mark held %d bytes back", len(m.pending))
	}
}

// FuzzMarkdown checks that any text renders without leaving a style on at
// a line's end, and the same whether it comes whole or in two pieces (for
// lines shorter than what a mark may hold back).
func FuzzMarkdown(f *testing.F) {
	for _, s := range []string{"a **b** c\n", "# h *i*\n- x `y`\n```\n**z**\n```\n", "\\*_a_ __b__ ***c***", "``x`` `y` ``"} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, in string, cut int) {
		if strings.ContainsRune(in, '\x1b') {
			return
		}
		var whole, parts bytes.Buffer
		m := newMarkdown(&whole, true)
		m.Write(in)
		m.Flush()
		want := tags(t, whole.String())
		if cut < 0 || cut > len(in) {
			return
		}
		for _, line := range strings.Split(in, "\n") {
			if len(line) >= maxHold {
				return
			}
		}
		m = newMarkdown(&parts, true)
		m.Write(in[:cut])
		m.Write(in[cut:])
		m.Flush()
		if got := tags(t, parts.String()); got != want {
			t.Fatalf("cut at %d:\n got %q\nwant %q", cut, got, want)
		}
	})
}
