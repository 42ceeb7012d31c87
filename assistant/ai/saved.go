package ai

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/qsh-shell/qsh/assistant/ai/chat"
	"github.com/qsh-shell/qsh/assistant/ai/conversation"
	"github.com/qsh-shell/qsh/internal/ansi"
)

// maxConversationAge is how long a conversation nobody continued is kept.
const maxConversationAge = 90 * 24 * time.Hour

// maxListed is how many conversations `? /resume` lists.
const maxListed = 15

// savedState is the file the current conversation is saved in.
type savedState struct {
	dir    string // where conversations go; "" saves none
	file   *conversation.File
	header conversation.Header
	warned bool // a failure to save was reported
}

// saver returns the function that saves the messages of a turn whose
// question is q: the question goes with the first message that answers
// it, so that a question that got nothing back is not saved.
func (a *Agent) saver(q chat.Message, dir string, red *Redactor, scr *screen) func(chat.Message) {
	if a.saved.dir == "" || a.cfg.KeepConversations <= 0 {
		return nil
	}
	pending := &q
	return func(m chat.Message) {
		if pending != nil {
			a.keep(*pending, dir, red, scr)
			pending = nil
		}
		a.keep(m, dir, red, scr)
	}
}

// keep saves one message, its secrets redacted (the model's own text and
// arguments too, in case it repeated one), starting the file if need be.
func (a *Agent) keep(m chat.Message, dir string, red *Redactor, scr *screen) {
	s := &a.saved
	fail := func(err error) {
		if !s.warned {
			scr.Line(fmt.Sprintf("conversation not saved: %v", err))
			s.warned = true
		}
	}
	if s.file == nil {
		s.header = conversation.Header{Started: a.now(), Dir: dir, Provider: string(a.ep.Provider), Model: a.ep.Model}
		f, err := conversation.Create(s.dir, s.header)
		if err != nil {
			fail(err)
			return
		}
		s.file = f
		conversation.Prune(s.dir, a.cfg.KeepConversations, maxConversationAge, f.Path(), a.now())
	}
	m.Text = red.Redact(m.Text)
	if len(m.Calls) > 0 {
		calls := make([]chat.Call, len(m.Calls))
		for i, c := range m.Calls {
			c.Args = red.Redact(c.Args)
			calls[i] = c
		}
		m.Calls = calls
	}
	if err := s.file.Append(m, a.now()); err != nil {
		fail(err)
	}
}

// endSaved closes the current conversation's file: the next question
// starts another.
func (a *Agent) endSaved() {
	if a.saved.file != nil {
		a.saved.file.Close()
		a.saved.file = nil
	}
	a.saved.header = conversation.Header{}
}

// resume is `? /resume [N]`: without N it lists the saved conversations,
// the most recent first; with N it continues that one.
func (a *Agent) resume(req Request, arg string) error {
	w := req.Stdout
	if a.saved.dir == "" || a.cfg.KeepConversations <= 0 {
		return errors.New("conversations are not saved (QSH_AI_KEEP_CONVERSATIONS=0)")
	}
	list, errs := conversation.List(a.saved.dir)
	for _, err := range errs {
		fmt.Fprintf(w, "skipped a damaged conversation: %s\n", ansi.Escape(err.Error()))
	}
	if a.saved.file != nil {
		// The conversation under way is not one to go back to.
		for i, s := range list {
			if s.Path == a.saved.file.Path() {
				list = append(list[:i:i], list[i+1:]...)
				break
			}
		}
	}
	if arg == "" {
		if len(list) == 0 {
			fmt.Fprintln(w, "no saved conversations yet")
			return nil
		}
		for i, s := range list[:min(len(list), maxListed)] {
			fmt.Fprintf(w, "%3d  %s  %s  %s\n", i+1, s.Modified.Format("Jan _2 15:04"), ansi.Escape(tildePath(s.Header.Dir, req.Environ)), ansi.Escape(firstQuestion(s.First)))
		}
		fmt.Fprintln(w, "continue one with ? /resume N")
		return nil
	}
	n, err := strconv.Atoi(arg)
	if err != nil || n < 1 || n > len(list) {
		return fmt.Errorf("/resume %s: no such conversation; ? /resume lists them (1 to %d)", arg, len(list))
	}
	s := list[n-1]
	h, msgs, skipped, err := conversation.ReadFile(s.Path)
	if err != nil {
		return fmt.Errorf("skipped a damaged conversation: %s: %v", s.Path, err)
	}
	read := len(msgs)
	msgs = repair(msgs)
	for i, m := range msgs {
		msgs[i] = capped(m)
	}
	if len(msgs) == 0 {
		return fmt.Errorf("%s holds no messages", s.Path)
	}
	f, err := conversation.Open(s.Path)
	if err != nil {
		return err
	}
	a.endSaved()
	a.msgs, a.saved.file, a.saved.header = msgs, f, h
	fmt.Fprintf(w, "continuing the conversation of %s in %s (%d messages): %s\n",
		s.Modified.Format("Jan _2 15:04"), ansi.Escape(tildePath(h.Dir, req.Environ)), len(msgs), ansi.Escape(firstQuestion(s.First)))
	if len(skipped) > 0 || read > len(msgs) {
		fmt.Fprintln(w, ansi.Escape(skippedLine(s.Path, skipped, read-len(msgs), req.Environ)))
	}
	return nil
}

// firstQuestion is a conversation's first question as the resume list
// shows it.
func firstQuestion(q string) string {
	if q = oneLine(q); q == "" {
		return "(its first question is unreadable)"
	}
	return clip(q, 60)
}

// skippedLine says what of a saved conversation was left out: damaged
// lines, and the messages they left without their call or answer.
func skippedLine(path string, skipped []conversation.Skipped, orphans int, environ []string) string {
	var parts []string
	if len(skipped) > 0 {
		lines := make([]string, 0, len(skipped))
		for _, s := range skipped[:min(len(skipped), 5)] {
			lines = append(lines, s.String())
		}
		if len(skipped) > 5 {
			lines = append(lines, fmt.Sprintf("and %d more", len(skipped)-5))
		}
		n := "1 line"
		if len(skipped) > 1 {
			n = fmt.Sprintf("%d lines", len(skipped))
		}
		parts = append(parts, fmt.Sprintf("%s of %s that could not be read: %s", n, tildePath(path, environ), strings.Join(lines, ", ")))
	}
	if orphans > 0 {
		n := "1 message left without its call or answer"
		if orphans > 1 {
			n = fmt.Sprintf("%d messages left without their call or answer", orphans)
		}
		parts = append(parts, n)
	}
	return "skipped " + strings.Join(parts, "; ") + " — the rest is continued"
}

// repair makes a saved conversation one a provider accepts: it starts
// with a question, every tool call is answered (a file cut short by a
// crash may lack results), and no result answers a call it does not
// follow.
func repair(msgs []chat.Message) []chat.Message {
	for len(msgs) > 0 && msgs[0].Role != chat.RoleUser {
		msgs = msgs[1:]
	}
	var out []chat.Message
	pending := map[string]bool{}
	var order []string
	flush := func() {
		for _, id := range order {
			if pending[id] {
				out = append(out, chat.Message{Role: chat.RoleTool, CallID: id, Text: "not run: the conversation was cut off", IsError: true})
			}
		}
		clear(pending)
		order = nil
	}
	for _, m := range msgs {
		if m.Role == chat.RoleTool {
			if pending[m.CallID] {
				out = append(out, m)
				pending[m.CallID] = false
			}
			continue
		}
		flush()
		out = append(out, m)
		for _, c := range m.Calls {
			pending[c.ID] = true
			order = append(order, c.ID)
		}
	}
	flush()
	return out
}

// export is `? /export [FILE]`: the conversation as Markdown, written
// whole or not at all (a temporary file renamed).
func (a *Agent) export(req Request, arg string) error {
	if len(a.msgs) == 0 {
		return errors.New("/export: no conversation yet: ask something first, or continue one with ? /resume")
	}
	red := a.redactor(req.Environ)
	var msgs []chat.Message
	for _, m := range a.msgs {
		if m.Private {
			continue // a private question's turn leaves no file behind
		}
		m.Text = red.Redact(m.Text)
		msgs = append(msgs, m)
	}
	if len(msgs) == 0 {
		return errors.New("/export: nothing to export: this conversation's questions were all private")
	}
	path := arg
	if path == "" {
		path = "qsh-conversation-" + a.now().Format("20060102-150405") + ".md"
	}
	if rest, ok := strings.CutPrefix(path, "~/"); ok {
		if home := lookup(req.Environ, "HOME"); home != "" {
			path = filepath.Join(home, rest)
		}
	}
	if !filepath.IsAbs(path) && req.Dir != "" {
		path = filepath.Join(req.Dir, path)
	}
	h := a.saved.header
	if h.Started.IsZero() {
		h = conversation.Header{Dir: req.Dir, Provider: string(a.ep.Provider), Model: a.ep.Model}
	}
	// A link is followed, and a device or FIFO (/dev/stdout) written in
	// place: renaming over either would replace it with a plain file.
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
		if err != nil {
			return fmt.Errorf("/export: %v", err)
		}
		err = conversation.Markdown(f, h, msgs)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("/export: %v", err)
		}
		fmt.Fprintf(req.Stdout, "wrote %s (%d messages)\n", arg, len(msgs))
		return nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".qsh-export-*")
	if err != nil {
		return fmt.Errorf("/export: %v", err)
	}
	err = conversation.Markdown(tmp, h, msgs)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("/export: %v", err)
	}
	fmt.Fprintf(req.Stdout, "wrote %s (%d messages)\n", path, len(msgs))
	return nil
}

// lookup is the value of name in environ (NAME=value entries); nil
// environ means the process's own.
func lookup(environ []string, name string) string {
	if environ == nil {
		return os.Getenv(name)
	}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			return v
		}
	}
	return ""
}

// tildePath writes a path under HOME with ~.
func tildePath(p string, environ []string) string {
	home := lookup(environ, "HOME")
	if home != "" && home != "/" && (p == home || strings.HasPrefix(p, home+"/")) {
		return "~" + p[len(home):]
	}
	return p
}
