package shell

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/qsh-shell/qsh/internal/strftime"
	"github.com/qsh-shell/qsh/shell/eval"
	"github.com/qsh-shell/qsh/shell/histexpand"
)

// history, as bash's: list (all or the last N), -c, -d offset or range,
// -s, -p, and -a -n -r -w on a file of one command a line — the file
// named, else $HISTFILE, else (in an interactive qsh) the session's own.
// HISTSIZE bounds the list when it is read.

const historyUsage = "history: usage: history [-c] [-d offset] [n] or history -anrw [filename] or history -ps arg [arg...]"

// histFiles is what history -a and -n know of the files they use: how
// many of the session's entries -a wrote, and how many lines the last -r
// or -n read (of whatever file: bash keeps one count).
type histFiles struct {
	appended int
	read     int
}

// getenv is a shell variable's value, and whether it is set.
type getenv func(name string) (string, bool)

// historyBuiltins are history, fc and bind on the evaluator. A
// non-interactive shell records no commands, but history -s adds to its
// list, -r reads a file into it, -w writes it, fc -l lists it, as in
// bash; its bind says what bash's says there, that line editing is not
// enabled. In the assistant's subshell they work on a copy of the
// session's state (see [Shell.keep]).
func (s *Shell) historyBuiltins() []*eval.Builtin {
	bio := func(b *eval.B) builtinIO {
		return builtinIO{name: b.Args[0], out: b.Stdout(), err: b.Stderr(), errorf: b.Errorf}
	}
	return []*eval.Builtin{
		{Name: "history", Usage: strings.TrimPrefix(historyUsage, "history: usage: "), Run: func(b *eval.B) int {
			env := func(name string) (string, bool) { return b.R.Get(name) }
			return s.historyBuiltin(env, b.R.Dir(), bio(b), b.Args[1:], inRun(b.Ctx))
		}},
		{Name: "fc", Usage: "fc [-e ename] [-lnr] [first] [last] or fc -s [pat=rep] [command]", Run: func(b *eval.B) int {
			return s.fcBuiltin(bio(b), b.Args[1:])
		}},
		{Name: "bind", Usage: "bind [-lpsvPSVX] [-m keymap] [-f filename] [-q name] [-u name] [-r keyseq] [-x keyseq:shell-command] [keyseq:readline-function or readline-command]",
			Run: func(b *eval.B) int {
				if !s.interactive {
					// bash warns, then binds all the same: the keymaps
					// outlive nothing here, but listings and queries
					// answer as they would at the prompt.
					b.Errorf("warning: line editing not enabled")
				}
				if inRun(b.Ctx) && bindReadsFile(b.Args[1:]) {
					// Its changes would not outlive the run (see
					// [Shell.keep]), and the file is read past the open
					// handler the sandbox and the guard watch.
					b.Errorf("-f: the assistant's commands read no key bindings from files")
					return 1
				}
				return s.bindBuiltin(b.R, bio(b), b.Args[1:])
			}},
	}
}

func (s *Shell) historyBuiltin(env getenv, dir string, b builtinIO, args []string, run bool) int {
	s.joinHistory(true)
	h := s.hist
	// In the assistant's subshell (run), the list comes back after the run
	// (see [Shell.keep]); the line editor's recall, which Up brings back,
	// is left alone.
	lines := s.lines
	if run {
		lines = nil
	}
	var flag byte
	var del string
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && !isDigits(args[0][1:]) {
		a := args[0]
		args = args[1:]
		if a == "--" {
			break
		}
		for i := 1; i < len(a); i++ {
			switch c := a[i]; c {
			case 'c':
				s.clearHistory(lines)
			case 'd':
				if i+1 < len(a) {
					del = a[i+1:]
				} else if len(args) > 0 {
					del, args = args[0], args[1:]
				} else {
					b.fail(2, "-d: option requires an argument")
					fmt.Fprintln(b.err, historyUsage)
					return 2
				}
				i = len(a)
			case 'a', 'n', 'r', 'w', 'p', 's':
				flag = c
			default:
				b.fail(2, "-%c: invalid option", c)
				fmt.Fprintln(b.err, historyUsage)
				return 2
			}
		}
	}
	if del != "" {
		return s.deleteHistory(b, del, lines)
	}
	switch flag {
	case 'p':
		// Each argument history-expanded, printed, not run or kept.
		st := 0
		for _, a := range args {
			out, _, err := histexpand.Expand(a, h.entries, histexpand.Options{Chars: histChars(env), State: &s.histState})
			if err != nil {
				st = b.fail(1, "%v", err)
				continue
			}
			fmt.Fprintln(b.out, out)
		}
		return st
	case 's':
		if len(args) > 0 {
			s.addHistory(strings.Join(args, " "), time.Now().Unix(), lines)
		}
		return 0
	case 'a', 'n', 'r', 'w':
		if run {
			// The file would be opened past the open handler the sandbox
			// and the guard watch.
			return b.fail(1, "-%c: the assistant's commands read and write no history files", flag)
		}
		return s.historyFileOp(env, dir, b, flag, args)
	}
	s.boundHistory(env)
	n := len(h.entries)
	if len(args) > 1 {
		return b.fail(1, "too many arguments")
	}
	if len(args) == 1 {
		k, err := strconv.Atoi(args[0])
		if err != nil || k < 0 {
			return b.fail(1, "%s: numeric argument required", args[0])
		}
		n = min(k, n)
	}
	start := len(h.entries) - n
	tf, stamp := env("HISTTIMEFORMAT")
	var sb strings.Builder
	for i, e := range h.entries[start:] {
		when := ""
		if stamp {
			// bash's "??" for an entry read without a timestamp.
			when = "??"
			if t := h.times[start+i]; t != 0 {
				when = strftime.Format(tf, time.Unix(t, 0))
			}
		}
		fmt.Fprintf(&sb, "%5d  %s%s\n", start+i+1, when, e)
	}
	b.out.Write([]byte(sb.String()))
	return 0
}

func (s *Shell) clearHistory(lines LineReader) {
	s.hist.entries, s.hist.times = nil, nil
	s.histFiles.appended = 0
	if lines != nil {
		lines.ClearHistory()
	}
}

// addHistory adds an entry, added at time t, to the list, and to the
// recall of lines, the line editor, when not nil.
func (s *Shell) addHistory(e string, t int64, lines LineReader) {
	s.hist.entries, s.hist.times = append(s.hist.entries, e), append(s.hist.times, t)
	if lines != nil {
		lines.AddHistory(e)
	}
}

// boundHistory keeps the list within HISTSIZE, when it is set.
func (s *Shell) boundHistory(env getenv) {
	v, ok := env("HISTSIZE")
	if !ok {
		return
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 0 || n >= len(s.hist.entries) {
		return
	}
	h := s.hist
	h.keepLast(n)
	s.histFiles.appended = min(s.histFiles.appended, len(h.entries))
}

// deleteHistory is -d: an offset (negative from the end) or a range.
func (s *Shell) deleteHistory(b builtinIO, spec string, lines LineReader) int {
	h := s.hist
	n := len(h.entries)
	pos := func(x string) (int, bool) {
		i, err := strconv.Atoi(x)
		if err != nil {
			return 0, false
		}
		if i < 0 {
			i = n + i + 1
		}
		return i, i >= 1 && i <= n
	}
	from, to := spec, spec
	if i := strings.Index(spec[1:], "-"); i >= 0 {
		from, to = spec[:i+1], spec[i+2:]
	}
	a, ok1 := pos(from)
	z, ok2 := pos(to)
	if !ok1 || !ok2 || a > z {
		return b.fail(1, "%s: history position out of range", spec)
	}
	h.cut(a-1, z)
	if lines != nil {
		lines.ClearHistory()
		for _, e := range h.entries {
			lines.AddHistory(e)
		}
	}
	return 0
}

// historyFileOp is -a, -n, -r and -w.
func (s *Shell) historyFileOp(env getenv, dir string, b builtinIO, flag byte, args []string) int {
	path := ""
	if len(args) > 0 {
		path = args[0]
	} else if v, ok := env("HISTFILE"); ok && v != "" {
		path = v
	} else if s.interactive {
		path, _ = historyFile(s.cfg, func(k string) string { v, _ := env(k); return v })
	}
	if path != "" && !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	own := path != "" && path == s.hist.path
	// A file other than the session's is in bash's format, with the
	// timestamps bash writes when HISTTIMEFORMAT is set.
	file := &history{plain: true}
	if _, file.stamped = env("HISTTIMEFORMAT"); own {
		file = s.hist
	}
	h := s.hist
	switch flag {
	case 'r', 'n':
		if path == "" {
			return 1
		}
		d, err := file.readAll(path)
		if err != nil {
			return 1 // bash says nothing: a missing file is usual here
		}
		from := 0
		if flag == 'n' {
			from = min(s.histFiles.read, len(d.entries))
		}
		add, times := d.entries[from:], d.times[from:]
		if flag == 'n' && own {
			// The session's own file has every line it ran already:
			// what is new is other sessions'.
			add, times = h.newEntries(d.entries, d.times)
		}
		for i, e := range add {
			s.addHistory(e, times[i], s.lines)
		}
		s.histFiles.read = len(d.entries)
		s.boundHistory(env)
	case 'a', 'w':
		if path == "" {
			return 0
		}
		if flag == 'a' && own {
			// The session's file has each line since it ran: appended
			// again, and read back by -n as another session's, they
			// would multiply at every prompt (PROMPT_COMMAND='history
			// -a; history -n', the usual way to share history).
			s.histFiles.appended = len(h.entries)
			return 0
		}
		from := 0
		mode := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		if flag == 'a' {
			from = min(s.histFiles.appended, len(h.entries))
			mode = os.O_WRONLY | os.O_CREATE | os.O_APPEND
		}
		records := make([]histRecord, 0, len(h.entries)-from)
		for i := from; i < len(h.entries); i++ {
			records = append(records, histRecord{h.entries[i], h.times[i]})
		}
		if err := writeHistoryFile(path, mode, file.format(records)); err != nil {
			return 1 // as bash, silently
		}
		s.histFiles.appended = len(h.entries)
		if own {
			h.inFile, h.mine = len(h.entries), nil
		}
	}
	return 0
}

// readAll reads the history file at path, in h's format, whole.
func (h *history) readAll(path string) (historyData, error) {
	f, err := os.Open(path)
	if err != nil {
		return historyData{}, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return historyData{}, errors.New("is a directory")
	}
	return readHistory(f, maxHistoryRead, h.plain)
}

// writeHistoryFile appends text to the file at path, or with O_TRUNC
// in mode replaces the file whole (a temporary file renamed over it, in
// the directory of the file a symlink names): a crash leaves the old list
// or the new one, never half of it. A path that is there but is not a
// regular file (HISTFILE=/dev/null) is written in place, as bash does:
// renamed over, the device would become a file.
func writeHistoryFile(path string, mode int, text string) error {
	if fi, err := os.Stat(path); mode&os.O_TRUNC == 0 || err == nil && !fi.Mode().IsRegular() {
		f, err := os.OpenFile(path, mode, 0o600)
		if err != nil {
			return err
		}
		_, err = f.WriteString(text)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".history-*")
	if err != nil {
		return err
	}
	_, err = tmp.WriteString(text)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// histChars is $histchars, bash's default when unset.
func histChars(env getenv) string {
	if v, ok := env("histchars"); ok {
		return v
	}
	return "!^#"
}
