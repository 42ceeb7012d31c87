package shell

import (
	"io"
	"strings"
	"sync/atomic"
)

// Before each prompt readline asks the terminal where the cursor is, so as
// not to draw over what a command left without a newline. The answer costs
// a round trip to the terminal before every prompt: through the capture
// proxy, and over ssh across the network. Instead qsh puts the cursor in
// column 1 itself, as zsh does (PROMPT_SP): a standout % and spaces to fill
// a line, then a carriage return. On an empty line the spaces end at the
// right margin and the return comes back to that line, which is cleared; after
// text they wrap, and the % stays behind that text. Then readline's
// question is answered here.

const (
	cursorQuery  = "\x1b[6n"
	column1Reply = "\x1b[1;1R"
)

// startOfLine moves the cursor to column 1 of an empty line on a terminal
// cols wide, leaving a % after text a command left without a newline.
func startOfLine(cols int) string {
	return "\x1b[7m%\x1b[27m" + strings.Repeat(" ", cols-1) + "\r\x1b[K"
}

// answering is the line editor's output. While column1 is set, it answers
// readline's cursor query itself, once.
type answering struct {
	io.Writer
	in      *lineInput
	column1 *atomic.Bool
	// aside, when set, runs in place of an empty write: the line
	// editor asks readline to write nothing, so as to run it while
	// readline has the line off the screen (see [lineEditor.outside]).
	aside *func()
	// bell rings the bell as bell-style says, for readline's.
	bell func()
}

func (a answering) Write(p []byte) (int, error) {
	if len(p) == 0 && a.aside != nil && *a.aside != nil {
		(*a.aside)()
		return 0, nil
	}
	if len(p) == 1 && p[0] == '\a' && a.bell != nil {
		a.bell()
		return 1, nil
	}
	if string(p) == cursorQuery && a.column1.Swap(false) && a.in.answer(column1Reply) {
		return len(p), nil
	}
	return a.Writer.Write(p)
}
