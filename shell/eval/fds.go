package eval

import (
	"io"
	"maps"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// file is an open file of the shell: a descriptor the process holds (and
// hands to programs), or a reader or writer of the shell's own, such as a
// command substitution's buffer.
type file struct {
	f    *os.File
	r    io.Reader
	w    io.Writer
	name string
	// refs counts the tables (and duplicates) holding the file; the last
	// to drop it closes it, as with descriptors shared after a fork.
	refs atomic.Int32
	// owned is set when the shell opened the file and closes it.
	owned bool
	// closeFn, when set, is called instead of closing f (a pipe's
	// feeding goroutine, a here-document).
	closeFn func() error
	// noInherit keeps the file from the programs the shell runs, as
	// close-on-exec does (a coprocess's pipes).
	noInherit bool
	// doc is a here-document or here-string still in memory; docMu
	// guards turning it into a real file (see [file.docFile]).
	doc   *strings.Reader
	docMu sync.Mutex
}

func newFile(r io.Reader, w io.Writer, name string) *file {
	f := &file{r: r, w: w, name: name}
	if of, ok := r.(*os.File); ok {
		f.f = of
	}
	if of, ok := w.(*os.File); ok {
		f.f = of
	}
	f.refs.Store(1)
	return f
}

// ownedFile wraps a file the shell opened: both directions go to it.
func ownedFile(of *os.File, read, write bool) *file {
	f := &file{f: of, name: of.Name(), owned: true}
	if read {
		f.r = of
	}
	if write {
		f.w = of
	}
	f.refs.Store(1)
	return f
}

func (f *file) hold() *file {
	f.refs.Add(1)
	return f
}

// drop releases one hold on f, closing it with the last.
func (f *file) drop() {
	if f.refs.Add(-1) > 0 {
		return
	}
	if f.closeFn != nil {
		f.closeFn()
		return
	}
	if f.owned && f.f != nil {
		f.f.Close()
	}
}

// fdTable is a shell's open files by descriptor number.
type fdTable struct {
	fds map[int]*file
	// closed are the descriptors above 2 the shell closed, which it must
	// not take up again from the process (see [fdTable.get]).
	closed map[int]bool
}

func newFdTable() *fdTable { return &fdTable{fds: map[int]*file{}} }

// get is the file at n. A descriptor the process inherited — open and
// not close-on-exec, which Go makes all of its own — is the shell's too,
// as bash's are (`exec 3>log; qsh -c 'echo x >&3'`, a test framework's
// fd 3): it is taken up at its first use, through a duplicate, so that
// nothing of the shell closes the process's own.
func (t *fdTable) get(n int) *file {
	if f, ok := t.fds[n]; ok || n < 3 || t.closed[n] {
		return f
	}
	flags, err := unix.FcntlInt(uintptr(n), unix.F_GETFD, 0)
	if err != nil || flags&unix.FD_CLOEXEC != 0 {
		return nil
	}
	dup, err := unix.FcntlInt(uintptr(n), unix.F_DUPFD_CLOEXEC, 10)
	if err != nil {
		return nil
	}
	of := os.NewFile(uintptr(dup), "/dev/fd/"+strconv.Itoa(n))
	f := ownedFile(of, true, true)
	t.fds[n] = f
	return f
}

// set puts f at n, dropping what was there.
func (t *fdTable) set(n int, f *file) {
	if old := t.get(n); old != nil {
		old.drop()
	}
	t.mark(n, f == nil)
	if f == nil {
		delete(t.fds, n)
		return
	}
	t.fds[n] = f
}

// mark notes whether the shell closed n.
func (t *fdTable) mark(n int, closed bool) {
	if n < 3 || closed == t.closed[n] {
		return
	}
	if t.closed == nil {
		t.closed = map[int]bool{}
	}
	if closed {
		t.closed[n] = true
	} else {
		delete(t.closed, n)
	}
}

// swap puts f at n and returns what was there, still held: a redirection
// that ends puts it back.
func (t *fdTable) swap(n int, f *file) *file {
	old := t.get(n)
	t.mark(n, f == nil)
	if f == nil {
		delete(t.fds, n)
	} else {
		t.fds[n] = f
	}
	return old
}

// fork copies the table for a subshell, which holds each file too.
func (t *fdTable) fork() *fdTable {
	c := &fdTable{fds: make(map[int]*file, len(t.fds)), closed: maps.Clone(t.closed)}
	for n, f := range t.fds {
		c.fds[n] = f.hold()
	}
	return c
}

// release drops every file, when a subshell ends.
func (t *fdTable) release() {
	for n, f := range t.fds {
		f.drop()
		delete(t.fds, n)
	}
}

// free is the lowest descriptor from min that is not open, for {var}>.
func (t *fdTable) free(min int) int {
	for n := min; ; n++ {
		if t.get(n) == nil {
			return n
		}
	}
}

// lockedReader makes a reader safe for the goroutines that feed the
// programs sharing it.
type lockedReader struct {
	mu sync.Mutex
	r  io.Reader
}

func (l *lockedReader) Read(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Read(p)
}

// lockedWriter makes a writer safe for the goroutines of a pipeline and
// background statements that share it.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// osFile is f as a descriptor a program can inherit. A reader or writer of
// the shell's own gets a pipe, fed or drained by a goroutine; done waits
// for that goroutine and closes the program's end.
func (f *file) osFile(read bool) (of *os.File, done func(), err error) {
	if f.doc != nil {
		if of := f.docFile(); of != nil {
			return of, func() {}, nil
		}
	}
	if f.f != nil {
		return f.f, func() {}, nil
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	var wg sync.WaitGroup
	wg.Add(1)
	if read {
		src := f.r
		go func() {
			defer wg.Done()
			if src != nil {
				io.Copy(pw, src)
			}
			pw.Close()
		}()
		return pr, func() {
			pr.Close()
			wg.Wait()
		}, nil
	}
	dst := f.w
	go func() {
		defer wg.Done()
		if dst != nil {
			io.Copy(dst, pr)
		} else {
			io.Copy(io.Discard, pr)
		}
		pr.Close()
	}()
	return pw, func() {
		pw.Close()
		wg.Wait()
	}, nil
}

// docFile turns a here-document into a descriptor at its first program,
// which then shares its offset with the shell as bash's does: a pipe fed
// by a goroutine took the whole rest of the document, so `while read l;
// do prog; done <<EOF` lost every line after the first. As bash 5.2
// does, a document the pipe holds goes into a pipe, filled and closed
// (`head -n1` then reads all of it); a larger one into an unlinked
// temporary file. The shell's own readers read it from then on too. Nil
// when neither can be made: the caller falls back to a fed pipe.
func (f *file) docFile() *os.File {
	f.docMu.Lock()
	defer f.docMu.Unlock()
	if f.f != nil {
		return f.f
	}
	if pr, pw, err := os.Pipe(); err == nil {
		if f.doc.Len() <= pipeCapacity(pw) {
			f.doc.WriteTo(pw)
			pw.Close()
			f.f, f.r, f.closeFn = pr, pr, pr.Close
			return pr
		}
		pr.Close()
		pw.Close()
	}
	tmp, err := os.CreateTemp("", "qsh-hdoc")
	if err != nil {
		return nil
	}
	os.Remove(tmp.Name())
	if _, err := f.doc.WriteTo(tmp); err != nil {
		tmp.Close()
		return nil
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		tmp.Close()
		return nil
	}
	f.f, f.r, f.closeFn = tmp, tmp, tmp.Close
	return tmp
}
