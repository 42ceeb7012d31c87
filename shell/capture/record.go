package capture

import (
	"bytes"
	"sync"
	"time"
)

// Output is what one command printed, as the proxy recorded it.
type Output struct {
	// Status is the command's exit status from its end mark; -1 when the
	// mark carried none or the command never ended (the shell died).
	Status int `json:"status"`
	// Text is the tail of the output, ANSI sequences and overwritten text
	// removed by [Strip].
	Text string `json:"text"`
	// Size counts every byte the command printed; more than Text holds
	// when the tail was cut.
	Size int64 `json:"size"`
}

// maxMark bounds the bytes held back while an OSC sequence might be one of
// our marks; ours are far shorter.
const maxMark = 96

// scanner states.
const (
	ground     = iota
	sawEsc     // ESC seen, maybe the start of an OSC
	inOSC      // in an OSC that may be our mark; its bytes are held
	inOSCEsc   // ESC inside such an OSC: ST, or an aborted sequence
	foreign    // in an OSC that is not ours; passes as output
	foreignEsc // ESC inside it
)

// recorder watches the inner terminal's output for marks and keeps the
// tail of each command's output. It is an io.Writer; the proxy writes
// every byte read from the pseudo-terminal to it. Marks may arrive split
// over writes in any way.
type recorder struct {
	id   string // the aid of the marks we act on
	size int    // bytes kept per command
	keep int    // commands kept

	mu    sync.Mutex
	state int
	held  []byte // bytes of a possible mark, not yet teed
	cur   *Ring  // the running command's output; nil between commands
	done  []entry
	spare *Ring // a ring to reuse, from a command that fell out
	ends  int   // end marks seen
	ended chan struct{}
}

type entry struct {
	status int
	out    *Ring
}

func newRecorder(id string, size, keep int) *recorder {
	return &recorder{id: id, size: max(size, 1), keep: max(keep, 1), ended: make(chan struct{})}
}

// Write scans p for marks and tees output between a command's start and
// end marks into its ring. It never fails.
func (r *recorder) Write(p []byte) (int, error) {
	n := len(p)
	r.mu.Lock()
	defer r.mu.Unlock()
	for len(p) > 0 {
		switch r.state {
		case ground:
			i := bytes.IndexByte(p, esc)
			if i < 0 {
				r.tee(p)
				return n, nil
			}
			r.tee(p[:i])
			r.held = append(r.held[:0], esc)
			r.state = sawEsc
			p = p[i+1:]
		case sawEsc:
			if p[0] != ']' {
				r.flush()
				r.state = ground // p[0] may be another ESC: look again
				continue
			}
			r.held = append(r.held, ']')
			r.state = inOSC
			p = p[1:]
		case inOSC:
			b := p[0]
			p = p[1:]
			r.held = append(r.held, b)
			switch {
			case b == bel:
				r.end(1)
			case b == esc:
				r.state = inOSCEsc
			case !markPrefix(r.held[2:]):
				r.flush()
				r.state = foreign
			}
		case inOSCEsc:
			if p[0] == '\\' {
				r.held = append(r.held, '\\')
				p = p[1:]
				r.end(2)
				continue
			}
			// The OSC was cut short: what was held is output, and the
			// ESC starts something new.
			r.held = r.held[:len(r.held)-1]
			r.flush()
			r.held = append(r.held, esc)
			r.state = sawEsc
		case foreign:
			i := bytes.IndexAny(p, "\x07\x1b")
			if i < 0 {
				r.tee(p)
				return n, nil
			}
			if p[i] == bel {
				r.tee(p[:i+1])
				r.state = ground
			} else {
				r.tee(p[:i])
				r.held = append(r.held[:0], esc)
				r.state = foreignEsc
			}
			p = p[i+1:]
		case foreignEsc:
			if p[0] == '\\' {
				r.held = append(r.held, '\\')
				p = p[1:]
				r.flush()
				r.state = ground
				continue
			}
			r.state = sawEsc // the held ESC starts a new sequence
		}
	}
	return n, nil
}

// markPrefix reports whether an OSC payload so far may still be our mark.
func markPrefix(payload []byte) bool {
	const prefix = "133;"
	if len(payload) > maxMark {
		return false
	}
	if len(payload) < len(prefix) {
		return string(payload) == prefix[:len(payload)]
	}
	return string(payload[:len(prefix)]) == prefix
}

// end handles a complete OSC held in r.held, with a terminator of
// termLen bytes.
func (r *recorder) end(termLen int) {
	r.state = ground
	kind, status, ok := parseMark(r.held[2:len(r.held)-termLen], r.id)
	if !ok {
		r.flush()
		return
	}
	r.held = r.held[:0]
	switch kind {
	case promptStart:
		r.finish(-1)
	case commandStart:
		r.finish(-1)
		r.cur = r.spare
		r.spare = nil
		if r.cur == nil {
			r.cur = NewRing(r.size)
		}
	case commandEnd:
		r.finish(status)
		r.ends++
		close(r.ended)
		r.ended = make(chan struct{})
	}
}

// finish closes the running command, if any, with status.
func (r *recorder) finish(status int) {
	if r.cur == nil {
		return
	}
	r.done = append(r.done, entry{status, r.cur})
	r.cur = nil
	if len(r.done) > r.keep {
		r.spare = r.done[0].out
		r.spare.Reset()
		r.done = append(r.done[:0], r.done[1:]...)
	}
}

func (r *recorder) flush() {
	r.tee(r.held)
	r.held = r.held[:0]
}

func (r *recorder) tee(p []byte) {
	if r.cur != nil && len(p) > 0 {
		r.cur.Write(p)
	}
}

// outputs returns the last n finished commands, oldest first, after
// waiting up to wait for the ends-th end mark, so that a shell asking right
// after it printed a mark is not answered before the mark has been read.
func (r *recorder) outputs(n, ends int, wait time.Duration) []Output {
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	r.mu.Lock()
	for r.ends < ends {
		ch := r.ended
		r.mu.Unlock()
		select {
		case <-ch:
		case <-deadline.C:
			r.mu.Lock()
			ends = 0
			continue
		}
		r.mu.Lock()
	}
	done := r.done[max(0, len(r.done)-max(n, 0)):]
	raw := make([][]byte, len(done))
	outs := make([]Output, len(done))
	for i, e := range done {
		raw[i] = e.out.Bytes()
		outs[i] = Output{Status: e.status, Size: e.out.Total()}
	}
	r.mu.Unlock()
	for i := range outs {
		p := raw[i]
		if outs[i].Size > int64(len(p)) {
			// The tail starts mid-line, maybe mid-sequence: drop that
			// line, unless it is long (a cut sequence leaves little
			// garbage there) or all there is.
			if j := bytes.IndexByte(p, '\n'); j >= 0 && j < 512 && j < len(p)-1 {
				p = p[j+1:]
			}
		}
		outs[i].Text = Strip(string(p))
	}
	return outs
}
