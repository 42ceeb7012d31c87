package danger

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/policy/secret"
)

// check is code for what the rules table cannot say (rm's targets, curl's
// host, find -exec …). Rules name one as a method expression, such as
// (*walker).rm, so that a misspelled check does not compile. args[0] is
// the command or subcommand word; chain is how they were written.
type check func(w *walker, chain string, args []arg, io ioInfo)

// set with no arguments prints every variable; set -- a b sets the
// positional parameters.
func (w *walker) set(chain string, args []arg, io ioInfo) {
	if len(args) == 1 {
		if w.envFiltered || w.shared.piped {
			w.res.add(Safe, "`set | grep`: shows only matching variables")
		} else {
			w.discloses("`set`: prints all variables, which may include secrets")
		}
	}
	// set -- a b, or set a b: new positional parameters.
	for i, a := range args[1:] {
		if a.s == "--" || !strings.HasPrefix(a.s, "-") && !strings.HasPrefix(a.s, "+") {
			start := i + 1
			if a.s == "--" {
				start++
			}
			w.params = nil
			for _, p := range args[start:] {
				w.params = append(w.params, p.s)
			}
			if w.params == nil {
				w.params = []string{}
			}
			break
		}
	}
}

// outflag judges the file named by -o/--output (and the like) as written.
func (w *walker) outflag(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		a := args[i].s
		switch {
		case (a == "-o" || a == "--output" || a == "--out" || a == "-out" || a == "-keyout") && i+1 < len(args):
			w.writeTo(args[i+1].s, chain+" "+a, args[i+1].text)
			i++
		case strings.HasPrefix(a, "--output=") || strings.HasPrefix(a, "-o="):
			_, v, _ := strings.Cut(a, "=")
			w.writeTo(v, chain, args[i].text)
		}
	}
}

// mv judges moving away a system or home directory as its deletion.
func (w *walker) mv(chain string, args []arg, io ioInfo) {
	w.copies(chain, args, io)
	ops := scan(commands.Get()["mv"], args)
	for _, i := range ops[:max(len(ops)-1, 0)] {
		if p, ok := w.abs(args[i].s); ok {
			if why := w.catastrophic(p); why != "" {
				w.res.add(Blocked, "`mv "+args[i].text+"`: moves away "+strings.TrimPrefix(why, "deletes "))
			}
		}
	}
}

// pager judges the program man runs as its pager.
func (w *walker) pager(chain string, args []arg, io ioInfo) {
	for i, a := range args {
		v, ok := "", false
		if (a.s == "-P" || a.s == "--pager" || a.s == "-H") && i+1 < len(args) {
			v, ok = args[i+1].s, true
		} else {
			v, ok = strings.CutPrefix(a.s, "--pager=")
		}
		if !ok {
			continue
		}
		w.literal1(v)
		if a.s == "-H" || !filterProgram(v) {
			w.res.add(Dangerous, "`"+chain+" "+a.text+"`: runs a program of its choice")
		}
	}
}

// filterProgram reports a command line given to a program to pass its
// data through that only reads standard input and writes standard
// output: a pager or cat (man -P cat), a compressor (sort
// --compress-program=gzip, which also runs it with -d).
func filterProgram(v string) bool {
	f := strings.Fields(v)
	if len(f) == 0 || hasHole(v) {
		return false
	}
	for _, a := range f[1:] {
		if !strings.HasPrefix(a, "-") {
			return false // an operand: a file it reads or writes
		}
	}
	switch name := path.Base(f[0]); name {
	case "cat", "less", "more", "most":
		return true
	default:
		return compressors.Get()[name]
	}
}

// setsVars marks the variables read and mapfile fill as unknown.
func (w *walker) setsVars(chain string, args []arg, io ioInfo) {
	// read NAME…: the values come from input, not known here.
	ops := scan(&rule{vals: "-p -d -n -N -t -u -a -C -c -O -s"}, args)
	val := hole
	if io.in.kind == inDownload && firstWord(chain) == "read" {
		// while read l; do $l; done <&3 with 3 on /dev/tcp: the lines
		// are what another machine sends.
		val = string(holeDL)
	}
	for _, i := range ops {
		w.vars[args[i].s] = val
		w.subscriptCode(args[i].s, firstWord(chain)+" "+args[i].text)
		w.hijack(args[i].s, hole, firstWord(chain)+" "+args[i].text)
	}
	for i, a := range args {
		if a.s == "-a" && i+1 < len(args) {
			w.vars[args[i+1].s] = hole
		}
	}
	// mapfile -C CALLBACK: bash runs the callback, with an index and a
	// line after it, every -c lines.
	for i, a := range args {
		cb, ok := strings.CutPrefix(a.s, "-C")
		if !ok || firstWord(chain) == "read" {
			continue
		}
		if cb == "" && i+1 < len(args) {
			cb = args[i+1].s
		}
		w.res.add(Dangerous, "`"+firstWord(chain)+" -C`: runs a callback as lines are read")
		w.nested(cb+" 0 line", input{})
	}
	if len(ops) == 0 && firstWord(chain) == "read" {
		w.vars["REPLY"] = val
	}
	if firstWord(chain) == "read" {
		w.readKnown(args, ops, io)
	}
}

// readKnown sets the variables of read NAME… from input known before
// running (a here-string, echo … |): split at blanks, the last name taking
// the rest. Only plain read (-r, -s) of one line, outside a loop, with IFS
// untouched, and only the first read of that input, is followed: a loop
// reads every line, a second read the next one, another IFS splits
// elsewhere. Otherwise the names stay holes.
func (w *walker) readKnown(args []arg, ops []int, io ioInfo) {
	if io.in.kind != inData || hasHole(io.in.data) || w.looping || w.ifsPrefix {
		return
	}
	if _, ok := w.vars["IFS"]; ok {
		return
	}
	if w.shared.reads == nil {
		w.shared.reads = map[string]bool{}
	}
	first := !w.shared.reads[io.in.data]
	w.shared.reads[io.in.data] = true
	if !first || strings.Contains(strings.TrimSuffix(io.in.data, "\n"), "\n") {
		return
	}
	for _, a := range args[1:] {
		if strings.HasPrefix(a.s, "-") && strings.Trim(a.s, "-rs") != "" {
			return
		}
	}
	line := strings.TrimSuffix(io.in.data, "\n")
	var names []string
	if len(ops) > 0 {
		for _, i := range ops {
			names = append(names, args[i].s)
		}
	} else {
		w.vars["REPLY"] = line
		return
	}
	rest := strings.TrimLeft(line, " \t")
	for i, name := range names {
		if !syntax.ValidName(name) {
			return
		}
		if i == len(names)-1 {
			w.vars[name] = strings.TrimRight(rest, " \t")
			break
		}
		field, after := rest, ""
		if j := strings.IndexAny(rest, " \t"); j >= 0 {
			field, after = rest[:j], rest[j+1:]
		}
		w.vars[name] = field
		rest = strings.TrimLeft(after, " \t")
	}
}

// unset forgets variables and functions.
func (w *walker) unset(chain string, args []arg, io ioInfo) {
	funcs := false
	for _, a := range args[1:] {
		switch {
		case a.s == "-f":
			funcs = true
		case strings.HasPrefix(a.s, "-"):
		case funcs:
			delete(w.funcs, a.s)
		default:
			w.subscriptCode(a.s, "unset "+a.text)
			w.vars[a.s] = ""
			delete(w.lists, a.s)
		}
	}
}

// second judges the second operand as written: uniq IN OUT, xxd IN OUT.
func (w *walker) second(chain string, args []arg, io ioInfo) {
	// uniq IN OUT, xxd IN OUT: the second operand is written.
	if ops := scan(lookup(firstWord(chain)), args); len(ops) >= 2 {
		w.writeTo(args[ops[1]].s, chain, args[ops[1]].text)
	}
}

// hyperfine judges each operand, --prepare and --cleanup as shell code.
func (w *walker) hyperfine(chain string, args []arg, io ioInfo) {
	// Each operand (and --prepare, --cleanup) is shell code.
	for i, a := range args[1:] {
		if !strings.HasPrefix(a.s, "-") && !takesValue(commands.Get()["hyperfine"].vals, args[i].s) {
			w.nested(a.s, input{})
		}
		if (a.s == "-p" || a.s == "--prepare" || a.s == "-c" || a.s == "--cleanup") && i+2 < len(args) {
			w.nested(args[i+2].s, input{})
		}
	}
}

// gitRm judges git rm -r, which deletes a tree from the disk too.
func (w *walker) gitRm(chain string, args []arg, io ioInfo) {
	for _, a := range args[1:] {
		if a.s == "--" {
			break
		}
		if matchFlag("-n --dry-run", a.s) {
			return // shows what it would remove
		}
	}
	// git rm -r deletes a tree from the disk too, unless --cached.
	cached, recursive := false, false
	for _, a := range args[1:] {
		cached = cached || a.s == "--cached"
		recursive = recursive || a.s == "-r" || strings.HasPrefix(a.s, "-") && !strings.HasPrefix(a.s, "--") && strings.Contains(a.s, "r")
	}
	if recursive && !cached {
		w.res.add(Dangerous, "`git rm -r`: deletes a tree")
	}
}

// gitStage judges git add and commit of named files: a file that holds
// secrets, once committed, is published by the next push.
func (w *walker) gitStage(chain string, args []arg, io ioInfo) {
	for _, i := range scan(&rule{vals: "-m --message -F --file -C -c --author --date --pathspec-from-file"}, args) {
		if p, ok := w.abs(args[i].s); ok {
			if why := w.secretFile(p); why != "" {
				w.res.add(Dangerous, "`"+chain+" "+args[i].text+"`: stages a file that may hold secrets ("+why+
					"), which a push publishes")
			}
		}
	}
}

// ln remembers links made here: a later write through one lands on its target.
func (w *walker) ln(chain string, args []arg, io ioInfo) {
	// Remember links made here: a later write through one lands on
	// its target.
	ops := scan(commands.Get()["ln"], args)
	force := slices.ContainsFunc(args[1:], func(a arg) bool { return matchFlag("-f --force", a.s) })
	if len(ops) == 2 && force && (args[ops[0]].s == "/dev/null" || args[ops[0]].s == "/dev/zero") {
		// ln -sf /dev/null package.json: the file is replaced by a link
		// that holds nothing, as cp /dev/null f clobbers it.
		w.res.add(Dangerous, "`"+chain+" "+args[ops[0]].text+" "+args[ops[1]].text+"`: replaces the file by a "+
			"link to "+args[ops[0]].s+", throwing its content away")
	}
	if len(ops) == 2 {
		target, link := args[ops[0]].s, args[ops[1]].s
		lp, ok1 := w.abs(link)
		tp, ok2 := w.abs(target)
		if ok1 && ok2 {
			if w.shared.links == nil {
				w.shared.links = map[string]string{}
			}
			w.shared.links[lp] = tp
		}
	}
}

// gitRestore judges git restore of the whole tree: the worktree's
// changes are thrown away, unless only the index is restored (--staged
// without --worktree: unstaging).
func (w *walker) gitRestore(chain string, args []arg, io ioInfo) {
	staged, worktree := false, false
	for _, a := range args[1:] {
		staged = staged || matchFlag("--staged -S", a.s)
		worktree = worktree || matchFlag("--worktree -W", a.s)
	}
	if staged && !worktree {
		return
	}
	for _, i := range scan(commands.Get()["git"].sub["restore"], args) {
		switch args[i].s {
		case ".", ":/", "*":
			w.res.add(Dangerous, "`"+chain+" "+args[i].text+"`: throws away local changes in the whole tree")
			return
		}
	}
}

// popd makes the cwd unknown.
func (w *walker) popd(chain string, args []arg, io ioInfo) {
	w.cwd = ""
}

// printenv judges printing all variables or secret ones.
func (w *walker) printenv(chain string, args []arg, io ioInfo) {
	if len(args) == 1 {
		if w.envFiltered || w.shared.piped {
			w.res.add(Safe, "`printenv | grep`: shows only matching variables")
		} else {
			w.discloses("`printenv`: prints all variables, which may include secrets")
		}
	}
	for _, a := range args[1:] {
		if secret.Var(a.s) || hasHole(a.s) {
			w.discloses("`printenv " + a.text + "`: may print a secret")
		}
	}
}

// sortOut judges sort -o as a write.
func (w *walker) sortOut(chain string, args []arg, io ioInfo) {
	for i, a := range args {
		v, ok := strings.CutPrefix(a.s, "--compress-program=")
		if !ok && a.s == "--compress-program" && i+1 < len(args) {
			v, ok = args[i+1].s, true
		}
		if ok && !filterProgram(v) {
			w.res.add(Dangerous, "`"+chain+" --compress-program`: runs a program of its choice")
		}
	}
	for i, a := range args {
		if (a.s == "-o" || a.s == "--output") && i+1 < len(args) {
			w.writeTo(args[i+1].s, chain, args[i+1].text)
		} else if v, ok := strings.CutPrefix(a.s, "--output="); ok {
			w.writeTo(v, chain, a.text)
		}
	}
}

// kill reads its arguments as kill does (bash's builtin and kill(1)): -l
// and -L list signals; the signal is -s SIG, -sSIG, -n NUM, --signal SIG,
// -SIG or -NUM; signal 0 only checks that a process exists; anything else
// signals processes, and PID -1 is every process, 1 is init.
func (w *walker) kill(chain string, args []arg, io ioInfo) {
	sig, sigSeen := "TERM", false
	var pids []arg
	for i := 1; i < len(args); i++ {
		a := args[i].s
		switch {
		case !sigSeen && len(pids) == 0 && (a == "-l" || a == "-L" || a == "--list" || a == "--table" ||
			strings.HasPrefix(a, "--list=")):
			w.res.add(Safe, "`kill "+a+"`: lists signals")
			return
		case a == "--":
			pids = append(pids, args[i+1:]...)
			i = len(args)
		case len(pids) > 0 || !strings.HasPrefix(a, "-") || sigSeen && isNumber(a[1:]):
			pids = append(pids, args[i])
		case a == "-s" || a == "-n" || a == "--signal" || a == "-q" || a == "--queue":
			if i+1 < len(args) {
				i++
				if a != "-q" && a != "--queue" {
					sig, sigSeen = args[i].s, true
				}
			}
		case strings.HasPrefix(a, "--signal="):
			sig, sigSeen = strings.TrimPrefix(a, "--signal="), true
		case strings.HasPrefix(a, "-s") || strings.HasPrefix(a, "-n") && isNumber(a[2:]):
			sig, sigSeen = a[2:], true
		default: // -KILL, -SIGKILL, -9
			sig, sigSeen = a[1:], true
		}
	}
	s := strings.TrimPrefix(strings.ToUpper(sig), "SIG")
	if s == "0" || s == "" && sigSeen {
		w.res.add(Safe, "`kill -0`: checks that a process exists")
		return
	}
	if len(pids) == 0 {
		w.res.add(Safe, "`kill`: no process named")
		return
	}
	for _, p := range pids {
		switch p.s {
		case "-1":
			w.res.add(Dangerous, "`kill -"+sig+" -1`: signals every process the user may signal")
		case "1":
			w.res.add(Dangerous, "`kill -"+sig+" 1`: signals init")
		default:
			w.res.add(Dangerous, "`kill -"+sig+" "+p.text+"`: signals a process")
		}
	}
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// flock judges flock -c COMMAND: the lock's holder runs COMMAND as shell
// code (flock(1)); flock FILE COMMAND… is judged as a wrapper.
func (w *walker) flock(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		a := args[i].s
		if v, ok := strings.CutPrefix(a, "--command="); ok {
			w.nested(v, input{})
		} else if (a == "-c" || a == "--command") && i+1 < len(args) {
			w.nested(args[i+1].s, input{})
			i++
		}
	}
}

// rebaseExec judges the commands git rebase --exec runs after each commit
// it replays, in the work tree, as if they stood on the line.
func (w *walker) rebaseExec(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		v, ok := strings.CutPrefix(args[i].s, "--exec=")
		if !ok && (args[i].s == "--exec" || args[i].s == "-x") && i+1 < len(args) {
			i++
			v, ok = args[i].s, true
		}
		if ok {
			w.res.add(Dev, "`"+chain+" --exec`: runs `"+v+"` at each commit")
			w.nested(v, input{})
		}
	}
}

// cpioDir judges where cpio -i unpacks, the current directory, and where
// -p copies, its operand: (cd ~ && cpio -id) writes the home directory.
func (w *walker) cpioDir(chain string, args []arg, io ioInfo) {
	extract, pass, list := false, false, false
	for _, a := range args[1:] {
		switch {
		case a.s == "--extract" || a.s == "--pass-through":
			extract, pass = extract || a.s == "--extract", pass || a.s == "--pass-through"
		case a.s == "--list":
			list = true
		case strings.HasPrefix(a.s, "-") && !strings.HasPrefix(a.s, "--"):
			extract = extract || strings.ContainsRune(a.s, 'i')
			pass = pass || strings.ContainsRune(a.s, 'p')
			list = list || strings.ContainsRune(a.s, 't')
		}
	}
	switch {
	case list:
	case pass:
		for _, i := range scan(&rule{}, args) {
			w.writeTo(args[i].s, chain, args[i].text)
		}
	case extract:
		w.writeTo(".", chain+" -i", "(the current directory)")
	}
}
