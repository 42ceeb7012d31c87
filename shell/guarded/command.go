package guarded

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Command is one program a run starts, as the shell hands it over: what
// the port of this package to another evaluator needs to know of it.
type Command struct {
	Args   []string // Args[0] is the name to look up
	Env    []string // NAME=value; the last of a name wins
	Dir    string
	Stdin  io.Reader // nil: none (/dev/null)
	Stdout io.Writer
	Stderr io.Writer
}

// errNotFound is a program that is nowhere on PATH.
var errNotFound = errors.New("command not found")

// lookPath finds name as the shell does, in dir with PATH from env, stat
// telling whether a file is an executable.
func lookPath(dir string, env []string, name string, isExec func(string) bool) (string, error) {
	if strings.Contains(name, "/") {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if !isExec(p) {
			return "", &os.PathError{Op: "exec", Path: name, Err: syscall.ENOENT}
		}
		return p, nil
	}
	path := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	for _, d := range filepath.SplitList(path) {
		if d == "" {
			d = "."
		}
		if !filepath.IsAbs(d) {
			d = filepath.Join(dir, d)
		}
		if p := filepath.Join(d, name); isExec(p) {
			return p, nil
		}
	}
	return "", errNotFound
}

// isExec reports whether path is an executable file.
func isExec(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// dedupEnv keeps the last of each name, in the order of the first: a
// program reading its environment takes the first, as the C library does.
func dedupEnv(env []string) []string {
	last := map[string]int{}
	for i, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		last[name] = i
	}
	out := make([]string, 0, len(last))
	seen := map[string]bool{}
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !seen[name] {
			seen[name] = true
			out = append(out, env[last[name]])
		}
	}
	return out
}
