package chat

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// maxEvent bounds one event: the answer's own limit is kept by counting
// what the events hold, and one event must not hold more than any answer.
const maxEvent = 8 << 20

// ReadSSE reads server-sent events from r and calls fn with each event's
// name (empty when the server sent none) and data, which is only valid during
// the call. It stops at the first
// error from r or fn; a clean end of r returns nil. Lines are handled as soon
// as they arrive, so a token reaches fn without waiting for more input.
func ReadSSE(r io.Reader, fn func(event string, data []byte) error) error {
	tooBig := &Error{Kind: Cut, Message: "the server sent an event of more than " + strconv.Itoa(maxEvent>>20) + " MB"}
	br := bufio.NewReaderSize(r, 16<<10)
	var event string
	var data []byte
	have := false
	for {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// A very long line: gather the rest of it.
			long := append([]byte(nil), line...)
			for err == bufio.ErrBufferFull {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
				if len(long) > maxEvent {
					return tooBig
				}
			}
			line = long
		}
		if err != nil && len(line) == 0 {
			if err == io.EOF {
				if have {
					return fn(event, data)
				}
				return nil
			}
			return err
		}
		line = bytes.TrimRight(line, "\r\n")
		switch {
		case len(line) == 0:
			if have {
				if ferr := fn(event, data); ferr != nil {
					return ferr
				}
			}
			event, data, have = "", data[:0], false
		case line[0] == ':':
			// A comment, used as a keep-alive.
		default:
			field, value, _ := bytes.Cut(line, []byte(":"))
			value = bytes.TrimPrefix(value, []byte(" "))
			switch string(field) {
			case "event":
				event = string(value)
			case "data":
				if have {
					data = append(data, '\n')
				}
				data = append(data, value...)
				have = true
				if len(data) > maxEvent {
					return tooBig
				}
			}
		}
		if err != nil {
			if err == io.EOF {
				continue
			}
			return err
		}
	}
}

// RetryAfter reads a Retry-After header: seconds or an HTTP date.
func RetryAfter(h http.Header, now time.Time) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}
