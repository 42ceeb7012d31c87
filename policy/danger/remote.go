package danger

import (
	"encoding/json"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/qsh-shell/qsh/internal/lazy"
)

// Checks for databases, containers, cloud CLIs and tools that fetch code.

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
	return sqlAdmin(s) != ""
}

func (w *walker) redis(chain string, args []arg, io ioInfo) {
	ops := scan(&rule{vals: "-h -p -a -n -u --user --pass --pattern --quoted-pattern --count -i"}, args)
	if len(ops) == 0 && slices.ContainsFunc(args[1:], func(a arg) bool {
		return a.s == "--scan" || a.s == "--bigkeys" || a.s == "--memkeys" || a.s == "--hotkeys" || a.s == "--stat"
	}) {
		w.res.add(Dev, "`redis-cli --scan`: lists keys or their sizes, read-only")
		return
	}
	if len(ops) == 0 {
		w.res.add(Dangerous, "`redis-cli`: opens an interactive session")
		return
	}
	switch strings.ToUpper(args[ops[0]].s) {
	case "GET", "MGET", "KEYS", "SCAN", "PING", "INFO", "TTL", "TYPE", "EXISTS", "HGET", "HGETALL", "LRANGE", "SMEMBERS", "DBSIZE", "LLEN", "STRLEN", "ZRANGE":
		w.res.add(Dev, "`redis-cli "+args[ops[0]].text+"`: reads from the database")
	case "SET", "SETEX", "SETNX", "PSETEX", "MSET", "HSET", "HMSET", "HDEL", "DEL", "UNLINK", "EXPIRE", "PEXPIRE",
		"PERSIST", "INCR", "INCRBY", "DECR", "DECRBY", "APPEND", "LPUSH", "RPUSH", "LPOP", "RPOP", "SADD", "SREM",
		"ZADD", "ZREM", "PUBLISH", "XADD", "GETSET", "GETDEL", "HINCRBY":
		// One key of a local server: a record, as a DELETE of one row is.
		if redisLocal(args) && !slices.ContainsFunc(args[ops[0]+1:], func(a arg) bool { return hasGlob(a.s) || hasHole(a.s) }) {
			w.res.add(Dev, "`redis-cli "+args[ops[0]].text+"`: changes a key of a local server")
			return
		}
		w.res.add(Dangerous, "`redis-cli "+args[ops[0]].text+"`: changes the database")
	default:
		w.res.add(Dangerous, "`redis-cli "+args[ops[0]].text+"`: changes the database")
	}
}

// redisLocal reports a redis-cli that talks to this machine: no -h or -u,
// or a loopback host.
func redisLocal(args []arg) bool {
	for i := 1; i < len(args); i++ {
		switch a := args[i].s; {
		case a == "-h" || a == "-u":
			if i+1 >= len(args) {
				return false
			}
			host := args[i+1].s
			if a == "-u" {
				h, ok := urlHost(host)
				if !ok {
					return false
				}
				host = h
			}
			if !localHost(host) {
				return false
			}
			i++
		case strings.HasPrefix(a, "--tls") || a == "--cluster":
			return false
		}
	}
	return true
}

// npx judges the runners that fetch a package from the registry and run
// it in one step (npx, bunx, npm exec, pnpm dlx, yarn dlx): a recognised
// project tool or one installed in the project (node_modules/.bin) is
// dev work; anything else is downloaded and run, blocked as curl | sh is.
// pnpm exec and yarn exec only run what is installed, or any command.
func (w *walker) npx(chain string, args []arg, io ioInfo) {
	ops := scan(&rule{vals: "-p --package -c --call -w --workspace --prefix"}, args)
	local := false // runs only what the project has installed
	var pkgs []arg
	for i, a := range args[1:] {
		if len(ops) > 0 && i+1 >= ops[0] {
			break // the package's own arguments (tsc -p tsconfig.json)
		}
		switch {
		case a.s == "-c" || a.s == "--call":
			w.res.add(Dangerous, "`"+chain+" -c`: runs shell code")
			if i+2 < len(args) {
				w.nested(args[i+2].s, input{})
			}
			return
		case a.s == "--no-install" || a.s == "--no" || a.s == "--offline":
			local = true
		case (a.s == "-p" || a.s == "--package") && i+2 < len(args):
			pkgs = append(pkgs, args[i+2])
		case strings.HasPrefix(a.s, "--package="):
			pkgs = append(pkgs, arg{s: strings.TrimPrefix(a.s, "--package="), text: a.text})
		}
	}
	if w := firstWord(chain); w == "pnpm" || w == "yarn" {
		if strings.HasSuffix(chain, " exec") {
			local = true
		}
	}
	if len(ops) == 0 {
		w.res.add(Dangerous, "`"+chain+"`: runs a package")
		return
	}
	name := packageName(args[ops[0]].s)
	if name == "rimraf" || name == "del-cli" || name == "trash-cli" {
		// rm -rf by another name.
		rm := append([]arg{{s: "rm", text: name}, {s: "-rf", text: name}}, args[ops[0]+1:]...)
		w.exec(rm, io)
	}
	if len(pkgs) == 0 {
		pkgs = []arg{args[ops[0]]}
	}
	// dlx always fetches a fresh copy, even of a tool the project has.
	dlx := strings.HasSuffix(chain, " dlx")
	for _, p := range pkgs {
		pn := packageName(p.s)
		switch {
		case dlx && npxTools.Get()[pn]:
			w.res.add(Dangerous, "`"+chain+" "+p.text+"`: downloads a well-known tool and runs it, outside the project")
		case local || !dlx && (npxTools.Get()[pn] && len(pkgs) == 1 && p.s == args[ops[0]].s || w.projectPackage(pn)):
		case hasHole(p.s):
			w.res.add(Blocked, "`"+chain+" "+p.text+"`: downloads a package not known before running and runs it")
		default:
			w.res.add(Blocked, "`"+chain+" "+p.text+"`: downloads a package the project does not have and runs it")
		}
	}
	if r := lookup(name); r != nil && (npxTools.Get()[name] || local) {
		// A tool the table knows: its own rule judges its arguments
		// (npx prisma migrate reset, pnpm exec rm -rf).
		inner := append([]arg{{s: name, text: args[ops[0]].text}}, args[ops[0]+1:]...)
		w.exec(inner, io)
		return
	}
	w.res.add(Dev, "`"+chain+" "+name+"`: runs a project tool")
	w.operands(args[ops[0]+1:])
}

// jsGlobal judges the spellings of a global install or removal that the
// flags of the table do not match (--location global, --global=true) and
// an install into another prefix or project directory (--prefix DIR).
func (w *walker) jsGlobal(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		name, v, hasV := strings.Cut(args[i].s, "=")
		next := func() string {
			if !hasV && i+1 < len(args) {
				i++
				return args[i].s
			}
			return v
		}
		switch name {
		case "--location", "-location":
			if v := next(); v == "global" || v == "user" {
				w.res.add(Dangerous, "`"+chain+" --location "+v+"`: changes packages outside the project")
			}
		case "--global", "-g":
			if hasV && (v == "true" || v == "1") {
				w.res.add(Dangerous, "`"+chain+" "+args[i].text+"`: changes global packages")
			}
		case "--prefix", "-C", "--dir", "--cwd", "--global-dir":
			d := next()
			if p, ok := w.abs(d); !ok || !(w.inside(p) || p == w.ws.Dir) {
				w.res.add(Dangerous, "`"+chain+" "+name+" "+d+"`: installs outside the workspace")
			}
		}
	}
}

// packageName is an npm package spec without its version or tag:
// prettier@3 → prettier, @scope/x@1 → @scope/x.
func packageName(spec string) string {
	if i := strings.LastIndexByte(spec, '@'); i > 0 {
		return spec[:i]
	}
	return spec
}

// projectPackage reports whether the project has the npm package or
// program name installed: a runner then runs the project's copy.
func (w *walker) projectPackage(name string) bool {
	if w.ws.Dir == "" || name == "" || strings.Contains(name, "..") || hasHole(name) {
		return false
	}
	for _, p := range []string{"node_modules/.bin/" + name, "node_modules/" + name + "/package.json"} {
		if _, err := os.Stat(path.Join(w.ws.Dir, p)); err == nil {
			return true
		}
	}
	return false
}

// creates judges npm create X, npm init X, yarn create X and the like:
// they download the package create-X and run it.
func (w *walker) creates(chain string, args []arg, io ioInfo) {
	if ops := scan(&rule{vals: "-w --workspace --scope"}, args); len(ops) > 0 {
		w.res.add(Blocked, "`"+chain+" "+args[ops[0]].text+"`: downloads a project generator and runs it")
	}
}

// toolRun judges uvx, uv tool run and pipx run: they download a Python
// package into a throwaway environment and run it. A recognised tool is
// a well-known package, still from outside the project; any other name,
// a URL or a repository is downloaded code, run.
func (w *walker) toolRun(chain string, args []arg, io ioInfo) {
	vals := "--from --with --with-editable --with-requirements --python -p --spec --index --index-url " +
		"--default-index --extra-index-url -c --constraints --pip-args"
	from := ""
	for i := 1; i < len(args); i++ {
		name, v, hasV := strings.Cut(args[i].s, "=")
		if name == "--from" || name == "--spec" || name == "--with" {
			if !hasV && i+1 < len(args) {
				v = args[i+1].s
			}
			if name != "--with" {
				from = v
			} else if remoteSpec(v) {
				w.res.add(Blocked, "`"+chain+" --with "+v+"`: downloads code from a URL or repository and runs it")
			}
		}
	}
	ops := scan(&rule{vals: vals}, args)
	if len(ops) == 0 {
		return
	}
	tool := args[ops[0]]
	spec := tool.s
	if from != "" {
		spec = from
	}
	name, _, _ := strings.Cut(spec, "@")
	name, _, _ = strings.Cut(name, "==")
	name, _, _ = strings.Cut(name, "[")
	switch {
	case remoteSpec(spec):
		w.res.add(Blocked, "`"+chain+" "+spec+"`: downloads code from a URL or repository and runs it")
	case pyTools.Get()[strings.ToLower(name)]:
		w.res.add(Dangerous, "`"+chain+" "+tool.text+"`: downloads a well-known tool and runs it, outside the project")
		if r := lookup(tool.s); r != nil {
			w.exec(args[ops[0]:], io)
		}
	default:
		w.res.add(Blocked, "`"+chain+" "+tool.text+"`: downloads a package the project does not have and runs it")
	}
}

// remoteSpec reports a package spec that is a URL or a repository rather
// than a name in the registry.
func remoteSpec(s string) bool {
	return strings.Contains(s, "://") || strings.HasPrefix(s, "git+") || strings.HasPrefix(s, "git@") ||
		strings.HasPrefix(s, "github:") || strings.HasPrefix(s, "gitlab:") || strings.Contains(s, " @ ")
}

// installsFrom judges an install whose operands or --git, --source,
// --from values name a URL or a repository (cargo install --git, deno
// install URL, gem install --source): code from the network, installed
// for the user.
func (w *walker) installsFrom(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		a := args[i].s
		name, v, hasV := strings.Cut(a, "=")
		switch {
		case name == "--git" || name == "--source" || name == "-s" || name == "--from" || name == "--url":
			if !hasV && i+1 < len(args) {
				i++
				v = args[i].s
			}
		case !strings.HasPrefix(a, "-"):
			v = a
		default:
			continue
		}
		if remoteSpec(v) || strings.HasPrefix(v, "jsr:") || strings.HasPrefix(v, "npm:") {
			w.res.add(Dangerous, "`"+chain+" "+v+"`: installs code from a URL or repository")
			w.shared.urlInstall = true
			return
		}
	}
}

// pyTools are the well-known Python tools uvx and pipx run.
var pyTools = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	m := map[string]bool{}
	for _, t := range strings.Fields("ruff black isort flake8 pylint mypy pyright pytest tox nox hatch build " +
		"pre-commit poetry pdm pipenv cookiecutter copier sphinx-build mkdocs coverage bandit pip-audit " +
		"pip-tools pip-compile yamllint codespell vulture autopep8 pyupgrade docformatter sqlfluff ty") {
		m[t] = true
	}
	return m
}}

// uvRun judges uv run's script given by URL: uv downloads it and runs it.
func (w *walker) uvRun(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		name, v, hasV := strings.Cut(args[i].s, "=")
		if name == "--with" || name == "--with-requirements" || name == "--with-editable" {
			if !hasV && i+1 < len(args) {
				v = args[i+1].s
			}
			if remoteSpec(v) {
				w.res.add(Dangerous, "`"+chain+" "+name+" "+v+"`: installs code from a URL or repository")
			}
		}
	}
	ops := scan(&rule{vals: runnerVals}, args)
	if len(ops) > 0 && strings.Contains(args[ops[0]].s, "://") {
		w.res.add(Blocked, "`"+chain+" "+args[ops[0]].text+"`: downloads a script and runs it")
	}
}

// cloudRead are verbs of cloud CLIs that only read.
var cloudRead = []string{"list", "ls", "describe", "get", "show", "view", "status", "info", "whoami", "version", "lookup", "search", "check", "print", "export-config", "tail", "filter", "read", "wait", "validate", "test"}

// cloudSecret are verbs that print secrets.
var cloudSecret = []string{"secret", "password", "token", "credential", "decrypt", "access-key", "login"}

func (w *walker) cloud(chain string, args []arg, io ioInfo) {
	name := firstWord(chain)
	ops := scan(commands.Get()[name], args)
	if len(ops) == 0 {
		w.res.add(Safe, "`"+name+"`: shows help")
		return
	}
	var words []string
	for _, i := range ops {
		words = append(words, args[i].s)
	}
	if name == "gcloud" && len(words) == 2 && (words[0] == "config" && (words[1] == "list" || words[1] == "get" || words[1] == "get-value") ||
		words[0] == "auth" && words[1] == "list") {
		// The CLI's own settings and the accounts' names, read locally.
		w.res.add(Safe, "`gcloud "+words[0]+" "+words[1]+"`: shows the CLI's local settings")
		return
	}
	if a, ok := dryRun("--dry-run --dryrun", args); ok || slices.Contains(words, "what-if") {
		// aws … --dry-run asks whether it may; --dryrun lists what s3
		// would do; az … what-if previews a deployment.
		if a.s == "" {
			a.text = "what-if"
		}
		w.res.add(Dev, "`"+name+" "+strings.Join(words, " ")+" "+a.text+"`: "+dryRunWhy)
		return
	}
	if name == "aws" && len(words) > 0 && words[0] != "configure" && w.localEndpoint(args) {
		// LocalStack and its kin: the "cloud" is a process of this
		// machine, its resources the project's test state.
		w.res.add(Dev, "`aws "+strings.Join(words, " ")+"`: changes a local emulator's state (--endpoint-url)")
		return
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
			if !local && (strings.HasPrefix(words[len(words)-1], "s3://") || len(words) > 3 &&
				strings.HasPrefix(words[3], "s3://")) {
				w.res.add(Dangerous, "`aws s3 "+words[1]+"`: uploads to a bucket")
			} else {
				// aws s3 cp SRC DEST [options]: option values follow.
				dest := ""
				if len(words) > 3 && strings.HasPrefix(words[2], "s3://") {
					dest = words[3]
				}
				if dest != "" && !strings.HasPrefix(dest, "s3://") && dest != "-" && (words[1] == "mv" ||
					!slices.ContainsFunc(args, func(a arg) bool { return a.s == "--delete" })) {
					// A download: the bucket is read, the file written
					// where dest says (mv also deletes it from the bucket).
					if words[1] == "mv" {
						w.res.add(Dangerous, "`aws s3 mv`: deletes the objects from the bucket")
					}
					w.res.add(Dev, "`aws s3 "+words[1]+"`: downloads from a bucket")
					w.writeTo(dest, "aws s3 "+words[1], dest)
				} else {
					w.res.add(Dangerous, "`aws s3 "+words[1]+"`: copies from a bucket")
				}
				if len(words) > 3 {
					w.remoteCopy(words[2:len(words)-1], words[len(words)-1],
						words[1] == "sync" || slices.ContainsFunc(args, func(a arg) bool { return a.s == "--recursive" }))
				}
			}
		default:
			w.res.add(Dangerous, "`aws s3 "+words[1]+"`: "+remoteEdit)
		}
		return
	}
	text := name + " " + strings.Join(words, " ")
	var all []string
	for _, a := range args {
		all = append(all, a.s)
	}
	lower := strings.ToLower(strings.Join(all, " "))
	for _, s := range cloudSecret {
		// list and describe print names and metadata, not values
		// (describe-secret, gcloud secrets describe).
		if strings.Contains(lower, s) && !strings.Contains(lower, "list") && !strings.Contains(lower, "describe") {
			w.discloses("`" + text + "`: may print a secret")
			return
		}
	}
	if name == "aws" && len(words) == 2 && words[0] == "configure" && (words[1] == "list" || words[1] == "list-profiles") {
		w.res.add(Safe, "`aws configure list`: shows where settings come from, keys masked")
		return
	}
	if len(words) == 3 && (words[0] == "configure" && words[1] == "get" ||
		words[0] == "config" && (words[1] == "get" || words[1] == "get-value")) {
		// aws configure get region: one setting; a key's name says when it
		// is a credential.
		key := strings.ToLower(words[2])
		for _, s := range []string{"secret", "key", "token", "session", "password", "credential", "auth"} {
			if strings.Contains(key, s) {
				w.discloses("`" + text + "`: prints a credential")
				return
			}
		}
		w.res.add(Safe, "`"+text+"`: prints a setting")
		return
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

// bun judges bun's -e/--eval/-p/--print code as node's, and a project
// tool run by name (see jsBin).
func (w *walker) bun(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args) && strings.HasPrefix(args[i].s, "-"); i++ {
		name, v, ok := strings.Cut(args[i].s, "=")
		switch name {
		case "-e", "--eval", "-p", "--print":
			if !ok && i+1 < len(args) {
				v, ok = args[i+1].s, true
			}
			if ok {
				w.inline("bun", v)
				return
			}
		}
	}
	if ops := scan(commands.Get()["bun"], args); len(ops) > 0 && strings.Contains(args[ops[0]].s, "://") {
		w.runFile(args[ops[0]].s, args[ops[0]].text, "bun") // bun https://…/x.ts
		return
	}
	w.runtimeFile(chain, args, ".js", ".ts", ".mjs", ".cjs", ".jsx", ".tsx")
	w.jsBin(chain, args, io)
}

// jsBin judges yarn, pnpm and bun running a project tool by name (yarn
// prisma migrate reset) by the tool's own rule.
func (w *walker) jsBin(chain string, args []arg, io ioInfo) {
	r := commands.Get()[firstWord(chain)]
	ops := scan(r, args)
	yarn := chain == "yarn"
	if len(ops) == 0 {
		if yarn {
			w.jsScripts(chain+" install", args, io) // bare yarn installs
		}
		return
	}
	name := args[ops[0]].s
	if r.sub[name] != nil {
		return // a subcommand, judged by its own rule
	}
	if yarn {
		w.jsScripts(chain+" run", args, io) // yarn NAME runs the script NAME
	}
	if r := lookup(name); r != nil && npxTools.Get()[name] {
		w.exec(args[ops[0]:], io)
	}
}

// lookupName judges DNS and probe tools (nslookup, dig, host, ping): a name
// built from what a command prints or a value not known before running
// ("$(whoami).x.evil.example") carries that data to the name's servers.
func (w *walker) lookupName(chain string, args []arg, io ioInfo) {
	for _, a := range args[1:] {
		if hasHole(a.s) && strings.Contains(a.s, ".") {
			w.res.add(Dangerous, "`"+firstWord(chain)+" "+a.text+"`: sends data not known before running in a DNS name")
		}
	}
	// A name or address other than this machine's is reached on the
	// network (the policy's network use); dig's +options and a bare
	// record type are not names.
	name := firstWord(chain)
	r := lookup(name)
	if r == nil {
		return
	}
	ops := scan(r, args)
	if slices.ContainsFunc(ops, func(i int) bool { return strings.HasPrefix(args[i].s, "@") && localHost(args[i].s[1:]) }) {
		return // names asked of a server on this machine
	}
	for _, i := range ops {
		h := strings.TrimPrefix(args[i].s, "@")
		if h == "" || strings.HasPrefix(h, "+") || hasHole(h) || !strings.ContainsAny(h, ".:") && h != strings.ToLower(h) ||
			dnsTypes[strings.ToUpper(h)] && !strings.Contains(h, ".") || localHost(h) {
			continue
		}
		w.res.add(Dangerous, "`"+name+" "+args[i].text+"`: reaches a host on the network")
		return
	}
}

// dnsTypes are record types and classes a DNS lookup takes as operands.
var dnsTypes = map[string]bool{"A": true, "AAAA": true, "MX": true, "NS": true, "TXT": true, "CNAME": true,
	"SOA": true, "PTR": true, "SRV": true, "CAA": true, "ANY": true, "DS": true, "DNSKEY": true, "IN": true,
	"AXFR": true, "HTTPS": true, "SVCB": true}

// jsScripts judges the scripts of a package.json this string wrote, when
// a package manager then runs them: npm test runs "test", npm install its
// install hooks, npm run X "preX", "X" and "postX".
func (w *walker) jsScripts(chain string, args []arg, io ioInfo) {
	if sub := chain[strings.LastIndexByte(chain, ' ')+1:]; sub == "run" || sub == "run-script" {
		if ops := scan(&rule{}, args); len(ops) > 0 && args[ops[0]].s == "env" {
			// npm's own env script, unless package.json has one.
			w.discloses("`" + chain + " env`: prints the whole environment, which may include secrets")
		}
	}
	var planted map[string]string
	if w.shared.planted != nil {
		planted = w.shared.planted[path.Join(w.cwd, "package.json")]
	}
	if w.cwd == "" || len(w.shared.scripts) == 0 && len(planted) == 0 {
		return
	}
	var names []string
	switch sub := chain[strings.LastIndexByte(chain, ' ')+1:]; sub {
	case "run", "run-script":
		if ops := scan(&rule{}, args); len(ops) > 0 {
			n := args[ops[0]].s
			names = []string{"pre" + n, n, "post" + n}
		}
	case "test", "t", "start", "restart", "stop", "build", "dev", "lint": // yarn lint runs the script lint
		if sub == "t" {
			sub = "test"
		}
		names = []string{"pre" + sub, sub, "post" + sub}
	case "pack":
		names = []string{"prepack", "prepare", "postpack"}
	case "publish":
		names = []string{"prepublishOnly", "prepack", "prepare", "postpack", "publish", "postpublish"}
	default: // install, ci, add, rebuild …: the project's own install hooks
		names = []string{"preinstall", "install", "postinstall", "prepare"}
	}
	// Scripts an earlier npm pkg set of the same string put there.
	for _, n := range names {
		if code := planted[n]; code != "" {
			w.res.add(Dev, "`"+chain+"`: runs the script "+n+" that this command sets")
			w.nested(code, input{})
		}
	}
	content, wrote := w.shared.scripts[path.Join(w.cwd, "package.json")]
	if !wrote {
		return
	}
	if hasHole(content) {
		w.res.add(Dangerous, "`"+chain+"`: runs scripts of a package.json this command writes, "+
			"with content not known before running")
		return
	}
	var pkg struct {
		Scripts map[string]string `json:"scripts"`
	}
	if err := json.Unmarshal([]byte(content), &pkg); err != nil {
		return
	}
	for _, n := range names {
		if code := pkg.Scripts[n]; code != "" {
			w.res.add(Dev, "`"+chain+"`: runs the script "+n+" of a package.json this command writes")
			w.nested(code, input{})
		}
	}
}
