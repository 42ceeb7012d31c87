package eval

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"mvdan.cc/sh/v3/syntax"
)

// OpenHandler opens the file a redirection names: path is as the shell
// resolved it against its directory.
type OpenHandler func(ctx context.Context, path string, flag int, perm os.FileMode) (io.ReadWriteCloser, error)

func defaultOpen(ctx context.Context, path string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
	return os.OpenFile(path, flag, perm)
}

// saved is what a redirection replaced, to put back when the command ends.
type saved struct {
	fd  int
	old *file
}

// redirect applies redirections; restore undoes them (nil when they are
// to stay, as exec's). ok is false when one failed: the message is out,
// the ones before are undone.
func (r *Runner) redirect(redirs []*syntax.Redirect, keep bool) (restore func(), ok bool) {
	if len(redirs) == 0 {
		return func() {}, true
	}
	var undo []saved
	restore = func() {
		for i := len(undo) - 1; i >= 0; i-- {
			s := undo[i]
			if cur := r.fds.swap(s.fd, s.old); cur != nil {
				cur.drop()
			}
		}
	}
	put := func(fd int, f *file) {
		undo = append(undo, saved{fd, r.fds.swap(fd, f)})
	}
	for _, rd := range redirs {
		if err := r.redirectOne(rd, put, keep); err != nil {
			if err != errReported {
				r.errorf("%s", err.Error())
			}
			restore()
			return nil, false
		}
	}
	if keep {
		// exec's redirections stay: what they replaced is let go. (One
		// that failed undid those before it, as in bash.)
		for _, s := range undo {
			if s.old != nil {
				s.old.drop()
			}
		}
		return nil, true
	}
	return restore, true
}

// errReported is an error whose message was already printed.
var errReported = errors.New("reported")

func (r *Runner) redirectOne(rd *syntax.Redirect, put func(int, *file), keep bool) error {
	fd := -1
	varName := ""
	if rd.N != nil {
		if strings.HasPrefix(rd.N.Value, "{") {
			varName = strings.Trim(rd.N.Value, "{}")
		} else {
			n, err := strconv.Atoi(rd.N.Value)
			if err != nil {
				return &varError{msg: rd.N.Value + ": bad file descriptor"}
			}
			fd = n
		}
	}
	defFd := func(d int) int {
		if fd < 0 {
			return d
		}
		return fd
	}
	// place puts a new file at the descriptor, or at a free one from 10
	// for {var}, which the variable then holds.
	place := func(def int, f *file) error {
		if varName != "" {
			if op := rd.Op; (op == syntax.DplOut || op == syntax.DplIn) && f == nil {
				v := r.refValue(varName)
				n, err := strconv.Atoi(v)
				if err != nil {
					return &varError{msg: varName + ": ambiguous redirect"}
				}
				put(n, nil)
				return nil
			}
			n := r.fds.free(10)
			if err := r.assignRef(varName, itoa(int64(n))); err != nil {
				f.drop()
				return err
			}
			put(n, f)
			return nil
		}
		put(defFd(def), f)
		return nil
	}
	switch rd.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		body := r.hereDoc(rd)
		return place(0, stringFile(body))
	case syntax.WordHdoc:
		return place(0, stringFile(r.Literal(rd.Word)+"\n"))
	case syntax.DplIn, syntax.DplOut:
		target := r.redirTarget(rd.Word, false)
		def := 1
		if rd.Op == syntax.DplIn {
			def = 0
		}
		if target == "-" {
			return place(def, nil)
		}
		move := strings.HasSuffix(target, "-")
		num := strings.TrimSuffix(target, "-")
		n, err := strconv.Atoi(num)
		if err != nil {
			if rd.Op == syntax.DplOut && fd < 0 && varName == "" {
				// >&file is &>file.
				f, err := r.openFile(target, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, !r.opts.set[optNoclobber])
				if err != nil {
					return err
				}
				put(1, f)
				put(2, f.hold())
				return nil
			}
			return &varError{msg: target + ": ambiguous redirect"}
		}
		src := r.fds.get(n)
		if src == nil {
			return &varError{msg: num + ": Bad file descriptor"}
		}
		if err := place(def, src.hold()); err != nil {
			return err
		}
		if move && n != defFd(def) {
			put(n, nil)
		}
		return nil
	}
	name := r.redirTarget(rd.Word, true)
	var flag int
	clobber := true
	read, write := false, true
	def := 1
	switch rd.Op {
	case syntax.RdrOut:
		flag = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		clobber = !r.opts.set[optNoclobber]
	case syntax.RdrClob:
		flag = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	case syntax.AppOut:
		flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	case syntax.RdrIn:
		flag, read, write, def = os.O_RDONLY, true, false, 0
	case syntax.RdrInOut:
		flag, read, def = os.O_RDWR|os.O_CREATE, true, 0
	case syntax.RdrAll, syntax.AppAll:
		flag = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		if rd.Op == syntax.AppAll {
			flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
		} else {
			clobber = !r.opts.set[optNoclobber]
		}
		f, err := r.openFile(name, flag, clobber)
		if err != nil {
			return err
		}
		put(1, f)
		put(2, f.hold())
		return nil
	default:
		return &varError{msg: "unsupported redirection " + rd.Op.String()}
	}
	f, err := r.openFileRW(name, flag, clobber, read, write)
	if err != nil {
		return err
	}
	return place(def, f)
}

// redirTarget expands the word of a redirection: one field, globbed when
// it matches one file.
func (r *Runner) redirTarget(w *syntax.Word, glob bool) string {
	if s, ok := plainLit(w); ok {
		return s
	}
	fields := r.Fields(w)
	if len(fields) != 1 {
		r.errorf("%s: ambiguous redirect", r.srcOf(w))
		panic(abort{status: 1})
	}
	return fields[0]
}

func (r *Runner) openFile(name string, flag int, clobber bool) (*file, error) {
	return r.openFileRW(name, flag, clobber, false, true)
}

// openFileRW opens a redirection's file, with noclobber's check and the
// special names bash knows (/dev/stdin, /dev/fd/N…).
func (r *Runner) openFileRW(name string, flag int, clobber, read, write bool) (*file, error) {
	if f, ok := r.specialFile(name); ok {
		if f == nil {
			return nil, &varError{msg: name + ": Bad file descriptor"}
		}
		return f.hold(), nil
	}
	if name == "" {
		return nil, &varError{msg: ": No such file or directory"}
	}
	path := name
	if !filepath.IsAbs(path) {
		// Not filepath.Join, which cleans: the kernel takes "link/.." to
		// where the link leads, up one, and so does bash.
		path = strings.TrimSuffix(r.dir, "/") + "/" + path
	}
	if !clobber {
		if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
			return nil, &varError{msg: name + ": cannot overwrite existing file"}
		}
		if flag&os.O_TRUNC != 0 {
			flag |= os.O_EXCL
			if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
				flag &^= os.O_EXCL
			}
		}
	}
	if j := r.job; j != nil && !j.fg {
		if fi, err := os.Stat(path); err == nil && fi.Mode()&os.ModeNamedPipe != 0 {
			j.openingFIFO()
		}
	}
	rwc, err := r.openWithUmask(path, flag, 0o666)
	if err != nil {
		return nil, &varError{msg: name + ": " + errText(err)}
	}
	if of, ok := rwc.(*os.File); ok {
		return ownedFile(of, read, write), nil
	}
	f := &file{name: name, owned: true, closeFn: rwc.Close}
	if read {
		f.r = rwc
	}
	if write {
		f.w = rwc
	}
	f.refs.Store(1)
	return f, nil
}

func (r *Runner) openWithUmask(path string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
	if flag&os.O_CREATE != 0 && r.umask != r.sess.procUmask {
		r.sess.execMu.Lock()
		old := syscall.Umask(int(r.umask))
		defer func() {
			syscall.Umask(old)
			r.sess.execMu.Unlock()
		}()
	}
	return r.open(r.ctx, path, flag, perm)
}

// specialFile is a file bash's redirections know by name: /dev/stdin,
// /dev/stdout, /dev/stderr and /dev/fd/N name the shell's own descriptors.
func (r *Runner) specialFile(name string) (*file, bool) {
	switch name {
	case "/dev/stdin":
		return r.fds.get(0), true
	case "/dev/stdout":
		return r.fds.get(1), true
	case "/dev/stderr":
		return r.fds.get(2), true
	}
	if rest, ok := strings.CutPrefix(name, "/dev/fd/"); ok {
		if n, err := strconv.Atoi(rest); err == nil {
			return r.fds.get(n), true
		}
	}
	return nil, false
}

// errText is an error as bash's messages word it.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		s := errno.Error()
		return strings.ToUpper(s[:1]) + s[1:]
	}
	return err.Error()
}

// stringFile is a file whose reading gives s: a here-document.
func stringFile(s string) *file {
	doc := strings.NewReader(s)
	f := &file{r: doc, doc: doc, name: "here-document"}
	f.refs.Store(1)
	return f
}

// hereDoc expands a here-document's body, unless its delimiter was quoted;
// <<- removes each line's leading tabs first.
func (r *Runner) hereDoc(rd *syntax.Redirect) string {
	if rd.Hdoc == nil {
		return ""
	}
	parts := rd.Hdoc.Parts
	if rd.Op == syntax.DashHdoc {
		parts = stripHdocTabs(parts)
	}
	if quotedDelim(rd.Word) {
		var sb strings.Builder
		for _, p := range parts {
			if l, ok := p.(*syntax.Lit); ok {
				sb.WriteString(UnescapeRawBytes(l.Value))
			}
		}
		return sb.String()
	}
	b := &builder{r: r}
	r.docParts(parts, b)
	return string(b.cur.val)
}

// stripHdocTabs is a <<- body without the tabs that begin its lines (the
// parser keeps them), as new parts: the tree is shared.
func stripHdocTabs(parts []syntax.WordPart) []syntax.WordPart {
	out := make([]syntax.WordPart, len(parts))
	lineStart := true
	for i, p := range parts {
		l, ok := p.(*syntax.Lit)
		if !ok {
			out[i] = p
			lineStart = false
			continue
		}
		var sb strings.Builder
		for j := 0; j < len(l.Value); j++ {
			c := l.Value[j]
			if lineStart && c == '\t' {
				continue
			}
			lineStart = c == '\n'
			sb.WriteByte(c)
		}
		nl := *l
		nl.Value = sb.String()
		out[i] = &nl
	}
	return out
}

func quotedDelim(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		case *syntax.Lit:
			if strings.Contains(p.Value, "\\") {
				return true
			}
		}
	}
	return false
}

// refValue is the value of a variable or an array element named as
// {var} redirections and the builtins that take names write them:
// name or name[subscript].
func (r *Runner) refValue(ref string) string {
	n, sub, hasSub, ok := splitRef(ref)
	if !ok {
		return ""
	}
	v := r.lookup(n)
	if v == nil {
		return ""
	}
	if hasSub {
		s, _ := r.element(n, v, sub)
		return s
	}
	s, _ := r.Get(n)
	return s
}
