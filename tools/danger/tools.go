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
	if io.in.kind == inData {
		// gdb reads commands from its input.
		for _, line := range strings.Split(io.in.data, "\n") {
			w.gdbCommand(line)
		}
	}
	for i := 1; i < len(args); i++ {
		a := args[i].s
		name, v, hasV := strings.Cut(a, "=")
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

// cmake judges cmake -E, which runs a portable command (rm -rf,
// remove_directory, copy, env CMD, chdir DIR CMD), and -P, which runs a
// cmake script.
func (w *walker) cmake(chain string, args []arg, io ioInfo) {
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
	if ops := scan(&rule{vals: "-w --workspace --scope"}, args); len(ops) > 0 {
		w.res.add(Dangerous, "`"+chain+" "+args[ops[0]].text+"`: downloads and runs a project generator")
	}
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
