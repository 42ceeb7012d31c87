package shell

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unicode/utf8"
)

// history is the session's list of command lines and its file.
//
// The file holds one entry per line; a backslash and a newline inside an
// entry are written `\\` and `\n`, so a multi-line command stays one entry.
// Each entry is appended with a single write to a file opened with O_APPEND,
// so shells appending at the same time lose nothing. Trimming the file to
// the size limit rewrites it (temp file, rename) under an exclusive flock;
// appenders take a shared flock and check they still write to the file the
// path names.
type history struct {
	path    string // "" when entries are not saved
	size    int
	entries []string
}

func newHistory(size int) *history {
	if size < 0 {
		size = 0
	}
	return &history{size: size}
}

// open loads path and makes it the file new entries go to. The error, if
// any, is a warning: the history is then kept in memory only, or the
// unreadable part of the file is skipped.
func (h *history) open(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("history not saved: %v", err)
	}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		h.path = path
		return nil
	}
	if err != nil {
		return fmt.Errorf("history not loaded or saved: %v", err)
	}
	defer f.Close()
	entries, bad, total, err := readHistory(f)
	if err != nil {
		return fmt.Errorf("history not loaded or saved: %s: %v", path, err)
	}
	h.path = path
	if len(entries) > h.size {
		entries = entries[len(entries)-h.size:]
	}
	h.entries = entries
	var warn error
	if bad > 0 {
		warn = fmt.Errorf("history file %s: skipped %d unreadable line(s)", path, bad)
	}
	if total > h.size+h.size/4+100 || bad > 0 {
		if err := h.rewrite(); err != nil && warn == nil {
			warn = err
		}
	}
	return warn
}

// readHistory decodes a history file, counting lines that are not valid
// entries (binary garbage, a bad escape).
func readHistory(r io.Reader) (entries []string, bad, total int, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		total++
		line := sc.Bytes()
		if len(line) == 0 {
			continue
		}
		e, ok := decodeEntry(line)
		if !ok {
			bad++
			continue
		}
		entries = append(entries, e)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return entries, bad + 1, total + 1, nil
		}
		return nil, 0, 0, err
	}
	return entries, bad, total, nil
}

func encodeEntry(e string) string {
	if !strings.ContainsAny(e, "\\\n") {
		return e
	}
	r := strings.NewReplacer(`\`, `\\`, "\n", `\n`)
	return r.Replace(e)
}

func decodeEntry(line []byte) (string, bool) {
	if !utf8.Valid(line) || bytes.IndexByte(line, 0) >= 0 {
		return "", false
	}
	if bytes.IndexByte(line, '\\') < 0 {
		return string(line), true
	}
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i == len(line) {
			return "", false
		}
		switch line[i] {
		case '\\':
			b.WriteByte('\\')
		case 'n':
			b.WriteByte('\n')
		default:
			return "", false
		}
	}
	return b.String(), true
}

// add appends an entry in memory and to the file.
func (h *history) add(e string) error {
	if h.size == 0 {
		return nil
	}
	h.entries = append(h.entries, e)
	if len(h.entries) > h.size {
		h.entries = append(h.entries[:0:0], h.entries[len(h.entries)-h.size:]...)
	}
	if h.path == "" {
		return nil
	}
	if err := appendEntry(h.path, encodeEntry(e)+"\n"); err != nil {
		h.path = ""
		return fmt.Errorf("history not saved: %v", err)
	}
	return nil
}

func appendEntry(path, line string) error {
	for range 5 {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return err
		}
		syscall.Flock(int(f.Fd()), syscall.LOCK_SH)
		if !sameFile(f, path) {
			// Trimmed and replaced while we waited for the lock.
			f.Close()
			continue
		}
		_, err = f.WriteString(line)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	}
	return errors.New("history file keeps being replaced")
}

func sameFile(f *os.File, path string) bool {
	a, err1 := f.Stat()
	b, err2 := os.Stat(path)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// rewrite replaces the file with the last size entries, keeping entries
// other shells appended since it was read.
func (h *history) rewrite() error {
	f, err := os.OpenFile(h.path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return err
	}
	entries, _, _, err := readHistory(f)
	if err != nil {
		return err
	}
	if len(entries) > h.size {
		entries = entries[len(entries)-h.size:]
	}
	var b strings.Builder
	for _, e := range entries {
		b.WriteString(encodeEntry(e))
		b.WriteByte('\n')
	}
	tmp, err := os.CreateTemp(filepath.Dir(h.path), ".history-*")
	if err != nil {
		return err
	}
	_, err = tmp.WriteString(b.String())
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), h.path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// historyFile is where history goes for cfg: QSH_HISTFILE, else
// $XDG_STATE_HOME/qsh/history, else ~/.local/state/qsh/history.
func historyFile(cfg Config, getenv func(string) string) (string, error) {
	if cfg.HistFile != "" {
		p := cfg.HistFile
		if rest, ok := strings.CutPrefix(p, "~/"); ok && getenv("HOME") != "" {
			p = filepath.Join(getenv("HOME"), rest)
		}
		return p, nil
	}
	if d := getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "qsh", "history"), nil
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".local", "state", "qsh", "history"), nil
	}
	return "", errors.New("HOME is not set: history is not saved")
}

// historyBuiltin is `history`: list (all, or the last N) or clear.
func (s *Shell) historyBuiltin(b builtinIO, args []string) int {
	h := s.hist
	n := len(h.entries)
	for _, a := range args {
		switch {
		case a == "-c":
			h.entries = nil
			if s.lines != nil {
				s.lines.ClearHistory()
			}
			return 0
		case a == "--":
		default:
			var k int
			if _, err := fmt.Sscan(a, &k); err != nil || k < 0 {
				return b.fail(2, "%s: numeric argument required", a)
			}
			n = min(k, n)
		}
	}
	start := len(h.entries) - n
	for i, e := range h.entries[start:] {
		fmt.Fprintf(b.out, "%5d  %s\n", start+i+1, e)
	}
	return 0
}
