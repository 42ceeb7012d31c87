package checkpoint

import (
	"fmt"
	"io/fs"
	"os"
)

// Kind is what a path is: a regular file, a symbolic link or a directory.
// Other kinds (fifos, sockets, devices) are not kept.
type Kind byte

const (
	File Kind = 'f'
	Link Kind = 'l'
	Dir  Kind = 'd'
)

// Entry is one path of the workspace as a scan found it.
type Entry struct {
	Kind Kind `json:"k"`
	// Mode is the permission bits, setuid, setgid and sticky included.
	Mode fs.FileMode `json:"m"`
	Size int64       `json:"s,omitempty"`
	// Blob is a file's content's id in the store; "" when the file was
	// over the size limit and its content was not kept.
	Blob string `json:"b,omitempty"`
	// Target is a link's target.
	Target string `json:"t,omitempty"`
	// Soft marks a path restored only when nobody changed it since: git's
	// index, which a `git status` refreshes.
	Soft bool `json:"soft,omitempty"`
	// MTime is kept for files whose content was not: they are compared
	// by size and time.
	MTime int64 `json:"mt,omitempty"`

	// The stat data a scan compares with the cache's, not saved in records.
	stat statData
}

// statData is what tells that a file may have changed since it was hashed.
type statData struct {
	mtime, ctime int64
	ino, dev     uint64
	size         int64
	// links is the number of names the file has (0: unknown): a change
	// through another name is not reported to this one's directory.
	links uint64
	// racy marks data taken too close to a change to trust: a second
	// change within the file system's timestamp granularity would not
	// show.
	racy bool
}

// Same reports whether a and b are the same state of a path: both absent,
// or the same kind, permissions, and content or target.
func Same(a, b *Entry) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if a.Kind != b.Kind || a.Mode != b.Mode {
		return false
	}
	switch a.Kind {
	case File:
		if a.Blob == "" || b.Blob == "" {
			return a.Blob == b.Blob && a.Size == b.Size && a.MTime == b.MTime
		}
		return a.Blob == b.Blob
	case Link:
		return a.Target == b.Target
	}
	return true
}

// String says what the entry is, for people: "file 0644, 12 bytes".
func (e *Entry) String() string {
	if e == nil {
		return "absent"
	}
	switch e.Kind {
	case File:
		return fmt.Sprintf("file %04o, %d bytes", e.Mode.Perm()|e.Mode&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky), e.Size)
	case Link:
		return "link to " + e.Target
	case Dir:
		return fmt.Sprintf("directory %04o", e.Mode.Perm())
	}
	return string(e.Kind)
}

// perm is the mode bits an Entry keeps of fi's.
func perm(m fs.FileMode) fs.FileMode {
	return m & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
}

// unchanged reports whether a file with stat data now is, as far as its
// stat data tells, the one cached was taken of.
func (d statData) unchanged(now statData) bool {
	return !d.racy && d.mtime == now.mtime && d.ctime == now.ctime && d.ino == now.ino && d.dev == now.dev &&
		d.size == now.size
}

// kindOf is the kind of a path of mode m; 0 for those not kept.
func kindOf(m fs.FileMode) Kind {
	switch {
	case m.IsRegular():
		return File
	case m&fs.ModeSymlink != 0:
		return Link
	case m.IsDir():
		return Dir
	}
	return 0
}

// newEntry makes the entry of a path found at abs with mode m and stat
// data st, without its content; nil for kinds not kept.
func newEntry(abs string, m fs.FileMode, st statData) *Entry {
	e := &Entry{Kind: kindOf(m), Mode: perm(m), stat: st}
	switch e.Kind {
	case File:
		e.Size, e.MTime = st.size, st.mtime
	case Link:
		t, err := os.Readlink(abs)
		if err != nil {
			return nil
		}
		e.Target, e.Mode = t, 0o777
	case 0:
		return nil
	}
	return e
}
