package danger

import (
	"os"
	"path"
	"slices"
	"strings"

	"github.com/qsh-shell/qsh/internal/lazy"
	"github.com/qsh-shell/qsh/policy/secret"
)

// binDirs hold system programs: /usr/bin/rm is judged as rm.
var binDirs = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{
		"/bin": true, "/usr/bin": true, "/sbin": true, "/usr/sbin": true, "/usr/local/bin": true,
		"/usr/local/sbin": true, "/opt/homebrew/bin": true, "/usr/libexec": true,
	}
}}

// lookup finds the rule for a command name: exact, then without a
// version or type suffix (python3.12, pip3, mkfs.ext4).
func lookup(name string) *rule {
	if r, ok := commands.Get()[name]; ok {
		return r
	}
	if i := strings.IndexByte(name, '.'); i > 0 {
		if r, ok := commands.Get()[name[:i]]; ok && r.suffixes {
			return r
		}
	}
	if base, ok := strings.CutSuffix(name, ".exe"); ok && base != "" {
		// WSL runs Windows programs by their .exe names (powershell.exe).
		if r, ok := commands.Get()[strings.ToLower(base)]; ok {
			return r
		}
	}
	if t := strings.TrimRight(name, "0123456789.-"); t != name && t != "" {
		if r, ok := commands.Get()[t]; ok && r.suffixes {
			return r
		}
	}
	return familyRule(name)
}

// run judges one program or builtin with its expanded arguments.
func (w *walker) run(args []arg, io ioInfo) {
	name := args[0].s
	if strings.Contains(name, "/") {
		if !binDirs.Get()[path.Dir(path.Clean(name))] && !(toolDir(path.Dir(path.Clean(name))) &&
			lookup(path.Base(name)) != nil) {
			w.runFile(args[0].s, args[0].text, "sh")
			if len(w.assigns) > 0 || len(args) > 1 {
				w.production(path.Base(name), args)
				w.listenEnv(path.Base(name))
			}
			if !w.local(args, io) {
				w.operands(args[1:])
				w.listens(path.Base(name), args)
			}
			return
		}
		name = path.Base(name)
	}
	w.runsDownloaded(name, args)
	w.holdsEndless(name, args, io.in)
	w.outputsToDisk(name, args)
	if name == "head" && headHuge(args) {
		// As dd of 10 GiB or more: written anywhere, it fills the disk.
		w.res.add(Dangerous, "`head -c`: copies 10 GiB or more of an endless stream, which may fill the disk")
	}
	r := lookup(name)
	if r == nil {
		w.unknown(name, args)
		return
	}
	if installers.Get()[name] {
		w.installsDownloaded(name, args)
	}
	if (r.class != Safe || r.kind == kindInterp || r.kind == kindRun) && (len(w.assigns) > 0 || len(args) > 1) {
		w.production(name, args)
	}
	if len(w.assigns) > 0 {
		w.listenEnv(name)
	}
	if r.class == Blocked && w.fsImage(name, args) {
		return
	}
	if len(args) == 2 && (args[1].s == "--help" || args[1].s == "--version" || args[1].s == "--info" || r.sub != nil && (args[1].s == "-v" || args[1].s == "-V" || args[1].s == "-version") ||
		args[1].s == "-version" && r.class <= Dev || slices.Contains(strings.Fields(r.alone), args[1].s) ||
		args[1].s == "-h" && r.class > Safe && !haltsOnH[name]) {
		w.res.add(Safe, "`"+name+" "+args[1].s+"`: prints help or version")
		return
	}
	if maskers.Get()[name] {
		ss := make([]string, len(args)-1)
		for i, a := range args[1:] {
			ss[i] = a.s
		}
		if m := masks(name, ss); m == maskAll || m == maskKeys && operandsEnvLines(w, r, args) {
			saved := w.masked
			w.masked = true
			defer func() { w.masked = saved }()
		}
	}
	w.apply(r, name, args, io)
}

// toolDir reports whether dir holds the project environment's copies of
// known tools (.venv/bin/pip, node_modules/.bin/eslint): such a copy does
// what the tool does, pip install of a URL included.
func toolDir(dir string) bool {
	if strings.HasSuffix(dir, "node_modules/.bin") {
		return true
	}
	if path.Base(dir) != "bin" && path.Base(dir) != "Scripts" {
		return false
	}
	switch env := path.Dir(dir); path.Base(env) {
	case ".venv", "venv", "env", ".env", "virtualenv", ".virtualenv":
		return true
	default:
		switch path.Base(path.Dir(env)) {
		case ".tox", ".nox", ".virtualenvs", "virtualenvs":
			return true
		}
	}
	return false
}

// haltsOnH are the commands whose -h is an action, not help (shutdown -h
// halts).
var haltsOnH = map[string]bool{"shutdown": true, "halt": true, "poweroff": true, "reboot": true}

// unknown judges a program the table does not know: dangerous, since what
// it does cannot be known, unless all it is asked is its help or version
// (`tool --help`, `tool sub -h`, `tool version`), which every program of a
// distribution answers by printing, or a list or its status (`tool
// status`, `tool list`), verbs no program uses for a change.
func (w *walker) unknown(name string, args []arg) {
	if w.shared.urlInstall || slices.ContainsFunc(w.shared.dlDirs, func(d string) bool {
		return binDirs.Get()[d] || d == path.Join(w.ws.Home, "bin") || d == path.Join(w.ws.Home, ".local/bin")
	}) {
		w.res.add(Blocked, "`"+name+"`: may be the program this command installs from the network, run")
	}
	if unknownAsks(args[1:]) {
		w.res.add(Safe, "`"+name+" "+args[len(args)-1].s+"`: prints help or version")
		return
	}
	if shellCodeAsked(args[1:]) {
		w.res.add(Safe, "`"+name+" "+args[1].s+"`: prints its shell setup code")
		return
	}
	if v, ok := unknownVerb(args[1:], listVerbs); ok {
		w.res.add(Dev, "`"+name+" "+v+"`: asks a program the classifier does not know for a list or its status")
		w.readerFlags(name, args, ioInfo{})
		w.operands(args[1:])
		return
	}
	if !w.shared.urlInstall && slices.ContainsFunc(args[1:], func(a arg) bool {
		return a.s == "--dry-run" || a.s == "--dryrun" || a.s == "--dry-run=true" || a.s == "--simulate"
	}) && !slices.ContainsFunc(args[1:], func(a arg) bool { return hasHole(a.s) }) {
		// Every tool that has a dry run spells it so; what it reads or
		// reaches to plan is dev at most.
		w.res.add(Dev, "`"+name+" --dry-run`: a dry run of a program the classifier does not know")
		w.readerFlags(name, args, ioInfo{})
		w.operands(args[1:])
		return
	}
	if v, ok := unknownVerb(args[1:], buildVerbs); ok && !w.shared.urlInstall {
		w.res.add(Dev, "`"+name+" "+v+"`: a tool the classifier does not know, asked to build, test or check "+
			"the project")
		w.readerFlags(name, args, ioInfo{})
		w.operands(args[1:])
		return
	}
	w.res.add(Dangerous, "unknown command `"+name+"`")
	w.operands(args[1:])
	w.unknownOnDisk(name, args[1:])
}

// unknownAsks reports arguments that only ask for help or a version: one
// of the spellings, alone or after one subcommand word.
func unknownAsks(ops []arg) bool {
	asks := func(s string) bool {
		switch s {
		case "--help", "-h", "-help", "--version", "-version", "help", "version", "--usage":
			return true
		}
		return false
	}
	switch len(ops) {
	case 1:
		return asks(ops[0].s)
	case 2:
		// tool sub --help, tool help sub.
		sub := ops[0].s
		if ops[0].s == "help" {
			sub = ops[1].s
		} else if !asks(ops[1].s) || ops[1].s == "version" {
			return false
		}
		return plainWord(sub)
	}
	return false
}

// listVerbs are the verbs with which a command asks a tool for a list or
// its state.
var listVerbs = map[string]bool{"status": true, "list": true, "ls": true}

// buildVerbs are the verbs with which a command asks a tool to build,
// test, check or format the project where it stands: what every SDK and
// build tool calls its everyday work (cdk synth, sam build, crystal spec).
var buildVerbs = map[string]bool{"build": true, "test": true, "check": true, "lint": true, "fmt": true,
	"format": true, "validate": true, "synth": true, "compile": true, "spec": true, "bench": true, "vet": true,
	"typecheck": true, "analyze": true, "verify": true}

// unknownVerb reports arguments that ask an unknown tool one of verbs
// (its first or second operand), with nothing that names a change beyond
// the verb (delete, deploy, --force …) or a secret to print: `tool
// status`, `tool clusters list`, `tool build --release`.
func unknownVerb(ops []arg, verbs map[string]bool) (string, bool) {
	verb := ""
	for i, a := range ops {
		s := a.s
		if verb == "" && i < 2 && verbs[s] {
			verb = s
			continue
		}
		if hasHole(s) || !plainWord(strings.TrimLeft(s, "-")) && !strings.HasPrefix(s, "-") {
			return "", false
		}
		if !strings.HasPrefix(s, "-") && strings.ContainsAny(s, "./") {
			continue // a file, read as one: deploy.yaml, k8s/prod
		}
		l := strings.ToLower(s)
		for _, bad := range []string{"delete", "remove", "purge", "prune", "force", "wipe", "secret", "passw",
			"token", "reveal", "decrypt", "destroy", "uninstall", "cred", "private", "item", "deploy", "publish",
			"release", "upload", "push", "prod", "login", "install", "sudo", "root", "host"} {
			if strings.Contains(l, bad) {
				return "", false
			}
		}
		for t := range strings.FieldsFuncSeq(l, func(r rune) bool { return !(r >= 'a' && r <= 'z') }) {
			switch t {
			case "rm", "kill", "reset", "exec", "run", "set", "apply", "clear", "drop", "key", "keys", "show",
				"get", "env", "vars", "config", "dump", "export", "raw":
				return "", false
			}
		}
	}
	return verb, verb != ""
}

// shellCodeAsked reports arguments that ask a program for the code a shell
// runs to set it up (starship init bash, zoxide init zsh, mcfly init
// fish, tool completion bash): a setup verb, then a shell's name.
func shellCodeAsked(ops []arg) bool {
	if len(ops) < 2 || len(ops) > 4 {
		return false
	}
	switch ops[0].s {
	case "init", "hook", "activate", "completion", "completions", "shell-init", "env":
	default:
		return false
	}
	shell := false
	for _, a := range ops[1:] {
		switch strings.TrimPrefix(a.s, "--shell=") {
		case "bash", "zsh", "fish", "sh", "posix", "powershell", "pwsh", "nu", "elvish", "tcsh", "ksh", "-":
			shell = true
		default:
			if !strings.HasPrefix(a.s, "-") || hasHole(a.s) || !plainWord(strings.TrimLeft(a.s, "-")) {
				return false
			}
		}
	}
	return shell
}

// plainWord reports a word of letters, digits and - _ . : that names a
// subcommand or a resource, not a path or code.
func plainWord(s string) bool {
	if s == "" || len(s) > 40 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' ||
			c == '.' || c == ':' || c == '=' || c == ',') {
			return false
		}
	}
	return true
}

// outputsToDisk blocks any program told to write its output to a raw disk
// by the option every tool spells alike (-o, --output, --outfile,
// --output-file): what it writes replaces the disk's filesystem, as dd of=
// would.
func (w *walker) outputsToDisk(name string, args []arg) {
	for i := 1; i < len(args); i++ {
		a := args[i].s
		var v string
		shown := args[i].text
		switch {
		case a == "-o" || a == "--output" || a == "--outfile" || a == "--output-file" || a == "--out":
			if i+1 < len(args) {
				v, shown = args[i+1].s, shown+" "+args[i+1].text
			}
		case strings.HasPrefix(a, "--output=") || strings.HasPrefix(a, "--outfile=") ||
			strings.HasPrefix(a, "--output-file=") || strings.HasPrefix(a, "--out="):
			_, v, _ = strings.Cut(a, "=")
		case strings.HasPrefix(a, "-o/"):
			v = a[2:]
		}
		if v == "" {
			continue
		}
		if p, ok := w.abs(v); ok && strings.HasPrefix(p, "/dev/") && rawDevice.Get().MatchString(p) {
			w.res.add(Blocked, "`"+name+" "+shown+"`: writes its output to a raw disk, destroying what is on it")
			return
		}
	}
}

// unknownOnDisk judges a program the table does not know that is given a
// raw disk: what it does with it cannot be known, and writing one is
// blocked however it is done.
func (w *walker) unknownOnDisk(name string, args []arg) {
	for _, a := range args {
		v := a.s
		if i := strings.IndexByte(v, '='); i >= 0 && strings.HasPrefix(v, "-") || strings.HasPrefix(v, "of=") {
			v = v[i+1:]
		}
		if p, ok := w.abs(v); ok && strings.HasPrefix(p, "/dev/") && rawDevice.Get().MatchString(p) {
			w.res.add(Blocked, "`"+name+" "+a.text+"`: a program the classifier does not know, given a raw disk, "+
				"may write it")
			return
		}
	}
}

// operands judges the arguments of a command as files it may read.
func (w *walker) operands(args []arg) {
	w.operandsOf("", args)
}

// outputFlags name the file a command writes; their value is not read.
var outputFlags = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"-o": true, "-out": true, "--output": true, "-keyout": true, "--out": true, "--output-file": true, "-O": true, "--output-document": true}
}}

// listers read only names and metadata (a secret file's existence, size
// or type is no secret); anything else may print or copy what it names.
var listers = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{
		"ls": true, "stat": true, "du": true, "tree": true, "file": true, "find": true, "cd": true, "test": true,
		"[": true, "chmod": true, "chown": true, "chgrp": true, "mkdir": true, "touch": true, "realpath": true,
		"readlink": true, "basename": true, "dirname": true, "eza": true, "exa": true, "fd": true, "rm": true,
		"rmdir": true, "unlink": true, "lsattr": true, "getfacl": true, "pushd": true,
	}
}}

// envFileArg is the file named by --env-file at args[i], if it is one.
func envFileArg(args []arg, i int) (string, bool) {
	if i > 0 && args[i-1].s == "--env-file" {
		return args[i].s, true
	}
	return strings.CutPrefix(args[i].s, "--env-file=")
}

// operandsOf judges the operands of command name as files it may read.
func (w *walker) operandsOf(name string, args []arg) {
	tree := readsTree(name, args)
	for i, a := range args {
		if i > 0 && outputFlags.Get()[args[i-1].s] {
			continue // written, not read
		}
		if v, ok := envFileArg(args, i); ok {
			// The project's file loaded into a program's environment, as
			// `. .env` is: shown nowhere.
			if p, ok := w.abs(v); ok && w.inside(p) {
				continue
			}
		}
		if strings.HasPrefix(a.s, "-") {
			i := strings.IndexByte(a.s, '=')
			if i < 0 || hasGlob(a.s[i+1:]) {
				continue // a flag, or a filter such as --include=*.go
			}
			a.s = a.s[i+1:]
		}
		if i := strings.LastIndexByte(a.s, ':'); i > 0 && i < len(a.s)-1 && !strings.Contains(a.s, "://") && !listers.Get()[name] {
			// git's REV:PATH names a file too.
			if p, ok := w.abs(a.s[i+1:]); ok {
				w.readFile(p, true, "`"+a.text+"`")
			}
		}
		if listers.Get()[name] {
			continue
		}
		p, ok := w.abs(a.s)
		if ok && !strings.ContainsAny(a.s, "/.~") && secret.WordsOnly(a.s) {
			// A bare word such as password or token is often no file at
			// all (pytest -k token, git switch password-reset): a file
			// only if there is one.
			if _, err := os.Lstat(p); err != nil {
				continue
			}
		}
		switch {
		case ok && name == "head" && headBytes(args) && strings.HasPrefix(p, "/dev/") &&
			rawDevice.Get().MatchString(p):
			w.res.add(Safe, "`head "+a.text+"`: reads the start of a disk: its partition table and boot code")
		case ok:
			w.readPath(p, true, "`"+a.text+"`", !a.quoted)
			if tree && !w.inside(p) && p != w.ws.Dir {
				if why := w.holdsSecrets(p); why != "" {
					w.discloses("`" + name + " " + a.text + "`: reads a tree that holds secrets (" + why + ")")
				}
			}
		default:
			w.readPartly(a.s, "`"+a.text+"`")
		}
	}
}

// headBytes reports a head that reads no more than the first MiB (-c N,
// --bytes=N), as ddHead does for dd.
func headBytes(args []arg) bool {
	n := int64(-1)
	for i, a := range args {
		v, ok := "", false
		switch {
		case a.s == "-c" || a.s == "--bytes":
			if i+1 < len(args) {
				v, ok = args[i+1].s, true
			}
		case strings.HasPrefix(a.s, "--bytes="):
			v, ok = strings.TrimPrefix(a.s, "--bytes="), true
		case strings.HasPrefix(a.s, "-c") && len(a.s) > 2:
			v, ok = a.s[2:], true
		}
		if ok {
			n = ddSize(v)
		}
	}
	return n >= 0 && n <= 1<<20
}

// headHuge reports head -c of 10 GiB or more of an endless device
// (/dev/zero, /dev/urandom).
func headHuge(args []arg) bool {
	endless := false
	n := int64(-1)
	for i, a := range args {
		endless = endless || endlessDevices[a.s]
		switch {
		case (a.s == "-c" || a.s == "--bytes") && i+1 < len(args):
			n = ddSize(args[i+1].s)
		case strings.HasPrefix(a.s, "--bytes="):
			n = ddSize(strings.TrimPrefix(a.s, "--bytes="))
		case strings.HasPrefix(a.s, "-c") && len(a.s) > 2:
			n = ddSize(a.s[2:])
		}
	}
	return endless && n >= 10<<30
}

// readPartly judges reading a path with parts not known before running
// (/proc/$$/environ, ~/$d/id_rsa) by what its known parts allow.
func (w *walker) readPartly(s, what string) {
	if !hasHole(s) || strings.Trim(s, hole) == "" || strings.ContainsRune(s, holeDL) {
		return
	}
	// "$DIR/.env", "$(git rev-parse --show-toplevel)/id_rsa": wherever the
	// directory is, the name says what the file holds.
	if i := strings.LastIndexByte(s, '/'); i >= 0 && !hasHole(s[i+1:]) && secret.Name(s[i+1:]) {
		w.discloses(what + ": reads a file whose name says it holds secrets (`" + s[i+1:] + "`)")
		return
	}
	pattern := strings.ReplaceAll(s, hole, "*")
	if pp, ok := w.abs(pattern); ok {
		if why := w.globSecret(pp); why != "" {
			w.discloses(what + ": may read a file that holds secrets (" + why + ")")
		}
	}
}

// progs judges the command lines given to flags that run them.
func (w *walker) progs(flags string, args []arg) {
	for i := 1; i < len(args); i++ {
		name, v, hasV := strings.Cut(args[i].s, "=")
		if !slices.Contains(strings.Fields(flags), name) {
			continue
		}
		if !hasV {
			if i+1 >= len(args) {
				return
			}
			i++
			v = args[i].s
		}
		w.literal1(v)
	}
}

// firstWord is the command word of a chain such as "git config".
func firstWord(chain string) string {
	if i := strings.IndexByte(chain, ' '); i >= 0 {
		return chain[:i]
	}
	return chain
}

// readsTree reports whether a command reads whole directory trees it is
// given: grep -r, rg, cp -r, tar, zip -r, rsync -a, scp -r.
func readsTree(name string, args []arg) bool {
	switch name {
	case "rg", "ag", "ack", "tar", "rsync", "7z":
		return true
	case "grep", "egrep", "fgrep", "cp", "zip", "scp", "diff", "sed", "strings":
		for _, a := range args {
			if a.s == "--recursive" || a.s == "-a" && name == "cp" || strings.HasPrefix(a.s, "-") &&
				!strings.HasPrefix(a.s, "--") && strings.ContainsAny(a.s, "rR") {
				return true
			}
		}
	}
	return false
}

// holdsSecrets says which secret a directory tree outside the workspace
// holds (~/.config holds ~/.config/gh, / holds everything), or "".
func (w *walker) holdsSecrets(dir string) string {
	if dir == "/proc" || dir == "/" {
		return "every process's environment"
	}
	for _, f := range w.shared.fixed(w.ws.Home) {
		if under(f, dir) && f != dir {
			return "`" + f + "`"
		}
	}
	return ""
}

// scan splits args (args[0] is the command or subcommand) into the
// indexes of operands, skipping flags and the values of r.vals flags.
func scan(r *rule, args []arg) []int {
	var ops []int
	dashdash := false
	for i := 1; i < len(args); i++ {
		a := args[i].s
		switch {
		case dashdash || a == "-" || !strings.HasPrefix(a, "-"):
			ops = append(ops, i)
		case a == "--":
			dashdash = true
		case takesValue(r.vals, a):
			i++
		case takesValue(r.vals2, a):
			i += 2
		}
	}
	return ops
}

// takesValue reports whether flag a is one of vals and its value is the
// next argument.
func takesValue(vals, a string) bool {
	if vals == "" || strings.Contains(a, "=") {
		return false
	}
	for v := range strings.FieldsSeq(vals) {
		if a == v {
			return true
		}
		// A short flag at the end of a cluster takes the next argument:
		// `-qO` then the file.
		if len(v) == 2 && v[0] == '-' && !strings.HasPrefix(a, "--") && len(a) > 2 && a[len(a)-1] == v[1] && letters(a[1:]) {
			return true
		}
	}
	return false
}

func letters(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return s != ""
}

// matchFlag reports whether argument a is one of the space-separated
// flags in spec: `-f` also matches inside a cluster such as `-xdf`;
// `--force` also matches `--force=…`; a spec with `*` is a pattern.
func matchFlag(spec, a string) bool {
	if !strings.HasPrefix(a, "-") || a == "-" {
		return false
	}
	for f := range strings.FieldsSeq(spec) {
		switch {
		case strings.ContainsAny(f, "*?["):
			if ok, _ := path.Match(f, a); ok {
				return true
			}
		case a == f:
			return true
		case strings.HasPrefix(f, "--"):
			if strings.HasPrefix(a, f+"=") {
				return true
			}
		case len(f) == 2 && !strings.HasPrefix(a, "--") && letters(a[1:]):
			if strings.IndexByte(a[1:], f[1]) >= 0 {
				return true
			}
		case len(f) == 2 && !strings.HasPrefix(a, "--") && strings.HasPrefix(a, f):
			// attached value: -i.bak, -n5
			return true
		case len(f) > 2 && strings.HasPrefix(a, f+"="):
			// a one-dash long option's value attached, as Go's flag
			// package takes it: go build -toolexec=x
			return true
		}
	}
	return false
}

// matchOp reports whether operand a matches one of the space-separated
// words of spec, where `*` matches any text (slashes too) and `\*` is a
// literal star.
func matchOp(spec, a string) bool {
	for p := range strings.FieldsSeq(spec) {
		if p == a || p == `\*` && a == "*" {
			return true
		}
		if strings.Contains(p, "*") && p != `\*` && glob(p, a) {
			return true
		}
	}
	return false
}

// glob matches s against a pattern whose only special character is `*`.
func glob(p, s string) bool {
	parts := strings.Split(p, "*")
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	for i, part := range parts[1:] {
		if i == len(parts)-2 {
			return strings.HasSuffix(s, part)
		}
		j := strings.Index(s, part)
		if j < 0 {
			return false
		}
		s = s[j+len(part):]
	}
	return true
}

// apply judges args (args[0] is the command or subcommand word) by rule r;
// chain is how the command and its subcommands were written.
func (w *walker) apply(r *rule, chain string, args []arg, io ioInfo) {
	if r.kind == kindPlain && helpAsked(r, chain, args) {
		w.res.add(Safe, "`"+chain+" --help`: prints help")
		return
	}
	if r.kind == kindPlain && len(args) == 2 && args[1].s == "--version" {
		// cargo clippy --version: a tool's version, as the classes' safe
		// examples have it.
		w.res.add(Safe, "`"+chain+" --version`: prints the version")
		return
	}
	ops := scan(r, args)
	if r.sub != nil && len(ops) > 0 {
		word := args[ops[0]]
		if s, ok := r.sub[word.s]; ok {
			sargs := args[ops[0]:]
			if r.hoist && ops[0] > 1 {
				// npm --location=global install x: the options before the
				// subcommand are the subcommand's too.
				sargs = append(slices.Clone(sargs), args[1:ops[0]]...)
			}
			cwd := w.cwd
			if r.check != nil {
				cargs := args[:ops[0]]
				if r.whole {
					cargs = args
				}
				r.check(w, chain, cargs, io) // git -C DIR moves the cwd for the subcommand
			}
			if w.cwd == cwd || w.cwd == "" || w.inside(w.cwd) || w.cwd == w.ws.Dir {
				w.apply(s, chain+" "+word.s, sargs, io)
				w.cwd = cwd
				return
			}
			// Dev work in a directory outside the workspace is not the
			// project's: git -C ~ init.
			c := w.clone()
			c.res = &result{}
			c.apply(s, chain+" "+word.s, sargs, io)
			for _, reason := range c.res.reasons {
				w.res.add(c.res.class, reason)
			}
			if c.res.class == Dev {
				w.res.add(Dangerous, "`"+chain+" "+word.s+"` in `"+w.cwd+"`: works outside the workspace")
			}
			w.cwd = cwd
			return
		}
		if word.s == "completion" || word.s == "completions" {
			// kubectl completion bash: every CLI framework's script.
			w.res.add(Safe, "`"+chain+" "+word.s+"`: prints shell completion code")
			return
		}
		if !r.open {
			if r.check != nil {
				// The options before an unknown subcommand still count (git -c
				// alias.x='!…' x).
				r.check(w, chain, args[:ops[0]], io)
			}
			if hasHole(word.s) {
				w.res.add(Dangerous, "`"+chain+" "+word.text+"`: subcommand not known before running")
			} else {
				w.res.add(Dangerous, "`"+chain+" "+word.s+"`: unknown subcommand")
			}
			return
		}
	}
	base := r
	if len(ops) <= r.bareMax && r.bare != nil {
		base = r.bare
	}
	// The first matching set flag replaces the class; raising ones add
	// their own reason (the result keeps the worst).
	class, why := base.class, "`"+chain+"`: "+base.why
	set := false
	if a, ok := dryRun(r.dry.match, args); ok && class >= r.dry.class {
		// A dry run changes nothing: what its flags would do does not
		// happen, but what its checks find (code it runs, secrets it
		// prints, the network) still counts.
		w.res.add(r.dry.class, "`"+chain+" "+a.text+"`: "+r.dry.why)
		saved := w.dry
		w.dry = true
		if r.check != nil {
			r.check(w, chain, args, io)
		}
		w.dry = saved
		if r.progs != "" {
			w.progs(r.progs, args)
		}
		w.listens(chain, args)
		if !namesOnly(r, args) {
			w.operandsOf(firstWord(chain), args[1:])
		}
		return
	}
	hit := func(f flag, a arg) {
		reason := "`" + chain + " " + a.text + "`: " + f.why
		switch {
		case !f.set:
			w.res.add(f.class, reason)
		case !set:
			class, why, set = f.class, reason, true
		}
	}
	for _, f := range r.flags {
		for _, a := range args[1:] {
			if matchFlag(f.match, a.s) {
				hit(f, a)
				break
			}
		}
	}
	for _, f := range r.ops {
		for _, i := range ops {
			a := args[i]
			if matchOp(f.match, a.s) && (f.not == "" || !matchOp(f.not, a.s)) {
				hit(f, a)
				break
			}
			if hasHole(a.s) && f.class > class && !f.set && !(r.pattern && i != ops[0]) {
				// Worst case: an unknown operand may be the one that matters.
				hit(flag{class: Dangerous, why: "argument not known before running"}, a)
				break
			}
		}
	}
	w.res.add(class, why)
	if base.shows != "" {
		w.discloses("`" + chain + "`: " + base.shows)
	}
	if r.progs != "" {
		w.progs(r.progs, args)
	}
	w.listens(chain, args)
	w.elsewhere(chain, args)
	mode := r.write
	if r.stdout != "" && slices.ContainsFunc(args[1:], func(a arg) bool { return matchFlag(r.stdout, a.s) }) {
		mode = writeNone
	}
	written := w.writes(mode, chain, args, ops)
	read := args[1:]
	if r.pattern {
		read = w.searched(r, args, ops)
		if !namesOnly(r, args) {
			w.secretSearch(r, chain, args, ops)
		}
	} else if len(written) > 0 {
		read = nil
		for i, a := range args[1:] {
			if !slices.Contains(written, i+1) {
				read = append(read, a)
			}
		}
	}
	if !namesOnly(r, args) {
		w.operandsOf(firstWord(chain), read)
	}
	switch r.kind {
	case kindWrap, kindRun:
		w.wrapped(r, chain, args, io)
	case kindShell, kindInterp:
		w.interp(r, chain, args, ops, io)
	case kindEval:
		var parts []string
		for _, a := range args[1:] {
			parts = append(parts, a.s)
		}
		w.inPlace(strings.Join(parts, " "), io.in)
	}
	if r.check != nil {
		r.check(w, chain, args, io)
	}
}

// helpAsked reports --help (or a subcommand's -help, as Go's flag
// package spells it) among the options before the first operand: the
// program prints its usage and exits.
func helpAsked(r *rule, chain string, args []arg) bool {
	for i := 1; i < len(args); i++ {
		a := args[i].s
		switch {
		case a == "--help" || a == "-help" && strings.Contains(chain, " "):
			return true
		case a == "-h" && len(args) == 2 && strings.Contains(chain, " "):
			// git reset -h: a subcommand's -h alone is its usage.
			return true
		case a == "--" || !strings.HasPrefix(a, "-"):
			return false
		case takesValue(r.vals, a):
			i++
		}
	}
	return false
}

// dryRun finds the argument among spec's flags that makes a command a
// dry run; a value that turns it off (--dry-run=none) does not.
func dryRun(spec string, args []arg) (arg, bool) {
	if spec == "" {
		return arg{}, false
	}
	for _, a := range args[1:] {
		if a.s == "--" {
			break
		}
		if !matchFlag(spec, a.s) {
			continue
		}
		if _, v, ok := strings.Cut(a.s, "="); ok {
			switch strings.ToLower(v) {
			case "none", "false", "0", "no", "off":
				continue
			}
		}
		return a, true
	}
	return arg{}, false
}

// searched are the operands a search such as grep reads: all but the
// pattern, which is the first unless a flag gives it (-e, -f, --files).
func (w *walker) searched(r *rule, args []arg, ops []int) []arg {
	if len(ops) == 0 {
		return nil
	}
	givesPattern := slices.ContainsFunc(args[1:], func(a arg) bool {
		return matchFlag(r.patternFlags, a.s)
	})
	if !givesPattern {
		ops = ops[1:]
	}
	// The flags stay, for what they say (-r reads trees); their values
	// and the pattern go.
	var read []arg
	for i, a := range args[1:] {
		if slices.Contains(ops, i+1) || strings.HasPrefix(a.s, "-") && !takesValue(r.vals, args[i].s) {
			read = append(read, a)
		}
	}
	return read
}

// namesOnly reports whether a command with these arguments shows no
// more of its operands than their names, counts or hashes (see rule.names).
func namesOnly(r *rule, args []arg) bool {
	if r.contents == "" && r.namesWith == "" {
		return r.names
	}
	names := r.names
	for _, a := range args[1:] {
		switch {
		case matchFlag(r.contents, a.s):
			return false
		case matchFlag(r.namesWith, a.s):
			names = true
		}
	}
	return names
}

// writes judges the operands a command writes to.
// It returns the indexes of the written operands.
func (w *walker) writes(mode writeMode, chain string, args []arg, ops []int) []int {
	var targets []int
	switch mode {
	case writeAll:
		targets = ops
	case writeLast:
		if len(ops) > 0 {
			targets = ops[len(ops)-1:]
		}
		for i, a := range args {
			if a.s == "-t" && i+1 < len(args) {
				targets = append(targets, i+1)
			} else if strings.HasPrefix(a.s, "--target-directory=") {
				w.writeTo(strings.TrimPrefix(a.s, "--target-directory="), chain, a.text)
			}
		}
	case writeFirst:
		if len(ops) > 0 {
			targets = ops[:1]
		}
	case writeRest:
		if len(ops) > 1 {
			targets = ops[1:]
		}
	}
	for _, i := range targets {
		if args[i].s == "-" && mode != writeAll {
			continue // standard output
		}
		if mode == writeLast && w.ownHook(args, ops, i) {
			w.res.add(Dev, "`"+chain+" "+args[i].text+"`: installs the project's own git hook")
			continue
		}
		w.writeTo(args[i].s, chain, args[i].text)
	}
	return targets
}

// ownHook reports a copy into .git/hooks of files that are all the
// project's own (cp hooks/pre-commit .git/hooks/): the hook runs the
// project's code, which is dev work.
func (w *walker) ownHook(args []arg, ops []int, target int) bool {
	p, ok := w.abs(args[target].s)
	if !ok || w.ws.Dir == "" || !under(p, w.ws.Dir+"/.git/hooks") {
		return false
	}
	srcs := 0
	for _, i := range ops {
		if i == target {
			continue
		}
		s, ok := w.abs(args[i].s)
		if !ok || !w.inside(s) || under(s, w.ws.Dir+"/.git") || w.downloaded(s) {
			return false
		}
		if _, wrote := w.shared.scripts[s]; wrote {
			return false // written by this string: judged as what it holds
		}
		srcs++
	}
	return srcs > 0
}

func (w *walker) writeTo(target, chain, text string) {
	p, ok := w.abs(target)
	c, why := w.writeClass(pathOrEmpty(p, ok), "`"+chain+" "+text+"`")
	w.res.add(c, why)
}

// runFile judges running the program or script at p; lang is the
// language it is run as ("sh" for a shell or an executable, "python", "make"
// …), for a script this string wrote.
func (w *walker) runFile(target, text, lang string) {
	p, ok := w.abs(target)
	if content, wrote := w.shared.scripts[p]; ok && wrote && !w.shared.downloads[p] {
		w.runWritten(content, text, lang)
		return
	}
	switch {
	case strings.Contains(target, "://") && !strings.HasPrefix(target, "file://"):
		w.res.add(Blocked, "`"+text+"`: downloads code from a URL and runs it")
	case strings.Contains(target, holeSetup):
		w.res.add(Dev, "`"+text+"`: runs the shell setup code an installed tool prints")
	case strings.ContainsRune(target, holeDL):
		w.res.add(Blocked, "`"+text+"`: runs code downloaded from the network")
	case !ok:
		w.res.add(Dangerous, "`"+text+"`: runs a program not known before running")
	case w.shared.downloads[p]:
		w.res.add(Blocked, "`"+text+"`: runs a file this command downloads")
	case slices.ContainsFunc(w.shared.dlDirs, func(d string) bool { return under(p, d) && p != d }):
		w.res.add(Blocked, "`"+text+"`: runs code this command downloads and unpacks")
	case w.inside(p) && textFile(path.Base(p)):
		// cmds.txt, notes.md, a ticket's attachment: text the project
		// keeps, not its code; what it runs is not known here.
		w.res.add(Dangerous, "`"+text+"`: runs a text file as code, which is not the project's code")
	case w.inside(p) && deployScript(path.Base(p)):
		w.res.add(Dangerous, "`"+text+"`: runs a deploy or release script")
	case w.inside(p):
		w.res.add(Dev, "`"+text+"`: runs the project's own code")
	default:
		w.res.add(Dangerous, "`"+text+"`: runs a program outside the workspace")
	}
}

// runWritten judges running a file this string wrote, by what it wrote.
func (w *walker) runWritten(content, text, lang string) {
	switch {
	case strings.ContainsRune(content, holeDL):
		w.res.add(Blocked, "`"+text+"`: runs code downloaded from the network")
	case hasHole(content):
		w.res.add(Dangerous, "`"+text+"`: runs a file this command writes, with content not known before running")
	case lang == "sh" || lang == "bash" || lang == "zsh" || lang == "dash" || lang == "ksh" || lang == "source":
		w.res.add(Dev, "`"+text+"`: runs a script this command writes")
		w.nested(content, input{})
	case lang == "make":
		w.res.add(Dev, "`"+text+"`: runs a makefile this command writes")
		w.makeText(content)
	case lang != "":
		w.res.add(Dev, "`"+text+"`: runs a script this command writes")
		w.inline(lang, content)
	default:
		w.res.add(Dangerous, "`"+text+"`: runs a file this command writes")
	}
}

// textFile reports a name whose extension says it holds text or data,
// not code to run.
func textFile(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".txt", ".log", ".md", ".csv", ".tsv", ".json", ".xml", ".html", ".htm", ".eml", ".msg", ".out", ".tmp",
		".bak", ".old", ".orig", ".rej", ".diff", ".patch", ".doc", ".pdf", ".rtf":
		return true
	}
	return false
}

// deployScript reports whether a script's name says it deploys, publishes
// or releases: changing remote state.
func deployScript(name string) bool {
	n := strings.ToLower(name)
	for _, p := range []string{"deploy", "publish", "release", "rollout", "provision"} {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return false
}

// unwrapIndex is where the command a wrapper runs starts in args, or -1.
func unwrapIndex(r *rule, args []string) int {
	skip := r.skip
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1+skip < len(args) {
				return i + 1 + skip
			}
			return -1
		case strings.HasPrefix(a, "-") && a != "-":
			if takesValue(r.vals, a) {
				i++
			}
		case r.assigns && strings.Contains(a, "=") && !strings.HasPrefix(a, "="):
		case skip > 0:
			skip--
		default:
			return i
		}
	}
	return -1
}

// wrapped judges the command a wrapper such as sudo or timeout runs.
func (w *walker) wrapped(r *rule, chain string, args []arg, io ioInfo) {
	ss := make([]string, len(args))
	for i, a := range args {
		ss[i] = a.s
	}
	if firstWord(chain) == "command" {
		for _, a := range ss[1:] {
			if a == "-v" || a == "-V" {
				return // only looks the command up
			}
		}
	}
	i := unwrapIndex(r, ss)
	if i < 0 {
		// sudo -s, sudo -i, doas -s: a shell that reads its input.
		switch ss[0] {
		case "sudo", "doas":
			for _, a := range ss[1:] {
				if a == "-s" || a == "-i" || a == "--shell" || a == "--login" {
					w.stdinCode(commands.Get()["bash"], chain, "bash", io)
					return
				}
			}
		}
		return
	}
	inner := args[i:]
	if name := inner[0].s; r.kind == kindRun && !hasHole(name) && !strings.Contains(name, "/") &&
		lookup(name) == nil && w.funcs[name] == nil {
		w.res.add(Dev, "`"+chain+" "+inner[0].text+"`: runs a tool of the project's environment")
		w.operands(inner[1:])
		w.listens(name, inner)
		return
	}
	if r.joins {
		parts := make([]string, len(inner))
		for i, a := range inner {
			parts[i] = a.s
		}
		w.nested(strings.Join(parts, " "), io.in)
		return
	}
	w.exec(inner, io)
}
