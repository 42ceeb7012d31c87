package shell

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/interp"
)

// The hash table, as bash's: the path a command name was found at is
// remembered and used again without searching PATH (under set -h, the
// default), until PATH changes or `hash -r`. The hash builtin shows and
// edits it.

type hashTable struct {
	mu    sync.Mutex
	path  string // the PATH the entries were found in
	paths map[string]string
	hits  map[string]int
}

// forPath empties the table if PATH is no longer the one its entries were
// found in; under mu.
func (t *hashTable) forPath(path string) {
	if t.paths == nil || t.path != path {
		t.path = path
		t.paths = map[string]string{}
		t.hits = map[string]int{}
	}
}

// lookPath finds the program name runs, through the table; hashed
// reports a path the table gave.
func (s *Shell) lookPath(hc interp.HandlerContext, name string) (path string, hashed bool, err error) {
	if strings.Contains(name, "/") || !s.opt(hc.Env, "hashall") {
		path, err = interp.LookPathDir(hc.Dir, hc.Env, name)
		return path, false, err
	}
	t := &s.hash
	t.mu.Lock()
	defer t.mu.Unlock()
	t.forPath(hc.Env.Get("PATH").String())
	if p, ok := t.paths[name]; ok {
		t.hits[name]++
		return p, true, nil
	}
	path, err = interp.LookPathDir(hc.Dir, hc.Env, name)
	if err == nil {
		if !filepath.IsAbs(path) {
			path = filepath.Join(hc.Dir, path)
		}
		t.paths[name], t.hits[name] = path, 1
	}
	return path, false, err
}

// keep saves the table and returns what puts it back (see [Shell.keep]):
// a command the assistant ran must not make the user's `ls` run another
// program (hash -p).
func (t *hashTable) keep() (restore func()) {
	t.mu.Lock()
	path, paths, hits := t.path, maps.Clone(t.paths), maps.Clone(t.hits)
	t.mu.Unlock()
	return func() {
		t.mu.Lock()
		t.path, t.paths, t.hits = path, paths, hits
		t.mu.Unlock()
	}
}

const hashUsage = "hash: usage: hash [-lr] [-p pathname] [-dt] [name ...]"

func (s *Shell) hashBuiltin(hc interp.HandlerContext, b builtinIO, args []string) int {
	var reset, list, del, show bool
	path := ""
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		a := args[0]
		args = args[1:]
		if a == "--" {
			break
		}
		for i := 1; i < len(a); i++ {
			switch a[i] {
			case 'r':
				reset = true
			case 'l':
				list = true
			case 'd':
				del = true
			case 't':
				show = true
			case 'p':
				path = a[i+1:]
				if path == "" {
					if len(args) == 0 {
						b.fail(2, "-p: option requires an argument")
						fmt.Fprintln(b.err, hashUsage)
						return 2
					}
					path, args = args[0], args[1:]
				}
				i = len(a)
			default:
				b.fail(2, "-%c: invalid option", a[i])
				fmt.Fprintln(b.err, hashUsage)
				return 2
			}
		}
	}
	if !s.opt(hc.Env, "hashall") {
		return b.fail(1, "hashing disabled")
	}
	t := &s.hash
	t.mu.Lock()
	defer t.mu.Unlock()
	t.forPath(hc.Env.Get("PATH").String())
	if reset {
		clear(t.paths)
		clear(t.hits)
	}
	if len(args) == 0 {
		if reset || del || show || path != "" {
			return 0
		}
		names := slices.Sorted(maps.Keys(t.paths))
		if len(names) == 0 {
			fmt.Fprintln(b.out, "hash: hash table empty")
			return 0
		}
		var sb strings.Builder
		if !list {
			sb.WriteString("hits\tcommand\n")
		}
		for _, n := range names {
			if list {
				fmt.Fprintf(&sb, "builtin hash -p %s %s\n", t.paths[n], n)
			} else {
				fmt.Fprintf(&sb, "%4d\t%s\n", t.hits[n], t.paths[n])
			}
		}
		b.out.Write([]byte(sb.String()))
		return 0
	}
	st := 0
	for _, n := range args {
		switch {
		case path != "":
			t.paths[n], t.hits[n] = path, 0
		case del:
			if _, ok := t.paths[n]; !ok {
				st = b.fail(1, "%s: not found", n)
			}
			delete(t.paths, n)
			delete(t.hits, n)
		case show:
			p, ok := t.paths[n]
			if !ok {
				st = b.fail(1, "%s: not found", n)
				continue
			}
			if len(args) > 1 {
				fmt.Fprintf(b.out, "%s\t%s\n", n, p)
			} else {
				fmt.Fprintln(b.out, p)
			}
		case list:
			if p, ok := t.paths[n]; ok {
				fmt.Fprintf(b.out, "builtin hash -p %s %s\n", p, n)
			} else {
				st = b.fail(1, "%s: not found", n)
			}
		default:
			if interp.IsBuiltin(n) || ownBuiltins[n] || s.isFuncAt(hc, n) || strings.Contains(n, "/") {
				continue // bash hashes no builtin nor function
			}
			p, err := interp.LookPathDir(hc.Dir, hc.Env, n)
			if err != nil {
				st = b.fail(1, "%s: not found", n)
				continue
			}
			if !filepath.IsAbs(p) {
				p = filepath.Join(hc.Dir, p)
			}
			t.paths[n], t.hits[n] = p, 0
		}
	}
	return st
}

// hashedGone reports whether path, found through the table, no longer
// exists: bash then fails with 127 rather than search PATH again.
func hashedGone(path string) bool {
	_, err := os.Stat(path)
	return os.IsNotExist(err)
}
