package checkpoint

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// A scan that stores many contents (a workspace's first, or a checkout)
// puts them in one git pack (version 2, with its version 2 index) under
// objects/pack/, as git would: one file made instead of one a content,
// which is what storing cost. git reads the store as before.

// looseMax is how many contents a scan stores loose before it packs the
// rest: making a file is what storing costs (about 1 ms of CPU each on
// a loaded machine), but a pack a run would leave many small packs to
// look through.
const looseMax = 4

// packWriter is the pack a scan writes, made on its first content.
type packWriter struct {
	dir  string // objects/pack
	mu   sync.Mutex
	f    *os.File
	w    *bufio.Writer // f's: a write a content costs a first scan dear
	off  int64
	objs []packed
	ids  map[string]bool
	err  error
}

// packed is where a content is in a pack.
type packed struct {
	id  [20]byte
	crc uint32
	off int64
}

// add puts content b, whose blob id is id, into the pack.
func (p *packWriter) add(id string, b []byte) error {
	var raw [20]byte
	if _, err := hex.Decode(raw[:], []byte(id)); err != nil {
		return err
	}
	// The entry: type 3 (blob) and size, then the zlib'd content.
	var buf bytes.Buffer
	n := uint64(len(b))
	c := byte(3<<4 | n&0x0f)
	for n >>= 4; n > 0; n >>= 7 {
		buf.WriteByte(c | 0x80)
		c = byte(n & 0x7f)
	}
	buf.WriteByte(c)
	z, _ := zlibs.Get().(*zlib.Writer)
	if z == nil {
		z, _ = zlib.NewWriterLevel(&buf, zlib.BestSpeed)
	} else {
		z.Reset(&buf)
	}
	z.Write(b)
	z.Close()
	zlibs.Put(z)

	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err != nil {
		return p.err
	}
	if p.ids[id] {
		return nil
	}
	if p.f == nil {
		if p.err = os.MkdirAll(p.dir, 0o700); p.err != nil {
			return p.err
		}
		if p.f, p.err = os.CreateTemp(p.dir, "tmp-*"); p.err != nil {
			return p.err
		}
		// The count is written when the pack is finished.
		p.w = bufio.NewWriterSize(p.f, 256<<10)
		_, p.err = p.w.Write([]byte("PACK\x00\x00\x00\x02\x00\x00\x00\x00"))
		p.off = 12
		p.ids = map[string]bool{}
	}
	if _, err := p.w.Write(buf.Bytes()); err != nil {
		p.err = err
		return err
	}
	p.objs = append(p.objs, packed{raw, crc32.ChecksumIEEE(buf.Bytes()), p.off})
	p.ids[id] = true
	p.off += int64(buf.Len())
	return nil
}

// finish writes the pack's count, checksum and index and puts them in
// place, or deletes the pack when its scan failed (err).
func (p *packWriter) finish(err error) error {
	if p.f == nil {
		return err
	}
	defer func() { p.f, p.w, p.objs, p.ids, p.err = nil, nil, nil, nil, nil }()
	tmp := p.f.Name()
	if err == nil {
		err = p.err
	}
	if err == nil {
		err = p.w.Flush()
	}
	if err == nil {
		err = p.seal()
	}
	if cerr := p.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// seal completes the pack and writes its index.
func (p *packWriter) seal() error {
	var count [4]byte
	binary.BigEndian.PutUint32(count[:], uint32(len(p.objs)))
	if _, err := p.f.WriteAt(count[:], 8); err != nil {
		return err
	}
	// The checksum is of the whole pack: read it again (it is in memory).
	h := sha1.New()
	if _, err := io.Copy(h, io.NewSectionReader(p.f, 0, p.off)); err != nil {
		return err
	}
	sum := h.Sum(nil)
	if _, err := p.f.WriteAt(sum, p.off); err != nil {
		return err
	}
	name := filepath.Join(p.dir, "pack-"+hex.EncodeToString(sum))
	idx := packIndex(p.objs, sum)
	if err := os.Rename(p.f.Name(), name+".pack"); err != nil {
		return err
	}
	// The index last: a pack is found by its index.
	if err := writeAtomic(name+".idx", idx); err != nil {
		os.Remove(name + ".pack")
		return err
	}
	return nil
}

// packIndex is the version 2 index of a pack of objs whose checksum is
// sum.
func packIndex(objs []packed, sum []byte) []byte {
	sort.Slice(objs, func(i, j int) bool { return bytes.Compare(objs[i].id[:], objs[j].id[:]) < 0 })
	b := []byte{0xff, 't', 'O', 'c', 0, 0, 0, 2}
	var fan [256]uint32
	for _, o := range objs {
		fan[o.id[0]]++
	}
	var n uint32
	for i := range fan {
		n += fan[i]
		b = binary.BigEndian.AppendUint32(b, n)
	}
	for _, o := range objs {
		b = append(b, o.id[:]...)
	}
	for _, o := range objs {
		b = binary.BigEndian.AppendUint32(b, o.crc)
	}
	var large []uint64
	for _, o := range objs {
		if o.off < 1<<31 {
			b = binary.BigEndian.AppendUint32(b, uint32(o.off))
			continue
		}
		b = binary.BigEndian.AppendUint32(b, 1<<31|uint32(len(large)))
		large = append(large, uint64(o.off))
	}
	for _, o := range large {
		b = binary.BigEndian.AppendUint64(b, o)
	}
	b = append(b, sum...)
	s := sha1.Sum(b)
	return append(b, s[:]...)
}

// packIDs are the ids an index lists, and where their objects are.
func packIDs(idx []byte) (ids [][]byte, offs []int64, err error) {
	bad := errors.New("not a pack index")
	if len(idx) < 8+256*4+40 || !bytes.Equal(idx[:8], []byte{0xff, 't', 'O', 'c', 0, 0, 0, 2}) {
		return nil, nil, bad
	}
	n := int(binary.BigEndian.Uint32(idx[8+255*4:]))
	ids0 := 8 + 256*4
	offs0 := ids0 + n*24
	if n < 0 || len(idx) < offs0+n*4+40 {
		return nil, nil, bad
	}
	for i := range n {
		ids = append(ids, idx[ids0+i*20:ids0+i*20+20])
		o := int64(binary.BigEndian.Uint32(idx[offs0+i*4:]))
		if o&(1<<31) != 0 {
			at := offs0 + n*4 + int(o&^(1<<31))*8
			if at+8 > len(idx) {
				return nil, nil, bad
			}
			o = int64(binary.BigEndian.Uint64(idx[at:]))
		}
		offs = append(offs, o)
	}
	return ids, offs, nil
}

// packs are the packs' paths, without .idx or .pack.
func (o objects) packs() []string {
	ents, _ := os.ReadDir(filepath.Join(o.dir, "pack"))
	var out []string
	for _, e := range ents {
		if name, ok := strings.CutSuffix(e.Name(), ".idx"); ok {
			out = append(out, filepath.Join(o.dir, "pack", name))
		}
	}
	return out
}

// fromPack is the content stored under id in a pack, unchecked; false
// when no pack has it.
func (o objects) fromPack(id string) ([]byte, bool, error) {
	raw, err := hex.DecodeString(id)
	if err != nil {
		return nil, false, err
	}
	for _, p := range o.packs() {
		idx, err := os.ReadFile(p + ".idx")
		if err != nil {
			continue
		}
		ids, offs, err := packIDs(idx)
		if err != nil {
			continue
		}
		i := sort.Search(len(ids), func(i int) bool { return bytes.Compare(ids[i], raw) >= 0 })
		if i == len(ids) || !bytes.Equal(ids[i], raw) {
			continue
		}
		b, err := readPacked(p+".pack", offs[i])
		return b, true, err
	}
	return nil, false, nil
}

// readPacked is the blob at off in the pack at path.
func readPacked(path string, off int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := io.NewSectionReader(f, off, 1<<62)
	var hdr [1]byte
	if _, err := r.Read(hdr[:]); err != nil || hdr[0]>>4&7 != 3 {
		return nil, errDamaged
	}
	size, shift := int64(hdr[0]&0x0f), 4
	for c := hdr[0]; c&0x80 != 0; shift += 7 {
		if _, err := r.Read(hdr[:]); err != nil || shift > 56 {
			return nil, errDamaged
		}
		c = hdr[0]
		size |= int64(c&0x7f) << shift
	}
	z, err := zlib.NewReader(r)
	if err != nil {
		return nil, errDamaged
	}
	b := make([]byte, 0, min(size, 64<<20))
	w := bytes.NewBuffer(b)
	if _, err := io.CopyN(w, z, size); err != nil {
		return nil, fmt.Errorf("%w: %v", errDamaged, err)
	}
	return w.Bytes(), nil
}
