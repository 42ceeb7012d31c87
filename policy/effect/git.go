package effect

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// git says what a git command would lose: untracked files (clean),
// commits on a remote (push --force), uncommitted changes and commits
// (reset --hard, checkout -- PATHS, restore), branches and stashes. It
// asks git only read-only questions, with the file system monitor off,
// so that a repository's configuration runs nothing.
func (p *previewer) git(args []string) string {
	dir := p.dir
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch a := args[0]; {
		case a == "-C" && len(args) > 1:
			dir = filepath.Join(dir, args[1])
			if filepath.IsAbs(args[1]) {
				dir = args[1]
			}
			args = args[2:]
		case a == "-c" && len(args) > 1:
			args = args[2:]
		case a == "--git-dir" || a == "--work-tree" || strings.HasPrefix(a, "--git-dir=") || strings.HasPrefix(a, "--work-tree="):
			return "" // another repository than the directory's: not guessed at
		default:
			args = args[1:]
		}
	}
	if len(args) == 0 {
		return ""
	}
	g := gitIn{p: p, dir: dir}
	switch sub, rest := args[0], args[1:]; sub {
	case "clean":
		return g.clean(rest)
	case "push":
		return g.push(rest)
	case "reset":
		return g.reset(rest)
	case "checkout":
		return g.checkout(rest)
	case "restore":
		return g.restore(rest)
	case "branch":
		return g.branch(rest)
	case "stash":
		return g.stash(rest)
	}
	return ""
}

// gitIn asks git about the repository at dir.
type gitIn struct {
	p   *previewer
	dir string
}

// run is git's answer, or an error (also past the budget).
func (g gitIn) run(args ...string) (string, error) {
	if err := g.p.ctx.Err(); err != nil {
		return "", err
	}
	cmd := exec.CommandContext(g.p.ctx, "git", append([]string{"-C", g.dir, "-c", "core.fsmonitor=false", "--no-pager"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C", "GIT_TERMINAL_PROMPT=0")
	out, err := cmd.Output()
	return string(out), err
}

// lines is git's answer split into lines, none when it failed.
func (g gitIn) lines(args ...string) ([]string, bool) {
	out, err := g.run(args...)
	if err != nil {
		return nil, false
	}
	out = strings.TrimRight(out, "\n")
	if out == "" {
		return nil, true
	}
	return strings.Split(out, "\n"), true
}

// branchName is the branch HEAD is on, or "HEAD" when detached.
func (g gitIn) branchName() string {
	out, err := g.run("symbolic-ref", "--short", "-q", "HEAD")
	if b := strings.TrimSpace(out); err == nil && b != "" {
		return b
	}
	return "HEAD"
}

// commits describes commits listed by rev-list --oneline: how many, and
// the newest one's subject.
func commits(list []string) string {
	s := plural(len(list), "commit")
	if len(list) > 0 {
		first := list[0]
		if r := []rune(first); len(r) > 48 {
			first = string(r[:47]) + "…"
		}
		s += " (" + first
		if len(list) > 1 {
			s += ", …"
		}
		s += ")"
	}
	return s
}

// clean says what git clean would delete: git clean --dry-run with the
// same options.
func (g gitIn) clean(args []string) string {
	dry := []string{"clean", "--dry-run"}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			dry = append(dry, args[i:]...)
			i = len(args)
		case a == "-n" || a == "--dry-run" || a == "-i" || a == "--interactive":
			return "" // nothing deleted, or asked one by one
		case a == "-f" || a == "--force" || a == "-q" || a == "--quiet":
		case a == "-e" || a == "--exclude":
			if i+1 < len(args) {
				dry = append(dry, a, args[i+1])
				i++
			}
		case strings.HasPrefix(a, "--"):
			dry = append(dry, a)
		case len(a) > 1 && a[0] == '-':
			if strings.ContainsAny(a, "ni") {
				return ""
			}
			if rest := strings.NewReplacer("f", "", "q", "").Replace(a[1:]); rest != "" {
				dry = append(dry, "-"+rest)
			}
		default:
			dry = append(dry, a)
		}
	}
	out, ok := g.lines(dry...)
	if !ok {
		return ""
	}
	var t tally
	var names []string
	for _, l := range out {
		name, ok := strings.CutPrefix(l, "Would remove ")
		if !ok {
			continue
		}
		names = append(names, name)
		path := filepath.Join(g.dir, name)
		fi, err := os.Lstat(path)
		switch {
		case err != nil:
		case fi.IsDir():
			t.walk(g.p.ctx, path, nil, "", -1)
		default:
			t.files++
			t.bytes += fi.Size()
		}
	}
	if len(names) == 0 {
		return "git clean: nothing to delete"
	}
	return "deletes " + t.counts() + " untracked: " + list(names)
}

// push says what a forced push drops on the remote, as of the last fetch,
// and which branches a push deletes there.
func (g gitIn) push(args []string) string {
	force, del := false, false
	var pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-f" || a == "--force" || a == "--mirror" || strings.HasPrefix(a, "--force-with-lease"):
			force = true
		case a == "-d" || a == "--delete":
			del = true
		case a == "-o" || a == "--push-option" || a == "--repo" || a == "--receive-pack" || a == "--exec":
			i++
		case strings.HasPrefix(a, "--"):
		case len(a) > 1 && a[0] == '-':
			force = force || strings.Contains(a, "f")
			del = del || strings.Contains(a, "d")
		default:
			pos = append(pos, a)
		}
	}
	var specs []string
	for _, s := range pos[min(1, len(pos)):] {
		if strings.HasPrefix(s, "+") || strings.HasPrefix(s, ":") {
			force = force || s[0] == '+'
		}
		specs = append(specs, s)
	}
	if !force && !del && !hasDeletion(specs) {
		return ""
	}
	branch := g.branchName()
	remote := ""
	if len(pos) > 0 {
		remote = pos[0]
	} else if out, err := g.run("config", "branch."+branch+".remote"); err == nil {
		remote = strings.TrimSpace(out)
	}
	if remote == "" {
		remote = "origin"
	}
	if len(specs) == 0 {
		specs = []string{branch}
	}
	var parts []string
	for _, s := range specs {
		plus := strings.HasPrefix(s, "+")
		s = strings.TrimPrefix(s, "+")
		src, dst, colon := strings.Cut(s, ":")
		if !colon {
			dst = src
		}
		if src == "HEAD" {
			src = branch
		}
		if dst == "HEAD" {
			dst = branch
		}
		tracking := "refs/remotes/" + remote + "/" + strings.TrimPrefix(dst, "refs/heads/")
		shown := remote + "/" + strings.TrimPrefix(dst, "refs/heads/")
		switch {
		case del || colon && src == "":
			parts = append(parts, "deletes the branch "+shown)
		case force || plus:
			lost, ok := g.lines("rev-list", "--oneline", "--no-abbrev-commit", src+".."+tracking)
			switch {
			case !ok:
				parts = append(parts, "force-pushes "+src+" to "+shown+" (not fetched: what it drops there is unknown)")
			case len(lost) == 0:
				parts = append(parts, "force-pushes "+src+" to "+shown+": drops nothing there, as of the last fetch")
			default:
				parts = append(parts, "force-pushes "+src+" to "+shown+": drops "+commits(short(lost))+" there")
			}
		}
	}
	return strings.Join(parts, "; ")
}

func hasDeletion(specs []string) bool {
	for _, s := range specs {
		if strings.HasPrefix(s, ":") {
			return true
		}
	}
	return false
}

// short abbreviates the hashes of rev-list --oneline --no-abbrev-commit
// lines to seven characters, whatever core.abbrev says.
func short(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if h, rest, ok := strings.Cut(l, " "); ok && len(h) > 7 {
			l = h[:7] + " " + rest
		}
		out[i] = l
	}
	return out
}

// reset says what git reset --hard loses: uncommitted changes to tracked
// files, and the commits the branch moves off.
func (g gitIn) reset(args []string) string {
	hard := false
	target := "HEAD"
	for _, a := range args {
		switch {
		case a == "--hard":
			hard = true
		case a == "--":
		case strings.HasPrefix(a, "-"):
		default:
			target = a
		}
	}
	if !hard {
		return ""
	}
	var parts []string
	if changed, ok := g.lines("diff", "--name-only", "--no-ext-diff", "HEAD"); ok && len(changed) > 0 {
		parts = append(parts, "discards uncommitted changes to "+plural(len(changed), "file")+": "+list(changed))
	}
	if lost, ok := g.lines("rev-list", "--oneline", "--no-abbrev-commit", target+"..HEAD"); ok && len(lost) > 0 {
		parts = append(parts, "moves "+g.branchName()+" off "+commits(short(lost)))
	}
	return strings.Join(parts, "; ")
}

// checkout says what git checkout PATHS (or -f) throws away: the changes
// in the working tree that the checkout overwrites.
func (g gitIn) checkout(args []string) string {
	force := false
	var before, paths []string
	dashes := false
	for _, a := range args {
		switch {
		case dashes:
			paths = append(paths, a)
		case a == "--":
			dashes = true
		case a == "-f" || a == "--force":
			force = true
		case strings.HasPrefix(a, "-"):
			if a == "-b" || a == "-B" || a == "--orphan" {
				return ""
			}
		default:
			before = append(before, a)
		}
	}
	treeish := ""
	switch {
	case dashes:
		if len(before) > 0 {
			treeish = before[0]
		}
	case len(before) > 0:
		// Without --, what names a file is a path; otherwise a branch.
		for _, a := range before {
			if _, err := os.Lstat(filepath.Join(g.dir, a)); err == nil {
				paths = append(paths, a)
			} else if len(paths) == 0 && treeish == "" {
				treeish = a
			}
		}
	}
	if len(paths) == 0 {
		if !force {
			return ""
		}
		return g.discards("HEAD", nil)
	}
	return g.discards(treeish, paths)
}

// restore says what git restore throws away in the working tree.
func (g gitIn) restore(args []string) string {
	staged, worktree := false, false
	source := ""
	var paths []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--staged" || a == "-S":
			staged = true
		case a == "--worktree" || a == "-W":
			worktree = true
		case a == "--source" || a == "-s":
			if i+1 < len(args) {
				i++
				source = args[i]
			}
		case strings.HasPrefix(a, "--source="):
			source = strings.TrimPrefix(a, "--source=")
		case a == "--":
		case strings.HasPrefix(a, "-"):
		default:
			paths = append(paths, a)
		}
	}
	if staged && !worktree || len(paths) == 0 {
		return "" // only the index changes
	}
	return g.discards(source, paths)
}

// discards lists the files whose working-tree changes a checkout of
// paths from treeish (the index when "") overwrites.
func (g gitIn) discards(treeish string, paths []string) string {
	args := []string{"diff", "--name-only", "--no-ext-diff"}
	if treeish != "" {
		args = append(args, treeish)
	}
	args = append(append(args, "--"), paths...)
	changed, ok := g.lines(args...)
	if !ok || len(changed) == 0 {
		return ""
	}
	return "discards changes to " + plural(len(changed), "file") + ": " + list(changed)
}

// branch says what deleting branches loses: the commits on no other
// branch, tag or remote-tracking branch.
func (g gitIn) branch(args []string) string {
	del, force := false, false
	var names []string
	for _, a := range args {
		switch {
		case a == "-D":
			del, force = true, true
		case a == "-d" || a == "--delete":
			del = true
		case a == "-f" || a == "--force":
			force = true
		case strings.HasPrefix(a, "-"):
			if strings.Contains(a, "D") {
				del, force = true, true
			}
		default:
			names = append(names, a)
		}
	}
	if !del || !force {
		return "" // git refuses to delete what is not merged
	}
	var parts []string
	for _, b := range names {
		ref := "refs/heads/" + b
		// --exclude matches what --branches lists, without refs/heads/.
		only, ok := g.lines("rev-list", "--oneline", "--no-abbrev-commit", ref, "--not", "--exclude="+b, "--branches", "--tags", "--remotes")
		switch {
		case !ok:
		case len(only) == 0:
			parts = append(parts, "deletes the branch "+b+" (its commits are on other branches)")
		default:
			parts = append(parts, "deletes the branch "+b+" and "+commits(short(only))+" on no other branch")
		}
	}
	return strings.Join(parts, "; ")
}

// stash says which stashes drop and clear lose.
func (g gitIn) stash(args []string) string {
	if len(args) == 0 {
		return ""
	}
	switch args[0] {
	case "clear":
		list, ok := g.lines("stash", "list")
		if !ok || len(list) == 0 {
			return ""
		}
		return "drops " + plural(len(list), "stash") + ": " + strings.SplitN(list[0], ": ", 2)[0] + "…"
	case "drop":
		which := "stash@{0}"
		for _, a := range args[1:] {
			if !strings.HasPrefix(a, "-") {
				which = a
			}
		}
		if n, err := strconv.Atoi(which); err == nil {
			which = fmt.Sprintf("stash@{%d}", n)
		}
		out, err := g.run("log", "-1", "--format=%gs", "-g", which)
		if s := strings.TrimSpace(out); err == nil && s != "" {
			return "drops " + which + " (" + s + ")"
		}
	}
	return ""
}
