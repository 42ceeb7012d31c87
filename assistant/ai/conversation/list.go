package conversation

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/qsh-shell/qsh/assistant/ai/chat"
)

// Dir is where conversations are saved: $XDG_STATE_HOME/qsh/conversations,
// else ~/.local/state/qsh/conversations; "" when neither is known.
func Dir(getenv func(string) string) string {
	if d := getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "qsh", "conversations")
	}
	if h := getenv("HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".local", "state", "qsh", "conversations")
	}
	return ""
}

// Summary describes a saved conversation for a list.
type Summary struct {
	Path     string
	Modified time.Time // the last message
	Header   Header
	First    string // the first question, without its context block
}

// List describes the conversations in dir, the most recent first. A file
// that cannot be read is left out, with an error that names it.
func List(dir string) ([]Summary, []error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []error{err}
	}
	var list []Summary
	var errs []error
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		s, err := summarize(path)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %v", path, err))
			continue
		}
		list = append(list, s)
	}
	slices.SortStableFunc(list, func(a, b Summary) int { return b.Modified.Compare(a.Modified) })
	return list, errs
}

// summarize reads a file's header and first question only.
func summarize(path string) (Summary, error) {
	s := Summary{Path: path}
	f, err := os.Open(path)
	if err != nil {
		return s, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return s, err
	}
	s.Modified = fi.ModTime()
	r := bufio.NewReader(io.LimitReader(f, maxFile))
	head, err := r.ReadBytes('\n')
	if err != nil && !(err == io.EOF && len(head) > 0) {
		return s, errors.New("empty")
	}
	if err := decode(head, &s.Header); err != nil || s.Header.Format != format {
		return s, errors.New("line 1: not a qsh conversation")
	}
	if s.Header.Version != Version {
		return s, fmt.Errorf("line 1: format version %d, this qsh reads %d", s.Header.Version, Version)
	}
	// A first question that does not read leaves First empty: the rest
	// of the file may (see [Read]).
	if raw, _ := r.ReadBytes('\n'); len(raw) > 0 {
		var l line
		if decode(raw, &l) == nil && l.Role == chat.RoleUser {
			_, s.First = SplitQuestion(l.Text)
		}
	}
	return s, nil
}

// SplitQuestion cuts a question as sent into its context block and the
// question itself.
func SplitQuestion(text string) (context, question string) {
	if !strings.HasPrefix(text, "<context>") {
		return "", text
	}
	const end = "</context>\n"
	i := strings.Index(text, end)
	if i < 0 {
		return "", text
	}
	i += len(end)
	return text[:i], strings.TrimPrefix(text[i:], "\n")
}

// Prune deletes the oldest conversations of dir beyond the keep most
// recent, and those not touched for longer than maxAge; the file at except
// (the one in use) stays.
func Prune(dir string, keep int, maxAge time.Duration, except string, now time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type file struct {
		path string
		mod  time.Time
	}
	var files []file
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		files = append(files, file{filepath.Join(dir, e.Name()), fi.ModTime()})
	}
	slices.SortFunc(files, func(a, b file) int { return b.mod.Compare(a.mod) })
	for i, f := range files {
		if f.path == except {
			continue
		}
		if i >= keep || now.Sub(f.mod) > maxAge {
			os.Remove(f.path)
		}
	}
}
