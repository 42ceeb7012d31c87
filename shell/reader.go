package shell

import (
	"errors"
	"io"
	"os"
	"strings"

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

// Completer proposes completions for line with the cursor at byte offset
// cursor: candidates replace the replace bytes before the cursor.
type Completer func(line string, cursor int) (cands []string, replace int)

// lineEditor is a [LineReader] on ergochat/readline: emacs keys, Ctrl-R,
// history recall. Delete on an empty line does nothing there; only Ctrl-D
// ends input.
type lineEditor struct {
	rl *readline.Instance
}

func newLineEditor(stdin *os.File, stdout io.Writer, complete Completer, size int) (*lineEditor, error) {
	cfg := &readline.Config{
		Stdin:                  stdin,
		Stdout:                 stdout,
		Stderr:                 stdout,
		DisableAutoSaveHistory: true,
		HistoryLimit:           max(size, 1), // qsh keeps the file; readline only recalls
		HistorySearchFold:      true,
	}
	if complete != nil {
		cfg.AutoComplete = completerAdapter(complete)
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

// completerAdapter turns a [Completer] into readline's AutoCompleter,
// which wants each candidate's suffix after the common part.
type completerAdapter Completer

func (c completerAdapter) Do(line []rune, pos int) ([][]rune, int) {
	s := string(line[:pos])
	cands, replace := c(string(line), len(s))
	if replace > len(s) {
		replace = len(s)
	}
	typed := s[len(s)-replace:]
	var out [][]rune
	for _, cand := range cands {
		if !strings.HasPrefix(cand, typed) {
			continue
		}
		out = append(out, []rune(cand[len(typed):]))
	}
	return out, len([]rune(typed))
}
