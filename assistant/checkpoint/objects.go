package checkpoint

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// objects is a git object directory of the store's own, holding blobs in
// git's loose format: "blob SIZE\0CONTENT", zlib-compressed, at
// xx/yyyy… for its SHA-1. It is written here, not by git, so that a
// checkpoint starts no process for what it stores.
type objects struct{ dir string }

// blobID is git's id of a blob with content b.
func blobID(b []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(b))
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

func (o objects) path(id string) string {
	return filepath.Join(o.dir, id[:2], id[2:])
}

// put stores content b under id (its blobID), unless it is there: a temp
// file renamed into place, so that a reader never sees half of one.
func (o objects) put(id string, b []byte) (int64, error) {
	p := o.path(id)
	if fi, err := os.Stat(p); err == nil {
		return fi.Size(), nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return 0, err
	}
	f, err := os.CreateTemp(filepath.Dir(p), "tmp-*")
	if err != nil {
		return 0, err
	}
	tmp := f.Name()
	z, _ := zlibs.Get().(*zlib.Writer)
	if z == nil {
		z, _ = zlib.NewWriterLevel(f, zlib.BestSpeed)
	} else {
		z.Reset(f)
	}
	defer zlibs.Put(z)
	_, err = z.Write(append([]byte("blob "+strconv.Itoa(len(b))+"\x00"), b...))
	if err == nil {
		err = z.Close()
	}
	var size int64
	if err == nil {
		size, err = f.Seek(0, io.SeekCurrent)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, p)
	}
	if err != nil {
		os.Remove(tmp)
		return 0, err
	}
	return size, nil
}

// zlibs are writers to reuse: each holds a megabyte of tables.
var zlibs sync.Pool

// errDamaged is the error of an object that is not what its name says.
var errDamaged = errors.New("damaged")

// get returns the content stored under id, checked against it.
func (o objects) get(id string) ([]byte, error) {
	f, err := os.Open(o.path(id))
	if errors.Is(err, fs.ErrNotExist) {
		b, ok, err := o.fromPack(id)
		switch {
		case !ok:
			return nil, fmt.Errorf("content %s is missing from the store", id[:12])
		case err != nil || blobID(b) != id:
			return nil, fmt.Errorf("content %s: %w", id[:12], errDamaged)
		}
		return b, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	z, err := zlib.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("content %s: %w", id[:12], errDamaged)
	}
	raw, err := io.ReadAll(z)
	if err != nil {
		return nil, fmt.Errorf("content %s: %w", id[:12], errDamaged)
	}
	head, body, ok := bytes.Cut(raw, []byte{0})
	n, err := strconv.Atoi(string(bytes.TrimPrefix(head, []byte("blob "))))
	if !ok || err != nil || n != len(body) || blobID(body) != id {
		return nil, fmt.Errorf("content %s: %w", id[:12], errDamaged)
	}
	return body, nil
}
