package conversation

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/qsh-shell/qsh/assistant/ai/chat"
)

// Version is the format of the files written.
const Version = 1

// Header is the first line of a file.
type Header struct {
	Format   string    `json:"format"` // "qsh conversation"
	Version  int       `json:"version"`
	Started  time.Time `json:"started"`
	Dir      string    `json:"dir"` // the cwd of the first question
	Provider string    `json:"provider,omitempty"`
	Model    string    `json:"model,omitempty"`
}

const format = "qsh conversation"

// line is one message as saved.
type line struct {
	Time    time.Time `json:"time"`
	Role    chat.Role `json:"role"`
	Text    string    `json:"text,omitempty"`
	Calls   []call    `json:"calls,omitempty"`
	CallID  string    `json:"call_id,omitempty"`
	IsError bool      `json:"error,omitempty"`
}

type call struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Args string `json:"args"`
}

func toLine(m chat.Message, t time.Time) line {
	l := line{Time: t, Role: m.Role, Text: m.Text, CallID: m.CallID, IsError: m.IsError}
	for _, c := range m.Calls {
		l.Calls = append(l.Calls, call(c))
	}
	return l
}

func (l line) message() chat.Message {
	m := chat.Message{Role: l.Role, Text: l.Text, CallID: l.CallID, IsError: l.IsError}
	for _, c := range l.Calls {
		m.Calls = append(m.Calls, chat.Call(c))
	}
	return m
}

// File is a conversation being saved.
type File struct {
	f *os.File
}

// Create starts a new file in dir, made if need be (mode 0700, files 0600),
// named for when it starts so that names sort by age.
func Create(dir string, h Header) (*File, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	h.Format, h.Version = format, Version
	hl, err := marshal(h)
	if err != nil {
		return nil, err
	}
	base := h.Started.UTC().Format("20060102T150405Z")
	for i := 0; ; i++ {
		name := base + ".jsonl"
		if i > 0 {
			name = fmt.Sprintf("%s-%d.jsonl", base, i)
		}
		f, err := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|os.O_APPEND|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, os.ErrExist) && i < 100 {
			continue
		}
		if err != nil {
			return nil, err
		}
		if _, err := f.Write(hl); err != nil {
			f.Close()
			os.Remove(f.Name())
			return nil, err
		}
		return &File{f: f}, nil
	}
}

// Open opens an existing file to append to it.
func Open(path string) (*File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, err
	}
	return &File{f: f}, nil
}

// Path is where the file is.
func (f *File) Path() string { return f.f.Name() }

// Append adds a message, in one write.
func (f *File) Append(m chat.Message, t time.Time) error {
	b, err := marshal(toLine(m, t))
	if err != nil {
		return err
	}
	_, err = f.f.Write(b)
	return err
}

// marshal is v as one line of JSON with its newline; <, > and & stay as
// they are, for people who read the files.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Close closes the file.
func (f *File) Close() error { return f.f.Close() }

// maxFile bounds what is read of a file: a bigger one is damaged.
const maxFile = 64 << 20

// ReadFile reads the conversation in the file at path (see [Read]).
func ReadFile(path string) (Header, []chat.Message, []Skipped, error) {
	f, err := os.Open(path)
	if err != nil {
		return Header{}, nil, nil, err
	}
	defer f.Close()
	return Read(f)
}

// Skipped is a line of a conversation file that could not be read.
type Skipped struct {
	Line int // from 1; the header is line 1
	Why  string
}

func (s Skipped) String() string { return fmt.Sprintf("line %d (%s)", s.Line, s.Why) }

// Read reads a conversation: what is readable of it. A line that does not
// parse is skipped and said in skipped (one damaged line in the middle
// must not cost the rest), but for a last line without its newline, which
// a crash cut short as it was written and is dropped without a word; what
// comes past maxFile is skipped as one. The error is for a file that is
// not a conversation at all: an empty one, a first line that is not the
// header of one this qsh reads.
func Read(r io.Reader) (h Header, msgs []chat.Message, skipped []Skipped, err error) {
	data, err := io.ReadAll(io.LimitReader(r, maxFile+1))
	if err != nil {
		return h, nil, nil, err
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		return h, nil, nil, errors.New("empty")
	}
	if err := decode(lines[0], &h); err != nil || h.Format != format {
		return h, nil, nil, errors.New("line 1: not a qsh conversation")
	}
	if h.Version != Version {
		return h, nil, nil, fmt.Errorf("line 1: format version %d, this qsh reads %d", h.Version, Version)
	}
	over := len(data) > maxFile
	for i, raw := range lines[1:] {
		n, last := i+2, i == len(lines)-2
		if over && last {
			skipped = append(skipped, Skipped{n, fmt.Sprintf("the file goes on past %d MB", maxFile>>20)})
			break
		}
		var l line
		err := decode(raw, &l)
		if err == nil {
			err = l.check()
		}
		switch {
		case err == nil:
			msgs = append(msgs, l.message())
		case last && !bytes.HasSuffix(raw, []byte("\n")):
			// cut short as it was written
		default:
			skipped = append(skipped, Skipped{n, clipWhy(err.Error())})
		}
	}
	return h, msgs, skipped, nil
}

// clipWhy keeps a parse error short: it may quote the line.
func clipWhy(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:79]) + "…"
	}
	return s
}

// decode reads one JSON object and nothing after it.
func decode(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("more than one JSON value")
	}
	return nil
}

func (l line) check() error {
	switch l.Role {
	case chat.RoleUser, chat.RoleAssistant:
	case chat.RoleTool:
		if l.CallID == "" {
			return errors.New("a tool result without its call")
		}
	default:
		return fmt.Errorf("unknown role %q", l.Role)
	}
	return nil
}

// Write writes a whole conversation, as Create and Append would.
func Write(w io.Writer, h Header, msgs []chat.Message, t time.Time) error {
	h.Format, h.Version = format, Version
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(h); err != nil {
		return err
	}
	for _, m := range msgs {
		if err := enc.Encode(toLine(m, t)); err != nil {
			return err
		}
	}
	return bw.Flush()
}
