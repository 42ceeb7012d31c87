package danger

import (
	"os"
	"path"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Git's configuration can make git run programs (git-config(1)): a pager,
// an editor, hooks, diff and merge drivers, filters, credential helpers,
// aliases that start with !. It is set by `git -c`, by `git config`, and by
// the environment (GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT with
// GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n).

// gitConfigRuns says why setting key (any case) to value makes git run a
// program or read code or credentials from elsewhere, or "" when it does
// not.
func (w *walker) gitConfigRuns(key, value string) string {
	k := strings.ToLower(key)
	first, _, _ := strings.Cut(k, ".")
	last := k[strings.LastIndexByte(k, '.')+1:]
	quiet := value == "" || !hasHole(value) && harmlessPrograms.Get()[strings.Fields(value + " x")[0]] &&
		!strings.ContainsAny(value, ";|&$`<>()")
	boolean := func() bool {
		switch strings.ToLower(value) {
		case "true", "false", "yes", "no", "on", "off", "0", "1", "":
			return true
		}
		return false
	}
	switch {
	case programKey(key):
		if quiet || first == "pager" && boolean() {
			return ""
		}
		return "runs a pager or editor of its choice"
	case first == "alias":
		if strings.HasPrefix(strings.TrimSpace(value), "!") || hasHole(value) {
			return "defines an alias that runs a shell command"
		}
		return ""
	case k == "core.fsmonitor":
		if boolean() {
			return ""
		}
		return "runs a file-system monitor program"
	case k == "core.hookspath":
		if p, ok := w.abs(value); ok && w.inside(p) {
			return ""
		}
		return "runs hooks from outside the repository"
	case k == "core.sshcommand" || k == "core.gitproxy" || k == "core.askpass" || k == "diff.external" ||
		k == "gpg.program" || first == "gpg" && last == "program" || k == "gpg.ssh.defaultkeycommand" ||
		k == "uploadpack.packobjectshook" || k == "interactive.difffilter" || k == "web.browser" ||
		first == "credential" && last == "helper" || first == "filter" ||
		first == "diff" && (last == "textconv" || last == "command") || first == "merge" && last == "driver" ||
		(first == "mergetool" || first == "difftool" || first == "browser" || first == "man") &&
			(last == "cmd" || last == "path") ||
		first == "trailer" && (last == "command" || last == "cmd") || first == "sendemail" ||
		first == "remote" && (last == "uploadpack" || last == "receivepack") || first == "instaweb" ||
		first == "submodule" && last == "update" && strings.HasPrefix(value, "!") ||
		// Any other key naming a command (difftool.x.cmd, diff.x.command …).
		strings.Count(k, ".") >= 2 && (last == "cmd" || last == "command"):
		return "sets a program git runs"
	case k == "include.path" || first == "includeif":
		return "includes config from another file, which may run programs"
	case first == "protocol" && last == "allow" || k == "protocol.allow":
		if strings.ToLower(value) == "always" && (strings.Contains(k, "ext") || k == "protocol.allow") {
			return "allows the ext transport, which runs commands"
		}
		return ""
	case first == "url" && (last == "insteadof" || last == "pushinsteadof"):
		return "sends git's traffic to another address"
	case k == "http.proxy" || first == "http" && last == "proxy" || first == "remote" && last == "proxy":
		return "sends git's traffic through a proxy"
	case k == "core.worktree":
		return "moves the work tree, which git then writes"
	case (first == "http" && last == "sslverify") &&
		(strings.EqualFold(value, "false") || value == "0" || strings.EqualFold(value, "no") ||
			strings.EqualFold(value, "off")):
		return "turns off the check of the server's certificate"
	case first == "http" && (last == "sslcainfo" || last == "sslcapath") && !systemCerts(value):
		return "trusts certificates from another file, which can vouch for any server"
	}
	return ""
}

// programKey reports whether a config key names a pager or an editor,
// which git runs as a command line.
func programKey(key string) bool {
	k := strings.ToLower(key)
	return k == "core.pager" || k == "core.editor" || k == "sequence.editor" || strings.HasPrefix(k, "pager.")
}

// gitConfigPair judges setting one config key, as written by text.
func (w *walker) gitConfigPair(key, value, text string) {
	why := w.gitConfigRuns(key, value)
	if why == "" {
		if programKey(key) && strings.ContainsAny(strings.TrimSpace(value), " \t") {
			// A harmless pager is still judged with what it is given
			// to show: core.pager='cat ~/.aws/credentials'.
			w.nested(value, input{})
		}
		return
	}
	w.res.add(Dangerous, "`"+text+"`: "+why)
	if hasHole(value) || strings.Contains(why, "traffic") || strings.Contains(why, "certificate") ||
		strings.Contains(why, "work tree") {
		return // an address or a path, not a program
	}
	// The program itself: blocked if it is (core.pager='rm -rf ~').
	w.literal1(strings.TrimPrefix(strings.TrimSpace(value), "!"))
}

// gitGlobal judges git's own options: -c and --config-env set config for
// one command; --exec-path, --git-dir and --work-tree move what git runs
// and writes.
func (w *walker) gitGlobal(chain string, args []arg, io ioInfo) {
	names := gitNamesOnly(args)
	for i := 1; i < len(args); i++ {
		a := args[i].s
		if !strings.HasPrefix(a, "-") {
			break // the subcommand: its options are its own
		}
		if a == "--namespace" || a == "--super-prefix" {
			i++
			continue
		}
		val := func(name string) (string, bool) {
			if v, ok := strings.CutPrefix(a, name+"="); ok {
				return v, true
			}
			if a == name && i+1 < len(args) {
				i++
				return args[i].s, true
			}
			return "", false
		}
		if kv, ok := val("-c"); ok {
			key, v, _ := strings.Cut(kv, "=")
			w.gitConfigPair(key, v, "git -c "+key)
			continue
		}
		if kv, ok := val("--config-env"); ok {
			key, _, _ := strings.Cut(kv, "=")
			w.gitConfigPair(key, hole, "git --config-env "+key)
			continue
		}
		if dir, ok := val("-C"); ok {
			if p, ok := w.abs(dir); ok {
				w.cwd = p
			} else {
				w.cwd = ""
			}
			continue
		}
		if _, ok := val("--exec-path"); ok {
			w.res.add(Dangerous, "`git --exec-path`: runs git programs from another place")
			continue
		}
		for _, name := range []string{"--work-tree", "--git-dir"} {
			if v, ok := val(name); ok {
				if p, ok := w.abs(v); (!ok || !(w.inside(p) || p == w.ws.Dir)) && !names {
					w.res.add(Dangerous, "`git "+name+" "+v+"`: works on files outside the workspace")
				}
			}
		}
	}
}

// gitNamesOnly reports a git command that changes nothing and prints at
// most names, states and messages of what it is pointed at (status,
// ls-files, log without patches): a work tree or repository elsewhere,
// such as a bare repository of dotfiles over the home directory, is
// only listed.
func gitNamesOnly(args []arg) bool {
	for i := 1; i < len(args); i++ {
		a := args[i].s
		switch {
		case a == "-C" || a == "-c" || a == "--git-dir" || a == "--work-tree" || a == "--namespace" ||
			a == "--config-env" || a == "--exec-path":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			rest := args[i+1:]
			switch a {
			case "status", "ls-files", "rev-parse", "describe", "rev-list", "shortlog":
				return true
			case "log":
				return !slices.ContainsFunc(rest, func(r arg) bool {
					return r.s == "-p" || r.s == "-u" || r.s == "--patch" || strings.HasPrefix(r.s, "-L")
				})
			}
			return false
		}
	}
	return false
}

// gitEnv judges the environment variables that set git config or move
// its files; it reports whether name is one.
func (w *walker) gitEnv(name, val, text string) bool {
	switch {
	case name == "GIT_CONFIG_PARAMETERS":
		// 'key=value' 'key=value' …, quoted as the shell would.
		f, err := parse(": " + val)
		if err != nil || len(f.Stmts) != 1 {
			w.res.add(Dangerous, "`"+text+"`: sets git config that cannot be read")
			return true
		}
		if c, ok := f.Stmts[0].Cmd.(*syntax.CallExpr); ok {
			for _, word := range c.Args[1:] {
				kv := literalText(word)
				key, v, _ := strings.Cut(kv, "=")
				w.gitConfigPair(key, v, name+" "+key)
			}
		}
		return true
	case strings.HasPrefix(name, "GIT_CONFIG_KEY_"):
		if w.gitConfigRuns(val, hole) != "" && w.gitConfigRuns(val, "x y") != "" {
			w.res.add(Dangerous, "`"+text+"`: sets git config that runs programs ("+val+")")
		}
		return true
	case strings.HasPrefix(name, "GIT_CONFIG_VALUE_"):
		w.literal1(strings.TrimPrefix(strings.TrimSpace(val), "!"))
		return true
	case name == "GIT_CONFIG_COUNT":
		if n, err := strconv.Atoi(val); err != nil || n > 0 {
			w.res.add(Dev, "`"+text+"`: sets git config for the commands it runs")
		}
		return true
	case name == "GIT_CONFIG_GLOBAL" || name == "GIT_CONFIG_SYSTEM" || name == "GIT_CONFIG" ||
		name == "GIT_TEMPLATE_DIR":
		if val != "/dev/null" {
			w.res.add(Dangerous, "`"+text+"`: makes git read config or hooks from another file")
		}
		return true
	case (name == "GIT_SSH_COMMAND" || name == "GIT_SSH") && plainSSH(val):
		// Git's transport with a key or port chosen: the fetch or push
		// is judged; ssh runs nothing else. Unless it stops checking the
		// server's key, as GIT_SSL_NO_VERIFY stops checking certificates.
		if sshTrustsAny(val) {
			w.res.add(Dangerous, "`"+text+"`: turns off ssh's check of the server's key, so git trusts any server")
			return true
		}
		w.res.add(Dev, "`"+text+"`: sets the ssh options of git's transport")
		return true
	case name == "GIT_ALLOW_PROTOCOL":
		if strings.Contains(val, "ext") || hasHole(val) {
			w.res.add(Dangerous, "`"+text+"`: allows the ext transport, which runs commands")
		}
		return true
	case name == "GIT_DIR" || name == "GIT_WORK_TREE":
		if p, ok := w.abs(val); !ok || !(w.inside(p) || p == w.ws.Dir) {
			w.res.add(Dangerous, "`"+text+"`: makes git work on files outside the workspace")
		}
		return true
	}
	return false
}

// gitConfig judges `git config`: reading is safe; writing a key that runs
// programs is dangerous, as is writing config outside the repository
// (--global, --system, --file) or opening an editor on it.
func (w *walker) gitConfig(chain string, args []arg, io ioInfo) {
	var ops []string
	reads, writes, edits, outside := false, false, false, ""
	verb := ""
	for i := 1; i < len(args); i++ {
		a := args[i].s
		switch {
		case a == "--file" || a == "-f" || a == "--blob" || a == "--type" || a == "--default" || a == "--comment":
			if a == "--file" || a == "-f" {
				outside = "--file"
			}
			i++
		case strings.HasPrefix(a, "--file="):
			outside = "--file"
		case a == "--global" || a == "--system":
			outside = a
		case a == "--get" || a == "--get-all" || a == "--get-regexp" || a == "--list" || a == "-l" ||
			a == "--get-urlmatch" || a == "--get-color" || a == "--get-colorbool" || a == "--show-origin" ||
			a == "--name-only" || a == "--show-scope":
			reads = true
		case a == "--edit" || a == "-e":
			edits = true
		case a == "--unset" || a == "--unset-all" || a == "--add" || a == "--replace-all" ||
			a == "--rename-section" || a == "--remove-section":
			writes = true
		case strings.HasPrefix(a, "-"):
		default:
			ops = append(ops, a)
		}
	}
	// git 2.46's subcommands: list, get, set, unset, rename-section,
	// remove-section, edit.
	if len(ops) > 0 {
		switch ops[0] {
		case "list", "get":
			verb, reads, ops = ops[0], true, ops[1:]
		case "set", "unset", "rename-section", "remove-section":
			verb, ops, writes = ops[0], ops[1:], true
		case "edit":
			verb, edits = "edit", true
		}
	}
	switch {
	case edits:
		w.res.add(Dangerous, "`"+chain+" --edit`: opens an editor on git config")
		return
	case reads && !writes || len(ops) <= 1 && !writes:
		w.res.add(Safe, "`"+chain+"`: reads config")
		return
	}
	w.res.add(Dev, "`"+chain+"`: changes the repository's config")
	if outside != "" {
		w.res.add(Dangerous, "`"+chain+" "+outside+"`: changes config outside the repository")
	}
	if len(ops) >= 2 {
		w.gitConfigPair(ops[0], ops[1], chain+" "+ops[0])
	} else if len(ops) == 1 && verb == "set" {
		w.gitConfigPair(ops[0], hole, chain+" "+ops[0])
	}
}

// extCommand is the command line of a git ext:: URL (git-remote-ext(1)):
// words split at spaces, "% " a space inside a word, "%%" a percent sign;
// %s, %S, %G and %V are left as they are.
func extCommand(url string) string {
	var words []string
	var b strings.Builder
	for i := 0; i < len(url); i++ {
		switch c := url[i]; {
		case c == '%' && i+1 < len(url) && (url[i+1] == ' ' || url[i+1] == '%'):
			i++
			b.WriteByte(url[i])
		case c == ' ':
			words = append(words, b.String())
			b.Reset()
		default:
			b.WriteByte(c)
		}
	}
	return quoteArgs(append(words, b.String()))
}

// gitExt judges the commands of ext:: URLs among git's operands.
func (w *walker) gitExt(chain string, args []arg, io ioInfo) {
	for _, a := range args[1:] {
		if u, ok := strings.CutPrefix(a.s, "ext::"); ok {
			w.literal1(extCommand(u))
		}
	}
}

// gitClean judges git clean -f by the work tree it cleans: in the home
// directory or / it deletes nearly everything there.
func (w *walker) gitClean(chain string, args []arg, io ioInfo) {
	force := false
	for _, a := range args[1:] {
		force = force || a.s == "--force" || len(a.s) > 1 && a.s[0] == '-' && a.s[1] != '-' &&
			strings.Contains(a.s, "f")
	}
	if !force {
		return
	}
	dir := w.cwd
	for i := 1; i < len(w.last); i++ {
		a := w.last[i].s
		if v, ok := strings.CutPrefix(a, "--work-tree="); ok {
			dir = v
		} else if (a == "--work-tree" || a == "-C") && i+1 < len(w.last) && strings.HasPrefix(w.last[i+1].s, "/") {
			dir = w.last[i+1].s
		}
	}
	if p, ok := w.abs(dir); ok && dir != "" {
		if why := w.catastrophic(p); why != "" {
			w.res.add(Blocked, "`"+chain+"` in `"+p+"`: "+why)
		}
	}
}

// gitWorktreeAdd judges the directory git worktree add writes: next to
// the project (../wt) is where worktrees usually go; elsewhere it is a
// write like any other.
func (w *walker) gitWorktreeAdd(chain string, args []arg, io ioInfo) {
	ops := scan(&rule{vals: "-b -B --reason"}, args)
	if len(ops) == 0 {
		return
	}
	d := args[ops[0]]
	if p, ok := w.abs(d.s); ok && w.ws.Dir != "" && path.Dir(p) == path.Dir(w.ws.Dir) {
		if _, err := os.Lstat(p); err != nil {
			return // a new sibling of the project
		}
	}
	w.writeTo(d.s, chain, d.text)
}

// plainSSH reports whether a command line is ssh with options that choose
// a key, user, port or check, and none that runs a command (ProxyCommand,
// LocalCommand, a config file -F that may hold them).
// sshTrustsAny reports ssh options that accept any host key:
// StrictHostKeyChecking=no, a known-hosts file of /dev/null.
func sshTrustsAny(val string) bool {
	for f := range strings.FieldsSeq(strings.ToLower(val)) {
		key, v, _ := strings.Cut(f, "=")
		if key == "stricthostkeychecking" && (v == "no" || v == "off") ||
			key == "userknownhostsfile" && v == "/dev/null" {
			return true
		}
	}
	return false
}

func plainSSH(val string) bool {
	if hasHole(val) || strings.ContainsAny(val, ";&|`$<>") {
		return false
	}
	f := strings.Fields(val)
	if len(f) == 0 || path.Base(f[0]) != "ssh" {
		return false
	}
	for i := 1; i < len(f); i++ {
		switch a := f[i]; {
		case a == "-i" || a == "-p" || a == "-l":
			i++
		case a == "-o" && i+1 < len(f):
			i++
			key, _, _ := strings.Cut(strings.ToLower(f[i]), "=")
			switch key {
			case "identitiesonly", "stricthostkeychecking", "userknownhostsfile", "identityfile", "port", "user",
				"batchmode", "connecttimeout", "serveraliveinterval", "loglevel", "addkeystoagent",
				"hostkeyalgorithms", "pubkeyacceptedkeytypes", "pubkeyacceptedalgorithms", "identityagent":
			default:
				return false
			}
		case a == "-q" || a == "-v" || a == "-T" || a == "-4" || a == "-6" || a == "-C" || a == "-x" ||
			a == "-vv" || a == "-vvv":
		default:
			return false
		}
	}
	return true
}
