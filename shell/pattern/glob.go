package pattern

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
)

// GlobOptions are the shell options that change pathname expansion.
type GlobOptions struct {
	Dot      bool // dotglob: * ? […] match a leading '.' (never . and ..)
	GlobStar bool // globstar: ** alone in a component matches any number of directories
	NoCase   bool // nocaseglob
	ExtGlob  bool // extglob
	// NullGlob is nullglob, for the evaluator: Glob returns nil when nothing
	// matches either way, and the evaluator decides what that means.
	NullGlob bool
	// Ignore are GLOBIGNORE's patterns: a match any of them matches is
	// dropped. They match the whole name as spelled; as in bash, ? and * do
	// not match '/' there, but […] and a * that ends the pattern do, and a
	// leading '.' needs no '.'. When there are any, dotglob is on and . and
	// .. are dropped.
	Ignore   []string
	SkipDots bool // globskipdots (on by default in bash 5.2): no pattern matches . or ..
	Max      int  // more matches than this end the expansion with ErrTooMany; 0: no bound
}

// ErrTooMany is returned by [Glob] past GlobOptions.Max matches.
var ErrTooMany = errors.New("pattern: too many file names match")

// Glob expands the pathname pattern pat: the names it matches, relative to
// dir (the shell's directory, absolute) unless pat is absolute, spelled as
// pat spells them (./x stays ./x, a//b keeps its slashes; a pattern ending in
// / matches directories only and keeps one /), sorted in byte order (bash's
// order under LC_ALL=C and C.UTF-8; other UTF-8 locales collate otherwise,
// which qsh does not follow). Components without pattern characters are
// not listed but must exist. A name starting with '.' is matched only by a
// pattern component starting with '.' (or, with extglob, a group
// alternative doing so) unless Dot. With GlobStar, ** matches the
// directories below, symbolic links to directories included but not
// followed, as bash 5.2 does. Directories that cannot be read are skipped.
// Nothing matching is nil, not an error; the errors are the context's and
// ErrTooMany.
func Glob(ctx context.Context, dir, pat string, opt GlobOptions) ([]string, error) {
	g := &globber{ctx: ctx, opt: opt, dot: opt.Dot || len(opt.Ignore) > 0}
	lead, comps, dirOnly := splitPath(pat)
	base := cand{spelled: lead, self: lead, fs: "/"}
	if lead == "" {
		if !strings.HasPrefix(dir, "/") {
			return nil, errors.New("pattern: Glob needs an absolute directory")
		}
		base.fs = dir
	}
	if len(comps) == 0 {
		return nil, nil
	}
	cands := []cand{base}
	globbed := false // a component so far was a pattern
	for i := 0; i < len(comps) && len(cands) > 0; i++ {
		c, last := comps[i], i == len(comps)-1
		var err error
		switch {
		case opt.GlobStar && c.text == "**":
			j := i // **/** is **
			for j+1 < len(comps) && comps[j+1].text == "**" {
				j++
			}
			topLevel := i == 0 && lead == ""
			if j == len(comps)-1 {
				return g.finish(g.starStarLast(cands, dirOnly, topLevel, j > i))
			}
			cands, err = g.starStar(cands, comps[j].sep, topLevel)
			globbed, i = true, j
		case !HasMeta(c.text, g.mode()):
			cands, err = g.literal(cands, c, last, dirOnly, globbed)
		default:
			cands, err = g.match(cands, c, last, dirOnly)
			globbed = true
		}
		if err != nil {
			return nil, err
		}
	}
	return g.finish(nil)
}

// literal goes on with a component without pattern characters: not listed,
// only checked when it is the last.
func (g *globber) literal(cands []cand, c component, last, dirOnly, globbed bool) ([]cand, error) {
	name := Unquote(c.text)
	var next []cand
	for _, cd := range cands {
		fsPath := join(cd.fs, name)
		switch {
		case !last:
			next = append(next, cd.child(name, c.sep, globbed, fsPath))
		case g.exists(fsPath, dirOnly):
			if err := g.add(cd.spelled+name, dirOnly); err != nil {
				return nil, err
			}
		}
	}
	return next, nil
}

// match goes on with a component that is a pattern: the names in each
// candidate that it matches.
func (g *globber) match(cands []cand, c component, last, dirOnly bool) ([]cand, error) {
	p, err := Compile(c.text, g.mode()|Filename)
	if err != nil {
		return nil, err
	}
	var next []cand
	for _, cd := range cands {
		entries, err := g.list(cd.fs)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if !g.matchName(p, e.name) {
				continue
			}
			fsPath := join(cd.fs, e.name)
			switch {
			case !last:
				if g.isDir(fsPath, e) {
					next = append(next, cd.child(e.name, c.sep, true, fsPath))
				}
			case !dirOnly || g.isDir(fsPath, e):
				if err := g.add(cd.spelled+e.name, dirOnly); err != nil {
					return nil, err
				}
			}
		}
	}
	return next, nil
}

// component is one name of a path pattern and the slashes after it.
type component struct{ text, sep string }

// splitPath splits a path pattern into its leading slashes, its components
// and whether it ends in a slash. A quoted slash (the evaluator passes
// "$dir"/* as \/\t\m\p/*) is a slash all the same.
func splitPath(pat string) (lead string, comps []component, dirOnly bool) {
	if strings.Contains(pat, `\/`) {
		var b strings.Builder
		for i := 0; i < len(pat); i++ {
			if pat[i] == '\\' && i+1 < len(pat) {
				if pat[i+1] != '/' {
					b.WriteByte('\\')
				}
				i++
			}
			b.WriteByte(pat[i])
		}
		pat = b.String()
	}
	i := 0
	for i < len(pat) && pat[i] == '/' {
		i++
	}
	lead = pat[:i]
	for i < len(pat) {
		j, quoted := i, false
		for j < len(pat) && (pat[j] != '/' || quoted) {
			quoted = pat[j] == '\\' && !quoted
			j++
		}
		k := j
		for k < len(pat) && pat[k] == '/' {
			k++
		}
		comps = append(comps, component{text: pat[i:j], sep: pat[j:k]})
		i = k
	}
	if n := len(comps); n > 0 && comps[n-1].sep != "" {
		dirOnly = true
		comps[n-1].sep = ""
	}
	return lead, comps, dirOnly
}

// cand is a directory the expansion goes on from: where it is, how it is
// spelled itself, and how the names in it are spelled up to their own.
type cand struct{ fs, self, spelled string }

// child returns the candidate for the directory name in cd, followed by
// the slashes sep in the pattern. bash keeps the slashes as they are up to
// the first component that is a pattern (b//x gives b//x); past it, one
// slash is left (*//x gives b/x), and b/** spells b itself "b/" after two
// slashes or more and "b" after one.
func (cd cand) child(name, sep string, globbed bool, fsPath string) cand {
	if !globbed {
		self := cd.spelled + name + sep
		return cand{fs: fsPath, self: self, spelled: self}
	}
	c := cand{fs: fsPath, self: cd.spelled + name, spelled: cd.spelled + name + "/"}
	if len(sep) > 1 {
		c.self = c.spelled
	}
	return c
}

type globber struct {
	ctx     context.Context
	opt     GlobOptions
	dot     bool // dotglob, or GLOBIGNORE set
	matches []string
}

type entry struct {
	name string
	de   fs.DirEntry // nil for . and ..
}

func (g *globber) mode() Mode {
	var m Mode
	if g.opt.ExtGlob {
		m |= ExtGlob
	}
	if g.opt.NoCase {
		m |= NoCase
	}
	return m
}

// matchName applies bash's rules for leading dots: . and .. only to a
// pattern starting with '.', and never under globskipdots or GLOBIGNORE;
// other names starting with '.' likewise unless dotglob.
func (g *globber) matchName(p *Pattern, name string) bool {
	if name == "." || name == ".." {
		return p.matchName(name, true)
	}
	return p.matchName(name, name[0] == '.' && !g.dot)
}

// list reads a directory; one that cannot be read has no entries.
func (g *globber) list(dir string) ([]entry, error) {
	if err := g.ctx.Err(); err != nil {
		return nil, err
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil, nil
	}
	des, _ := f.ReadDir(-1) // what was read before an error is kept
	f.Close()
	entries := make([]entry, 0, len(des)+2)
	if !g.opt.SkipDots && len(g.opt.Ignore) == 0 {
		entries = append(entries, entry{name: "."}, entry{name: ".."})
	}
	for _, de := range des {
		entries = append(entries, entry{name: de.Name(), de: de})
	}
	return entries, nil
}

// isDir reports whether the entry at path is a directory or a symbolic link
// to one.
func (g *globber) isDir(path string, e entry) bool {
	if e.de == nil || e.de.IsDir() {
		return true
	}
	if e.de.Type()&fs.ModeSymlink == 0 {
		return false
	}
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// readable reports whether the directory can be listed.
func (g *globber) readable(dir string) bool {
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer f.Close()
	_, err = f.ReadDir(1)
	return err == nil || err == io.EOF
}

func (g *globber) exists(path string, dir bool) bool {
	if dir {
		fi, err := os.Stat(path)
		return err == nil && fi.IsDir()
	}
	_, err := os.Lstat(path)
	return err == nil
}

func (g *globber) add(spelled string, dirOnly bool) error {
	if dirOnly && !strings.HasSuffix(spelled, "/") {
		spelled += "/"
	}
	g.matches = append(g.matches, spelled)
	if g.opt.Max > 0 && len(g.matches) > g.opt.Max {
		return ErrTooMany
	}
	return nil
}

// starStar expands a ** that more components follow: the directories it
// stands for are the candidates and every directory below them, a symbolic
// link to a directory included (bash 5.2 leaves those out when the pattern
// starts with **) but not followed.
func (g *globber) starStar(cands []cand, sep string, topLevel bool) ([]cand, error) {
	var next []cand
	for _, cd := range cands {
		if !g.readable(cd.fs) {
			continue // bash finds nothing under it, not even in it
		}
		next = append(next, cd)
		err := g.walk(cd.fs, "", func(rel, fsPath string, e entry, dir, link bool) error {
			if dir && (!link || !topLevel) {
				next = append(next, cd.child(rel, sep, true, fsPath))
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return next, nil
}

// starStarLast expands a ** that ends the pattern: every name below the
// candidates (every directory, if dirOnly). The candidate itself comes too,
// as bash spells it: "b/" for b/**, "b" for */** and for a repeated **
// (b/**/**), nothing for ** alone.
func (g *globber) starStarLast(cands []cand, dirOnly, topLevel, repeated bool) error {
	for _, cd := range cands {
		if !topLevel {
			if !g.readable(cd.fs) {
				continue // bash lists nothing, not even b/ for b/**
			}
			self := cd.self
			if trimmed := strings.TrimRight(self, "/"); repeated && trimmed != "" {
				self = trimmed
			}
			if err := g.add(self, dirOnly); err != nil {
				return err
			}
		}
		err := g.walk(cd.fs, "", func(rel, fsPath string, e entry, dir, link bool) error {
			if dirOnly && !dir {
				return nil
			}
			return g.add(cd.spelled+rel, dirOnly)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// walk calls f for every name below dir that ** matches (no leading '.'
// unless dotglob), descending into directories but not into symbolic links.
func (g *globber) walk(dir, rel string, f func(rel, fsPath string, e entry, dir, link bool) error) error {
	entries, err := g.list(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.de == nil || e.name[0] == '.' && !g.dot {
			continue
		}
		r, fsPath := rel+e.name, join(dir, e.name)
		link := e.de.Type()&fs.ModeSymlink != 0
		isDir := g.isDir(fsPath, e)
		if err := f(r, fsPath, e, isDir, link); err != nil {
			return err
		}
		if isDir && !link {
			if err := g.walk(fsPath, r+"/", f); err != nil {
				return err
			}
		}
	}
	return nil
}

// finish sorts the matches, drops repeats and what GLOBIGNORE ignores.
func (g *globber) finish(err error) ([]string, error) {
	if err != nil {
		return nil, err
	}
	slices.Sort(g.matches)
	g.matches = slices.Compact(g.matches)
	if len(g.opt.Ignore) > 0 {
		var ignore []*Pattern
		mode := g.mode() | Filename | starAll
		for _, s := range g.opt.Ignore {
			if p, err := Compile(s, mode); err == nil {
				ignore = append(ignore, p)
			}
		}
		g.matches = slices.DeleteFunc(g.matches, func(m string) bool {
			last := m
			if i := strings.LastIndexByte(m, '/'); i >= 0 && i < len(m)-1 {
				last = m[i+1:]
			}
			if last == "." || last == ".." {
				return true
			}
			for _, p := range ignore {
				if p.Match(m) {
					return true
				}
			}
			return false
		})
	}
	if len(g.matches) == 0 {
		return nil, nil
	}
	return g.matches, nil
}

func join(dir, name string) string {
	if strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + "/" + name
}
