package effect

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// tally counts what a deletion removes.
type tally struct {
	files, dirs int
	bytes       int64
	partial     bool // the budget ran out: there is more
}

// walk counts what is under dir (not dir itself); match, when set, picks
// the entries counted, by their path as shown from root and their depth.
func (t *tally) walk(ctx context.Context, dir string, match func(shown string, d fs.DirEntry, depth int) bool, shown string, maxDepth int) {
	seen := 0
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		// The budget is looked at every so many entries: a small tree is
		// counted whole however busy the machine, a big one stops in time.
		if seen++; seen%256 == 0 && ctx.Err() != nil {
			t.partial = true
			return filepath.SkipAll
		}
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		depth := 0
		if rel != "." {
			depth = strings.Count(rel, string(filepath.Separator)) + 1
		}
		if maxDepth >= 0 && depth > maxDepth {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		s := shown
		if rel != "." {
			s = strings.TrimSuffix(shown, "/") + "/" + filepath.ToSlash(rel)
		}
		if match != nil {
			if !match(s, d, depth) {
				return nil
			}
		} else if rel == "." {
			return nil
		}
		if d.IsDir() {
			t.dirs++
			return nil
		}
		t.files++
		if fi, err := d.Info(); err == nil {
			t.bytes += fi.Size()
		}
		return nil
	})
}

// counts is "3 files and 2 directories, 2.9 kB".
func (t tally) counts() string {
	if t.partial && t.files == 0 && t.dirs == 0 {
		return "an uncounted number of files"
	}
	var s string
	switch {
	case t.files > 0 && t.dirs > 0:
		s = plural(t.files, "file") + " and " + plural(t.dirs, "directory")
	case t.dirs > 0:
		s = plural(t.dirs, "directory")
	default:
		s = plural(t.files, "file")
	}
	if t.partial {
		s = "at least " + s
	}
	if t.files > 0 {
		s += ", " + size(t.bytes)
	}
	return s
}

// rm says what rm would delete.
func (p *previewer) rm(args []string) string {
	recursive, dirs := false, false
	var ops []string
	flags := true
	for _, a := range args {
		switch {
		case flags && a == "--":
			flags = false
		case flags && strings.HasPrefix(a, "--"):
			recursive = recursive || a == "--recursive"
			dirs = dirs || a == "--dir"
		case flags && len(a) > 1 && a[0] == '-':
			recursive = recursive || strings.ContainsAny(a[1:], "rR")
			dirs = dirs || strings.Contains(a[1:], "d")
		default:
			ops = append(ops, a)
		}
	}
	var t tally
	var targets, missing, kept []string
	onlyDirs := true
	for _, op := range ops {
		path := p.abs(op)
		fi, err := os.Lstat(path)
		switch {
		case err != nil:
			missing = append(missing, op)
		case fi.IsDir() && recursive:
			targets = append(targets, slashed(op))
			t.walk(p.ctx, path, nil, "", -1)
		case fi.IsDir() && dirs && empty(path):
			targets = append(targets, slashed(op))
		case fi.IsDir():
			kept = append(kept, slashed(op))
		default:
			targets = append(targets, op)
			onlyDirs = false
			t.files++
			t.bytes += fi.Size()
		}
	}
	var parts []string
	switch {
	case len(targets) == 0:
	case t.files == 0 && t.dirs == 0 && !t.partial:
		parts = append(parts, "deletes "+list(targets)+" (empty)")
	case onlyDirs:
		parts = append(parts, "deletes "+t.counts()+" in "+list(targets))
	default:
		parts = append(parts, "deletes "+t.counts()+": "+list(targets))
	}
	if len(missing) > 0 {
		parts = append(parts, list(missing)+" "+isAre(len(missing))+" not there")
	}
	if len(kept) > 0 {
		parts = append(parts, "not "+list(kept)+" (a directory, without -r)")
	}
	return strings.Join(parts, "; ")
}

func empty(dir string) bool {
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer f.Close()
	names, _ := f.Readdirnames(1)
	return len(names) == 0
}

// find says what find … -delete would delete: exactly for the tests it
// knows (-name, -iname, -path, -type, -maxdepth, -mindepth, joined by
// and), else everything under the starting points, "up to".
func (p *previewer) find(args []string) string {
	var roots []string
	for len(args) > 0 && !strings.HasPrefix(args[0], "-") && args[0] != "(" && args[0] != "!" {
		roots, args = append(roots, args[0]), args[1:]
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	deletes := false
	exact := true
	maxDepth, minDepth := -1, 0
	var tests []func(shown string, d fs.DirEntry) bool
	for i := 0; i < len(args); i++ {
		a := args[i]
		next := func() (string, bool) {
			if i+1 >= len(args) {
				return "", false
			}
			i++
			return args[i], true
		}
		switch a {
		case "-delete":
			deletes = true
		case "-print", "-depth", "-xdev", "-mount", "-a", "-and":
		case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename":
			pat, ok := next()
			if !ok {
				return ""
			}
			fold := strings.HasPrefix(a, "-i")
			if fold {
				pat = strings.ToLower(pat)
			}
			whole := !strings.HasSuffix(a, "name") || strings.HasSuffix(a, "wholename")
			tests = append(tests, func(shown string, d fs.DirEntry) bool {
				s := d.Name()
				if whole {
					s = shown
				}
				if fold {
					s = strings.ToLower(s)
				}
				ok, _ := filepath.Match(pat, s)
				return ok
			})
		case "-type":
			kind, ok := next()
			if !ok {
				return ""
			}
			tests = append(tests, func(_ string, d fs.DirEntry) bool {
				switch kind {
				case "f":
					return d.Type().IsRegular()
				case "d":
					return d.IsDir()
				case "l":
					return d.Type()&fs.ModeSymlink != 0
				}
				return false
			})
		case "-maxdepth", "-mindepth":
			v, ok := next()
			n, err := strconv.Atoi(v)
			if !ok || err != nil || n < 0 {
				return ""
			}
			if a == "-maxdepth" {
				maxDepth = n
			} else {
				minDepth = n
			}
		default:
			exact = false
			if !strings.HasPrefix(a, "-") || a == "-o" || a == "-or" || a == "-not" {
				continue
			}
		}
	}
	if !deletes {
		return ""
	}
	var t tally
	match := func(shown string, d fs.DirEntry, depth int) bool {
		if depth < minDepth || depth == 0 && shown == "." {
			return false
		}
		if !exact {
			return true
		}
		for _, test := range tests {
			if !test(shown, d) {
				return false
			}
		}
		return true
	}
	var shownRoots []string
	for _, r := range roots {
		path := p.abs(r)
		if _, err := os.Lstat(path); err != nil {
			continue
		}
		shownRoots = append(shownRoots, r)
		t.walk(p.ctx, path, match, r, maxDepth)
	}
	if len(shownRoots) == 0 {
		return ""
	}
	what := "deletes "
	if !exact {
		what = "deletes up to "
	}
	if t.files == 0 && t.dirs == 0 {
		return "deletes nothing under " + list(shownRoots)
	}
	return what + t.counts() + " under " + list(shownRoots)
}

// replaces says what mv or cp would put something else in place of.
func (p *previewer) replaces(cmd string, args []string) string {
	target, noTarget, backup := "", false, false
	var ops []string
	flags := true
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case flags && a == "--":
			flags = false
		case flags && (a == "-t" || a == "--target-directory"):
			if i+1 < len(args) {
				i++
				target = args[i]
			}
		case flags && strings.HasPrefix(a, "--target-directory="):
			target = strings.TrimPrefix(a, "--target-directory=")
		case flags && (a == "--no-clobber" || a == "--update=none"):
			return ""
		case flags && a == "--no-target-directory":
			noTarget = true
		case flags && strings.HasPrefix(a, "--backup"):
			backup = true
		case flags && strings.HasPrefix(a, "--"):
		case flags && len(a) > 1 && a[0] == '-':
			if strings.Contains(a[1:], "n") {
				return ""
			}
			noTarget = noTarget || strings.Contains(a[1:], "T")
			backup = backup || strings.Contains(a[1:], "b")
			if j := strings.IndexByte(a, 't'); j > 0 {
				target = a[j+1:]
				if target == "" && i+1 < len(args) {
					i++
					target = args[i]
				}
			}
		default:
			ops = append(ops, a)
		}
	}
	if backup {
		return ""
	}
	srcs := ops
	if target == "" {
		if len(ops) < 2 {
			return ""
		}
		target, srcs = ops[len(ops)-1], ops[:len(ops)-1]
	}
	var replaced []string
	var bytes int64
	check := func(shown, path, src string) {
		fi, err := os.Lstat(path)
		if err != nil || fi.IsDir() {
			return
		}
		if same(p.abs(src), path) {
			return
		}
		replaced = append(replaced, shown)
		bytes += fi.Size()
	}
	tfi, err := os.Stat(p.abs(target))
	switch {
	case err == nil && tfi.IsDir() && !noTarget:
		for _, src := range srcs {
			base := filepath.Base(src)
			check(strings.TrimSuffix(target, "/")+"/"+base, filepath.Join(p.abs(target), base), src)
		}
	case len(srcs) == 1:
		check(target, p.abs(target), srcs[0])
	}
	switch len(replaced) {
	case 0:
		return ""
	case 1:
		return "replaces " + replaced[0] + " (" + size(bytes) + ")"
	}
	return fmt.Sprintf("replaces %d files, %s: %s", len(replaced), size(bytes), list(replaced))
}

// same reports whether two paths are one file (mv a a).
func same(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// tee says which files tee would overwrite or create.
func (p *previewer) tee(args []string) string {
	appends := false
	var parts []string
	for _, a := range args {
		switch {
		case a == "-a" || a == "--append":
			appends = true
		case strings.HasPrefix(a, "-") && a != "-":
		default:
			parts = append(parts, p.writes(a, appends))
		}
	}
	return join(parts)
}

// redirect says what an output redirection would overwrite or create.
func (p *previewer) redirect(r *syntax.Redirect) {
	appends := false
	switch r.Op {
	case syntax.RdrOut, syntax.RdrClob, syntax.RdrAll:
	case syntax.AppOut, syntax.AppAll, syntax.RdrInOut:
		appends = true
	default:
		return
	}
	// As the shell expands it: a name that splits or globs to more than
	// one is an error, and nothing is written.
	names, ok := p.fields([]*syntax.Word{r.Word})
	if !ok || len(names) != 1 || names[0] == "" || unknown(names[0]) {
		return
	}
	p.add(p.writes(names[0], appends))
}

// writes is what writing to name does to it: overwrites it, or creates it.
func (p *previewer) writes(name string, appends bool) string {
	if strings.HasPrefix(name, "/dev/") || name == "-" {
		return ""
	}
	fi, err := os.Stat(p.abs(name))
	switch {
	case err != nil:
		return "creates " + name
	case appends || !fi.Mode().IsRegular():
		return ""
	case fi.Size() == 0:
		return "overwrites " + name + " (empty)"
	}
	return "overwrites " + name + " (" + size(fi.Size()) + ")"
}

func join(parts []string) string {
	var out []string
	for _, s := range parts {
		if s != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, "; ")
}

// slashed marks a directory's name with a slash.
func slashed(name string) string {
	if strings.HasSuffix(name, "/") {
		return name
	}
	return name + "/"
}

// list names up to three things, and how many more.
func list(names []string) string {
	if len(names) <= 3 {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:3], ", ") + fmt.Sprintf(" and %d more", len(names)-3)
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	switch {
	case strings.HasSuffix(what, "y"):
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(what, "y"))
	case strings.HasSuffix(what, "sh"):
		return fmt.Sprintf("%d %ses", n, what)
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// size is a byte count in SI units, as ls -h --si and du --si write it.
func size(n int64) string {
	if n < 1000 {
		return fmt.Sprintf("%d B", n)
	}
	f := float64(n) / 1000
	units := []string{"kB", "MB", "GB", "TB"}
	i := 0
	for f >= 999.5 && i < len(units)-1 {
		f /= 1000
		i++
	}
	if f < 9.95 {
		return fmt.Sprintf("%.1f %s", f, units[i])
	}
	return fmt.Sprintf("%.0f %s", f, units[i])
}
