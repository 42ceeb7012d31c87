package fenced

import (
	"reflect"
	"strings"
	"testing"
)

func run(chunks ...string) (string, []Call) {
	var sb strings.Builder
	p := New(func(s string) { sb.WriteString(s) })
	for _, c := range chunks {
		p.Feed(c)
	}
	p.Close()
	return sb.String(), p.Calls()
}

func TestParser(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		in    string
		text  string
		calls []string // name or "!" + start of Err
	}{
		{"prose only", "hello\nworld", "hello\nworld", nil},
		{"other code block", "try:\n```sh\nls\n```\ndone", "try:\n```sh\nls\n```\ndone", nil},
		{"one call", "Let me look.\n```tool\n{\"name\": \"ls\", \"args\": {\"path\": \".\"}, \"reason\": \"see\"}\n```\n", "Let me look.\n", []string{"ls"}},
		{"two calls", "a\n```tool\n{\"name\":\"x\"}\n```\nb\n```tool\n{\"name\":\"y\",\"args\":{}}\n```\nc", "a\nb\nc", []string{"x", "y"}},
		{"indented fence", "  ```tool\n{\"name\":\"x\"}\n  ```\n", "", []string{"x"}},
		{"CRLF", "```tool\r\n{\"name\":\"x\"}\r\n```\r\nok", "ok", []string{"x"}},
		{"trailing blanks on fence", "```tool  \n{\"name\":\"x\"}\n```", "", []string{"x"}},
		{"not at line start", "say ```tool\nno", "say ```tool\nno", nil},
		{"toolbox is not tool", "```toolbox\n{}\n```\n", "```toolbox\n{}\n```\n", nil},
		{"four spaces is code", "    ```tool\nx", "    ```tool\nx", nil},
		{"malformed JSON", "```tool\n{\"name\": \"ls\", args}\n```\n", "", []string{"!the ```tool block is not valid JSON"}},
		{"no name", "```tool\n{\"args\": {}}\n```\n", "", []string{"!the ```tool block has no \"name\""}},
		{"args not object", "```tool\n{\"name\":\"x\",\"args\":[1]}\n```\n", "", []string{"!\"args\" must be"}},
		{"two values", "```tool\n{\"name\":\"x\"}\n{\"name\":\"y\"}\n```\n", "", []string{"!the ```tool block holds more"}},
		{"unclosed at end", "go\n```tool\n{\"name\":\"x\"}\n", "go\n", []string{"x"}},
		{"closing fence without newline", "```tool\n{\"name\":\"x\"}\n```", "", []string{"x"}},
		{"empty unclosed", "```tool\n", "", []string{"!the ```tool block is not valid JSON"}},
		{"arguments alias", "```tool\n{\"name\":\"x\",\"arguments\":{\"a\":1}}\n```\n", "", []string{"x"}},
		{"held backticks flushed at end", "x\n``", "x\n``", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			text, calls := run(tc.in)
			if text != tc.text {
				t.Errorf("text %q, want %q", text, tc.text)
			}
			var got []string
			for _, c := range calls {
				if c.Err != "" {
					got = append(got, "!"+c.Err)
				} else {
					got = append(got, c.Name)
				}
			}
			if len(got) != len(tc.calls) {
				t.Fatalf("calls %q, want %q", got, tc.calls)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tc.calls[i]) {
					t.Errorf("call %d: %q, want prefix %q", i, got[i], tc.calls[i])
				}
			}
			// Any split gives the same result.
			for i := 0; i <= len(tc.in); i++ {
				t2, c2 := run(tc.in[:i], tc.in[i:])
				if t2 != text || !reflect.DeepEqual(c2, calls) {
					t.Fatalf("split at %d: text %q calls %+v", i, t2, c2)
				}
			}
			bytes := make([]string, len(tc.in))
			for i := range tc.in {
				bytes[i] = tc.in[i : i+1]
			}
			if t2, c2 := run(bytes...); t2 != text || !reflect.DeepEqual(c2, calls) {
				t.Fatalf("byte by byte: text %q calls %+v", t2, c2)
			}
		})
	}
}

func TestArgs(t *testing.T) {
	t.Parallel()
	_, calls := run("```tool\n{\"name\": \"fs\", \"args\": {\"path\": \"a b\"}, \"reason\": \"look\"}\n```\n")
	if len(calls) != 1 || string(calls[0].Args) != `{"path": "a b"}` || calls[0].Reason != "look" {
		t.Fatalf("calls %+v", calls)
	}
}

// FuzzParser checks that the parser never panics and that where the
// stream is cut never changes what it finds.
func FuzzParser(f *testing.F) {
	f.Add("a\n```tool\n{\"name\":\"x\",\"args\":{\"p\":1}}\n```\nb", uint16(5), uint16(9))
	f.Add("```tool\r\n{oops\r\n```", uint16(1), uint16(2))
	f.Add("  ```tool \n\n```\n```tool\n{\"name\":\"y\"}", uint16(3), uint16(20))
	f.Fuzz(func(t *testing.T, in string, a, b uint16) {
		i, j := int(a)%(len(in)+1), int(b)%(len(in)+1)
		if i > j {
			i, j = j, i
		}
		text, calls := run(in)
		t2, c2 := run(in[:i], in[i:j], in[j:])
		if text != t2 || !reflect.DeepEqual(calls, c2) {
			t.Fatalf("split %d,%d: %q %+v, whole: %q %+v", i, j, t2, c2, text, calls)
		}
		if len(calls) == 0 && text != in {
			t.Fatalf("no calls but text %q != input %q", text, in)
		}
	})
}
