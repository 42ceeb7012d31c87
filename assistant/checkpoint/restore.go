package checkpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Plan is what undoing the last checkpoints would do.
type Plan struct {
	// Undo are the checkpoints undone, newest first.
	Undo []Checkpoint
	// Steps are the paths to put back: each one's entry now and the one
	// it gets, sorted by path.
	Steps []Step
	// Conflicts are the paths changed since the run that changed them
	// (by the user, or a program of theirs): undo refuses while there
	// are any.
	Conflicts []Conflict
	// Lost are paths whose earlier content was not kept (over the size
	// limit, unreadable): undo refuses while there are any.
	Lost []string
	// Kept are paths left as they are, with why: git's index, changed
	// since (a `git status` refreshes it).
	Kept []string
}

// Step is one path put back.
type Step struct {
	Path    string
	Now, To *Entry
}

// Conflict is a path that is not as the run left it.
type Conflict struct {
	Path string
	// Want is what the run left; Now what is there.
	Want, Now *Entry
	// Label is the command of the run that left Want.
	Label string
}

// ErrNone is the error of an undo with no checkpoint to undo.
var ErrNone = errors.New("no checkpoints")

// Plan works out what undoing the last n checkpoints would change,
// without changing anything.
func (s *Store) Plan(n int) (*Plan, error) {
	cps, problem := s.List()
	if n < 1 {
		n = 1
	}
	if len(cps) == 0 {
		if problem != "" {
			return nil, errors.New(problem)
		}
		return nil, ErrNone
	}
	if n > len(cps) {
		return nil, fmt.Errorf("there %s only %d", map[bool]string{true: "is", false: "are"}[len(cps) == 1], len(cps))
	}
	p := &Plan{Undo: cps[:n]}
	var keys []string
	seen := map[string]bool{}
	for _, cp := range p.Undo {
		for _, c := range cp.Changes {
			if !seen[c.Path] {
				seen[c.Path] = true
				keys = append(keys, c.Path)
			}
		}
	}
	s.mu.Lock()
	sc := newScanner(s, s.cache, nil, 0, s.now(), false)
	now, err := sc.paths(keys)
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	state := Snapshot{}
	for k, e := range now {
		state[k] = e
	}
	soft := map[string]bool{}
	for _, cp := range p.Undo {
		for _, c := range cp.Changes {
			if !Same(state[c.Path], c.After) {
				if isSoft(c) {
					soft[c.Path] = true
				} else {
					p.Conflicts = append(p.Conflicts, Conflict{Path: c.Path, Want: c.After, Now: state[c.Path], Label: cp.Label})
				}
			}
			state[c.Path] = c.Before
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		if soft[k] {
			p.Kept = append(p.Kept, k)
			continue
		}
		to := state[k]
		if Same(now[k], to) {
			continue
		}
		if to != nil && to.Kind == File && to.Blob == "" {
			p.Lost = append(p.Lost, k)
			continue
		}
		p.Steps = append(p.Steps, Step{Path: k, Now: now[k], To: to})
	}
	return p, nil
}

func isSoft(c Change) bool {
	return c.Before != nil && c.Before.Soft || c.After != nil && c.After.Soft
}

// Restore carries out p, which must be refusal-free, after checking that
// nothing changed since it was made; the undone checkpoints are then
// dropped. An error names what could not be put back.
func (s *Store) Restore(p *Plan) error {
	if len(p.Conflicts) > 0 || len(p.Lost) > 0 {
		return errors.New("the plan has conflicts")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	unlock, err := s.lock()
	if err != nil {
		return err
	}
	defer unlock()
	keys := make([]string, len(p.Steps))
	for i, st := range p.Steps {
		keys[i] = st.Path
	}
	sc := newScanner(s, s.cache, nil, 0, s.now(), false)
	now, err := sc.paths(keys)
	if err != nil {
		return err
	}
	for _, st := range p.Steps {
		if !Same(now[st.Path], st.Now) {
			return fmt.Errorf("%s changed while you were deciding; nothing was restored", st.Path)
		}
	}
	// Every content first: a missing one stops the undo before it begins.
	content := map[string][]byte{}
	for _, st := range p.Steps {
		if st.To != nil && st.To.Kind == File {
			b, err := s.objs.get(st.To.Blob)
			if err != nil {
				return fmt.Errorf("%s: %v; nothing was restored", st.Path, err)
			}
			content[st.Path] = b
		}
	}
	var errs []string
	fail := func(k string, err error) { errs = append(errs, fmt.Sprintf("%s: %v", k, plain(err))) }
	// Deepest first, so that a directory is empty when its turn comes.
	byDepth := append([]Step(nil), p.Steps...)
	sort.SliceStable(byDepth, func(i, j int) bool { return depth(byDepth[i].Path) > depth(byDepth[j].Path) })
	for _, st := range byDepth {
		if st.Now == nil || st.To != nil && st.To.Kind == st.Now.Kind && st.Now.Kind != Link {
			continue
		}
		abs := s.abs(st.Path)
		if st.Now.Kind == Dir {
			// Writable, to empty it of what goes; emptied already by the
			// steps deeper down.
			os.Chmod(abs, 0o700)
		}
		if err := os.Remove(abs); err != nil && !errors.Is(err, fs.ErrNotExist) {
			fail(st.Path, err)
		}
	}
	// Shallowest first: directories, then what goes in them.
	sort.SliceStable(byDepth, func(i, j int) bool { return depth(byDepth[i].Path) < depth(byDepth[j].Path) })
	for _, st := range byDepth {
		if st.To == nil {
			continue
		}
		abs := s.abs(st.Path)
		switch st.To.Kind {
		case Dir:
			if st.Now == nil || st.Now.Kind != Dir {
				if err := os.MkdirAll(abs, 0o700); err != nil {
					fail(st.Path, err)
				}
			} else {
				os.Chmod(abs, st.Now.Mode|0o700) // writable until its files are back
			}
		case Link:
			os.MkdirAll(filepath.Dir(abs), 0o755)
			if err := os.Symlink(st.To.Target, abs); err != nil {
				fail(st.Path, err)
			}
		case File:
			os.MkdirAll(filepath.Dir(abs), 0o755)
			if err := writeFile(abs, content[st.Path], st.To.Mode); err != nil {
				fail(st.Path, err)
			}
		}
	}
	// Directories' own modes last, deepest first: a read-only one is
	// filled before it becomes so.
	sort.SliceStable(byDepth, func(i, j int) bool { return depth(byDepth[i].Path) > depth(byDepth[j].Path) })
	for _, st := range byDepth {
		if st.To != nil && st.To.Kind == Dir {
			if err := os.Chmod(s.abs(st.Path), st.To.Mode); err != nil {
				fail(st.Path, err)
			}
		}
	}
	for _, st := range p.Steps {
		delete(s.cache, st.Path) // hashed again at the next scan
	}
	if len(errs) > 0 {
		return fmt.Errorf("not everything could be put back: %s", strings.Join(errs, "; "))
	}
	s.remove(p.Undo)
	return nil
}

// writeFile replaces abs with data and mode: a temp file beside it,
// renamed over it.
func writeFile(abs string, data []byte, mode fs.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(abs), "."+filepath.Base(abs)+".qsh-undo-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, abs)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

func depth(key string) int { return strings.Count(key, "/") }

// plain is err without the path a PathError repeats.
func plain(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
