package tools

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/qsh-shell/qsh/internal/ansi"
)

// PermissionsFile sets the saved permissions' file (`A` answers); ""
// turns saving off. The default is QSH_AI_PERMISSIONS, else
// $XDG_CONFIG_HOME/qsh/permissions.
func PermissionsFile(path string) Option {
	return func(r *Registry) { r.perms = newPermissions(path) }
}

// defaultPermissionsFile is $XDG_CONFIG_HOME/qsh/permissions, else
// ~/.config/qsh/permissions.
func defaultPermissionsFile() string {
	if d := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "qsh", "permissions")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".config", "qsh", "permissions")
}

// permissions are the rules saved in a file, read again whenever it
// changes, so that an edit, or an `A` in another session, counts at once.
type permissions struct {
	path string

	mu    sync.Mutex
	stamp string // what the file looked like when read: size, time, inode
	rules []savedRule
	err   error // why the file is ignored
	told  string
}

func newPermissions(path string) *permissions {
	if path == "" {
		return nil
	}
	return &permissions{path: path}
}

// load returns the file's rules, reading it again if it changed. A file
// that cannot be read gives no rules and the reason.
func (p *permissions) load() ([]savedRule, error) {
	if p == nil {
		return nil, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.refresh()
	return p.rules, p.err
}

// refresh reads the file again if it changed; p.mu is held.
func (p *permissions) refresh() {
	fi, err := os.Stat(p.path)
	if errors.Is(err, fs.ErrNotExist) {
		p.stamp, p.rules, p.err = "", nil, nil
		return
	}
	stamp := ""
	if err == nil {
		stamp = fmt.Sprint(fi.Size(), fi.ModTime().UnixNano(), inode(fi))
		if stamp == p.stamp {
			return
		}
	}
	p.stamp, p.rules, p.err = stamp, nil, nil
	text, err := p.read()
	if err == nil {
		p.rules, err = parsePermissions(text)
	}
	if err != nil {
		p.err = fmt.Errorf("%s: %v", p.path, err)
	}
}

// read is the file's text, refusing one too big to be a rules file.
func (p *permissions) read() (string, error) {
	f, err := os.Open(p.path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is said by the caller
		}
		return "", err
	}
	defer f.Close()
	const max = 1 << 20
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return "", plainErr(err)
	}
	if len(b) > max {
		return "", fmt.Errorf("over %d bytes", max)
	}
	return string(b), nil
}

// problem is the one line that says the file is ignored, the first time
// after it became so; "" otherwise.
func (p *permissions) problem() string {
	if p == nil {
		return ""
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err == nil || p.err.Error() == p.told {
		return ""
	}
	p.told = p.err.Error()
	return "qsh: saved permissions ignored: " + p.told
}

// add appends r to the file, written anew atomically; the file's other
// lines stay as they are. It refuses to touch a file it cannot read.
func (p *permissions) add(r Rule) error {
	if p == nil {
		return errors.New("saving permissions is turned off")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	text, err := p.read()
	switch {
	case errors.Is(err, fs.ErrNotExist):
		text = permissionsHeader
	case err != nil:
		return fmt.Errorf("%s: %v", p.path, err)
	default:
		if _, err := parsePermissions(text); err != nil {
			return fmt.Errorf("%s: %v; fix or remove it", p.path, err)
		}
	}
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	line := formatRule(r)
	if _, err := parseRule(line); err != nil {
		return fmt.Errorf("not saved: %v", err) // cannot happen for a rule A offers
	}
	return p.write(text + line + "\n")
}

// remove deletes the rule on line (1-based), which must still be want.
func (p *permissions) remove(line int, want Rule) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	text, err := p.read()
	if err != nil {
		return fmt.Errorf("%s: %v", p.path, err)
	}
	lines := strings.Split(text, "\n")
	if line < 1 || line > len(lines) {
		return fmt.Errorf("%s changed: list the permissions again", p.path)
	}
	got, err := parseRule(strings.TrimSpace(lines[line-1]))
	if err != nil || formatRule(got) != formatRule(want) {
		return fmt.Errorf("%s changed: list the permissions again", p.path)
	}
	return p.write(strings.Join(append(lines[:line-1], lines[line:]...), "\n"))
}

// write replaces the file atomically; p.mu is held.
func (p *permissions) write(text string) error {
	if err := os.MkdirAll(filepath.Dir(p.path), 0o700); err != nil {
		return plainErr(err)
	}
	err := writeAtomic(p.path, []byte(text), 0o600, func(w io.Writer, b []byte) error {
		_, err := w.Write(b)
		return err
	})
	if err != nil {
		return fmt.Errorf("%s: %v", p.path, plainErr(err))
	}
	p.stamp = "" // read it again
	p.refresh()
	return nil
}

// approved reports whether a rule covers q: one of the session's, or one
// saved for the project q is made in (dir is the workspace).
func (r *Registry) approved(q ask, dir string) bool {
	r.mu.Lock()
	for _, a := range r.approvals {
		if a.covers(q) {
			r.mu.Unlock()
			return true
		}
	}
	r.mu.Unlock()
	saved, _ := r.perms.load()
	if len(saved) == 0 {
		return false
	}
	project := projectOf(dir)
	for _, s := range saved {
		if s.Project == project && s.covers(q) {
			return true
		}
	}
	return false
}

// Permissions is `? /permissions [revoke N | clear]` for a question asked
// in dir: it lists the session's rules and those saved for the project,
// numbered, or removes one, or the session's.
func (r *Registry) Permissions(w io.Writer, dir, args string) error {
	f := strings.Fields(args)
	switch {
	case len(f) == 0:
		r.listPermissions(w, dir)
		return nil
	case f[0] == "clear" && len(f) == 1:
		r.mu.Lock()
		n := len(r.approvals)
		r.approvals = nil
		r.mu.Unlock()
		fmt.Fprintf(w, "forgot %s of this session (saved ones stay: ? /permissions revoke N)\n", plural(n, "rule"))
		return nil
	case f[0] == "revoke" && len(f) == 2:
		n, err := strconv.Atoi(f[1])
		if err != nil || n < 1 {
			return fmt.Errorf("? /permissions revoke N: N is a number from ? /permissions")
		}
		return r.revoke(w, dir, n)
	}
	return fmt.Errorf("? /permissions: want no argument, revoke N or clear")
}

// numbered is the list `? /permissions` shows: the session's rules, then
// the ones saved for dir's project.
func (r *Registry) numbered(dir string) (session []Rule, saved []savedRule, others int, err error) {
	r.mu.Lock()
	session = append(session, r.approvals...)
	r.mu.Unlock()
	all, err := r.perms.load()
	project := projectOf(dir)
	for _, s := range all {
		if s.Project == project {
			saved = append(saved, s)
		} else {
			others++
		}
	}
	return session, saved, others, err
}

func (r *Registry) listPermissions(w io.Writer, dir string) {
	session, saved, others, err := r.numbered(dir)
	n := 0
	if len(session) > 0 {
		fmt.Fprintln(w, "this session (a):")
		for _, s := range session {
			n++
			fmt.Fprintf(w, "%3d  %s\n", n, ansi.Escape(s.String()+provenance(s, "15:04")))
		}
	}
	file := "saving is off"
	if r.perms != nil {
		file = tildePath(r.perms.path)
	}
	if len(saved) > 0 {
		fmt.Fprintf(w, "always in %s (A, saved in %s):\n", tildePath(projectOf(dir)), file)
		for _, s := range saved {
			n++
			fmt.Fprintf(w, "%3d  %s\n", n, ansi.Escape(s.Rule.String()+provenance(s.Rule, "2006-01-02 15:04")))
		}
	}
	if err != nil {
		fmt.Fprintf(w, "saved permissions ignored: %v\n", err)
	}
	if n == 0 {
		fmt.Fprintln(w, "no permissions: calls that need a confirmation ask (a allows that kind for the session, A always in this project)")
	}
	if others > 0 {
		fmt.Fprintf(w, "(%s saved for other projects, in %s)\n", plural(others, "more rule"), file)
	}
	if n > 0 {
		fmt.Fprintln(w, "? /permissions revoke N removes one; ? /permissions clear forgets this session's")
	}
}

// revoke removes rule n of the list `? /permissions` shows for dir.
func (r *Registry) revoke(w io.Writer, dir string, n int) error {
	session, saved, _, _ := r.numbered(dir)
	switch {
	case n <= len(session):
		gone := session[n-1]
		r.mu.Lock()
		for i, a := range r.approvals {
			if a == gone {
				r.approvals = append(r.approvals[:i:i], r.approvals[i+1:]...)
				break
			}
		}
		r.mu.Unlock()
		fmt.Fprintf(w, "revoked for this session: %s\n", ansi.Escape(gone.String()))
		return nil
	case n <= len(session)+len(saved):
		s := saved[n-len(session)-1]
		if err := r.perms.remove(s.line, s.Rule); err != nil {
			return err
		}
		fmt.Fprintf(w, "revoked: %s (removed from %s)\n", ansi.Escape(s.Rule.String()), tildePath(r.perms.path))
		return nil
	}
	return fmt.Errorf("? /permissions revoke %d: there is no rule %d (? /permissions lists them)", n, n)
}

// provenance says when and during which question a rule was made.
func provenance(r Rule, layout string) string {
	var s string
	if !r.Made.IsZero() {
		s = "  " + r.Made.Local().Format(layout)
	}
	if r.From != "" {
		s += "  from " + strconv.Quote(clip(r.From, 60))
	}
	return s
}

// tildePath writes a path under the home directory with ~.
func tildePath(p string) string {
	home, err := os.UserHomeDir()
	if err == nil && home != "" && within(p, home) && home != "/" {
		return "~" + strings.TrimPrefix(p, home)
	}
	return p
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// madeNow is when a rule made now was made, to the second.
func madeNow(now func() time.Time) time.Time {
	return now().UTC().Truncate(time.Second)
}

// inode is the file's inode number: a file replaced by a rename of the
// same size within the clock's resolution is still seen to change.
func inode(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}
