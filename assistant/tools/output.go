package tools

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"

	"github.com/qsh-shell/qsh/internal/ansi"
)

// output is where a command's stdout and stderr go: shown on the terminal
// as they come (dimmed, to set them apart from the answer), and kept for
// the model, head and tail, within max bytes.
type output struct {
	mu     sync.Mutex
	screen io.Writer
	shown  ansi.Stream // what the screen gets: escape sequences shown, never acted on
	term   bool
	max    int
	head   []byte
	tail   []byte // a ring once full
	pos    int    // next write position in tail when full
	total  int64
	last   byte // the last byte shown on screen
}

func newOutput(screen io.Writer, term bool, max int) *output {
	return &output{screen: screen, term: term, max: max}
}

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	written := len(p)
	if o.screen != nil && len(p) > 0 {
		o.show(o.shown.Next(string(p)))
		o.last = p[len(p)-1]
	}
	o.total += int64(len(p))
	hmax := o.max / 2
	if n := min(hmax-len(o.head), len(p)); n > 0 {
		o.head = append(o.head, p[:n]...)
		p = p[n:]
	}
	tmax := o.max - hmax
	for len(p) > 0 && tmax > 0 {
		if len(o.tail) < tmax {
			n := min(tmax-len(o.tail), len(p))
			o.tail = append(o.tail, p[:n]...)
			p = p[n:]
			continue
		}
		if len(p) >= tmax {
			p = p[len(p)-tmax:]
		}
		n := copy(o.tail[o.pos:], p)
		p = p[n:]
		o.pos = (o.pos + n) % tmax
	}
	return written, nil
}

// HandOff says on the screen that program is asking at the terminal and
// has it now: the user answers it there. It is not output of the command,
// so the model does not get it (the result says the program had the
// terminal).
func (o *output) HandOff(program string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.screen == nil {
		return
	}
	o.show(o.shown.Flush())
	if o.total > 0 && o.last != '\n' {
		io.WriteString(o.screen, "\n")
		o.last = '\n'
	}
	l := "⌨ " + ansi.Escape(program) + " is asking at the terminal: answer it there (Ctrl-C stops it)"
	if o.term {
		l = "\x1b[1m" + l + "\x1b[0m"
	}
	io.WriteString(o.screen, l+"\n")
}

// finish ends the output on the screen with a newline, so what follows
// starts on a line of its own.
func (o *output) finish() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.screen == nil {
		return
	}
	o.show(o.shown.Flush())
	if o.total > 0 && o.last != '\n' {
		io.WriteString(o.screen, "\n")
	}
}

// show writes escaped text to the screen, dimmed on a terminal.
func (o *output) show(s string) {
	switch {
	case s == "":
	case o.term:
		io.WriteString(o.screen, "\x1b[2m"+s+"\x1b[0m")
	default:
		io.WriteString(o.screen, s)
	}
}

// escapes matches terminal escape sequences, which mean nothing to the
// model.
var escapes = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\x1b(\[[0-9;?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])`)
})

// text is what the model gets: everything when it fits, else the head and
// the tail cut at line ends with a note of how much is missing between.
func (o *output) text() (string, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	tail := append(append([]byte(nil), o.tail[o.pos:]...), o.tail[:o.pos]...)
	clean := func(b []byte) string {
		return escapes().ReplaceAllString(strings.ToValidUTF8(string(b), "\uFFFD"), "")
	}
	if o.total <= int64(o.max) {
		return clean(append(append([]byte(nil), o.head...), tail...)), false
	}
	head, cutHead := string(o.head), 0
	if i := strings.LastIndexByte(head, '\n'); i >= len(head)/2 {
		cutHead = len(head) - i - 1
		head = head[:i+1]
	}
	t, cutTail := string(tail), 0
	if i := strings.IndexByte(t, '\n'); i >= 0 && i < len(t)/2 {
		cutTail = i + 1
		t = t[i+1:]
	}
	missing := o.total - int64(len(o.head)) - int64(len(tail)) + int64(cutHead+cutTail)
	return clean([]byte(head)) + fmt.Sprintf("\n[… %d bytes cut …]\n", missing) + clean([]byte(t)), true
}
