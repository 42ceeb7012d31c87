package checkpoint

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// gitList is what `git ls-files` listed at the last scan of a git work
// tree (files and their directories), and the state of the files that
// decide what it lists, kept while the watcher hears of no name made,
// removed or moved.
type gitList struct {
	keys    []string
	control string
}

// gitAll scans a git work tree: the files git lists and git's state.
// With a watcher on the work tree's directories, git is run again only
// when what it lists may have changed, and a path is stat'd only when
// the watcher heard of it, or cannot vouch for it (its directory is not
// watched, its entry racy, its content not kept, it has other names).
func (sc *scanner) gitAll() (Snapshot, error) {
	s := sc.s
	wt := s.watch
	var dirty map[string]bool
	names := true
	if wt != nil && wt.live() {
		dirty, names = wt.take()
		if dirty == nil || sc.gen == 0 || sc.gen != s.gen || s.gitList == nil {
			dirty, names = nil, true
			sc.watchTree("")
		} else if names {
			// New directories are watched before git lists them.
			for k := range dirty {
				// A name made or removed moves its directory's times,
				// which no event tells.
				dirty[parentKey(k)] = true
				if m, _, err := sc.lstat(k); err == nil && m.IsDir() && !wt.watched(k) {
					sc.watchTree(k)
				}
			}
		}
		s.gen++
		sc.made = s.gen
		if s.afterTake != nil {
			s.afterTake()
		}
	}
	control := controlState(s.controlFiles())
	list := s.gitList
	if dirty == nil || names || list.control != control || ignoreChanged(dirty) {
		keys, err := s.gitListed()
		if err != nil {
			s.gitList = nil
			return nil, err
		}
		list = &gitList{keys: keys, control: control}
	}
	snap := make(Snapshot, len(list.keys)+64)
	var todo []string
	var size int64
	for _, k := range list.keys {
		c := sc.cache[k]
		if dirty != nil && c != nil && !dirty[k] && !c.stat.racy && !(c.Kind == File && c.Blob == "") &&
			!s.links[k] && wt.watched(parentKey(k)) {
			snap[k] = c
			if c.Kind == File {
				size += c.Size
			}
			continue
		}
		todo = append(todo, k)
	}
	if err := sc.keep(size); err != nil {
		s.gitList = nil
		return nil, err
	}
	got, err := sc.paths(append(todo, s.gitStateKeys()...))
	if err != nil {
		s.gitList = nil
		if wt != nil {
			wt.fail()
		}
		return nil, err
	}
	for k, e := range got {
		snap[k] = e
	}
	s.gitList = list
	return snap, nil
}

// watchTree watches the directories under key (a directory), each
// before it is read, but git's own and those of stores and caches by
// convention (their tracked files, if any, are stat'd each time).
func (sc *scanner) watchTree(key string) {
	wt := sc.s.watch
	filepath.WalkDir(sc.s.abs(key), func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		k := sc.s.key(p)
		if k != key && (d.Name() == ".git" || skipDirs[d.Name()] || k == sc.baseKey) {
			return filepath.SkipDir
		}
		wt.add(k, p)
		return nil
	})
}

// parentKey is the key of the directory of key.
func parentKey(key string) string {
	d := path.Dir(key)
	if d == "." {
		return ""
	}
	return d
}

// ignoreChanged reports whether a .gitignore file is among the keys.
func ignoreChanged(dirty map[string]bool) bool {
	for k := range dirty {
		if path.Base(k) == ".gitignore" {
			return true
		}
	}
	return false
}

// controlFiles are the files, besides .gitignore files and the work
// tree's names, whose change makes git list other files: the index
// (what is tracked), the excludes, and the configuration that may name
// another excludes file.
func (s *Store) controlFiles() []string {
	home, _ := os.UserHomeDir()
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" {
		xdg = filepath.Join(home, ".config")
	}
	return []string{
		filepath.Join(s.git.gitDir, "index"),
		filepath.Join(s.git.gitDir, "info", "exclude"),
		filepath.Join(s.git.commonDir, "info", "exclude"),
		filepath.Join(s.git.commonDir, "config"),
		filepath.Join(home, ".gitconfig"),
		filepath.Join(xdg, "git", "config"),
		filepath.Join(xdg, "git", "ignore"),
	}
}

// controlState is the stat data of files (through links) as a string.
func controlState(files []string) string {
	var b strings.Builder
	for _, f := range files {
		r, err := filepath.EvalSymlinks(f)
		var st statData
		if err == nil {
			_, st, err = lstatAt(atCWD, "", r)
		}
		if err != nil {
			b.WriteString("-\n")
			continue
		}
		fmt.Fprintf(&b, "%s %d %d %d %d %d\n", r, st.mtime, st.ctime, st.ino, st.dev, st.size)
	}
	return b.String()
}
