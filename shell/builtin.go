package shell

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"mvdan.cc/sh/v3/syntax"
)

// What the shell's own builtins (history, fc, bind) share: where they
// write, how they fail, and the small helpers of their arguments.

// builtinIO is where a builtin writes, and its name for messages.
type builtinIO struct {
	name     string
	out, err io.Writer
	where    string // starts messages: "qsh: ", or the sourced file and line
	// errorf, when set, prints the builtin's messages instead (the
	// evaluator's, which knows where they come from).
	errorf func(format string, args ...any)
}

func (b builtinIO) fail(st int, format string, args ...any) int {
	if b.errorf != nil {
		b.errorf(format, args...)
		return st
	}
	where := b.where
	if where == "" {
		where = "qsh: "
	}
	fmt.Fprintf(b.err, "%s%s: %s\n", where, b.name, fmt.Sprintf(format, args...))
	return st
}

func errText(err error) string {
	s := err.Error()
	return strings.ToUpper(s[:1]) + s[1:]
}

func quote(s string) string {
	q, err := syntax.Quote(s, syntax.LangBash)
	if err != nil {
		return strconv.Quote(s)
	}
	return q
}

// errno is err as the C library's strerror words it.
func errno(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var en syscall.Errno
	if errors.As(err, &en) {
		return errors.New(errText(en))
	}
	return err
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// singleQuote quotes s for eval with no backslash at all: interp keeps
// the backslashes of an unquoted assignment value (x=a\ b is `a\ b`).
func singleQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'"
}

func isExecutable(cwd, p string) bool {
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}
