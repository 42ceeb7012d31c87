package eval

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// cd, pwd and the directory stack (dirs, pushd, popd), as bash's. The
// shell's directory is the runner's r.dir, kept logical (the names the
// user went through, symbolic links included) unless -P or set -o
// physical; PWD and OLDPWD follow it. The stack is r.dirstack, the
// entries after the current directory, which is always its first.

func builtinCd(b *B) int {
	r := b.R
	_, args, ok := b.flags("LPe", false)
	if !ok {
		return 2
	}
	physical := r.opts.set[optPhysical]
	// The last of -L and -P wins.
	for _, a := range b.Args[1 : len(b.Args)-len(args)] {
		for _, c := range a[1:] {
			switch c {
			case 'L':
				physical = false
			case 'P':
				physical = true
			}
		}
	}
	return r.cd(b, args, physical)
}

// cd changes to the directory args name, as cd does after its options.
func (r *Runner) cd(b *B, args []string, physical bool) int {
	var dir string
	show := false
	switch {
	case len(args) > 1:
		b.Errorf("too many arguments")
		return 1
	case len(args) == 0:
		home, ok := r.Get("HOME")
		if !ok {
			b.Errorf("HOME not set")
			return 1
		}
		dir = home
	case args[0] == "-":
		old, ok := r.Get("OLDPWD")
		if !ok {
			b.Errorf("OLDPWD not set")
			return 1
		}
		dir, show = old, true
	default:
		dir = args[0]
	}
	if dir == "" {
		// bash stays where it is.
		if show {
			writeOut(b, []byte("\n"), 0)
		}
		return 0
	}
	cdpath, _ := r.Get("CDPATH")
	target, viaCDPath, err := resolveDir(r.dir, dir, cdpath, physical)
	if err != nil && r.opts.shopt[optCdableVars] && !strings.HasPrefix(dir, "/") && !strings.HasPrefix(dir, ".") {
		// cdable_vars: a name that is no directory may be a variable
		// holding one; bash prints where it went.
		if v, ok := r.Get(dir); ok && v != "" {
			if t, _, err2 := resolveDir(r.dir, v, "", physical); err2 == nil {
				target, viaCDPath, err = t, true, nil
			}
		}
	}
	if err != nil {
		b.Errorf("%s: %s", dir, err)
		return 1
	}
	st := 0
	if err := r.Chdir(target); err != nil {
		r.errorf("%s", err.Error())
		st = 1
	}
	if show || viaCDPath {
		return writeOut(b, []byte(target+"\n"), st)
	}
	return st
}

// Chdir makes dir, an absolute path, the shell's directory, with PWD and
// OLDPWD (the old $PWD) as cd sets them; an error is a variable that
// could not be set (readonly), the move done anyway.
func (r *Runner) Chdir(dir string) error {
	old := r.pwdVar()
	r.dir = dir
	err := r.assign("OLDPWD", old, false)
	if e := r.assign("PWD", dir, false); e != nil {
		err = e
	}
	if r.sess.onChdir != nil && r.subshell == 0 {
		r.sess.onChdir(r, dir)
	}
	return err
}

// resolveDir is the absolute directory `cd dir` moves to from cwd:
// searched in cdpath when dir is a plain relative name, then made logical
// (`..` removes the previous name) or, with physical, free of symlinks.
// viaCDPath reports a hit in a non-empty CDPATH entry, which bash prints.
func resolveDir(cwd, dir, cdpath string, physical bool) (target string, viaCDPath bool, err error) {
	if cdpath != "" && !filepath.IsAbs(dir) && dir != "." && dir != ".." &&
		!strings.HasPrefix(dir, "./") && !strings.HasPrefix(dir, "../") {
		for _, entry := range strings.Split(cdpath, ":") {
			base := entry
			if base == "" {
				base = "."
			}
			cand := base + "/" + dir
			if strings.HasSuffix(base, "/") { // CDPATH=/: /tmp, not //tmp
				cand = base + dir
			}
			if !filepath.IsAbs(cand) {
				cand = cwd + "/" + cand
			}
			if t, err := chooseDir(cand, physical); err == nil {
				return t, entry != "", nil
			}
		}
	}
	raw := dir
	if !filepath.IsAbs(dir) {
		raw = cwd + "/" + dir
	}
	t, err := chooseDir(raw, physical)
	return t, false, err
}

// chooseDir checks that the unclean absolute path raw is a directory the
// shell may enter, and returns its logical or physical name. A logical
// name that does not resolve (a `..` after a name that is no directory)
// falls back to the physical one, as bash's cd.
func chooseDir(raw string, physical bool) (string, error) {
	if !physical {
		if logical, ok := logicalPath(raw); ok && isDir(logical) == nil {
			return logical, nil
		}
	}
	if err := isDir(raw); err != nil {
		return "", err
	}
	p, err := filepath.EvalSymlinks(raw)
	if err != nil {
		return "", errors.New(errText(err))
	}
	return p, nil
}

// logicalPath cleans an absolute path by names, as bash does for cd -L;
// ok is false if a name before a `..` is not a directory, as then the
// kernel would not resolve the path either. A leading "//" stays, as
// POSIX leaves its meaning to the system.
func logicalPath(raw string) (string, bool) {
	root := "/"
	if strings.HasPrefix(raw, "//") && !strings.HasPrefix(raw, "///") {
		root = "//"
	}
	var parts []string
	for _, name := range strings.Split(raw, "/") {
		switch name {
		case "", ".":
		case "..":
			if isDir(root+strings.Join(parts, "/")) != nil {
				return "", false
			}
			if len(parts) > 0 {
				parts = parts[:len(parts)-1]
			}
		default:
			parts = append(parts, name)
		}
	}
	return root + strings.Join(parts, "/"), true
}

// isDir says why path is not a directory one can cd into, in bash's
// words, or nil.
func isDir(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return errors.New(errText(err))
	}
	if !fi.IsDir() {
		return errors.New(errText(unix.ENOTDIR))
	}
	if unix.Access(path, unix.X_OK) != nil {
		return errors.New(errText(unix.EACCES))
	}
	return nil
}

// builtinPwd prints the shell's directory, which a script setting $PWD
// does not change; -P prints it free of symlinks.
func builtinPwd(b *B) int {
	r := b.R
	_, args, ok := b.flags("LP", false)
	if !ok {
		return 2
	}
	physical := r.opts.set[optPhysical]
	for _, a := range b.Args[1 : len(b.Args)-len(args)] {
		for _, c := range a[1:] {
			switch c {
			case 'L':
				physical = false
			case 'P':
				physical = true
			}
		}
	}
	dir := r.dir
	if physical {
		p, err := filepath.EvalSymlinks(dir)
		if err != nil {
			// bash's getcwd message names the builtin only.
			fmt.Fprintf(b.Stderr(), "pwd: error retrieving current directory: getcwd: cannot access parent directories: %s\n", errText(err))
			return 1
		}
		dir = p
	}
	return writeOut(b, []byte(dir+"\n"), 0)
}

// dirStack is the stack as dirs shows it: the current directory first.
func (r *Runner) dirStack() []string {
	return append([]string{r.dir}, r.dirstack...)
}

// politeDir writes $HOME at the start of d as ~, as dirs shows entries.
func (r *Runner) politeDir(d string) string {
	home, _ := r.Get("HOME")
	switch {
	case len(home) <= 1:
		return d
	case d == home:
		return "~"
	case strings.HasPrefix(d, home) && d[len(home)] == '/':
		return "~" + d[len(home):]
	}
	return d
}

// stackError is bash's pushd_error: an empty stack, or an index out of
// its range.
func stackError(b *B, n int, arg string) int {
	if n == 0 {
		b.Errorf("directory stack empty")
	} else {
		b.Errorf("%s: directory stack index out of range", arg)
	}
	return 1
}

// stackNumber reads the number of +N or -N; a bad one is a usage error.
func stackNumber(b *B, arg string) (int, bool) {
	n, ok := legalNumber(arg[1:])
	if !ok {
		b.Errorf("%s: invalid number", arg)
		b.usage()
		return 0, false
	}
	if n > 1<<31 || n < -(1<<31) {
		n = 1 << 31
	}
	return int(n), true
}

func builtinDirs(b *B) int {
	r := b.R
	var long, clear, perLine, numbered bool
	index, pick, word := 0, -1, ""
	args := b.Args[1:]
	for ; len(args) > 0; args = args[1:] {
		a := args[0]
		switch {
		case a == "-l":
			long = true
		case a == "-c":
			clear = true
		case a == "-v":
			numbered = true
		case a == "-p":
			perLine = true
		case a == "--":
			args = args[1:]
		case a != "" && (a[0] == '+' || a[0] == '-'):
			n, ok := stackNumber(b, a)
			if !ok {
				return 2
			}
			word = a[1:]
			pick, index = dirsIndex(n, a[0] == '+', len(r.dirstack))
			continue
		default:
			b.Errorf("%s: invalid option", a)
			b.usage()
			return 2
		}
		if a == "--" {
			break
		}
	}
	if clear {
		r.dirstack = nil
		return 0
	}
	stack := r.dirStack()
	if index != 0 && (pick < 0 || pick >= len(stack)) {
		return stackError(b, len(r.dirstack), word)
	}
	show := r.politeDir
	if long {
		show = func(d string) string { return d }
	}
	var sb strings.Builder
	switch {
	case index != 0 && numbered:
		sb.WriteString(padIndex(pick) + show(stack[pick]) + "\n")
	case index != 0:
		sb.WriteString(show(stack[pick]) + "\n")
	case numbered:
		for i, d := range stack {
			sb.WriteString(padIndex(i) + show(d) + "\n")
		}
	default:
		for i, d := range stack {
			if i > 0 {
				if perLine {
					sb.WriteByte('\n')
				} else {
					sb.WriteByte(' ')
				}
			}
			sb.WriteString(show(d))
		}
		sb.WriteByte('\n')
	}
	return writeOut(b, []byte(sb.String()), 0)
}

// padIndex is dirs -v's number column.
func padIndex(i int) string {
	s := strconv.Itoa(i)
	if len(s) < 2 {
		s = " " + s
	}
	return s + "  "
}

// dirsIndex is the stack position +N (from the left, 0 the current
// directory) or -N (from the right) names in a stack of n entries after
// the current directory; pick < 0 when it is out of range. index is
// non-zero when an index was given.
func dirsIndex(n int, plus bool, entries int) (pick, index int) {
	switch {
	case n < 0 || n > entries:
		return -1, 1
	case plus:
		return n, 1
	default:
		return entries - n, 1
	}
}

// printStack prints the stack as dirs does without options.
func (r *Runner) printStack(b *B) int {
	var sb strings.Builder
	for i, d := range r.dirStack() {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(r.politeDir(d))
	}
	sb.WriteByte('\n')
	return writeOut(b, []byte(sb.String()), 0)
}

// changeTo is bash's change_to_temp: cd to dir, then show the stack.
func (r *Runner) changeTo(b *B, dir string) int {
	if st := r.cd(b, []string{dir}, r.opts.set[optPhysical]); st != 0 {
		return st
	}
	return r.printStack(b)
}

func builtinPushd(b *B) int {
	r := b.R
	args := b.Args[1:]
	n := len(r.dirstack)
	if len(args) == 0 {
		// Swap the first two entries.
		if n == 0 {
			b.Errorf("no other directory")
			return 1
		}
		top := r.dirstack[0]
		r.dirstack[0] = r.dir
		return r.changeTo(b, top)
	}
	noCd, rotate, num := false, false, 0
	for ; len(args) > 0; args = args[1:] {
		a := args[0]
		if a == "-n" {
			noCd = true
			continue
		}
		if a == "--" {
			args = args[1:]
			break
		}
		if a == "-" || a == "" || a[0] != '+' && a[0] != '-' {
			break
		}
		v, ok := stackNumber(b, a)
		if !ok {
			return 2
		}
		if a[0] == '-' {
			v = n - v
		}
		if v > n || v < 0 {
			return stackError(b, n, a)
		}
		rotate, num = true, v
	}
	if rotate {
		stack := r.dirStack()
		if num == 0 {
			if noCd {
				return 0
			}
			return r.changeTo(b, stack[0])
		}
		rotated := append(stack[num:len(stack):len(stack)], stack[:num]...)
		r.dirstack = rotated[1:]
		if noCd {
			// The current directory stays first: bash rotates the
			// stack around it all the same.
			return 0
		}
		return r.changeTo(b, rotated[0])
	}
	if len(args) == 0 {
		return 0
	}
	cur := r.dir
	if !noCd {
		if st := r.cd(b, args, r.opts.set[optPhysical]); st != 0 {
			return st
		}
		r.dirstack = append([]string{cur}, r.dirstack...)
	} else {
		r.dirstack = append([]string{args[0]}, r.dirstack...)
	}
	return r.printStack(b)
}

func builtinPopd(b *B) int {
	r := b.R
	noCd, which, plus, word := false, 0, true, ""
	for _, a := range b.Args[1:] {
		if a == "-n" {
			noCd = true
			continue
		}
		if a == "--" {
			break
		}
		if a != "" && (a[0] == '+' || a[0] == '-') {
			v, ok := stackNumber(b, a)
			if !ok {
				return 2
			}
			which, plus, word = v, a[0] == '+', a
			continue
		}
		if a != "" {
			b.Errorf("%s: invalid argument", a)
			b.usage()
			return 2
		}
		break
	}
	n := len(r.dirstack)
	if which > n || which < -n || n == 0 && which == 0 {
		return stackError(b, n, word)
	}
	if plus && which == 0 || !plus && which == n {
		// The top: go to the next entry, unless -n.
		if !noCd {
			if st := r.cd(b, []string{r.dirstack[0]}, r.opts.set[optPhysical]); st != 0 {
				return st
			}
		}
		r.dirstack = r.dirstack[1:]
	} else {
		// Another entry: out of the stack, no move. i is its position
		// from the left, 1 the first after the current directory.
		i := which
		if !plus {
			i = n - which
		}
		if i < 1 || i > n {
			return stackError(b, n, word)
		}
		r.dirstack = append(r.dirstack[:i-1:i-1], r.dirstack[i:]...)
	}
	return r.printStack(b)
}
