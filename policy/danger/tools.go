package danger

import (
	"slices"
	"strings"
)

// Checks for programs that run the commands they are given: debuggers,
// multiplexers, watchers, session recorders, line editors.

// gdb judges gdb -ex 'shell CMD' (and !CMD) and a program it runs with
// --args.
func (w *walker) gdb(chain string, args []arg, io ioInfo) {
	switch io.in.kind {
	case inData:
		// gdb reads commands from its input.
		for _, line := range strings.Split(io.in.data, "\n") {
			w.gdbCommand(line)
		}
	case inDownload:
		w.res.add(Blocked, "`"+chain+"`: runs debugger commands downloaded from the network, which can run programs")
	case inUnknown, inFile:
		w.res.add(Dangerous, "`"+chain+"`: runs debugger commands that cannot be seen, which can run programs")
	}
	ops := 0
	for i := 1; i < len(args); i++ {
		a := args[i].s
		name, v, hasV := strings.Cut(a, "=")
		if !strings.HasPrefix(a, "-") {
			if ops++; ops == 2 && a != "" && strings.Trim(a, "0123456789") == "" {
				w.res.add(Dangerous, "`"+chain+" "+args[i].text+"`: attaches to a running process and reads what it holds")
			}
			continue
		}
		switch name {
		case "-x", "--command", "-ix", "--init-command":
			if !hasV && i+1 < len(args) {
				i++
				v = args[i].s
			}
			w.runFile(v, v, "sh")
			continue
		case "-d", "--directory", "-cd", "-s", "--symbols", "-e", "--exec", "-c", "--core":
			if !hasV {
				i++
			}
			continue
		}
		switch name {
		case "-ex", "--eval-command", "-iex", "--init-eval-command":
			if !hasV && i+1 < len(args) {
				i++
				v = args[i].s
			}
			w.gdbCommand(v)
		case "--args":
			if i+1 < len(args) {
				w.exec(args[i+1:], io)
			}
			return
		}
	}
}

// entr judges the command entr runs when files change: -s makes it a
// shell string.
func (w *walker) entr(chain string, args []arg, io ioInfo) {
	shell := false
	for i := 1; i < len(args); i++ {
		a := args[i].s
		if strings.HasPrefix(a, "-") {
			shell = shell || strings.Contains(a, "s")
			continue
		}
		if shell {
			w.nested(a, input{})
		} else {
			w.exec(args[i:], ioInfo{})
		}
		return
	}
}

// scriptCmd judges script -c CMD and the typescript file it writes.
func (w *walker) scriptCmd(chain string, args []arg, io ioInfo) {
	command := false
	defer func() {
		if !command && io.in.kind != inNone {
			// Without -c, script runs a shell that reads its input.
			w.stdinCode(commands.Get()["bash"], chain, "bash", io)
		}
	}()
	for i := 1; i < len(args); i++ {
		name, v, hasV := strings.Cut(args[i].s, "=")
		switch {
		case name == "-c" || name == "--command" || !hasV && letters(strings.TrimPrefix(name, "-")) &&
			strings.HasPrefix(name, "-") && !strings.HasPrefix(name, "--") && strings.HasSuffix(name, "c"):
			if !hasV && i+1 < len(args) {
				i++
				v = args[i].s
			}
			w.nested(v, input{})
			command = true
		case !strings.HasPrefix(args[i].s, "-"):
			w.writeTo(args[i].s, chain, args[i].text)
		}
	}
}

// expect judges the programs an expect script spawns and execs.
func (w *walker) expect(chain string, args []arg, io ioInfo) {
	for i := 1; i+1 < len(args); i++ {
		if args[i].s != "-c" {
			continue
		}
		for line := range strings.FieldsFuncSeq(args[i+1].s, func(r rune) bool { return r == ';' || r == '\n' }) {
			f := strings.TrimSpace(line)
			if cmd, ok := strings.CutPrefix(f, "spawn "); ok {
				w.literal1(cmd)
			} else if cmd, ok := strings.CutPrefix(f, "exec "); ok {
				w.literal1(cmd)
			}
		}
	}
}

// ed judges the commands ed reads on its input: !cmd runs a shell
// command, w writes a file, r !cmd reads a command's output.
func (w *walker) ed(chain string, args []arg, io ioInfo) {
	for _, a := range args[1:] {
		if !strings.HasPrefix(a.s, "-") {
			w.writeTo(a.s, chain, a.text)
		}
	}
	if io.in.kind != inData {
		w.res.add(Dangerous, "`"+chain+"`: runs editor commands that cannot be seen, which can run programs")
		return
	}
	for line := range strings.SplitSeq(io.in.data, "\n") {
		l := strings.TrimLeft(strings.TrimSpace(line), "0123456789,.$;'/ ")
		switch {
		case strings.HasPrefix(l, "!"):
			w.res.add(Dangerous, "`"+chain+"`: runs a shell command")
			w.nested(l[1:], input{})
		case strings.HasPrefix(l, "r !") || strings.HasPrefix(l, "e !") || strings.HasPrefix(l, "w !"):
			w.res.add(Dangerous, "`"+chain+"`: runs a shell command")
			w.nested(l[3:], input{})
		case len(l) > 2 && (l[0] == 'w' || l[0] == 'W') && l[1] == ' ':
			w.writeTo(strings.TrimSpace(l[2:]), chain+" w", l[2:])
		}
	}
}

// screen judges the command screen starts in a new window.
func (w *walker) screen(chain string, args []arg, io ioInfo) {
	r := &rule{vals: "-S -c -e -h -L -Logfile -p -s -t -T -X"}
	ss := make([]string, len(args))
	for i, a := range args {
		ss[i] = a.s
	}
	for _, a := range ss[1:] {
		if a == "-X" || a == "-ls" || a == "-list" || a == "-r" || a == "-x" {
			return // sends to, lists or attaches existing sessions
		}
	}
	if i := unwrapIndex(r, ss); i > 0 {
		w.exec(args[i:], ioInfo{})
	}
}

// tmux judges the shell commands tmux runs: new-session, new-window,
// split-window, respawn-pane take one; run-shell runs one; send-keys
// types one.
func (w *walker) tmux(chain string, args []arg, io ioInfo) {
	ops := scan(&rule{vals: "-L -S -f -c"}, args)
	if len(ops) == 0 {
		return
	}
	sub := args[ops[0]].s
	rest := args[ops[0]:]
	vals := "-s -n -c -t -x -y -F -e -f -l -p -P -b -w -h -T"
	switch sub {
	case "new", "new-session", "new-window", "neww", "split-window", "splitw", "respawn-pane", "respawnp",
		"respawn-window", "respawnw", "run-shell", "run", "send-keys", "send", "display-popup", "popup":
	default:
		return
	}
	cmdOps := scan(&rule{vals: vals}, rest)
	var parts []string
	for _, i := range cmdOps {
		parts = append(parts, rest[i].s)
	}
	if len(parts) == 0 {
		return
	}
	cmd := strings.Join(parts, " ")
	if sub == "send-keys" || sub == "send" {
		w.literal1(strings.TrimSuffix(strings.TrimSuffix(cmd, " Enter"), " C-m"))
		return
	}
	w.nested(cmd, input{})
}

// tmuxSub is tmux for a subcommand's rule, whose arguments start at the
// subcommand.
func (w *walker) tmuxSub(chain string, args []arg, io ioInfo) {
	w.tmux(chain, append([]arg{{s: "tmux", text: "tmux"}}, args...), io)
}

// cmake judges cmake -E, which runs a portable command (rm -rf,
// remove_directory, copy, env CMD, chdir DIR CMD), and -P, which runs a
// cmake script.
func (w *walker) cmake(chain string, args []arg, io ioInfo) {
	install, prefix := false, ""
	for i := 1; i < len(args); i++ {
		switch name, v, ok := strings.Cut(args[i].s, "="); {
		case name == "--install":
			install = true
		case name == "--prefix" && (ok || i+1 < len(args)):
			if !ok {
				v = args[i+1].s
			}
			prefix = v
		}
	}
	if install {
		// cmake --install DIR installs where --prefix says, or where the
		// build was configured to (/usr/local by default).
		if prefix == "" {
			w.res.add(Dangerous, "`"+chain+" --install`: installs outside the workspace")
		} else {
			w.writeTo(prefix, chain+" --install --prefix", prefix)
		}
	}
	for i := 1; i < len(args); i++ {
		switch args[i].s {
		case "-P":
			if i+1 < len(args) {
				w.runFile(args[i+1].s, args[i+1].text, "cmake")
			}
			return
		case "-E":
			if i+1 >= len(args) {
				return
			}
			rest := args[i+1:]
			switch rest[0].s {
			case "rm", "remove", "remove_directory", "rmdir":
				rm := []arg{{s: "rm", text: "cmake -E " + rest[0].s}, {s: "-rf", text: rest[0].s}}
				if rest[0].s == "remove" || rest[0].s == "rm" {
					rm = rm[:1]
					recursive := func(a arg) bool { return a.s == "-r" || a.s == "-rf" || a.s == "-fr" }
					if slices.ContainsFunc(rest, recursive) {
						rm = append(rm, arg{s: "-rf", text: "-r"})
					}
				}
				for _, a := range rest[1:] {
					if !strings.HasPrefix(a.s, "-") {
						rm = append(rm, a)
					}
				}
				w.exec(rm, ioInfo{})
			case "env":
				for j, a := range rest[1:] {
					if !strings.Contains(a.s, "=") && !strings.HasPrefix(a.s, "-") {
						w.exec(rest[j+1:], ioInfo{})
						return
					}
				}
			case "chdir":
				if len(rest) > 2 {
					w.exec(rest[2:], ioInfo{})
				}
			case "time":
				if len(rest) > 1 {
					w.exec(rest[1:], ioInfo{})
				}
			case "copy", "copy_directory", "copy_if_different", "rename", "create_symlink", "touch",
				"make_directory", "tar":
				w.writeTo(rest[len(rest)-1].s, "cmake -E "+rest[0].s, rest[len(rest)-1].text)
			}
			return
		}
	}
}

// script1 judges a runner whose first operand is the script it runs
// (tsx, ts-node): one outside the workspace is not the project's.
func (w *walker) script1(chain string, args []arg, io ioInfo) {
	if ops := scan(&rule{vals: "-r --require --import --tsconfig -P --project"}, args); len(ops) > 0 {
		w.runFile(args[ops[0]].s, args[ops[0]].text, "node")
	}
}

// nodemon judges the command line nodemon's -x/--exec runs in place of
// node.
func (w *walker) nodemon(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		switch name, v, ok := strings.Cut(args[i].s, "="); {
		case name == "--exec" && ok:
			w.nested(v, input{})
		case (name == "-x" || name == "--exec") && i+1 < len(args):
			i++
			w.nested(args[i].s, input{})
		}
	}
}

// sevenZipOut judges 7z's -oDIR, the directory it unpacks into.
func (w *walker) sevenZipOut(chain string, args []arg, io ioInfo) {
	for _, a := range args[1:] {
		if d, ok := strings.CutPrefix(a.s, "-o"); ok && d != "" {
			w.writeTo(d, chain+" -o", a.text)
		}
	}
}

// cargoConfig judges cargo's --config KEY=VALUE where the key names a
// program cargo runs: a target's runner or linker, the rustc wrapper.
func (w *walker) cargoConfig(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		kv, ok := strings.CutPrefix(args[i].s, "--config=")
		if !ok && args[i].s == "--config" && i+1 < len(args) {
			i++
			kv, ok = args[i].s, true
		}
		key, v, isKV := strings.Cut(kv, "=")
		if !ok || !isKV {
			continue
		}
		key = strings.ToLower(strings.TrimSpace(key))
		if strings.HasSuffix(key, "runner") || strings.HasSuffix(key, "linker") || strings.HasSuffix(key, "rustc") ||
			strings.HasSuffix(key, "rustc-wrapper") || strings.HasSuffix(key, "rustdoc") {
			w.buildProgram(strings.Trim(strings.TrimSpace(v), `"'[]`), "`"+chain+" --config "+key+"`")
		}
	}
}

// npmInit judges npm init <initializer>, which is npm exec
// create-<initializer>: a package from the registry, run.
func (w *walker) npmInit(chain string, args []arg, io ioInfo) {
	w.creates(chain, args, io)
}

// gdbCommand judges one gdb command: shell CMD and !CMD run a command.
func (w *walker) gdbCommand(v string) {
	v = strings.TrimSpace(v)
	if cmd, ok := strings.CutPrefix(v, "shell "); ok {
		w.nested(cmd, input{})
	} else if cmd, ok := strings.CutPrefix(v, "!"); ok {
		w.nested(cmd, input{})
	}
}

// nvm judges nvm exec [VERSION] CMD… and nvm run [VERSION] ARGS…, which
// is node ARGS…: the version is optional, so an operand that does not
// look like one is the command.
func (w *walker) nvm(chain string, args []arg, io ioInfo) {
	ops := scan(&rule{}, args)
	if len(ops) == 0 {
		return
	}
	first := ops[0]
	if v := args[first].s; strings.HasPrefix(v, "lts/") || v == "node" && strings.HasSuffix(chain, "exec") &&
		len(ops) > 1 || v != "" && (v[0] >= '0' && v[0] <= '9' || v[0] == 'v' && len(v) > 1 && v[1] >= '0' && v[1] <= '9') {
		first++
	}
	if first >= len(args) {
		return
	}
	if strings.HasSuffix(chain, "run") {
		w.exec(append([]arg{{s: "node", text: chain}}, args[first:]...), io)
		return
	}
	w.exec(args[first:], io)
}

// nix judges nix run, shell, develop and build: what they build comes
// from an installable (a flake reference), and shell and develop run
// the command after -c. The project's own flake (., .#app, ./dir) is dev
// work; a package of the nixpkgs registry is a download; a flake from
// anywhere else (github:owner/repo, a URL) is code from the network,
// which run, shell and develop execute.
func (w *walker) nix(chain string, args []arg, io ioInfo) {
	sub := chain[strings.LastIndexByte(chain, ' ')+1:]
	for i := 1; i < len(args); i++ {
		a := args[i].s
		switch {
		case a == "--":
			return // the rest are the program's arguments
		case (a == "-c" || a == "--command") && (sub == "shell" || sub == "develop"):
			if i+1 < len(args) {
				w.exec(args[i+1:], io)
			}
			return
		case strings.HasPrefix(a, "-"):
			if a == "--override-input" || a == "--inputs-from" || a == "--profile" || a == "-o" ||
				a == "--out-link" || a == "--expr" || a == "-f" || a == "--file" {
				i++
			}
		default:
			w.flakeRef(chain, args[i], sub != "build")
		}
	}
}

// flakeRef judges a flake reference that nix builds, and runs when runs
// is set.
func (w *walker) flakeRef(chain string, a arg, runs bool) {
	ref, _, _ := strings.Cut(a.s, "#")
	switch {
	case ref == "" || ref == "." || strings.HasPrefix(ref, "./") || strings.HasPrefix(ref, "path:.") ||
		strings.HasPrefix(ref, "/") || strings.HasPrefix(ref, "path:/"):
		p, ok := w.abs(strings.TrimPrefix(ref, "path:"))
		if ref == "" {
			p, ok = w.cwd, w.cwd != ""
		}
		if !ok || !(w.inside(p) || p == w.ws.Dir) {
			w.res.add(Dangerous, "`"+chain+" "+a.text+"`: builds a flake outside the workspace")
		}
	case ref == "nixpkgs" || strings.HasPrefix(ref, "nixpkgs/") || ref == "flake:nixpkgs":
		w.res.add(Dangerous, "`"+chain+" "+a.text+"`: downloads a package of the nixpkgs registry")
	case runs:
		w.res.add(Blocked, "`"+chain+" "+a.text+"`: downloads code from a flake nobody named in the project and runs it")
	default:
		w.res.add(Dangerous, "`"+chain+" "+a.text+"`: builds code from a flake nobody named in the project")
	}
}

// nixShell judges nix-shell: --run and --command give shell code, -p
// packages of nixpkgs, and a URL or a file outside the workspace the
// expression, whose shellHook runs.
func (w *walker) nixShell(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		a := args[i].s
		switch {
		case (a == "--run" || a == "--command") && i+1 < len(args):
			i++
			w.nested(args[i].s, io.in)
		case a == "-p" || a == "--packages":
			w.res.add(Dangerous, "`"+chain+" -p`: downloads packages of the nixpkgs registry")
		case a == "-I" || a == "--arg" || a == "--argstr" || a == "-A" || a == "--attr":
			if a == "--arg" || a == "--argstr" {
				i++
			}
			i++
		case strings.HasPrefix(a, "-"):
		case strings.Contains(a, "://"):
			w.res.add(Blocked, "`"+chain+" "+args[i].text+"`: downloads a Nix expression and runs its shell hook")
		default:
			if p, ok := w.abs(a); !ok || !(w.inside(p) || p == w.ws.Dir) {
				w.res.add(Dangerous, "`"+chain+" "+args[i].text+"`: runs a Nix expression outside the workspace")
			}
		}
	}
}

// mvn judges exec:exec, which runs the program -Dexec.executable names
// with -Dexec.args.
func (w *walker) mvn(chain string, args []arg, io ioInfo) {
	prog, progArgs, runs := "", "", false
	for _, a := range args[1:] {
		switch {
		case a.s == "exec:exec":
			runs = true
		case strings.HasPrefix(a.s, "-Dexec.executable="):
			prog = strings.TrimPrefix(a.s, "-Dexec.executable=")
		case strings.HasPrefix(a.s, "-Dexec.args="):
			progArgs = strings.TrimPrefix(a.s, "-Dexec.args=")
		}
	}
	if runs && prog != "" {
		w.res.add(Dangerous, "`mvn exec:exec`: runs `"+prog+"`")
		w.nested(quoteArgs([]string{prog})+" "+progArgs, io.in)
	}
}
