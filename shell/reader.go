package shell

import (
	"errors"
	"io"
	"os"

	"github.com/ergochat/readline"
)

// ErrInterrupt is what a [LineReader] returns when Ctrl-C discards the line.
var ErrInterrupt = errors.New("interrupt")

// LineReader reads command lines: readline on a terminal, or a scripted
// fake in tests.
type LineReader interface {
	// ReadLine shows prompt and returns the line typed, without its
	// newline; io.EOF for Ctrl-D on an empty line, ErrInterrupt for Ctrl-C.
	ReadLine(prompt string) (string, error)
	// AddHistory makes entry the most recent one for recall.
	AddHistory(entry string)
	// ClearHistory forgets all entries.
	ClearHistory()
	Close() error
}

// lineEditor is a [LineReader] on ergochat/readline: emacs keys, Ctrl-R,
// history recall. Delete on an empty line does nothing there; only Ctrl-D
// ends input.
type lineEditor struct {
	rl *readline.Instance
}

func newLineEditor(stdin *os.File, stdout io.Writer, complete readline.AutoCompleter, size int) (*lineEditor, error) {
	cfg := &readline.Config{
		Stdin:                  stdin,
		Stdout:                 stdout,
		Stderr:                 stdout,
		DisableAutoSaveHistory: true,
		HistoryLimit:           max(size, 1), // qsh keeps the file; readline only recalls
		HistorySearchFold:      true,
	}
	if complete != nil {
		cfg.AutoComplete = complete
	}
	rl, err := readline.NewFromConfig(cfg)
	if err != nil {
		return nil, err
	}
	return &lineEditor{rl: rl}, nil
}

func (e *lineEditor) ReadLine(prompt string) (string, error) {
	e.rl.SetPrompt(prompt)
	line, err := e.rl.ReadLine()
	if errors.Is(err, readline.ErrInterrupt) {
		return "", ErrInterrupt
	}
	return line, err
}

func (e *lineEditor) AddHistory(entry string) { e.rl.SaveToHistory(entry) }
func (e *lineEditor) ClearHistory()           { e.rl.ResetHistory() }
func (e *lineEditor) Close() error            { return e.rl.Close() }
