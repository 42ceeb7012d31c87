package danger

import (
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/qsh-shell/qsh/internal/lazy"
	"github.com/qsh-shell/qsh/policy/secret"
)

// Checks for commands that run another command on found files.

// xargs runs a command with arguments read from its input, which are
// not known before running.
func (w *walker) xargs(chain string, args []arg, io ioInfo) {
	r := &rule{vals: "-I -i -L -l -n -P -d -E -e -s -a --arg-file --delimiter --max-args --max-procs --replace --max-lines --eof -j --jobs"}
	ss := make([]string, len(args))
	for i, a := range args {
		ss[i] = a.s
	}
	i := unwrapIndex(r, ss)
	for j, a := range ss[:max(i, 1)] {
		// -a FILE: the arguments come from a file, which this string may
		// have written (xargs -a <(echo ~) rm -rf).
		if (a == "-a" || a == "--arg-file") && j+1 < len(ss) {
			if p, ok := w.abs(ss[j+1]); ok {
				if content, wrote := w.shared.scripts[p]; wrote && !hasHole(content) {
					io.in = input{kind: inData, data: content}
				} else {
					io.in = input{kind: inUnknown}
				}
			}
		}
	}
	own := ss
	if i > 0 {
		own = ss[:i] // xargs's own flags; the command's are its business
	}
	if io.in.endless && unboundedJobs(own, "-P", "--max-procs") {
		w.res.add(Blocked, "fork bomb: `"+chain+" -P`: starts a process for every line of an input that never "+
			"ends (or has more lines than a machine has processes), all at once")
	}
	repl := ""
	for j, a := range own {
		if (a == "-I" || a == "--replace") && j+1 < len(own) {
			repl = own[j+1]
		} else if strings.HasPrefix(a, "-I") && len(a) > 2 {
			repl = a[2:]
		} else if a == "-i" || strings.HasPrefix(a, "--replace=") {
			repl = "{}"
		}
	}
	var inner []arg
	if i < 0 {
		inner = []arg{{s: "echo", text: "echo"}}
	} else {
		inner = append(inner, args[i:]...)
	}
	fill := hole
	if w.shared.runtime && io.in.kind == inNone && w.cwd != "" {
		// At run time the pipe feeding xargs cannot be seen; the string
		// was judged with it. Take the names for files here.
		io.in = input{kind: inPaths, data: w.cwd}
	}
	if io.in.kind == inDownload {
		fill = string(holeDL)
	} else if io.in.names {
		fill = holeEntry // a bare name: ~/{} is every entry of ~
	} else if p := foundPath(io.in); p != "" {
		fill = p
	}
	if !w.shared.runtime && (io.in.kind == inPaths || io.in.kind == inTree) && i > 0 {
		// find … | xargs -n1 sh: as find -exec sh {}.
		probe := slices.Clone(inner)
		for j := 1; j < len(probe) && repl != ""; j++ {
			probe[j].s = strings.ReplaceAll(probe[j].s, repl, "{}")
		}
		if repl == "" {
			probe = append(probe, arg{s: "{}", text: "{}"})
		}
		if runsFound(probe) {
			w.res.add(Dangerous, "`xargs "+inner[0].text+"`: runs every file the listing names as a program")
		}
	}
	if repl != "" && io.in.kind == inData && !hasHole(io.in.data) {
		// xargs -I{} CMD {} with known input: CMD once per line.
		for n, line := range strings.Split(strings.TrimRight(io.in.data, "\n"), "\n") {
			if n == 16 {
				break
			}
			c := append([]arg(nil), inner...)
			for j := range c {
				if j > 0 {
					c[j].s = strings.ReplaceAll(c[j].s, repl, line)
				}
			}
			w.exec(c, ioInfo{})
		}
		return
	}
	if repl != "" {
		for j := range inner {
			if j > 0 {
				inner[j].s = strings.ReplaceAll(inner[j].s, repl, fill)
			}
		}
	} else if io.in.kind == inData && !hasHole(io.in.data) {
		// The items go to the command in batches of -n (or -L) items,
		// every batch a run of its own; all of them at once otherwise.
		var batches [][]string
		per, lines := xargsBatch(own)
		if lines {
			// -L N: N lines a run, each line's words its arguments.
			all := strings.Split(strings.TrimRight(io.in.data, "\n"), "\n")
			for n := 0; n < len(all); n += per {
				batches = append(batches, strings.Fields(strings.Join(all[n:min(n+per, len(all))], " ")))
			}
		} else {
			items := xargsItems(io.in.data, own)
			if per == 0 {
				per = max(len(items), 1)
			}
			for n := 0; n < len(items); n += per {
				batches = append(batches, items[n:min(n+per, len(items))])
			}
		}
		if len(batches) == 0 {
			batches = [][]string{nil}
		}
		for _, b := range batches[:min(len(batches), 16)] {
			c := slices.Clone(inner)
			for _, f := range b {
				c = append(c, arg{s: f, text: f, quoted: true}) // xargs expands no pattern
			}
			w.exec(c, ioInfo{})
		}
		return
	} else {
		inner = append(inner, arg{s: fill, text: "(input)"})
	}
	w.exec(inner, ioInfo{})
}

// findActions are find predicates that run a command up to `;` or `+`.
var findActions = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"-exec": true, "-execdir": true, "-ok": true, "-okdir": true}
}}

func (w *walker) find(chain string, args []arg, io ioInfo) {
	var roots []string
	i := 1
	for ; i < len(args); i++ {
		a := args[i].s
		if a == "-H" || a == "-L" || a == "-P" || strings.HasPrefix(a, "-O") || a == "-D" {
			if a == "-D" {
				i++
			}
			continue
		}
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" {
			break
		}
		roots = append(roots, a)
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	filtered := false
	entry := w.findEntryIn(roots, args[i:])
	if entry == "" {
		entry = findBuildDir(args[i:])
	}
	for ; i < len(args); i++ {
		a := args[i].s
		switch {
		case findActions.Get()[a]:
			var inner []arg
			j := i + 1
			for ; j < len(args) && args[j].s != ";" && args[j].s != "+"; j++ {
				inner = append(inner, args[j])
			}
			i = j
			if len(inner) == 0 {
				continue
			}
			w.findExec(inner, roots, filtered, entry)
		case a == "-delete":
			w.findDelete(roots, filtered)
		case a == "-fprint" || a == "-fprint0" || a == "-fprintf" || a == "-fls":
			if i+1 < len(args) {
				w.writeTo(args[i+1].s, "find "+a, args[i+1].text)
			}
		case a == "-name" || a == "-iname" || a == "-path" || a == "-ipath" || a == "-regex" || a == "-iregex" ||
			a == "-newer" || a == "-size" || a == "-empty" || a == "-wholename":
			// A pattern that matches every name (-name '*', -regex '.*')
			// filters nothing.
			if i+1 >= len(args) || !matchesAll(a, args[i+1].s) {
				filtered = true
			}
		case a == "-mtime" || a == "-mmin" || a == "-atime" || a == "-amin" || a == "-ctime" || a == "-cmin":
			// Older than a day (+1) is most of a tree; newer (-1) is not.
			if i+1 < len(args) && !strings.HasPrefix(args[i+1].s, "+") {
				filtered = true
			}
		}
	}
}

// foundPath stands for the paths a search prints (find, locate, grep -l):
// a file holding secrets its filter matches, one entry it finds, or any
// file under its tree; "" for any other input.
func foundPath(in input) string {
	if in.kind != inPaths && in.kind != inTree {
		return ""
	}
	switch {
	case in.entry != "" && strings.HasPrefix(in.entry, "/"):
		return in.entry
	case in.entry != "":
		return path.Join(in.data, in.entry)
	case in.kind == inTree && !in.filtered:
		return in.data + "/" + holeTree
	}
	return in.data + "/" + holeEntry
}

// findFilter is what a find expression (as plain strings) keeps: a file
// holding secrets it can match, and whether a test filters by name, path
// or time at all.
func findFilter(args []string) (entry string, filtered bool) {
	var expr []arg
	for i, a := range args {
		expr = append(expr, arg{s: a})
		switch a {
		case "-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-newer", "-mtime", "-mmin", "-user",
			"-size", "-empty", "-wholename":
			if i+1 >= len(args) || !matchesAll(a, args[i+1]) {
				filtered = true
			}
		}
	}
	return findEntry(expr), filtered
}

// locateEntry is a file holding secrets that locate's patterns match,
// or "": locate prints every path that holds a pattern.
func locateEntry(args []string) string {
	for _, a := range args {
		if strings.HasPrefix(a, "-") || a == "" {
			continue
		}
		pat := strings.ToLower(a)
		for _, c := range locateSecrets() {
			if strings.ContainsAny(pat, "*?[") {
				if glob(strings.ReplaceAll(strings.ReplaceAll(pat, "?", "*"), "[", "*"), c) {
					return c
				}
			} else if strings.Contains(c, pat) {
				return c
			}
		}
	}
	return ""
}

// locateSecrets are paths of secrets for matching locate's patterns.
func locateSecrets() []string {
	out := []string{"/home/u/.ssh/id_rsa", "/home/u/.aws/credentials", "/home/u/.gnupg/private-keys-v1.d/k.key",
		"/home/u/.kube/config", "/home/u/.docker/config.json", "/etc/shadow"}
	for _, n := range secret.NameExamples() {
		out = append(out, "/home/u/"+n)
	}
	return out
}

// findBuildDir is the regenerable build directory a find expression
// matches and nothing else (-name __pycache__ with no -o, ! or ,), or "":
// {} then names such a directory under the root.
func findBuildDir(expr []arg) string {
	name := ""
	for i, a := range expr {
		switch a.s {
		case "-o", "-or", "!", "-not", ",", "(", ")":
			return ""
		case "-name":
			if i+1 < len(expr) && buildDirs.Get()[expr[i+1].s] && (name == "" || name == expr[i+1].s) {
				name = expr[i+1].s
			} else if i+1 < len(expr) {
				return ""
			}
		}
	}
	return name
}

func (w *walker) findExec(inner []arg, roots []string, filtered bool, entry string) {
	if runsFound(inner) {
		// Every script the search turns up, vendored and generated ones
		// too: which programs run cannot be known from the line.
		w.res.add(Dangerous, "`find -exec "+inner[0].text+"`: runs every file the search finds as a program")
	}
	for _, root := range roots {
		c := make([]arg, len(inner))
		copy(c, inner)
		for k := range c {
			if k > 0 && strings.Contains(c[k].s, "{}") {
				found := strings.TrimSuffix(root, "/") + "/" + holeEntry
				if !filtered && commandBase(c[0].s) != "rm" && commandBase(c[0].s) != "shred" {
					found = strings.TrimSuffix(root, "/") + "/" + holeTree // every file under root
				}
				if entry != "" {
					found = strings.TrimSuffix(root, "/") + "/" + entry
					if strings.HasPrefix(entry, "/") {
						found = entry
					}
				}
				c[k].s = strings.ReplaceAll(c[k].s, "{}", found)
			}
		}
		p, ok := w.abs(root)
		if name := commandBase(c[0].s); (name == "rm" || name == "shred") && ok && w.catastrophic(p) != "" && !filtered {
			w.res.add(Blocked, "`find "+root+" -exec "+name+"`: "+w.catastrophic(p))
		}
		w.exec(c, ioInfo{})
	}
}

// runsFound reports whether find's -exec command runs the found file as a
// program: {} is the command, or the script a shell or interpreter runs.
func runsFound(inner []arg) bool {
	if len(inner) == 0 {
		return false
	}
	if strings.Contains(inner[0].s, "{}") {
		return true
	}
	r := lookup(commandBase(inner[0].s))
	if r == nil || r.kind != kindShell && r.kind != kindInterp {
		return false
	}
	for _, a := range inner[1:] {
		if !strings.HasPrefix(a.s, "-") {
			return strings.Contains(a.s, "{}")
		}
		if strings.Contains(r.code, a.s) || a.s == "-m" || a.s == "-n" || a.s == "--check" {
			// -c code is judged as code; -m runs a module on the file;
			// -n and --check only parse it.
			return false
		}
	}
	return false
}

// findEntry is a file a find expression can match that holds secrets
// (-name id_rsa, -name '*.pem', -path '*/.aws/*'), or "": what the
// command it runs on each file then reads.
// findEntryIn is findEntry for a find over roots: a name filter that
// also matches everyday files (-name '*.json') over the workspace is not
// aimed at secrets, so what it finds on the disk decides, as for a glob.
func (w *walker) findEntryIn(roots []string, expr []arg) string {
	entry := findEntry(expr)
	if entry == "" || strings.HasPrefix(entry, "/") {
		return entry
	}
	var names []string
	for i := 0; i+1 < len(expr); i++ {
		switch expr[i].s {
		case "-name", "-iname":
			pattern := expr[i+1].s
			if expr[i].s == "-iname" {
				pattern = strings.ToLower(pattern)
			}
			if !slices.ContainsFunc(ordinaryNames, func(n string) bool { return globComponent(pattern, n) }) {
				return entry
			}
			names = append(names, pattern)
		case "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex":
			return entry
		}
	}
	budget := 4096
	for _, r := range roots {
		p, ok := w.abs(r)
		if !ok || !w.inside(p) && p != w.ws.Dir {
			return entry
		}
		if found := secretUnder(p, names, &budget); found != "" {
			return found
		}
		if budget <= 0 {
			return entry
		}
	}
	return ""
}

// secretUnder is a file under dir, named as secrets are, that one of the
// name patterns matches, reading at most budget directory entries.
func secretUnder(dir string, patterns []string, budget *int) string {
	found := ""
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if *budget--; *budget <= 0 || err != nil || found != "" {
			return filepath.SkipAll
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		base := d.Name()
		if !d.IsDir() && secret.Name(base) && slices.ContainsFunc(patterns, func(pat string) bool {
			return globComponent(pat, base) || globComponent(pat, strings.ToLower(base))
		}) {
			found = p
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

func findEntry(expr []arg) string {
	for i := 0; i+1 < len(expr); i++ {
		pattern := expr[i+1].s
		switch expr[i].s {
		case "-name", "-iname":
			if expr[i].s == "-iname" {
				pattern = strings.ToLower(pattern)
			}
			for _, n := range secret.NameExamples() {
				if globComponent(pattern, n) {
					return n
				}
			}
		case "-path", "-ipath", "-wholename", "-iwholename":
			for _, c := range []string{"/home/u/.ssh/id_rsa", "/home/u/.aws/credentials", "/home/u/.gnupg/x.key",
				"/home/u/.kube/config", "/home/u/.docker/config.json", "/proc/1/environ", "/run/secrets/x"} {
				if glob(pattern, c) {
					return c
				}
			}
		}
	}
	return ""
}

func (w *walker) findDelete(roots []string, filtered bool) {
	for _, root := range roots {
		p, ok := w.abs(root)
		switch {
		case !ok:
			w.res.add(Dangerous, "`find "+root+" -delete`: deletes under a path not known before running")
		case w.catastrophic(p) != "" && !filtered:
			w.res.add(Blocked, "`find "+root+" -delete`: "+w.catastrophic(p))
		case w.catastrophic(p) != "" || !w.inside(p) && p != w.ws.Dir:
			w.res.add(Dangerous, "`find "+root+" -delete`: deletes files outside the workspace")
		default:
			w.res.add(Dangerous, "`find "+root+" -delete`: deletes every file it matches")
		}
	}
}

func (w *walker) fd(chain string, args []arg, io ioInfo) {
	// fd [PATTERN] [PATH…]: every path under the paths whose name matches
	// the pattern (a regexp, or a glob with -g).
	r := &rule{vals: "-e --extension -t --type -E --exclude -d --max-depth --min-depth -S --size " +
		"--changed-within --changed-before -o --owner -j --threads --max-results -c --color --base-directory"}
	var pattern string
	dirs := []string{"."}
	glob := false
	for _, a := range args[1:] {
		if a.s == "-g" || a.s == "--glob" {
			glob = true
		}
		if a.s == "-x" || a.s == "--exec" || a.s == "-X" || a.s == "--exec-batch" {
			break
		}
	}
	for n, i := range scan(r, args) {
		if a := args[i-1].s; a == "-x" || a == "--exec" || a == "-X" || a == "--exec-batch" {
			break
		}
		if n == 0 {
			pattern = args[i].s
		} else {
			if n == 1 {
				dirs = nil
			}
			dirs = append(dirs, args[i].s)
		}
	}
	for i, a := range args {
		if (a.s == "-x" || a.s == "--exec" || a.s == "-X" || a.s == "--exec-batch") && i+1 < len(args) {
			inner := args[i+1:]
			if !slices.ContainsFunc(inner[1:], func(a arg) bool { return strings.Contains(a.s, "{}") }) {
				inner = append(slices.Clone(inner), arg{s: "{}", text: "{}"}) // fd adds the path last
			}
			if runsFound(inner) {
				w.res.add(Dangerous, "`fd -x "+inner[0].text+"`: runs every file the search finds as a program")
			}
			for _, d := range dirs {
				found := foundPath(input{kind: inTree, data: d, entry: fdEntry(pattern, glob),
					filtered: pattern != "" && pattern != "."})
				inner := append([]arg(nil), args[i+1:]...)
				hasBraces := false
				for k := range inner {
					if k > 0 && strings.Contains(inner[k].s, "{}") {
						inner[k].s = strings.ReplaceAll(inner[k].s, "{}", found)
						hasBraces = true
					}
				}
				if !hasBraces {
					inner = append(inner, arg{s: found, text: "{}"})
				}
				w.exec(inner, ioInfo{})
			}
			return
		}
	}
}

// fdEntry is a name of a file holding secrets that fd's pattern matches,
// or "".
func fdEntry(pattern string, isGlob bool) string {
	if pattern == "" {
		return ""
	}
	var re *regexp.Regexp
	if !isGlob {
		var err error
		if re, err = regexp.Compile("(?i)" + pattern); err != nil {
			return ""
		}
	}
	for _, n := range secret.NameExamples() {
		if isGlob && globComponent(pattern, n) || re != nil && re.MatchString(n) {
			return n
		}
	}
	return ""
}

// parallelVals are GNU parallel's options that take a value.
const parallelVals = "-j --jobs -S --sshlogin --sshloginfile -I --replace -N -n --max-args -d --delimiter " +
	"-a --arg-file --tmpdir --joblog --results --res -E --eof --colsep -C --timeout --delay --retries " +
	"--halt --tag-string --workdir --wd --memfree --load --nice -L --max-lines -s --max-chars " +
	"--basefile --bf --return --transfer-file --tf --env --limit"

// parallel judges GNU parallel: it runs its command (the words before
// ::: joined) through a shell once per input value, the value put in
// place of {} (and {.} {/} {//} {/.}) or appended; with no command the
// values are the command lines. Without ::: the input comes from stdin,
// as for xargs.
func (w *walker) parallel(chain string, args []arg, io ioInfo) {
	ownArgs := make([]string, len(args))
	for k, a := range args {
		ownArgs[k] = a.s
	}
	if io.in.endless && unboundedJobs(ownArgs, "-j", "--jobs") {
		w.res.add(Blocked, "fork bomb: `"+chain+" -j`: starts a job for every line of an input that never ends "+
			"(or has more lines than a machine has processes), all at once")
	}
	for _, a := range args[1:] {
		if f, _, _ := strings.Cut(a.s, "="); f == "-S" || f == "--sshlogin" || f == "--slf" ||
			f == "--sshloginfile" || f == "--onall" || f == "--nonall" {
			w.res.add(Dangerous, "`"+chain+" "+f+"`: runs the jobs on other machines over ssh")
		}
	}
	sep := slices.IndexFunc(args, func(a arg) bool { return strings.HasPrefix(a.s, ":::") })
	if sep < 0 {
		// One job per input line: with no command, the line is the
		// command line; else it is appended to the command (-n 1).
		ss := make([]string, len(args))
		for i, a := range args {
			ss[i] = a.s
		}
		if unwrapIndex(&rule{vals: parallelVals}, ss) < 0 {
			if io.in.kind != inData || hasHole(io.in.data) {
				w.res.add(Dangerous, "`"+chain+"`: runs each line of its input as a command, not known before running")
				return
			}
			for n, line := range strings.Split(strings.TrimRight(io.in.data, "\n"), "\n") {
				if n == 16 {
					break
				}
				w.nested(line, input{})
			}
			return
		}
		w.xargs(chain, slices.Insert(slices.Clone(args), 1, arg{s: "-n", text: "-n"}, arg{s: "1", text: "1"},
			arg{s: "-d", text: "-d"}, arg{s: "\n", text: "\n"}), io)
		return
	}
	ss := make([]string, sep)
	for i, a := range args[:sep] {
		ss[i] = a.s
	}
	var cmd []string
	repl := "{}"
	if i := unwrapIndex(&rule{vals: parallelVals}, ss); i > 0 {
		cmd = ss[i:]
	}
	for j, a := range ss {
		if (a == "-I" || a == "--replace") && j+1 < len(ss) {
			repl = ss[j+1]
		}
	}
	code := strings.Join(cmd, " ")
	n := 0
	for _, a := range args[sep:] {
		if strings.HasPrefix(a.s, ":::") {
			continue
		}
		if n++; n > 16 {
			break
		}
		q := quoteArgs([]string{a.s})
		switch {
		case code == "":
			w.nested(a.s, input{})
		case strings.Contains(code, "{"):
			line := code
			for _, r := range []string{repl, "{.}", "{/}", "{//}", "{/.}"} {
				line = strings.ReplaceAll(line, r, q)
			}
			w.nested(line, input{})
		default:
			w.nested(code+" "+q, input{})
		}
	}
}

// xargsItems splits xargs's input as xargs(1) does: at NULs with -0, at
// the delimiter with -d, else at blanks and newlines, with quotes and
// backslashes honoured. own are xargs's own arguments.
// xargsBatch is how many input items (or lines, for -L and -l) xargs
// gives one run of its command: 0 when not limited.
func xargsBatch(own []string) (n int, lines bool) {
	for j, a := range own {
		v := ""
		switch {
		case (a == "-n" || a == "--max-args") && j+1 < len(own):
			v = own[j+1]
		case (a == "-L" || a == "--max-lines") && j+1 < len(own):
			v, lines = own[j+1], true
		case a == "-l":
			return 1, true
		case strings.HasPrefix(a, "--max-args="):
			_, v, _ = strings.Cut(a, "=")
		case strings.HasPrefix(a, "--max-lines="):
			_, v, _ = strings.Cut(a, "=")
			lines = true
		case strings.HasPrefix(a, "-n") && len(a) > 2:
			v = a[2:]
		case strings.HasPrefix(a, "-L") && len(a) > 2:
			v, lines = a[2:], true
		default:
			continue
		}
		if n, err := strconv.Atoi(v); err == nil && n > 0 {
			return n, lines
		}
		lines = false
	}
	return 0, false
}

func xargsItems(data string, own []string) []string {
	for j, a := range own {
		d := ""
		switch {
		case a == "-0" || a == "--null":
			d = "\x00"
		case (a == "-d" || a == "--delimiter") && j+1 < len(own):
			d = own[j+1]
		case strings.HasPrefix(a, "--delimiter="):
			d = strings.TrimPrefix(a, "--delimiter=")
		case strings.HasPrefix(a, "-d") && len(a) > 2:
			d = a[2:]
		default:
			continue
		}
		switch d {
		case "":
			continue
		case `\n`:
			d = "\n"
		case `\t`:
			d = "\t"
		case `\0`:
			d = "\x00"
		}
		var items []string
		for _, f := range strings.Split(data, d[:1]) {
			if f != "" {
				items = append(items, f)
			}
		}
		return items
	}
	var items []string
	var b strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				b.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == '\\' && i+1 < len(data):
			i++
			b.WriteByte(data[i])
			in = true
		case c == ' ' || c == '\t' || c == '\n' || c == 0:
			if in {
				items = append(items, b.String())
				b.Reset()
				in = false
			}
		default:
			b.WriteByte(c)
			in = true
		}
	}
	if in {
		items = append(items, b.String())
	}
	return items
}

// matchesAll reports whether find's test a with pattern v is true of
// every file: -name '*', -path '*', -regex '.*'.
func matchesAll(a, v string) bool {
	switch a {
	case "-name", "-iname", "-path", "-ipath", "-wholename":
		return v != "" && strings.Trim(v, "*") == ""
	case "-regex", "-iregex":
		return v == ".*"
	}
	return false
}
