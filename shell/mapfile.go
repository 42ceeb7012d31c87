package shell

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/interp"
)

// mapfile (readarray), as bash's: lines (or -d records) into an indexed
// array, -t, -n count, -O origin, -s skip, -u fd, -C callback every -c
// lines.

const mapfileUsage = "mapfile: usage: mapfile [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]"

func (s *Shell) mapfileBuiltin(ctx context.Context, hc interp.HandlerContext, b builtinIO, args []string) int {
	var delim byte = '\n'
	trim := false
	count, origin, skip, fd, quantum := 0, -1, 0, 0, 5000
	callback := ""
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		a := args[0]
		args = args[1:]
		if a == "--" {
			break
		}
		for i := 1; i < len(a); i++ {
			c := a[i]
			if c == 't' {
				trim = true
				continue
			}
			if strings.IndexByte("dnOsuCc", c) < 0 {
				b.fail(2, "-%c: invalid option", c)
				fmt.Fprintln(b.err, mapfileUsage)
				return 2
			}
			val := a[i+1:]
			if val == "" {
				if len(args) == 0 {
					b.fail(2, "-%c: option requires an argument", c)
					fmt.Fprintln(b.err, mapfileUsage)
					return 2
				}
				val, args = args[0], args[1:]
			}
			if c == 'd' {
				delim = 0
				if val != "" {
					delim = val[0]
				}
				break
			}
			if c == 'C' {
				callback = val
				break
			}
			n, err := strconv.Atoi(val)
			if err != nil || n < 0 || c == 'c' && n == 0 {
				what := map[byte]string{'n': "invalid line count", 'O': "invalid array origin", 's': "invalid line count",
					'u': "invalid file descriptor specification", 'c': "invalid callback quantum"}[c]
				return b.fail(1, "%s: %s", val, what)
			}
			switch c {
			case 'n':
				count = n
			case 'O':
				origin = n
			case 's':
				skip = n
			case 'u':
				fd = n
			case 'c':
				quantum = n
			}
			break
		}
	}
	name := "MAPFILE"
	if len(args) > 0 {
		name = args[0]
	}
	if !validName(name) {
		return b.fail(1, "`%s': not a valid identifier", name)
	}
	in, done, err := readSource(ctx, hc, fd)
	if err != nil {
		return b.fail(1, "%d: invalid file descriptor: %s", fd, errno(err))
	}
	defer done()
	// Without a count it takes all the input: it may read ahead.
	r := byteReader{ctx: ctx, f: in, greedy: count == 0}
	defer r.finish()

	var src strings.Builder
	if origin < 0 {
		src.WriteString(name + "=()\n")
		origin = 0
	}
	idx, lines := origin, 0
	flush := func() bool {
		if src.Len() == 0 {
			return true
		}
		err := hc.Builtin(ctx, []string{"eval", src.String()})
		src.Reset()
		return err == nil
	}
	for count == 0 || lines < count+skip {
		line, ok := readRecord(&r, delim)
		if !ok {
			break
		}
		lines++
		if lines <= skip {
			continue
		}
		if trim && strings.HasSuffix(line, string(delim)) {
			line = line[:len(line)-1]
		}
		if callback != "" && (lines-skip)%quantum == 0 {
			if !flush() {
				return 1
			}
			hc.Builtin(ctx, []string{"eval", callback + " " + strconv.Itoa(idx) + " " + singleQuote(line)})
		}
		fmt.Fprintf(&src, "%s[%d]=%s\n", name, idx, singleQuote(line))
		idx++
	}
	if !flush() {
		return 1
	}
	return 0
}

// readRecord reads up to and with delim, or to EOF; ok is false when
// there was nothing left.
func readRecord(r *byteReader, delim byte) (string, bool) {
	var rec []byte
	for {
		c, err := r.byte()
		if err != nil {
			return string(rec), len(rec) > 0
		}
		rec = append(rec, c)
		if c == delim {
			return string(rec), true
		}
	}
}

// validName reports whether s is a variable's name.
func validName(s string) bool {
	return validVarRef(s) && !strings.Contains(s, "[")
}
