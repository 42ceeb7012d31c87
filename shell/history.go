package shell

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"
	"unsafe"
)

// history is the session's list of command lines and its file.
//
// The file holds each entry on a line of its own after the time it was
// added, a line `#SECONDS` (bash's history-file timestamp). In qsh's own
// file a backslash and a newline inside an entry are written `\\` and
// `\n`, so a multi-line command stays one line; in a file of bash's
// ($HISTFILE set to a path of the user's choosing) an entry is written as
// it is, and its timestamp tells where the next begins.
// Each entry is appended with a single write under an exclusive flock, so
// shells appending at the same time lose nothing, and a write the disk
// cannot take whole is taken back: the file holds whole lines or nothing.
// Entries that could not be written wait, and go with the next that can
// (the disk was full, and has room again). Trimming the file to the size
// limit rewrites it (temp file, rename) under the same lock; appenders
// check they still write to the file the path names.
type history struct {
	path string // "" when entries are not saved
	// plain is set when the file is in bash's format (see above), and
	// stamped when that file has timestamps (is new, or begins with
	// one): written without, they would read as entries there.
	plain, stamped bool
	size           int
	entries        []string
	// times are when each entry was added, in seconds since the epoch,
	// 0 where that is unknown (a file without timestamps); one for each
	// of entries.
	times []int64
	// loading is closed when the read [history.start] arranged is over;
	// until then that read owns the fields above. nil when none is
	// under way.
	loading chan struct{}
	// begin starts that read on its own goroutine, once.
	begin func()
	warn  error // the background read's warning, until reported
	// erased is set when erasedups removed entries the file still has.
	erased bool
	// unsaved are the entries, with their times, that the file could
	// not take yet, oldest first; failing is set once that was said.
	unsaved []histRecord
	failing bool
	// inFile is how many entries of the file the session has read (at
	// the start, or with history -n), and mine the entries it appended
	// since, which history -n must not take for other sessions'.
	inFile int
	mine   []string
}

func newHistory(size int) *history {
	if size < 0 {
		size = 0
	}
	return &history{size: size}
}

// open loads path and makes it the file new entries go to. The error, if
// any, is a warning: the history is then kept in memory only, or the
// unreadable part of the file is skipped.
func (h *history) open(path string) error {
	f, err := h.openFile(path)
	if f == nil {
		return err
	}
	return h.read(f)
}

// start is open with the reading left for later: h.begin starts it on
// another goroutine, and [history.wait] too if it was not. The error is
// open's warning about the file or its directory; the reading's comes
// with [history.wait].
func (h *history) start(path string) error {
	f, err := h.openFile(path)
	if f == nil {
		return err
	}
	done := make(chan struct{})
	h.loading = done
	h.begin = sync.OnceFunc(func() {
		go func() {
			defer close(done)
			h.warn = h.read(f)
		}()
	})
	return nil
}

// retarget saves entries from now on to the file at path ("" for none),
// of bash's format when plain. The list stays as it is.
func (h *history) retarget(path string, plain bool) {
	h.path, h.plain, h.inFile, h.mine, h.erased = path, plain, 0, nil, false
	h.stamped = true
	if f, err := os.Open(path); err == nil {
		head := make([]byte, 24)
		n, _ := f.Read(head)
		f.Close()
		line, _, _ := strings.Cut(string(head[:n]), "\n")
		_, ok := timestamp(line)
		h.stamped = n == 0 || ok
	}
}

// wait waits for the read [history.start] arranged, if any.
func (h *history) wait() {
	if h.loading != nil {
		h.begin()
		<-h.loading
		h.loading = nil
	}
}

// openFile opens path for reading, making its directory. With no file to
// read, it sets h.path when entries can still be saved there, and gives
// the warning if they cannot.
func (h *history) openFile(path string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("history not saved: %v", err)
	}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		h.path, h.stamped = path, true
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("history not loaded or saved: %v", err)
	}
	return f, nil
}

// read loads the entries of f, the history file, and closes it; it
// rewrites the file when it has outgrown the size or has unreadable lines.
func (h *history) read(f *os.File) error {
	path := f.Name()
	d, err := readHistory(f, maxHistoryRead, h.plain)
	f.Close()
	if err != nil {
		return fmt.Errorf("history not loaded or saved: %s: %v", path, err)
	}
	h.path = path
	h.stamped = d.stamped
	h.entries, h.times = d.last(h.size)
	h.inFile = len(d.entries)
	var warn error
	switch {
	case d.cut:
		warn = fmt.Errorf("history file %s: over %d MB, only its end was read", path, maxHistoryRead>>20)
	case d.bad > 0:
		warn = fmt.Errorf("history file %s: skipped %d unreadable line(s)", path, d.bad)
	}
	// A file of bash's is the user's: it is trimmed, never cleaned.
	if len(d.entries) > h.size+h.size/4+100 || !h.plain && (d.bad > 0 || d.cut) {
		if err := h.rewrite(); err != nil && warn == nil {
			warn = err
		} else if err == nil {
			h.inFile = len(h.entries)
		}
	}
	return warn
}

// maxHistoryLine is the longest line that can be an entry; a longer one
// is unreadable.
const maxHistoryLine = 16 << 20

// maxHistoryRead bounds how much of a history file is read, and so the
// memory it takes: of a bigger file, only the end is.
const maxHistoryRead = 64 << 20

// historyData is what a history file holds.
type historyData struct {
	entries []string
	times   []int64 // see [history.times]
	stamped bool    // see [history.stamped]
	size    int     // bytes read
	lines   int     // lines read, entries or not
	bad     int     // lines that are not entries: binary garbage, a bad escape, too long
	cut     bool    // the file was over the limit: only its end was read
}

// readHistory reads a history file whole (its last limit bytes when it is
// bigger), with one read for the usual file, and decodes it. Entries are
// substrings of the file's contents, so loading costs a few allocations
// however many entries there are; only an entry with escapes gets its own.
func readHistory(f *os.File, limit int64, plain bool) (historyData, error) {
	var d historyData
	fi, err := f.Stat()
	if err != nil {
		return d, err
	}
	size := fi.Size()
	if size > limit {
		if _, err := f.Seek(size-limit, io.SeekStart); err != nil {
			return d, err
		}
		size, d.cut = limit, true
	}
	// Room for a few lines appended since Stat; more wait for the next
	// session.
	buf := make([]byte, 0, size+4096)
	for len(buf) < cap(buf) {
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return d, err
		}
	}
	if len(buf) == cap(buf) {
		// Stopped short of the end: drop the line it stopped inside.
		buf = buf[:bytes.LastIndexByte(buf, '\n')+1]
	}
	if d.cut {
		// The first line read is most likely a piece of one.
		buf = buf[bytes.IndexByte(buf, '\n')+1:]
	}
	d.size = len(buf)
	if len(buf) == 0 {
		d.stamped = true
		return d, nil
	}
	// buf is not written again: share its bytes rather than copy them.
	data := unsafe.String(unsafe.SliceData(buf), len(buf))
	if plain {
		d.parsePlain(data)
	} else {
		d.parse(data)
	}
	return d, nil
}

// parse decodes the lines of data, the way bufio.ScanLines splits them (a
// final line needs no newline; a CR before a newline is dropped). The
// checks run on the whole of data first: per line, they would cost more
// than splitting.
func (d *historyData) parse(data string) {
	clean := utf8.ValidString(data) && strings.IndexByte(data, 0) < 0
	esc := strings.IndexByte(data, '\\') // the next backslash, or -1
	d.entries = make([]string, 0, strings.Count(data, "\n")+1)
	d.times = make([]int64, 0, cap(d.entries))
	var when int64 // the timestamp line before the entry
	for start := 0; start < len(data); {
		end := strings.IndexByte(data[start:], '\n')
		next := start + end + 1
		if end < 0 {
			end, next = len(data), len(data)
		} else {
			end += start
		}
		line := strings.TrimSuffix(data[start:end], "\r")
		lineStart := start
		start = next
		d.lines++
		if line == "" {
			continue
		}
		if t, ok := timestamp(line); ok {
			when = t
			continue
		}
		if len(line) > maxHistoryLine {
			d.bad++
			continue
		}
		if esc >= 0 && esc < lineStart {
			esc = strings.IndexByte(data[lineStart:], '\\')
			if esc >= 0 {
				esc += lineStart
			}
		}
		if clean && (esc < 0 || esc >= end) {
			d.entries, d.times = append(d.entries, line), append(d.times, when)
			when = 0
			continue
		}
		e, ok := decodeEntry(line)
		if !ok {
			d.bad++
			continue
		}
		d.entries, d.times = append(d.entries, e), append(d.times, when)
		when = 0
	}
}

// parsePlain decodes a history file of bash's: a line an entry, or, when
// the file begins with a timestamp, the lines from one timestamp to the
// next an entry, as bash reads them with lithist, which keeps a
// multi-line command whole.
func (d *historyData) parsePlain(data string) {
	lines := strings.Split(strings.TrimSuffix(data, "\n"), "\n")
	d.lines = len(lines)
	_, stamped := timestamp(lines[0])
	d.stamped = stamped
	var when int64
	var b strings.Builder
	open := false
	flush := func() {
		if open {
			d.entries, d.times = append(d.entries, b.String()), append(d.times, when)
			b.Reset()
			open = false
		}
	}
	for _, line := range lines {
		line = strings.TrimSuffix(line, "\r")
		if t, ok := timestamp(line); ok && stamped {
			flush()
			when = t
			continue
		}
		if !stamped {
			if _, ok := timestamp(line); !ok && line != "" {
				d.entries, d.times = append(d.entries, line), append(d.times, 0)
			}
			continue
		}
		if open {
			b.WriteByte('\n')
		}
		b.WriteString(line)
		open = true
	}
	flush()
}

// timestamp is the time a history file's line `#SECONDS` gives.
func timestamp(line string) (int64, bool) {
	if len(line) < 2 || line[0] != '#' || !isDigits(line[1:]) {
		return 0, false
	}
	t, err := strconv.ParseInt(line[1:], 10, 64)
	return t, err == nil
}

// last is the newest n entries and their times. When they hold less than
// half of what was read (a trimmed or corrupt file), they move to a string
// of their own, so that the rest of the file's bytes are not kept for the
// session.
func (d *historyData) last(n int) ([]string, []int64) {
	entries, times := d.entries, d.times
	if len(entries) > n {
		entries, times = entries[len(entries)-n:], times[len(times)-n:]
	}
	kept := 0
	for _, e := range entries {
		kept += len(e)
	}
	if kept >= d.size/2 {
		return entries, times
	}
	var b strings.Builder
	b.Grow(kept)
	for _, e := range entries {
		b.WriteString(e)
	}
	all := b.String()
	for i, e := range entries {
		entries[i], all = all[:len(e)], all[len(e):]
	}
	return entries, times
}

// encodeEntry is e as a line of the file: a backslash is `\\`, a newline
// `\n`, and a byte that is not UTF-8 (a Latin-1 name typed as it is) or
// NUL `\xNN`, as is the `#` of an entry that would read as a timestamp.
func encodeEntry(e string) string {
	if _, ok := timestamp(e); ok {
		return `\x23` + encodeEntry(e[1:])
	}
	plain := utf8.ValidString(e) && strings.IndexByte(e, 0) < 0
	if plain && !strings.ContainsAny(e, "\\\n") {
		return e
	}
	if plain {
		r := strings.NewReplacer(`\`, `\\`, "\n", `\n`)
		return r.Replace(e)
	}
	var b strings.Builder
	for len(e) > 0 {
		r, n := utf8.DecodeRuneInString(e)
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == 0 || r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, e[0])
		default:
			b.WriteString(e[:n])
		}
		e = e[n:]
	}
	return b.String()
}

// decodeEntry decodes one line of the file: valid UTF-8 without NUL, `\\`,
// `\n` and `\xNN` its only escapes. Without escapes the entry is line
// itself.
func decodeEntry(line string) (string, bool) {
	if !utf8.ValidString(line) || strings.IndexByte(line, 0) >= 0 {
		return "", false
	}
	if strings.IndexByte(line, '\\') < 0 {
		return line, true
	}
	var b strings.Builder
	b.Grow(len(line))
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i == len(line) {
			return "", false
		}
		switch line[i] {
		case '\\':
			b.WriteByte('\\')
		case 'n':
			b.WriteByte('\n')
		case 'x':
			if i+2 >= len(line) {
				return "", false
			}
			v, err := strconv.ParseUint(line[i+1:i+3], 16, 8)
			if err != nil {
				return "", false
			}
			b.WriteByte(byte(v))
			i += 2
		default:
			return "", false
		}
	}
	return b.String(), true
}

// histRecord is an entry with the time it was added.
type histRecord struct {
	text string
	time int64
}

// format is records as the file holds them, each after its timestamp:
// in qsh's file, where it is known; in bash's, in a file that has them,
// always (an entry read without one was added, for bash, when read).
func (h *history) format(records []histRecord) string {
	var b strings.Builder
	now := time.Now().Unix()
	for _, r := range records {
		t := r.time
		if t == 0 && h.plain && h.stamped {
			t = now
		}
		if t != 0 && (!h.plain || h.stamped) {
			b.WriteString("#")
			b.WriteString(strconv.FormatInt(t, 10))
			b.WriteByte('\n')
		}
		if h.plain {
			b.WriteString(r.text)
		} else {
			b.WriteString(encodeEntry(r.text))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// push appends an entry to the list, keeping it to the size.
func (h *history) push(e string, t int64) {
	h.entries, h.times = append(h.entries, e), append(h.times, t)
	h.keepLast(h.size)
}

// keepLast drops all but the newest n entries.
func (h *history) keepLast(n int) {
	if len(h.entries) > n {
		h.entries = append(h.entries[:0:0], h.entries[len(h.entries)-n:]...)
		h.times = append(h.times[:0:0], h.times[len(h.times)-n:]...)
	}
}

// cut removes entries i to j-1.
func (h *history) cut(i, j int) {
	h.entries = append(h.entries[:i:i], h.entries[j:]...)
	h.times = append(h.times[:i:i], h.times[j:]...)
}

// add appends an entry in memory and to the file, with those the file
// could not take before. It returns what to tell the user, once: that
// saving failed, then that it works again.
func (h *history) add(e string) (note string) {
	if h.size == 0 {
		return ""
	}
	now := time.Now().Unix()
	h.push(e, now)
	if h.path == "" {
		return ""
	}
	h.unsaved = append(h.unsaved, histRecord{e, now})
	if len(h.unsaved) > h.size {
		h.unsaved = append(h.unsaved[:0:0], h.unsaved[len(h.unsaved)-h.size:]...)
	}
	if err := appendLines(h.path, h.format(h.unsaved)); err != nil {
		if h.failing {
			return ""
		}
		h.failing = true
		return fmt.Sprintf("history not saved: %v (it is kept, and saved once the file takes it)", err)
	}
	for _, r := range h.unsaved {
		h.mine = append(h.mine, r.text)
	}
	n := len(h.unsaved)
	h.unsaved = nil
	if h.failing {
		h.failing = false
		return fmt.Sprintf("history saved again (%d %s that had waited)", n, map[bool]string{true: "entry", false: "entries"}[n == 1])
	}
	return ""
}

// appendLines appends text, whole lines, to the history file at path in
// one write, or nothing: what part of a write failed (a full disk) is
// truncated away. A file that does not end in a newline (a crash cut its
// last write) gets one first, so that its last line stays its own.
func appendLines(path, text string) error {
	for range 5 {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return err
		}
		syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !sameFile(f, path) {
			// Trimmed and replaced while we waited for the lock.
			f.Close()
			continue
		}
		err = appendWhole(f, text)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	}
	return errors.New("history file keeps being replaced")
}

// appendWhole is appendLines on the open, locked file.
func appendWhole(f *os.File, text string) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	size := fi.Size()
	if size > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, size-1); err == nil && last[0] != '\n' {
			text = "\n" + text
		}
	}
	if _, err := f.WriteString(text); err != nil {
		f.Truncate(size)
		return err
	}
	return nil
}

func sameFile(f *os.File, path string) bool {
	a, err1 := f.Stat()
	b, err2 := os.Stat(path)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// rewrite replaces the file with the last size entries, keeping entries
// other shells appended since it was read.
func (h *history) rewrite() error { return h.rewriteFile(false) }

// erase removes the earlier copies of e from the list (HISTCONTROL's
// erasedups) and reports whether there were any; the file loses them when
// the session ends (see [history.settle]).
func (h *history) erase(e string) bool {
	kept, times := h.entries[:0:0], h.times[:0:0]
	for i, x := range h.entries {
		if x != e {
			kept, times = append(kept, x), append(times, h.times[i])
		}
	}
	if len(kept) == len(h.entries) {
		return false
	}
	h.entries, h.times = kept, times
	h.erased = true
	return true
}

// settle rewrites the file without duplicates when erasedups removed
// entries this session, as bash writes its list at exit.
func (h *history) settle() error {
	if !h.erased || h.path == "" {
		return nil
	}
	h.erased = false
	return h.rewriteFile(true)
}

// rewriteFile is rewrite; with dedupe, only the last copy of each entry is
// kept.
func (h *history) rewriteFile(dedupe bool) error {
	f, err := os.OpenFile(h.path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		// HISTFILE=/dev/null: renamed over, the device would become a
		// file; there is nothing in it to trim.
		return err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return err
	}
	d, err := readHistory(f, maxHistoryRead, h.plain)
	if err != nil {
		return err
	}
	records := make([]histRecord, len(d.entries))
	for i, e := range d.entries {
		records[i] = histRecord{e, d.times[i]}
	}
	if dedupe {
		records = lastCopies(records)
	}
	if len(records) > h.size {
		records = records[len(records)-h.size:]
	}
	text := h.format(records)
	tmp, err := os.CreateTemp(filepath.Dir(h.path), ".history-*")
	if err != nil {
		return err
	}
	_, err = tmp.WriteString(text)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), h.path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// lastCopies is records with only the last copy of each entry, in order.
func lastCopies(records []histRecord) []histRecord {
	seen := make(map[string]bool, len(records))
	out := make([]histRecord, 0, len(records))
	for i := len(records) - 1; i >= 0; i-- {
		if e := records[i].text; !seen[e] {
			seen[e] = true
			out = append(out, records[i])
		}
	}
	slices.Reverse(out)
	return out
}

// historyFile is where history goes for cfg: QSH_HISTFILE, else
// $XDG_STATE_HOME/qsh/history, else ~/.local/state/qsh/history.
func historyFile(cfg Config, getenv func(string) string) (string, error) {
	if cfg.HistFile != "" {
		p := cfg.HistFile
		if rest, ok := strings.CutPrefix(p, "~/"); ok && getenv("HOME") != "" {
			p = filepath.Join(getenv("HOME"), rest)
		}
		return p, nil
	}
	if d := getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "qsh", "history"), nil
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".local", "state", "qsh", "history"), nil
	}
	return "", errors.New("HOME is not set: history is not saved")
}

// joinHistory waits for the history file the REPL is reading in the
// background (see [Shell.loadHistory]) and hands its entries to the line
// reader. When report is set, it also prints the read's warning (see
// [Shell.reportHistory]). Everything that uses s.hist calls it first.
func (s *Shell) joinHistory(report bool) {
	h := s.hist
	if h.loading != nil {
		h.wait()
		for _, e := range h.entries {
			s.lines.AddHistory(e)
		}
	}
	if report {
		s.reportHistory()
	}
}

// reportHistory waits for the history file's read and prints its warning
// if that is still unsaid. The warning waits for a place where a line of
// its own cannot garble the prompt: before a command line runs, in
// `history`, or when the REPL ends, which also must not leave a rewrite
// of the file half done.
func (s *Shell) reportHistory() {
	s.hist.wait()
	if s.hist.warn != nil {
		s.errorf("%v", s.hist.warn)
		s.hist.warn = nil
	}
}

// newEntries are the entries of the session's own file past those it has
// read, without those it appended itself (matched in order: other
// sessions' lines may come between), with their times, for history -n;
// the rest are known from now on.
func (h *history) newEntries(entries []string, times []int64) ([]string, []int64) {
	var out []string
	var when []int64
	k := 0
	from := min(h.inFile, len(entries))
	for i, e := range entries[from:] {
		if k < len(h.mine) && e == h.mine[k] {
			k++
			continue
		}
		out, when = append(out, e), append(when, times[from+i])
	}
	h.inFile, h.mine = len(entries), nil
	return out, when
}
