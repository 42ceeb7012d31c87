package chat

import (
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestReadSSE(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("y", 40<<10)
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"named events", "event: a\ndata: 1\n\nevent: b\ndata: 2\n\n", []string{"a:1", "b:2"}},
		{"unnamed", "data: {\"x\":1}\n\ndata: [DONE]\n\n", []string{":{\"x\":1}", ":[DONE]"}},
		{"multi-line data", "data: a\ndata: b\n\n", []string{":a\nb"}},
		{"no space after colon", "data:x\n\n", []string{":x"}},
		{"CRLF", "event: e\r\ndata: d\r\n\r\n", []string{"e:d"}},
		{"comments and id", ": ping\nid: 7\nretry: 10\ndata: z\n\n", []string{":z"}},
		{"last event without blank line", "data: end", []string{":end"}},
		{"blank lines only", "\n\n\n", nil},
		{"long line", "data: " + long + "\n\n", []string{":" + long}},
	}
	for _, tc := range tests {
		var got []string
		err := ReadSSE(strings.NewReader(tc.in), func(ev string, data []byte) error {
			got = append(got, ev+":"+string(data))
			return nil
		})
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
	// An event past maxEvent, one line or many, ends the stream: the
	// answer's limit is counted by the events' content.
	huge := strings.Repeat("z", maxEvent/2)
	for _, in := range []string{"data: " + huge + huge + "zz\n\n", "data: " + huge + "\ndata: " + huge + "\n\n"} {
		err := ReadSSE(strings.NewReader(in), func(string, []byte) error { return nil })
		var ce *Error
		if !errors.As(err, &ce) || ce.Kind != Cut || !strings.Contains(ce.Message, "more than 8 MB") {
			t.Errorf("an event of %d bytes: %v", len(in), err)
		}
	}
	stop := errors.New("stop")
	n := 0
	err := ReadSSE(strings.NewReader("data: 1\n\ndata: 2\n\n"), func(string, []byte) error { n++; return stop })
	if err != stop || n != 1 {
		t.Errorf("callback error: %v after %d events", err, n)
	}
}

func TestRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for v, want := range map[string]time.Duration{
		"":                              0,
		"3":                             3 * time.Second,
		"0.5":                           500 * time.Millisecond,
		"soon":                          0,
		"Thu, 01 Jan 2026 00:00:10 GMT": 10 * time.Second,
	} {
		h := http.Header{}
		if v != "" {
			h.Set("Retry-After", v)
		}
		if got := RetryAfter(h, now); got != want {
			t.Errorf("RetryAfter(%q) = %v, want %v", v, got, want)
		}
	}
}
