package shell

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
	"mvdan.cc/sh/v3/interp"
)

// qsh's cd and pwd follow bash where interp's differ: -L and -P, CDPATH,
// `cd -` and a CDPATH hit print the new directory, `pwd` prints the
// shell's directory rather than $PWD, and errors read as bash's. The move
// itself is still interp's cd, given the resolved absolute path, so the
// interpreter's directory, $PWD and $OLDPWD change together, and the
// process's cwd and the terminal's OSC 7 follow after the command line
// (see [Shell.syncDir]).

const cdUsage = "cd: usage: cd [-L|[-P [-e]] [-@]] [dir]"

func (s *Shell) cd(ctx context.Context, hc interp.HandlerContext, b builtinIO, args []string) int {
	st, _ := s.cdDir(ctx, hc, b, args)
	return st
}

// cdDir is cd, which also returns the directory it moved to ("" if none).
func (s *Shell) cdDir(ctx context.Context, hc interp.HandlerContext, b builtinIO, args []string) (int, string) {
	physical := s.opt(hc.Env, "physical")
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		a := args[0]
		if a == "--" {
			args = args[1:]
			break
		}
		for _, c := range a[1:] {
			switch c {
			case 'L':
				physical = false
			case 'P':
				physical = true
			case 'e', '@':
			default:
				b.fail(2, "-%c: invalid option", c)
				fmt.Fprintln(b.err, cdUsage)
				return 2, ""
			}
		}
		args = args[1:]
	}
	if len(args) > 1 {
		return b.fail(1, "too many arguments"), ""
	}
	var dir string
	print := false
	switch {
	case len(args) == 0:
		home := hc.Env.Get("HOME")
		if !home.IsSet() {
			return b.fail(1, "HOME not set"), ""
		}
		dir = home.String()
	case args[0] == "-":
		old := hc.Env.Get("OLDPWD")
		if !old.IsSet() {
			return b.fail(1, "OLDPWD not set"), ""
		}
		dir, print = old.String(), true
	default:
		dir = args[0]
	}
	if dir == "" {
		if print {
			fmt.Fprintln(b.out)
		}
		return 0, "" // bash stays where it is
	}
	target, viaCDPath, err := resolveDir(hc.Dir, dir, hc.Env.Get("CDPATH").String(), physical)
	if err != nil && s.opt(hc.Env, "cdable_vars") && !strings.HasPrefix(dir, "/") && !strings.HasPrefix(dir, ".") {
		// cdable_vars: a name that is no directory may be a variable
		// holding one; bash prints where it went.
		if v := hc.Env.Get(dir); v.IsSet() && v.String() != "" {
			if t, _, err2 := resolveDir(hc.Dir, v.String(), "", physical); err2 == nil {
				target, viaCDPath, err = t, true, nil
			}
		}
	}
	if err != nil {
		return b.fail(1, "%s: %s", dir, err), ""
	}
	if err := hc.Builtin(ctx, []string{"cd", target}); err != nil {
		return 1, ""
	}
	// bash exports both, so that programs agree on the logical path;
	// interp only sets them.
	hc.Builtin(ctx, []string{"eval", "export OLDPWD PWD"})
	if print || viaCDPath {
		fmt.Fprintln(b.out, target)
	}
	return 0, target
}

// resolveDir is the absolute directory `cd dir` moves to from cwd:
// searched in cdpath when dir is a plain relative name, then made logical
// (`..` removes the previous name) or, with physical, free of symlinks.
// viaCDPath reports a hit in a non-empty CDPATH entry, which bash prints.
func resolveDir(cwd, dir, cdpath string, physical bool) (target string, viaCDPath bool, err error) {
	if cdpath != "" && !filepath.IsAbs(dir) && dir != "." && dir != ".." &&
		!strings.HasPrefix(dir, "./") && !strings.HasPrefix(dir, "../") {
		for entry := range strings.SplitSeq(cdpath, ":") {
			cand := filepath.Join(orDot(entry), dir)
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

func orDot(s string) string {
	if s == "" {
		return "."
	}
	return s
}

// chooseDir checks that the unclean absolute path raw is a directory the
// shell may enter, and returns its logical or physical name.
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
		return "", errno(err)
	}
	return p, nil
}

// logicalPath cleans an absolute path by names, as bash does for cd -L;
// ok is false if a name before a `..` is not a directory, as then the
// kernel would not resolve the path either.
func logicalPath(raw string) (string, bool) {
	var parts []string
	for name := range strings.SplitSeq(raw, "/") {
		switch name {
		case "", ".":
		case "..":
			if isDir("/"+strings.Join(parts, "/")) != nil {
				return "", false
			}
			if len(parts) > 0 {
				parts = parts[:len(parts)-1]
			}
		default:
			parts = append(parts, name)
		}
	}
	return "/" + strings.Join(parts, "/"), true
}

// isDir says why path is not a directory one can cd into, in bash's
// words, or nil.
func isDir(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return errno(err)
	}
	if !fi.IsDir() {
		return errors.New("Not a directory")
	}
	if unix.Access(path, unix.X_OK) != nil {
		return errors.New("Permission denied")
	}
	return nil
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

// pwd prints the shell's directory, which a script setting $PWD does not
// change; -P prints it free of symlinks.
func (s *Shell) pwd(hc interp.HandlerContext, b builtinIO, args []string) int {
	physical := s.opt(hc.Env, "physical")
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		if args[0] == "--" {
			break
		}
		for _, c := range args[0][1:] {
			switch c {
			case 'L':
				physical = false
			case 'P':
				physical = true
			default:
				b.fail(2, "-%c: invalid option", c)
				fmt.Fprintln(b.err, "pwd: usage: pwd [-LP]")
				return 2
			}
		}
		args = args[1:]
	}
	dir := hc.Dir
	if physical {
		p, err := filepath.EvalSymlinks(dir)
		if err != nil {
			return b.fail(1, "error retrieving current directory: %s", errno(err))
		}
		dir = p
	}
	fmt.Fprintln(b.out, dir)
	return 0
}
