package eval

import (
	"bytes"
	"math"
	"strconv"
	"syscall"
)

// mapfile (readarray), as bash's: lines (or -d records) into an indexed
// array, -t, -n count, -O origin, -s skip, -u fd, -C callback every -c
// lines.

const mapfileUsage = "mapfile [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]"

func builtinMapfile(b *B) int {
	r := b.R
	f, args, ok := b.flags("d:u:n:O:tC:c:s:", false)
	if !ok {
		return 2
	}
	delim := byte('\n')
	if f.has('d') {
		delim = 0
		if d := f.val('d'); d != "" {
			delim = d[0]
		}
	}
	count, origin, skip, fdNum, quantum := 0, -1, 0, 0, 5000
	for _, o := range []struct {
		c    byte
		dst  *int
		what string
	}{
		{'u', &fdNum, "invalid file descriptor specification"},
		{'n', &count, "invalid line count"},
		{'O', &origin, "invalid array origin"},
		{'s', &skip, "invalid line count"},
		{'c', &quantum, "invalid callback quantum"},
	} {
		if !f.has(o.c) {
			continue
		}
		v := f.val(o.c)
		n, ok := legalNumber(v)
		if !ok || n < 0 || n > math.MaxInt32 || o.c == 'c' && n == 0 {
			b.Errorf("%s: %s", v, o.what)
			return 1
		}
		*o.dst = int(n)
	}
	fd := r.fds.get(fdNum)
	if fd == nil || fd.r == nil && fd.f == nil {
		b.Errorf("%d: invalid file descriptor: %s", fdNum, errText(syscall.EBADF))
		return 1
	}
	name := "MAPFILE"
	if len(args) > 0 {
		name = args[0]
	}
	if !validName(name) {
		b.Errorf("`%s': not a valid identifier", name)
		return 1
	}
	target, st := r.indexedTarget(b, name)
	if st != 0 {
		return st
	}
	if origin < 0 {
		// Without -O the array starts empty.
		if st := r.readArray(b, name, nil); st != 0 {
			return st
		}
		origin = 0
	}
	in := r.newInput(fd)
	callback := f.val('C')
	// Without a count it takes all the input: it may read ahead, unless
	// a callback might read the rest itself.
	in.greedy = count == 0 && callback == ""
	defer in.finish()
	for lines := 0; count == 0 || lines < count+skip; {
		rec, err := readRecord(in, delim)
		if err == errInterrupted || r.ctx.Err() != nil {
			return 128 + int(syscall.SIGINT)
		}
		if rec == nil {
			break // the end, or an error, which ends mapfile quietly as bash's
		}
		lines++
		if lines <= skip {
			continue
		}
		if f.has('t') && len(rec) > 0 && rec[len(rec)-1] == delim {
			rec = rec[:len(rec)-1]
		}
		if i := bytes.IndexByte(rec, 0); i >= 0 {
			rec = rec[:i] // a line is a C string in bash: it ends at a NUL
		}
		if callback != "" && (lines-skip)%quantum == 0 {
			in.finish()
			r.eval(callback+" "+strconv.Itoa(origin)+" "+singleQuote(string(rec)), "mapfile")
			if r.flow != flowNone {
				return r.status // the callback ran exit, return or break
			}
		}
		if err := r.assignIndex(target, int64(origin), string(rec), false); err != nil {
			return b.assignError(err)
		}
		origin++
	}
	return 0
}

// readRecord reads up to and with delim, or to the end of the input: nil
// when nothing was left, and the error that ended the reading.
func readRecord(in *input, delim byte) ([]byte, error) {
	var rec []byte
	for {
		c, err := in.byte()
		if err != nil {
			return rec, err
		}
		rec = append(rec, c)
		if c == delim {
			return rec, nil
		}
	}
}
