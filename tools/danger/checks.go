package danger

import (
	"net/url"
	"path"
	"strings"
)

// check runs the judge named by a rule for what the table cannot say.
func (w *walker) check(name, chain string, args []arg, io ioInfo) {
	switch name {
	case "cd":
		w.cd(args)
	case "set":
		if len(args) == 1 {
			if w.envFiltered || w.shared.runtime {
				w.res.add(Safe, "`set | grep`: shows only matching variables")
			} else {
				w.res.add(Dangerous, "`set`: prints all variables, which may include secrets")
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
	case "outflag":
		for i := 1; i < len(args); i++ {
			a := args[i].s
			switch {
			case (a == "-o" || a == "--output" || a == "--out" || a == "-out") && i+1 < len(args):
				w.writeTo(args[i+1].s, chain+" "+a, args[i+1].text)
				i++
			case strings.HasPrefix(a, "--output=") || strings.HasPrefix(a, "-o="):
				_, v, _ := strings.Cut(a, "=")
				w.writeTo(v, chain, args[i].text)
			}
		}
	case "mv":
		ops := scan(commands["mv"], args)
		for _, i := range ops[:max(len(ops)-1, 0)] {
			if p, ok := w.abs(args[i].s); ok {
				if why := w.catastrophic(p); why != "" {
					w.res.add(Blocked, "`mv "+args[i].text+"`: moves away "+strings.TrimPrefix(why, "deletes "))
				}
			}
		}
	case "pager":
		for i, a := range args {
			if (a.s == "-P" || a.s == "--pager" || a.s == "-H") && i+1 < len(args) {
				w.literal1(args[i+1].s)
			} else if v, ok := strings.CutPrefix(a.s, "--pager="); ok {
				w.literal1(v)
			}
		}
	case "setsvars":
		// read NAME…: the values come from input, not known here.
		ops := scan(&rule{vals: "-p -d -n -N -t -u -a -C -c -O -s"}, args)
		for _, i := range ops {
			w.vars[args[i].s] = hole
		}
		for i, a := range args {
			if a.s == "-a" && i+1 < len(args) {
				w.vars[args[i+1].s] = hole
			}
		}
		if len(ops) == 0 && strings.Fields(chain)[0] == "read" {
			w.vars["REPLY"] = hole
		}
	case "unset":
		funcs := false
		for _, a := range args[1:] {
			switch {
			case a.s == "-f":
				funcs = true
			case strings.HasPrefix(a.s, "-"):
			case funcs:
				delete(w.funcs, a.s)
			default:
				w.vars[a.s] = ""
				delete(w.lists, a.s)
			}
		}
	case "uniq":
		if ops := scan(commands["uniq"], args); len(ops) >= 2 {
			w.writeTo(args[ops[1]].s, chain, args[ops[1]].text)
		}
	case "popd":
		w.cwd = ""
	case "alias":
		w.alias(args)
	case "trap":
		w.trap(args)
	case "source":
		w.source(args, chain, io)
	case "command":
		// `command -v` only looks up; the wrapper walk covers the rest.
	case "su":
		w.su(args)
	case "env":
		w.env(args)
	case "printenv":
		if len(args) == 1 {
			if w.envFiltered || w.shared.runtime {
				w.res.add(Safe, "`printenv | grep`: shows only matching variables")
			} else {
				w.res.add(Dangerous, "`printenv`: prints all variables, which may include secrets")
			}
		}
		for _, a := range args[1:] {
			if secretName(a.s) || hasHole(a.s) {
				w.res.add(Dangerous, "`printenv "+a.text+"`: may print a secret")
			}
		}
	case "xargs":
		w.xargs(args, io)
	case "find":
		w.find(args, io)
	case "fd":
		w.fd(args, io)
	case "awk":
		w.awk(args)
	case "sed":
		w.sed(args, chain)
	case "cp":
		// cp's source /dev/null truncates the destination: handled by ops.
	case "chmod":
		w.chmod(args, chain)
	case "rm":
		w.rm(args, chain)
	case "dd":
		w.dd(args)
	case "tar":
		w.tar(args, io)
	case "unzip":
		w.unzip(args)
	case "inplace":
		w.inplace(args, chain)
	case "sorto":
		for i, a := range args {
			if (a.s == "-o" || a.s == "--output") && i+1 < len(args) {
				w.writeTo(args[i+1].s, chain, args[i+1].text)
			} else if v, ok := strings.CutPrefix(a.s, "--output="); ok {
				w.writeTo(v, chain, a.text)
			}
		}
	case "sql":
		w.sql(args, chain, io)
	case "redis":
		w.redis(args)
	case "npx":
		w.npx(args, io)
	case "gitglobal":
		w.gitGlobal(args)
	case "dockerrun":
		w.dockerRun(args, chain)
	case "cloud":
		w.cloud(args, chain)
	case "fetch":
		w.fetch(args, chain, io)
	case "rsync":
		w.rsync(args, chain)
	}
}

func (w *walker) cd(args []arg) {
	var target string
	ops := scan(&rule{}, args)
	switch {
	case len(ops) == 0:
		target = w.ws.Home
	case args[ops[0]].s == "-":
		w.cwd = ""
		return
	default:
		target = args[ops[0]].s
	}
	p, ok := w.abs(target)
	if !ok {
		w.cwd = ""
		return
	}
	w.cwd = p
}

func (w *walker) alias(args []arg) {
	for _, a := range args[1:] {
		if name, val, ok := strings.Cut(a.s, "="); ok {
			w.nested(val, input{})
			if w.aliases == nil {
				w.aliases = map[string]string{}
			}
			w.aliases[name] = val
		}
	}
}

func (w *walker) trap(args []arg) {
	ops := scan(&rule{}, args)
	if len(ops) < 2 {
		return // lists traps or resets one
	}
	action := args[ops[0]].s
	if action == "-" || action == "" {
		return
	}
	w.nested(action, input{})
}

func (w *walker) source(args []arg, chain string, io ioInfo) {
	if len(args) < 2 {
		w.res.add(Dangerous, "`"+chain+"` without a file")
		return
	}
	switch args[1].s {
	case "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0":
		w.stdinCode(commands["bash"], chain, "bash", io)
		return
	}
	w.runFile(args[1].s, args[1].text)
}

func (w *walker) su(args []arg) {
	w.res.add(Dangerous, "`su`: runs as another user")
	for i := 1; i < len(args); i++ {
		a := args[i].s
		if (a == "-c" || a == "--command") && i+1 < len(args) {
			w.nested(args[i+1].s, input{})
			return
		}
		if v, ok := strings.CutPrefix(a, "--command="); ok {
			w.nested(v, input{})
			return
		}
	}
}

func (w *walker) env(args []arg) {
	ss := make([]string, len(args))
	for i, a := range args {
		ss[i] = a.s
	}
	for j, a := range ss {
		if (a == "-S" || a == "--split-string") && j+1 < len(ss) {
			w.nested(strings.Join(ss[j+1:], " "), input{})
			return
		}
	}
	i := unwrapIndex(commands["env"], ss)
	for _, a := range args[1:] {
		if name, val, ok := strings.Cut(a.s, "="); ok && !strings.HasPrefix(a.s, "-") {
			w.hijack(name, val, a.text)
		}
		if v, ok := strings.CutPrefix(a.s, "--split-string="); ok {
			w.nested(v, input{})
		}
	}
	if i < 0 {
		if w.envFiltered || w.shared.runtime {
			w.res.add(Safe, "`env | grep`: shows only matching variables")
			return
		}
		w.res.add(Dangerous, "`env`: prints all variables, which may include secrets")
	}
}

// xargs runs a command with arguments read from its input, which are
// not known before running.
func (w *walker) xargs(args []arg, io ioInfo) {
	r := &rule{vals: "-I -i -L -l -n -P -d -E -e -s -a --arg-file --delimiter --max-args --max-procs --replace --max-lines --eof -j --jobs"}
	ss := make([]string, len(args))
	for i, a := range args {
		ss[i] = a.s
	}
	i := unwrapIndex(r, ss)
	own := ss
	if i > 0 {
		own = ss[:i] // xargs's own flags; the command's are its business
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
	switch io.in.kind {
	case inDownload:
		fill = string(holeDL)
	case inPaths:
		fill = io.in.data + "/" + holeEntry
	}
	if repl != "" {
		for j := range inner {
			if j > 0 {
				inner[j].s = strings.ReplaceAll(inner[j].s, repl, fill)
			}
		}
	} else if io.in.kind == inData && !hasHole(io.in.data) {
		for _, f := range strings.Fields(io.in.data) {
			inner = append(inner, arg{s: f, text: f})
		}
	} else {
		inner = append(inner, arg{s: fill, text: "(input)"})
	}
	w.exec(inner, ioInfo{})
}

// findActions are find predicates that run a command up to `;` or `+`.
var findActions = map[string]bool{"-exec": true, "-execdir": true, "-ok": true, "-okdir": true}

func (w *walker) find(args []arg, io ioInfo) {
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
	for ; i < len(args); i++ {
		a := args[i].s
		switch {
		case findActions[a]:
			var inner []arg
			j := i + 1
			for ; j < len(args) && args[j].s != ";" && args[j].s != "+"; j++ {
				inner = append(inner, args[j])
			}
			i = j
			if len(inner) == 0 {
				continue
			}
			w.findExec(inner, roots, filtered)
		case a == "-delete":
			w.findDelete(roots, filtered)
		case a == "-fprint" || a == "-fprint0" || a == "-fprintf" || a == "-fls":
			if i+1 < len(args) {
				w.writeTo(args[i+1].s, "find "+a, args[i+1].text)
			}
		case a == "-name" || a == "-iname" || a == "-path" || a == "-ipath" || a == "-regex" || a == "-iregex" ||
			a == "-newer" || a == "-mtime" || a == "-mmin" || a == "-user" || a == "-size" || a == "-empty" || a == "-wholename":
			filtered = true
		}
	}
	_ = io
}

func (w *walker) findExec(inner []arg, roots []string, filtered bool) {
	for _, root := range roots {
		c := make([]arg, len(inner))
		copy(c, inner)
		for k := range c {
			if k > 0 && strings.Contains(c[k].s, "{}") {
				c[k].s = strings.ReplaceAll(c[k].s, "{}", strings.TrimSuffix(root, "/")+"/"+holeEntry)
			}
		}
		p, ok := w.abs(root)
		if name := commandBase(c[0].s); (name == "rm" || name == "shred") && ok && w.catastrophic(p) != "" && !filtered {
			w.res.add(Blocked, "`find "+root+" -exec "+name+"`: "+w.catastrophic(p))
		}
		w.exec(c, ioInfo{})
	}
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

func (w *walker) fd(args []arg, io ioInfo) {
	for i, a := range args {
		if (a.s == "-x" || a.s == "--exec" || a.s == "-X" || a.s == "--exec-batch") && i+1 < len(args) {
			inner := append([]arg(nil), args[i+1:]...)
			for k := range inner {
				if k > 0 {
					inner[k].s = strings.ReplaceAll(inner[k].s, "{}", "./"+holeEntry)
				}
			}
			inner = append(inner, arg{s: "./" + holeEntry, text: "{}"})
			w.exec(inner, ioInfo{})
			return
		}
	}
}

func (w *walker) rm(args []arg, chain string) {
	recursive, dirs := false, false
	var targets []arg
	dashdash := false
	for _, a := range args[1:] {
		switch {
		case dashdash || !strings.HasPrefix(a.s, "-") || a.s == "-":
			targets = append(targets, a)
		case a.s == "--":
			dashdash = true
		case a.s == "--recursive" || a.s == "-r" || a.s == "-R":
			recursive = true
		case a.s == "--dir" || a.s == "-d":
			dirs = true
		case strings.HasPrefix(a.s, "--"):
		default:
			if strings.ContainsAny(a.s[1:], "rR") {
				recursive = true
			}
		}
	}
	verb := "`" + chain + "`"
	if recursive {
		verb = "`" + chain + " -r`"
	}
	if len(targets) == 0 {
		w.res.add(Safe, verb+": deletes nothing")
		return
	}
	for _, t := range targets {
		p, ok := w.abs(t.s)
		on := verb + " on `" + t.text + "`"
		if !ok {
			w.res.add(Dangerous, on+": path not known before running")
			continue
		}
		if why := w.catastrophic(p); why != "" {
			if recursive || hasGlob(path.Base(p)) && (recursive || dirs) {
				w.res.add(Blocked, on+": "+why)
				continue
			}
			w.res.add(Dangerous, on+": deletes system or home files")
			continue
		}
		base := path.Base(p)
		switch {
		case strings.Contains(p, holeEntry):
			w.res.add(Dangerous, on+": deletes every file found")
		case !w.inside(p):
			if p == w.ws.Dir {
				w.res.add(Dangerous, on+": deletes the whole workspace")
			} else {
				w.res.add(Dangerous, on+": deletes outside the workspace")
			}
		case buildDirs[base] || hasGlob(base) && buildDirs[path.Base(path.Dir(p))] || buildDirUnder(p, w.ws.Dir):
			w.res.add(Dev, on+": removes regenerable build output")
		case hasGlob(base):
			w.res.add(Dangerous, on+": deletes files in bulk")
		case recursive:
			w.res.add(Dangerous, on+": deletes a directory tree")
		case w.secretFile(p):
			w.res.add(Dangerous, on+": deletes a secret file")
		default:
			w.res.add(Dev, on+": deletes a file in the workspace")
		}
	}
}

// buildDirUnder reports whether p lies inside a build directory of the
// workspace (rm -rf build/tmp).
func buildDirUnder(p, ws string) bool {
	rel := strings.TrimPrefix(p, ws+"/")
	parts := strings.Split(rel, "/")
	for _, part := range parts[:len(parts)-1] {
		if buildDirs[part] {
			return true
		}
	}
	return false
}

func (w *walker) chmod(args []arg, chain string) {
	recursive := false
	var ops []arg
	for _, a := range args[1:] {
		if a.s == "-R" || a.s == "--recursive" || strings.HasPrefix(a.s, "-") && !strings.HasPrefix(a.s, "--") && strings.Contains(a.s, "R") {
			recursive = true
			continue
		}
		if strings.HasPrefix(a.s, "-") && len(a.s) > 1 && !strings.ContainsAny(a.s[1:2], "rwxXst") {
			continue
		}
		ops = append(ops, a)
	}
	if len(ops) < 2 {
		return
	}
	for _, t := range ops[1:] {
		p, ok := w.abs(t.s)
		on := "`" + chain + " " + ops[0].text + " " + t.text + "`"
		switch {
		case !ok:
			w.res.add(Dangerous, on+": path not known before running")
		case recursive && (p == "/" || systemDirs[p] || path.Dir(p) == "/" && hasGlob(path.Base(p))):
			w.res.add(Blocked, on+": changes the whole system recursively")
		case w.inside(p) || p == w.ws.Dir:
			if strings.HasPrefix(chain, "chown") || strings.HasPrefix(chain, "chgrp") {
				w.res.add(Dangerous, on+": changes file owners")
			} else {
				w.res.add(Dev, on+": changes permissions in the workspace")
			}
		default:
			w.res.add(Dangerous, on+": changes files outside the workspace")
		}
	}
}

func (w *walker) dd(args []arg) {
	for _, a := range args[1:] {
		if v, ok := strings.CutPrefix(a.s, "of="); ok {
			w.writeTo(v, "dd", a.text)
		}
		if v, ok := strings.CutPrefix(a.s, "if="); ok {
			p, ok := w.abs(v)
			if ok && rawDevice.MatchString(p) {
				w.res.add(Dangerous, "`dd "+a.text+"`: reads a raw disk")
			}
			w.readFile(p, ok, "`dd "+a.text+"`")
		}
	}
}

func (w *walker) tar(args []arg, io ioInfo) {
	if len(args) < 2 {
		return
	}
	mode := ""
	file := ""
	dir := ""
	first := args[1].s
	if !strings.HasPrefix(first, "-") && letters(first) {
		first = "-" + first
	}
	for i := 1; i < len(args); i++ {
		a := args[i].s
		if i == 1 {
			a = first
		}
		switch {
		case a == "--extract" || a == "--get":
			mode = "x"
		case a == "--create":
			mode = "c"
		case a == "--list":
			mode = "t"
		case a == "--append" || a == "--update":
			mode = "c"
		case strings.HasPrefix(a, "--file="):
			file = strings.TrimPrefix(a, "--file=")
		case a == "--file" || a == "-C" || a == "--directory":
			if i+1 < len(args) {
				if a == "--file" {
					file = args[i+1].s
				} else {
					dir = args[i+1].s
				}
				i++
			}
		case strings.HasPrefix(a, "--directory="):
			dir = strings.TrimPrefix(a, "--directory=")
		case strings.HasPrefix(a, "--to-command") || strings.HasPrefix(a, "--checkpoint-action") || strings.HasPrefix(a, "--use-compress-program") || a == "-I":
			w.res.add(Dangerous, "`tar "+args[i].text+"`: runs a program")
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && letters(a[1:]):
			for _, c := range a[1:] {
				switch c {
				case 'x':
					mode = "x"
				case 'c', 'r', 'u':
					mode = "c"
				case 't':
					if mode == "" {
						mode = "t"
					}
				}
			}
			if strings.HasSuffix(a, "f") && i+1 < len(args) {
				file = args[i+1].s
				i++
			} else if strings.HasSuffix(a, "C") && i+1 < len(args) {
				dir = args[i+1].s
				i++
			}
		}
	}
	switch mode {
	case "t":
		w.res.add(Safe, "`tar -t`: lists an archive")
	case "c":
		if file != "" && file != "-" {
			w.writeTo(file, "tar -c", file)
		} else {
			w.res.add(Dev, "`tar -c`: packs files")
		}
	case "x":
		if dir == "" {
			dir = "."
		}
		w.writeTo(dir, "tar -x", dir)
		// Unpacking a download makes everything unpacked downloaded code.
		p, _ := w.abs(file)
		if (file == "" || file == "-") && io.in.kind == inDownload || w.shared.downloads[p] {
			if d, ok := w.abs(dir); ok {
				w.shared.dlDirs = append(w.shared.dlDirs, d)
			}
		}
	default:
		w.res.add(Dev, "`tar`: packs or unpacks files")
	}
}

func (w *walker) unzip(args []arg) {
	for i, a := range args {
		if a.s == "-d" && i+1 < len(args) {
			w.writeTo(args[i+1].s, "unzip -d", args[i+1].text)
			return
		}
	}
	for _, a := range args[1:] {
		if a.s == "-l" || a.s == "-v" || a.s == "-t" || a.s == "-Z" || a.s == "-p" {
			return
		}
	}
	w.writeTo(".", "unzip", "(here)")
}

// inplace judges tools whose -w/-i flag rewrites their file operands.
func (w *walker) inplace(args []arg, chain string) {
	writing := false
	for _, a := range args[1:] {
		if a.s == "-w" || a.s == "-i" || a.s == "--write" || a.s == "--inplace" || strings.HasPrefix(a.s, "-") && !strings.HasPrefix(a.s, "--") && strings.ContainsAny(a.s, "wi") && letters(a.s[1:]) {
			writing = true
		}
	}
	if !writing {
		return
	}
	for _, a := range args[1:] {
		if !strings.HasPrefix(a.s, "-") {
			w.writeTo(a.s, chain, a.text)
		}
	}
}

func (w *walker) sed(args []arg, chain string) {
	inPlace := false
	script := ""
	var files []arg
	haveScript := false
	for i := 1; i < len(args); i++ {
		a := args[i].s
		switch {
		case a == "-i" || a == "--in-place" || strings.HasPrefix(a, "--in-place=") || strings.HasPrefix(a, "-i") && !strings.HasPrefix(a, "--"):
			inPlace = true
		case a == "-e" || a == "--expression":
			if i+1 < len(args) {
				script += "\n" + args[i+1].s
				haveScript = true
				i++
			}
		case a == "-f" || a == "--file":
			haveScript = true
			i++
			script += "\ne"
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && len(a) > 1 && letters(a[1:]):
			if strings.Contains(a, "i") {
				inPlace = true
			}
			if strings.HasSuffix(a, "e") && i+1 < len(args) {
				script += "\n" + args[i+1].s
				haveScript = true
				i++
			}
		case strings.HasPrefix(a, "-") && a != "-":
		case !haveScript:
			script = a
			haveScript = true
		default:
			files = append(files, args[i])
		}
	}
	for _, line := range strings.FieldsFunc(script, func(r rune) bool { return r == '\n' || r == ';' }) {
		l := strings.TrimLeft(strings.TrimSpace(line), "0123456789,$/!^.*[]\\ ")
		if f, ok := strings.CutPrefix(l, "r "); ok {
			p, ok := w.abs(strings.TrimSpace(f))
			w.readFile(p, ok, "`sed r "+f+"`")
		}
	}
	if sedRuns(script) {
		w.res.add(Dangerous, "`"+chain+"`: the script can run commands or write files")
		for _, line := range strings.FieldsFunc(script, func(r rune) bool { return r == '\n' || r == ';' }) {
			l := strings.TrimLeft(strings.TrimSpace(line), "0123456789,$/!^.*[]\\ ")
			if cmd, ok := strings.CutPrefix(l, "e "); ok {
				w.literal1(cmd)
			}
		}
	}
	if inPlace {
		if len(files) == 0 {
			w.res.add(Safe, "`"+chain+" -i`: no files")
		}
		for _, f := range files {
			w.writeTo(f.s, chain+" -i", f.text)
		}
		return
	}
	w.res.add(Safe, "`"+chain+"`: prints edited text")
}

// sedRuns reports whether a sed script uses e (execute) or w (write).
func sedRuns(script string) bool {
	if hasHole(script) {
		return true
	}
	for _, line := range strings.FieldsFunc(script, func(r rune) bool { return r == '\n' || r == ';' }) {
		l := strings.TrimSpace(line)
		l = strings.TrimLeft(l, "0123456789,$/!^.*[]\\ ")
		if l == "" {
			continue
		}
		switch l[0] {
		case 'e', 'w', 'W', 'r', 'R':
			if len(l) == 1 || l[1] == ' ' || l[0] == 'e' {
				return l[0] == 'e' || l[0] == 'w' || l[0] == 'W'
			}
		case 's', 'y':
			if len(l) > 1 {
				sep := l[1]
				parts := strings.Split(l[2:], string(sep))
				if len(parts) >= 3 {
					flags := parts[len(parts)-1]
					if strings.ContainsAny(flags, "ew") {
						return true
					}
				}
			}
		}
	}
	return false
}

func (w *walker) awk(args []arg) {
	r := &rule{vals: "-F -v -f --field-separator --assign --file"}
	ops := scan(r, args)
	for i, a := range args {
		if (a.s == "-f" || a.s == "--file") && i+1 < len(args) {
			w.res.add(Dev, "`awk -f`: runs a program from a file")
			return
		}
	}
	if len(ops) == 0 {
		return
	}
	prog := args[ops[0]].s
	w.inline("awk", prog)
}

func (w *walker) sql(args []arg, chain string, io ioInfo) {
	var code []string
	for i, a := range args[1:] {
		s := a.s
		if (s == "-c" || s == "--command" || s == "-e" || s == "--execute" || s == "--eval") && i+2 < len(args) {
			code = append(code, args[i+2].s)
		} else if v, ok := strings.CutPrefix(s, "--command="); ok {
			code = append(code, v)
		}
	}
	name := strings.Fields(chain)[0]
	if name == "sqlite3" {
		ops := scan(&rule{vals: "-cmd -separator"}, args)
		if len(ops) >= 2 {
			code = append(code, args[ops[1]].s)
		}
		if len(ops) >= 1 {
			if p, ok := w.abs(args[ops[0]].s); !ok || !w.inside(p) {
				w.res.add(Dangerous, "`sqlite3`: opens a database outside the workspace")
			}
		}
	}
	if len(code) == 0 {
		if name == "sqlite3" && io.in.kind == inNone {
			return
		}
		w.res.add(Dangerous, "`"+name+"`: runs statements that cannot be seen")
		return
	}
	for _, c := range code {
		if sqlWrites(c) {
			w.res.add(Dangerous, "`"+name+"`: the statement changes or drops data")
		} else if name == "sqlite3" {
			w.res.add(Safe, "`"+name+"`: queries a project database")
		} else {
			w.res.add(Dev, "`"+name+"`: runs a read-only query")
		}
	}
}

func sqlWrites(s string) bool {
	if hasHole(s) {
		return true
	}
	u := " " + strings.ToUpper(s) + " "
	for _, k := range []string{"DROP", "DELETE", "TRUNCATE", "UPDATE", "INSERT", "ALTER", "CREATE", "GRANT", "REVOKE", "REPLACE", "ATTACH", "VACUUM", "COPY", "\\!", ".SHELL", ".SYSTEM", "DB.DROP", "REMOVE(", "DELETEMANY", "DROPDATABASE", "INSERTONE", "UPDATEONE", "UPDATEMANY", "PRAGMA", "LOAD_EXTENSION", "SET "} {
		if strings.Contains(u, k) {
			return true
		}
	}
	return false
}

func (w *walker) redis(args []arg) {
	ops := scan(&rule{vals: "-h -p -a -n -u --user --pass"}, args)
	if len(ops) == 0 {
		w.res.add(Dangerous, "`redis-cli`: opens an interactive session")
		return
	}
	switch strings.ToUpper(args[ops[0]].s) {
	case "GET", "MGET", "KEYS", "SCAN", "PING", "INFO", "TTL", "TYPE", "EXISTS", "HGET", "HGETALL", "LRANGE", "SMEMBERS", "DBSIZE", "LLEN", "STRLEN", "ZRANGE":
		w.res.add(Dev, "`redis-cli "+args[ops[0]].text+"`: reads from the database")
	default:
		w.res.add(Dangerous, "`redis-cli "+args[ops[0]].text+"`: changes the database")
	}
}

func (w *walker) npx(args []arg, io ioInfo) {
	ops := scan(&rule{vals: "-p --package -c --call"}, args)
	for _, a := range args[1:] {
		if a.s == "-c" || a.s == "--call" {
			w.res.add(Dangerous, "`npx -c`: runs shell code")
			return
		}
	}
	if len(ops) == 0 {
		w.res.add(Dangerous, "`npx`: runs a package")
		return
	}
	name := args[ops[0]].s
	if i := strings.LastIndexByte(name, '@'); i > 0 {
		name = name[:i]
	}
	if npxTools[name] {
		w.res.add(Dev, "`npx "+name+"`: runs a project tool")
		return
	}
	w.res.add(Dangerous, "`npx "+args[ops[0]].text+"`: may download and run a package")
}

// gitGlobal judges git's own options: -c can set config that runs code.
func (w *walker) gitGlobal(args []arg) {
	for i := 1; i < len(args); i++ {
		a := args[i].s
		var kv string
		switch {
		case a == "-c" && i+1 < len(args):
			kv = args[i+1].s
			i++
		case strings.HasPrefix(a, "--config-env"):
			kv = strings.TrimPrefix(strings.TrimPrefix(a, "--config-env"), "=")
		case a == "--exec-path" || strings.HasPrefix(a, "--exec-path="):
			w.res.add(Dangerous, "`git --exec-path`: runs git programs from another place")
			continue
		default:
			continue
		}
		key, val, _ := strings.Cut(kv, "=")
		for _, r := range gitRules["config"].ops {
			if matchOp(r.match, key) || matchOp(r.match, strings.ToLower(key)) {
				w.res.add(Dangerous, "`git -c "+key+"`: sets config that runs programs")
				w.literal1(strings.TrimPrefix(val, "!"))
			}
		}
	}
}

func (w *walker) dockerRun(args []arg, chain string) {
	type mount struct{ host, container string }
	var mounts []mount
	for i := 1; i < len(args); i++ {
		a := args[i].s
		val := ""
		switch {
		case a == "-v" || a == "--volume" || a == "--mount":
			if i+1 < len(args) {
				val = args[i+1].s
				i++
			}
		case strings.HasPrefix(a, "--volume=") || strings.HasPrefix(a, "--mount="):
			_, val, _ = strings.Cut(a, "=")
		case a == "--privileged" || strings.HasPrefix(a, "--cap-add") || a == "--pid=host" || a == "--net=host" || a == "--network=host" || strings.HasPrefix(a, "--device"):
			w.res.add(Dangerous, "`"+chain+" "+a+"`: gives the container power over the host")
			continue
		default:
			if !strings.HasPrefix(a, "-") {
				// The image; the rest is the container's command. It runs
				// inside the container, so only what it does to mounted
				// host paths counts, and only when catastrophic.
				if i+1 < len(args) && len(mounts) > 0 {
					inner := append([]arg(nil), args[i+1:]...)
					for k := range inner {
						s := inner[k].s
						if !strings.HasPrefix(s, "/") {
							continue
						}
						mapped := "/qsh-container" + s
						for _, m := range mounts {
							if under(path.Clean(s), m.container) {
								mapped = m.host + strings.TrimPrefix(path.Clean(s), m.container)
							}
						}
						inner[k].s = mapped
					}
					c := w.clone()
					c.res = &result{}
					c.cwd = "/qsh-container"
					c.exec(inner, ioInfo{})
					if c.res.class == Blocked {
						for _, r := range c.res.reasons {
							w.res.add(Blocked, "inside the container, on a host mount: "+r)
						}
					}
				}
				return
			}
			if takesValue(commands["docker"].sub["run"].vals, a) {
				i++
			}
			continue
		}
		src := val
		if strings.HasPrefix(val, "type=") || strings.Contains(val, "source=") || strings.Contains(val, "src=") {
			for f := range strings.SplitSeq(val, ",") {
				if k, v, ok := strings.Cut(f, "="); ok && (k == "source" || k == "src") {
					src = v
				}
			}
		} else {
			src, _, _ = strings.Cut(val, ":")
		}
		if !strings.HasPrefix(src, "/") && !strings.HasPrefix(src, ".") && !strings.HasPrefix(src, "~") && !hasHole(src) {
			continue // a named volume
		}
		p, ok := w.abs(src)
		if ok {
			parts := strings.Split(val, ":")
			if len(parts) >= 2 && strings.HasPrefix(parts[1], "/") {
				mounts = append(mounts, mount{host: p, container: path.Clean(parts[1])})
			}
		}
		switch {
		case !ok:
			w.res.add(Dangerous, "`"+chain+" -v "+val+"`: mounts a path not known before running")
		case w.inside(p) || p == w.ws.Dir:
			w.res.add(Dev, "`"+chain+" -v "+val+"`: mounts the project")
		default:
			w.res.add(Dangerous, "`"+chain+" -v "+val+"`: mounts a host path outside the workspace")
		}
	}
}

// cloudRead are verbs of cloud CLIs that only read.
var cloudRead = []string{"list", "ls", "describe", "get", "show", "view", "status", "info", "whoami", "version", "lookup", "search", "check", "print", "export-config", "tail", "filter", "read", "wait", "validate", "test"}

// cloudSecret are verbs that print secrets.
var cloudSecret = []string{"secret", "password", "token", "credential", "decrypt", "access-key", "login"}

func (w *walker) cloud(args []arg, chain string) {
	name := strings.Fields(chain)[0]
	ops := scan(commands[name], args)
	if len(ops) == 0 {
		w.res.add(Safe, "`"+name+"`: shows help")
		return
	}
	var words []string
	for _, i := range ops {
		words = append(words, args[i].s)
	}
	if name == "aws" && len(words) >= 2 && words[0] == "s3" {
		switch words[1] {
		case "ls":
			w.res.add(Dev, "`aws s3 ls`: "+remoteRead)
		case "cp", "sync", "mv":
			local := true
			for _, x := range words[2:] {
				if strings.HasPrefix(x, "s3://") {
					local = false
				}
			}
			if !local && strings.HasPrefix(words[len(words)-1], "s3://") {
				w.res.add(Dangerous, "`aws s3 "+words[1]+"`: uploads to a bucket")
			} else {
				w.res.add(Dangerous, "`aws s3 "+words[1]+"`: copies from a bucket")
			}
		default:
			w.res.add(Dangerous, "`aws s3 "+words[1]+"`: "+remoteEdit)
		}
		return
	}
	text := name + " " + strings.Join(words, " ")
	lower := strings.ToLower(text)
	for _, s := range cloudSecret {
		if strings.Contains(lower, s) && !strings.Contains(lower, "list") {
			w.res.add(Dangerous, "`"+text+"`: may print a secret")
			return
		}
	}
	if len(words) > 0 && (words[0] == "configure" || words[0] == "config" && len(words) > 1 && words[1] == "set") {
		w.res.add(Dangerous, "`"+text+"`: changes CLI settings or credentials")
		return
	}
	// The verb is the last operand word that looks like one.
	for i := len(words) - 1; i >= 0; i-- {
		v := words[i]
		for _, r := range cloudRead {
			if v == r || strings.HasPrefix(v, r+"-") {
				w.res.add(Dev, "`"+text+"`: "+remoteRead)
				return
			}
		}
	}
	w.res.add(Dangerous, "`"+text+"`: may change cloud resources")
}

// localHost reports whether host is this machine.
func localHost(host string) bool {
	h := strings.ToLower(strings.Trim(host, "[]"))
	switch {
	case h == "localhost" || h == "::1" || h == "0.0.0.0" || strings.HasSuffix(h, ".localhost"):
		return true
	case strings.HasPrefix(h, "127."):
		return true
	}
	return false
}

func urlHost(s string) (string, bool) {
	if hasHole(s) {
		return "", false
	}
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil || u.Hostname() == "" {
		return "", false
	}
	return u.Hostname(), true
}

func (w *walker) fetch(args []arg, chain string, io ioInfo) {
	name := strings.Fields(chain)[0]
	vals := "-o --output -H --header -d --data --data-raw --data-binary --data-urlencode -F --form -u --user -X --request -A --user-agent -e --referer -b --cookie -c --cookie-jar -x --proxy -T --upload-file -m --max-time --connect-timeout -w --write-out -r --range -K --config --retry --resolve --cacert --cert --key --url"
	if name == "wget" {
		vals = "-O --output-document -o --output-file -a --append-output -P --directory-prefix -U --user-agent --header --post-data --post-file --body-data --body-file --method -T --timeout -t --tries -i --input-file -e --execute --user --password"
	}
	r := &rule{vals: vals}
	ops := scan(r, args)
	var urls []arg
	for _, i := range ops {
		urls = append(urls, args[i])
	}
	out := ""
	remoteName := false
	for i := 1; i < len(args); i++ {
		a := args[i].s
		next := func() string {
			if i+1 < len(args) {
				return args[i+1].s
			}
			return ""
		}
		switch {
		case a == "--url":
			urls = append(urls, args[min(i+1, len(args)-1)])
		case name == "curl" && (a == "-o" || a == "--output"), name == "wget" && (a == "-O" || a == "--output-document"):
			out = next()
		case name == "wget" && strings.HasPrefix(a, "--output-document="):
			out = strings.TrimPrefix(a, "--output-document=")
		case name == "wget" && takesValue("-O", a):
			out = next()
		case name == "wget" && strings.HasPrefix(a, "-O") && !strings.HasPrefix(a, "--"):
			out = a[2:]
		case name == "curl" && (a == "-O" || a == "--remote-name" || a == "--remote-name-all" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && letters(a[1:]) && strings.Contains(a, "O")):
			remoteName = true
		case a == "-T" || a == "--upload-file" || strings.HasPrefix(a, "--post-file") || strings.HasPrefix(a, "--body-file"):
			w.res.add(Dangerous, "`"+name+" "+args[i].text+"`: uploads a file")
		case a == "-F" || a == "--form" || strings.HasPrefix(a, "-d") || strings.HasPrefix(a, "--data"):
			if strings.Contains(next(), "@") || strings.Contains(a, "@") {
				w.res.add(Dangerous, "`"+name+" "+args[i].text+"`: uploads a file")
			}
		}
	}
	if len(urls) == 0 {
		w.res.add(Dangerous, "`"+name+"`: network access")
		return
	}
	for _, u := range urls {
		host, ok := urlHost(u.s)
		switch {
		case !ok:
			w.res.add(Dangerous, "`"+name+" "+u.text+"`: address not known before running")
		case localHost(host):
			w.res.add(Dev, "`"+name+" "+u.text+"`: talks to a local server")
		default:
			w.res.add(Dangerous, "`"+name+"` to `"+host+"`: network access")
		}
		if name == "wget" && out == "" || name == "curl" && remoteName {
			base := path.Base(strings.SplitN(strings.SplitN(u.s, "?", 2)[0], "#", 2)[0])
			if base == "." || base == "/" || !strings.Contains(u.s, "/") {
				base = "index.html"
			}
			w.download(base, name)
		}
	}
	if out != "" && out != "-" {
		w.download(out, name)
	}
	for _, p := range io.out {
		w.shared.downloads[p] = true
	}
}

func (w *walker) download(target, name string) {
	p, ok := w.abs(target)
	if ok {
		w.shared.downloads[p] = true
	}
	c, why := w.writeClass(pathOrEmpty(p, ok), "`"+name+" -o "+target+"`")
	w.res.add(c, why)
}

func (w *walker) rsync(args []arg, chain string) {
	ops := scan(&rule{vals: "-e --rsh -f --filter --exclude --include --exclude-from --include-from --port --password-file --log-file"}, args)
	for i := 1; i < len(args); i++ {
		if args[i].s == "-e" || strings.HasPrefix(args[i].s, "--rsh") {
			w.res.add(Dangerous, "`rsync -e`: runs a remote shell program")
		}
		if args[i].s == "--delete" || strings.HasPrefix(args[i].s, "--delete-") || args[i].s == "--remove-source-files" {
			w.res.add(Dangerous, "`rsync "+args[i].text+"`: deletes files")
		}
	}
	for _, i := range ops {
		s := args[i].s
		if host, _, ok := strings.Cut(s, ":"); ok && !strings.Contains(host, "/") || strings.HasPrefix(s, "rsync://") {
			w.res.add(Dangerous, "`rsync "+args[i].text+"`: copies over the network")
			return
		}
	}
	if len(ops) > 0 {
		last := args[ops[len(ops)-1]]
		w.writeTo(last.s, chain, last.text)
	}
}
