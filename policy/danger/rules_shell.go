package danger

import "strings"

// shellCommands is the part of the table (see rules.go) for the shell's builtins, wrappers that run
// a command (sudo, env, timeout …), shells and interpreters, and programs that run what they are
// given (strace, gdb, expect …).
func shellCommands() map[string]*rule {
	return map[string]*rule{
		"echo":     named(safe("prints text")),
		"printf":   {class: Safe, why: "prints text", check: (*walker).printfVar, names: true},
		"complete": {class: Safe, why: "sets how a command's arguments complete", check: (*walker).complete},
		"compgen":  {class: Safe, why: "lists completions", check: (*walker).complete},
		"compopt":  safe("sets completion options"),
		"true":     named(safe("does nothing")),
		"false":    named(safe("does nothing")),
		":":        named(safe("does nothing")),
		"test":     {class: Safe, why: "tests a condition", check: (*walker).testVar},
		"[":        {class: Safe, why: "tests a condition", check: (*walker).testVar},
		"sleep":    named(safe("waits")),
		"wait":     safe("waits"),
		"yes":      named(safe("prints text")),
		"date": {
			class: Safe,
			why:   "prints the date",
			flags: []flag{raise("-s --set", Dangerous, "sets the system clock")},
		},
		"cal":       safe("prints a calendar"),
		"expr":      named(safe("computes")),
		"bc":        safe("computes"),
		"dc":        dangerous("runs a calculator program, which can run shell commands"),
		"factor":    named(safe("computes")),
		"numfmt":    safe("formats numbers"),
		"read":      {class: Safe, why: "reads input", check: (*walker).setsVars},
		"mapfile":   {class: Safe, why: "reads input", check: (*walker).setsVars},
		"readarray": {class: Safe, why: "reads input", check: (*walker).setsVars},
		"getopts":   safe("parses options"),
		"shift":     safe("shifts parameters"),
		"exit":      safe("exits"),
		"return":    safe("returns"),
		"break":     safe("leaves a loop"),
		"continue":  safe("continues a loop"),
		"jobs":      safe("lists jobs"),
		"times":     safe("prints times"),
		"caller":    safe("prints the call stack"),
		"enable": {class: Dangerous, why: "turns builtins off or loads new ones, which changes what later commands run",
			bare: safe("lists builtins"), flags: []flag{set("-a -p -s", Safe, "lists builtins"),
				raise("-n -f -d", Dangerous, "turns builtins off or loads new ones")}},
		"umask": {
			class: Safe,
			why:   "shows the file mode mask",
			bare:  safe("shows the file mode mask"),
			ops:   []flag{raise("*", Dev, "changes the file mode mask for this session")},
		},
		"ulimit": safe("shows or sets limits for this shell"),
		"shopt":  safe("sets shell options"),
		"bind": {
			class: Safe,
			why:   "shows key bindings",
			check: (*walker).bind,
			flags: []flag{raise("-x", Dangerous, "binds a key to a command")},
		},
		"history": {
			class: Safe,
			why:   "shows history",
			flags: []flag{
				raise("-c -d -a", Dev, "changes the history"),
				raise("-w", Dangerous, "overwrites the history file with this session's list"),
			},
		},
		"fc":      dangerous("edits and re-runs history"),
		"disown":  safe("detaches a job"),
		"fg":      dangerous("resumes a job"),
		"bg":      dangerous("resumes a job"),
		"unalias": dev("removes an alias"),
		"unset":   {class: Safe, why: "unsets variables", check: (*walker).unset},
		"let":     safe("computes"),
		"dirs":    safe("lists directories"),
		"cd":      {class: Safe, why: "changes directory", check: (*walker).cd},
		"pushd":   {class: Safe, why: "changes directory", check: (*walker).cd},
		"popd":    {class: Safe, why: "changes directory", check: (*walker).popd},
		"set":     {class: Safe, why: "sets shell options", check: (*walker).set},
		"alias":   {class: Safe, why: "lists aliases", check: (*walker).alias},
		"trap":    {class: Safe, why: "sets a signal handler", check: (*walker).trap},
		// Run, a file is judged as code (runFile), not shown: . .env
		// loads its values and prints none.
		"source":  {class: Dev, why: "runs a file in this shell", check: (*walker).source, names: true},
		".":       {class: Dev, why: "runs a file in this shell", check: (*walker).source, names: true},
		"eval":    {class: Safe, why: "runs its arguments as shell code", kind: kindEval, noscope: true},
		"builtin": {class: Safe, why: "runs a builtin", kind: kindWrap, noscope: true},
		"command": {
			class:   Safe,
			why:     "runs a command",
			kind:    kindWrap,
			noscope: true,
			flags:   []flag{set("-v -V", Safe, "describes a command")},
		},
		"exec": {
			class:   Safe,
			why:     "replaces the shell with a command",
			kind:    kindWrap,
			vals:    "-a",
			noscope: true,
		},
		"sudo": {
			class: Dangerous,
			why:   "runs as root",
			kind:  kindWrap,
			vals: "-u -g -C -h -p -U -r -t -T -D -R --user --group --host --prompt --chdir --role " +
				"--type --close-from",
			noscope: true,
			alone:   "-k -K -V",
			// -l authenticates as -v does and renews the cached
			// credentials later sudo commands use: state beyond the shell.
			flags: []flag{set("-v -k -K --validate -l --list", Dangerous, "authenticates for root privileges")},
		},
		"doas": {class: Dangerous, why: "runs as root", kind: kindWrap, vals: "-u -C", noscope: true},
		"run0": {
			class:   Dangerous,
			why:     "runs as root",
			kind:    kindWrap,
			vals:    "-u --user -g --group --unit --property --description --slice -D --chdir --setenv --nice",
			noscope: true,
		},
		// Wrappers that change how a command runs, not what it does: the
		// command is judged.
		"fakeroot":  {class: Safe, why: "runs a command as a make-believe root", kind: kindWrap, noscope: true},
		"eatmydata": {class: Safe, why: "runs a command without syncing to disk", kind: kindWrap, noscope: true},
		"ifne":      {class: Safe, why: "runs a command if its input is not empty", kind: kindWrap, noscope: true},
		"sshpass": {
			class:   Safe,
			why:     "runs a command with a password for ssh",
			kind:    kindWrap,
			vals:    "-p -f -d -P",
			noscope: true,
		},
		"torsocks":     {class: Dangerous, why: "sends a command's traffic through Tor", kind: kindWrap, noscope: true},
		"proxychains":  proxied(),
		"proxychains4": proxied(),
		"dotenv": {
			names:   true, // the env file is loaded, not shown
			class:   Dev,
			why:     "runs a command with the variables of an env file",
			kind:    kindWrap,
			vals:    "-e -v -c",
			noscope: true,
		},
		"env-cmd": {
			names:   true,
			class:   Dev,
			why:     "runs a command with the variables of an env file",
			kind:    kindWrap,
			vals:    "-f --file -e --environments -r --rc-file",
			noscope: true,
		},
		"pkexec": {class: Dangerous, why: "runs as root", kind: kindWrap, vals: "--user", noscope: true},
		"su":     {class: Dangerous, why: "runs as another user", check: (*walker).su, noscope: true},
		"cross-env": {
			class:   Safe,
			why:     "runs a command with a changed environment",
			kind:    kindWrap,
			assigns: true,
			noscope: true,
		},
		"env": {
			class:   Safe,
			why:     "runs a command with a changed environment",
			kind:    kindWrap,
			vals:    "-u --unset -C --chdir -S --split-string",
			assigns: true,
			noscope: true,
			check:   (*walker).env,
		},
		"printenv": {class: Safe, why: "prints named variables", check: (*walker).printenv},
		"nice": {
			class:   Safe,
			why:     "runs a command at lower priority",
			kind:    kindWrap,
			vals:    "-n --adjustment",
			noscope: true,
		},
		"ionice": {
			class:   Safe,
			why:     "runs a command at lower I/O priority",
			kind:    kindWrap,
			vals:    "-c -n -p",
			noscope: true,
		},
		"nohup": {class: Safe, why: "runs a command immune to hangups", kind: kindWrap, noscope: true},
		"time": {
			class:   Safe,
			why:     "times a command",
			kind:    kindWrap,
			check:   (*walker).outflag,
			vals:    "-f -o --format --output",
			noscope: true,
		},
		"timeout": {
			class:   Safe,
			why:     "runs a command with a time limit",
			kind:    kindWrap,
			vals:    "-s -k --signal --kill-after",
			skip:    1,
			noscope: true,
		},
		"stdbuf": {
			class:   Safe,
			why:     "runs a command with changed buffering",
			kind:    kindWrap,
			vals:    "-i -o -e",
			noscope: true,
		},
		"setsid":     {class: Safe, why: "runs a command in a new session", kind: kindWrap, noscope: true},
		"unbuffer":   {class: Safe, why: "runs a command", kind: kindWrap, noscope: true},
		"chronic":    {class: Safe, why: "runs a command quietly", kind: kindWrap, noscope: true},
		"caffeinate": {class: Safe, why: "runs a command", kind: kindWrap, vals: "-t -w", noscope: true},
		"busybox":    {class: Safe, why: "runs a busybox applet", kind: kindWrap, noscope: true},
		"toybox":     {class: Safe, why: "runs a toybox applet", kind: kindWrap, noscope: true},
		"watch": {
			class: Safe,
			why:   "runs a command repeatedly",
			kind:  kindWrap,
			joins: true,
			// -d takes its value only as -d=permanent.
			vals:    "-n --interval -q --equexit",
			noscope: true,
		},
		"systemd-run": {
			class: Dangerous,
			why:   "runs a command as a transient system service",
			kind:  kindWrap,
			vals: "-u --unit -p --property --description --slice -E --setenv --uid --gid --nice -M --machine " +
				"-H --host --working-directory --on-active --on-boot --on-startup --on-unit-active " +
				"--on-unit-inactive --on-calendar --on-clock-change --on-timezone-change --timer-property",
			noscope: true,
		},
		"flock": {
			class:   Dev,
			why:     "runs a command under a lock",
			kind:    kindWrap,
			skip:    1,
			vals:    "-w -E -c --command",
			check:   (*walker).flock,
			noscope: true,
		},
		"chrt": {
			class:   Dev,
			why:     "runs a command with a scheduling policy",
			kind:    kindWrap,
			skip:    1,
			vals:    "-T -P -D --sched-runtime --sched-period --sched-deadline",
			flags:   []flag{raise("-p --pid", Dangerous, "changes the scheduling of a running process")},
			noscope: true,
		},
		"xargs": {
			class:   Safe,
			why:     "runs a command on its input",
			check:   (*walker).xargs,
			noscope: true,
		},
		"parallel": {
			class:   Safe,
			why:     "runs commands in parallel",
			check:   (*walker).parallel,
			noscope: true,
		},
		"bash": {
			class:    Safe,
			why:      "runs shell code",
			kind:     kindShell,
			code:     "-c",
			suffixes: true,
			noscope:  true,
		},
		"sh":         {class: Safe, why: "runs shell code", kind: kindShell, code: "-c", noscope: true},
		"zsh":        {class: Safe, why: "runs shell code", kind: kindShell, code: "-c", noscope: true},
		"dash":       {class: Safe, why: "runs shell code", kind: kindShell, code: "-c", noscope: true},
		"ksh":        {class: Safe, why: "runs shell code", kind: kindShell, code: "-c", noscope: true},
		"fish":       {class: Safe, why: "runs shell code", kind: kindShell, code: "-c", noscope: true},
		"qsh":        {class: Safe, why: "runs shell code", kind: kindShell, code: "-c", noscope: true},
		"gosh":       {class: Safe, why: "runs shell code", kind: kindShell, code: "-c", noscope: true},
		"pwsh":       {class: Safe, why: "runs PowerShell", check: (*walker).pwsh, noscope: true},
		"powershell": {class: Safe, why: "runs PowerShell", check: (*walker).pwsh, noscope: true},
		"cmd":        {class: Dangerous, why: "runs Windows commands", check: (*walker).cmdExe, noscope: true},
		"xterm":      {class: Dangerous, why: "opens a terminal window with a shell", check: (*walker).xterm},
		"uxterm":     {class: Dangerous, why: "opens a terminal window with a shell", check: (*walker).xterm},
		"urxvt":      {class: Dangerous, why: "opens a terminal window with a shell", check: (*walker).xterm},
		"rxvt":       {class: Dangerous, why: "opens a terminal window with a shell", check: (*walker).xterm},
		"python": {
			class:    Safe,
			why:      "runs Python",
			kind:     kindInterp,
			code:     "-c",
			vals:     "-m -W -X",
			suffixes: true,
			noscope:  true,
		},
		"pypy": {
			class:    Safe,
			why:      "runs Python",
			kind:     kindInterp,
			code:     "-c",
			vals:     "-m -W -X",
			suffixes: true,
			noscope:  true,
		},
		"node": {
			class:    Safe,
			why:      "runs JavaScript",
			kind:     kindInterp,
			code:     "-e --eval -p --print",
			vals:     "-r --require --import --loader",
			suffixes: true,
			noscope:  true,
		},
		"nodejs": {
			class:   Safe,
			why:     "runs JavaScript",
			kind:    kindInterp,
			code:    "-e --eval -p --print",
			vals:    "-r --require",
			noscope: true,
		},
		"deno": {
			class: Dev,
			why:   "runs the project's code",
			sub: map[string]*rule{
				"eval":  {class: Dangerous, why: "runs inline code", check: (*walker).deno},
				"task":  dev("runs a project task"),
				"run":   {class: Dev, why: "runs the project's code", check: (*walker).deno},
				"serve": {class: Dev, why: "serves the project's code", check: (*walker).deno},
				"test":  dev(buildWhy),
				"info":  {class: Dev, why: "fetches and lists a module's dependencies", bare: safe("shows the cache")},
				"fmt":   dev("formats the code"),
				"lint":  dev("lints the code"),
				"check": dev(buildWhy),
				"install": {class: Dangerous, why: "installs a program outside the workspace",
					check: (*walker).installsFrom},
			},
			open: true,
		},
		"perl": {
			class:    Safe,
			why:      "runs Perl",
			kind:     kindInterp,
			code:     "-e -E",
			vals:     "-I -M -m",
			suffixes: true,
			noscope:  true,
		},
		"ruby": {
			class:    Safe,
			why:      "runs Ruby",
			kind:     kindInterp,
			code:     "-e",
			vals:     "-I -r",
			suffixes: true,
			noscope:  true,
		},
		"php": {
			class:    Safe,
			why:      "runs PHP",
			kind:     kindInterp,
			code:     "-r",
			suffixes: true,
			noscope:  true,
		},
		"lua": {
			class:    Safe,
			why:      "runs Lua",
			kind:     kindInterp,
			code:     "-e",
			suffixes: true,
			noscope:  true,
		},
		"Rscript": {class: Safe, why: "runs R", kind: kindInterp, code: "-e", noscope: true},
		"R":       {class: Safe, why: "runs R", kind: kindInterp, code: "-e", noscope: true},
		"julia":   {class: Dev, why: "runs the project's code", check: (*walker).julia, noscope: true},
		"elixir": {class: Dev, why: "runs the project's code", check: (*walker).script1, noscope: true,
			flags: []flag{raise("-e --eval", Dangerous, "runs code that cannot be seen into")}},
		"awk": {class: Safe, why: "processes text", check: (*walker).awk, noscope: true, pattern: true,
			patternFlags: "-f --file"},
		"gawk": {class: Safe, why: "processes text", check: (*walker).awk, noscope: true, pattern: true,
			patternFlags: "-f --file"},
		"mawk": {class: Safe, why: "processes text", check: (*walker).awk, noscope: true, pattern: true,
			patternFlags: "-f --file"},
		"nawk": {class: Safe, why: "processes text", check: (*walker).awk, noscope: true, pattern: true,
			patternFlags: "-f --file"},
		"sed":       {class: Safe, why: "edits a stream", check: (*walker).sed, noscope: true},
		"gsed":      {class: Safe, why: "edits a stream", check: (*walker).sed, noscope: true},
		"osascript": {class: Dangerous, why: "runs AppleScript", check: (*walker).osascript},
		"tclsh":     dangerous("runs Tcl"),
		"irb":       dangerous("starts an interactive Ruby session"),
		"pry":       dangerous("starts an interactive Ruby session"),
		"chroot": {class: Dangerous, why: "runs in another root", kind: kindWrap, skip: 1, vals: "--userspec --groups",
			noscope: true},
		"nsenter": {class: Dangerous, why: "enters namespaces", kind: kindWrap, vals: "-t --target -S -G -w -r",
			noscope: true},
		"unshare":  {class: Dangerous, why: "runs in new namespaces", kind: kindWrap, noscope: true},
		"taskset":  {class: Safe, why: "runs a command on given CPUs", kind: kindWrap, skip: 1, noscope: true},
		"prlimit":  {class: Safe, why: "runs a command with limits", kind: kindWrap, vals: "-p --pid", noscope: true},
		"firejail": {class: Dev, why: "runs a command in a sandbox", kind: kindWrap, noscope: true},
		"runuser": {class: Dangerous, why: "runs as another user", kind: kindWrap, vals: "-u -g -G --user --group",
			noscope: true, check: (*walker).su},
		"sg": {class: Dangerous, why: "runs as another group", check: (*walker).su, noscope: true},
		// Tracers and debuggers run the command they are given, which is
		// judged; attaching to a running process reads what it holds.
		"strace": {
			class:   Dev,
			why:     "traces a command",
			alone:   "-V --version",
			flags:   []flag{raise("-p --attach", Dangerous, "attaches to a running process and reads what it holds")},
			check:   (*walker).tracerOut,
			kind:    kindWrap,
			vals:    "-o -e -p -s -u -E -P -I -a -b -X -O -S --output --trace --signal --user --env",
			noscope: true,
		},
		"ltrace": {
			class:   Dev,
			why:     "traces a command",
			flags:   []flag{raise("-p", Dangerous, "attaches to a running process and reads what it holds")},
			check:   (*walker).tracerOut,
			kind:    kindWrap,
			vals:    "-o -e -p -s -u -n -a -A -D -F -l -w --output --library",
			noscope: true,
		},
		"gdb": {class: Dev, why: "debugs a program", check: (*walker).gdb,
			vals: "-ex --eval-command -iex --init-eval-command -x --command -ix -d --directory -cd -s --symbols " +
				"-e --exec -c --core",
			flags: []flag{raise("-p --pid", Dangerous, "attaches to a running process and reads what it holds")}},
		"entr":   {class: Dev, why: "runs a command when files change", check: (*walker).entr, noscope: true},
		"script": {class: Dev, why: "records a terminal session", check: (*walker).scriptCmd},
		"expect": {class: Dangerous, why: "drives interactive programs", check: (*walker).expect},
		"perf": {
			class: Dangerous,
			why:   "profiles the system",
			sub: map[string]*rule{
				"record":   perfRun(),
				"report":   {class: Safe, why: "reads a profile", check: (*walker).outflag},
				"annotate": safe("reads a profile"),
				"script":   safe("reads a profile"),
				"list":     safe("lists events"),
				"stat":     perfRun(),
				"trace":    perfRun(),
			},
			open: true,
		},
		"dbus-launch": {
			class:   Safe,
			why:     "runs a command with a session bus",
			kind:    kindWrap,
			vals:    "--config-file",
			noscope: true,
		},
		"xvfb-run": {
			class:   Safe,
			why:     "runs a command on a virtual display",
			kind:    kindWrap,
			vals:    "-n --server-num -s --server-args -f --auth-file -e --error-file -p --xauth-protocol -w --wait",
			noscope: true,
		},
		"watchexec": {
			class: Dev,
			why:   "runs a command when files change",
			kind:  kindWrap,
			joins: true,
			vals: "-e --exts -w --watch -W --watch-non-recursive -i --ignore -f --filter -d --debounce " +
				"-s --signal --shell -E --env --stop-signal --stop-timeout --project-origin --workdir " +
				"--filter-file --ignore-file --emit-events-to --on-busy-update --delay-run --poll --log-file",
			noscope: true,
		},
	}
}

// perfRun is perf record, stat and trace, which run the command given
// after their options.
func perfRun() *rule {
	return &rule{
		class: Dev,
		why:   "profiles a command",
		kind:  kindWrap,
		flags: []flag{raise("-a --all-cpus -p --pid -t --tid -u --uid -C --cpu -G --cgroup", Dangerous,
			"profiles processes other than the command")},
		check: (*walker).tracerOut,
		vals: "-e --event -o --output -p --pid -t --tid -F --freq -c --count -C --cpu -m --mmap-pages " +
			"-u --uid -G --cgroup --call-graph -r --repeat -x --field-separator -I --interval-print",
		noscope: true,
	}
}

// tracerOut judges the file a tracer or profiler writes its report to
// (strace -o, perf record -o), among the options before the command.
func (w *walker) tracerOut(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		a := args[i].s
		if !strings.HasPrefix(a, "-") {
			return // the command
		}
		name, v, hasV := strings.Cut(a, "=")
		switch {
		case name == "-o" || name == "--output" || name == "--output-file":
			if !hasV && i+1 < len(args) {
				i++
				v = args[i].s
			}
			w.writeTo(v, chain+" "+name, v)
		case strings.HasPrefix(a, "-o") && !strings.HasPrefix(a, "--"):
			w.writeTo(a[2:], chain+" -o", a[2:])
		case takesValue(commands.Get()[firstWord(chain)].vals, a) ||
			firstWord(chain) == "perf" && takesValue(perfRun().vals, a):
			i++
		}
	}
}

// proxied is a wrapper that sends a command's traffic through proxies.
func proxied() *rule {
	return &rule{class: Dangerous, why: "sends a command's traffic through proxies", kind: kindWrap, noscope: true,
		vals: "-f -q"}
}
