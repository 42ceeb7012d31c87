package danger

import (
	"net/url"
	"strings"

	"github.com/qsh-shell/qsh/policy/secret"
)

// Checks for runners fed code from elsewhere, and for commands aimed at
// production or every interface.

// runsFrom judges running the code a runner is given (a notebook, an
// MLflow project, a hooks repository, a recipe file): from a URL or a
// bucket it is download-and-run, outside the workspace it is not the
// project's code, in it (the workspace itself too) it is.
func (w *walker) runsFrom(target, text, lang string) {
	switch {
	case hasHole(target) && !strings.ContainsRune(target, holeDL) && !strings.Contains(target, hole):
	case strings.HasPrefix(target, "git@") || strings.HasPrefix(target, "git+") ||
		strings.Contains(target, "://") && !strings.HasPrefix(target, "file://"):
		w.res.add(Blocked, "`"+text+"`: downloads code and runs it")
		return
	}
	if p, ok := w.abs(strings.TrimPrefix(target, "file://")); ok && p == w.ws.Dir {
		w.res.add(Dev, "`"+text+"`: runs the project's own code")
		return
	}
	w.runFile(strings.TrimPrefix(target, "file://"), text, lang)
}

// papermill judges the notebook it runs (first operand) and where the
// executed copy goes: a bucket or URL is an upload.
func (w *walker) papermill(chain string, args []arg, io ioInfo) {
	ops := scan(lookup("papermill"), args)
	if len(ops) == 0 {
		return
	}
	w.runsFrom(args[ops[0]].s, chain+" "+args[ops[0]].text, "python")
	if len(ops) > 1 {
		if out := args[ops[1]].s; strings.Contains(out, "://") && !strings.HasPrefix(out, "file://") {
			w.res.add(Dangerous, "`"+chain+" "+args[ops[1]].text+"`: uploads the executed notebook")
		}
	}
}

// mlflowRun judges the project URI mlflow run is given.
func (w *walker) mlflowRun(chain string, args []arg, io ioInfo) {
	ops := scan(&rule{vals: "-e --entry-point -v --version -P --param-list -A --docker-args --experiment-name " +
		"--experiment-id -b --backend -c --backend-config --env-manager --storage-dir --run-id --run-name"}, args)
	if len(ops) > 0 {
		w.runsFrom(args[ops[0]].s, chain+" "+args[ops[0]].text, "python")
	}
}

// tryRepo judges pre-commit try-repo REPO: the hooks of that repository,
// run on the project.
func (w *walker) tryRepo(chain string, args []arg, io ioInfo) {
	ops := scan(&rule{vals: "--ref --rev --config -c --files --hook-stage --from-ref --to-ref --color"}, args)
	if len(ops) > 0 {
		w.runsFrom(args[ops[0]].s, chain+" "+args[ops[0]].text, "sh")
	}
}

// recipeFile judges a task runner's recipe file given by an option
// (just --justfile, task --taskfile, make -f is make's own): one from a
// URL or outside the workspace is not the project's.
func (w *walker) recipeFile(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		if args[i].s == "--" {
			return
		}
		v, j, ok := optValue(args, i, "--justfile", "-f", "--taskfile", "-t")
		if !ok {
			continue
		}
		w.runsFrom(v, chain+" "+args[i].s+" "+v, "sh")
		i = j
	}
}

// jupyterServer: serving notebooks on this machine; listing the running
// servers prints their URLs with their tokens.
func jupyterServer() *rule {
	return &rule{class: Dev, why: "serves notebooks on this machine", check: (*walker).notebook,
		sub: map[string]*rule{"list": {class: Dangerous, why: "prints the running servers' URLs with their tokens",
			shows: "prints the running servers' URLs with their tokens"},
			"stop": dev("stops a notebook server of this machine")},
		open: true}
}

// d1 judges wrangler d1 execute: statements on the local development
// database are dev; --remote or a file of statements are not.
func (w *walker) d1(chain string, args []arg, io ioInfo) {
	local, sql := false, ""
	for i := 1; i < len(args); i++ {
		a := args[i].s
		switch {
		case a == "--local":
			local = true
		case a == "--remote" || a == "--file" || strings.HasPrefix(a, "--file="):
			w.res.add(Dangerous, "`"+chain+" "+a+"`: runs statements on the remote database or from a file")
			return
		}
		if v, j, ok := optValue(args, i, "--command"); ok {
			sql, i = v, j
		}
	}
	if !local || sql == "" {
		w.res.add(Dangerous, "`"+chain+"`: runs statements on a database that may be the remote one")
	}
}

// prodValue reports a value that names the production environment.
func prodValue(v string) bool {
	l := strings.ToLower(strings.Trim(v, `"'`))
	switch l {
	case "prod", "production", "prd", "live":
		return true
	}
	for _, p := range []string{"prod-", "prod_", "production-", "production_"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	for _, s := range []string{".prod", ".production", "-prod", "_prod", "-production"} {
		if strings.HasSuffix(l, s) {
			return true
		}
	}
	return false
}

// mentionsProd reports a word that may name production, before any
// closer look.
func mentionsProd(s string) bool {
	return strings.Contains(s, "prod") || strings.Contains(s, "PROD") || strings.Contains(s, "Prod") ||
		strings.Contains(s, "prd") || strings.Contains(s, "live") || strings.Contains(s, "LIVE")
}

// selectsEnv reports a variable that selects the environment a program runs
// against: RAILS_ENV, APP_ENV, MIX_ENV, STAGE, ASPNETCORE_ENVIRONMENT,
// SPRING_PROFILES_ACTIVE, DJANGO_SETTINGS_MODULE.
func selectsEnv(n string) bool {
	u := strings.ToUpper(n)
	switch u {
	case "ENV", "ENVIRONMENT", "STAGE", "DJANGO_SETTINGS_MODULE", "DJANGO_CONFIGURATION":
		return true
	}
	for _, s := range []string{"_ENV", "_ENVIRONMENT", "_STAGE", "_PROFILES_ACTIVE"} {
		if strings.HasSuffix(u, s) {
			return true
		}
	}
	return false
}

// buildWords are arguments that say a run only builds, tests, checks or
// lists, whatever environment it names: NODE_ENV=production npm run
// build, RAILS_ENV=production rails assets:precompile.
var buildWords = map[string]bool{"build": true, "compile": true, "assets:precompile": true, "test": true,
	"lint": true, "check": true, "package": true, "bundle": true, "webpack": true, "vite": true, "tsc": true,
	"esbuild": true, "rollup": true, "parcel": true, "plan": true, "diff": true, "synth": true, "routes": true,
	"about": true, "stats": true, "-T": true, "--tasks": true, "--dry-run": true, "--check": true,
	"validate": true, "fmt": true, "format": true, "--help": true, "--version": true, "assemble": true,
	"dist": true, "export": true, "generate": true, "install": true, "ci": true, "i": true, "get": true,
	"list": true, "ls": true, "status": true, "show": true, "describe": true, "logs": true, "version": true}

// production judges a project runner aimed at production: an
// environment variable of the run, or an option (--env, --environment,
// --stage, -e of rails) or NAME=value operand naming it. Migrating,
// running a task or deploying there changes production's state:
// dangerous. Building for production stays what it was.
func (w *walker) production(name string, args []arg) {
	named := false
	for _, a := range w.assigns {
		named = named || a.Value != nil && mentionsProd(w.literal(a.Value))
	}
	for _, a := range args[1:] {
		named = named || mentionsProd(a.s)
	}
	if !named {
		return // the common case: nothing names production
	}
	hit := ""
	for _, a := range w.assigns {
		if a.Name != nil && selectsEnv(a.Name.Value) && a.Value != nil && prodValue(w.literal(a.Value)) {
			hit = a.Name.Value + "=" + w.literal(a.Value)
			break
		}
	}
	var words []string
	for _, a := range args[1:] {
		for _, f := range strings.Fields(a.s) {
			// --args=--env=prod, -Dspring-boot.run.arguments=--env=prod:
			// the value is a command line of its own.
			if _, v, ok := strings.Cut(f, "="); ok && strings.HasPrefix(f, "-") && strings.HasPrefix(v, "-") {
				words = append(words, v)
			}
			words = append(words, f)
		}
	}
	for i, s := range words {
		if buildWords[s] || buildWords[strings.TrimPrefix(s, "./")] {
			return
		}
		if hit != "" {
			continue
		}
		if n, v, ok := strings.Cut(s, "="); ok && (selectsEnv(n) || n == "--env" || n == "--environment" ||
			n == "--stage" || n == "--settings") && prodValue(v) {
			hit = s
		} else if (s == "--env" || s == "--environment" || s == "--stage" || s == "-e" && name == "rails") &&
			i+1 < len(words) && prodValue(words[i+1]) {
			hit = s + " " + words[i+1]
		}
	}
	if hit != "" {
		w.res.add(Dangerous, "`"+name+"` with `"+hit+"`: runs against production, changing its state")
	}
}

// listenEnv judges a variable of the run that tells a server to listen
// on every interface: OLLAMA_HOST=0.0.0.0, BIND_ADDR=[::]:8080.
func (w *walker) listenEnv(name string) {
	for _, a := range w.assigns {
		if a.Name == nil || a.Value == nil || !listenFlag("--"+strings.ToLower(a.Name.Value)) {
			continue
		}
		v := w.literal(a.Value)
		if i := strings.Index(v, "://"); i >= 0 {
			v = v[i+3:]
		}
		if v != "" && everyInterface(v) {
			w.res.add(Dangerous, "`"+a.Name.Value+"="+v+" "+name+"`: listens on every network interface")
			return
		}
	}
}

// gradleFlags: a build scan uploads the build's data to Gradle's
// servers; a distribution URL changes where the wrapper's code comes
// from.
func gradleFlags() []flag {
	return []flag{
		raise("--scan", Dangerous, "uploads a build scan (the build's environment and logs) to a server"),
		raise("--gradle-distribution-url --gradle-distribution-sha256-sum", Dangerous,
			"changes where the wrapper downloads Gradle from"),
	}
}

// bazel judges flags that send the build to another host (remote cache,
// executor, build event service) and bazel run of a target whose name
// says it deploys.
func (w *walker) bazel(chain string, args []arg, io ioInfo) {
	verb := ""
	for _, a := range args[1:] {
		s := a.s
		if s == "--" {
			break
		}
		if n, v, ok := strings.Cut(s, "="); ok && strings.HasPrefix(n, "--") {
			switch strings.TrimPrefix(n, "--") {
			case "remote_cache", "remote_executor", "bes_backend", "remote_downloader", "bes_results_url",
				"remote_asset_service", "experimental_remote_downloader":
				if h, ok := urlHost(v); v != "" && (!ok || !localHost(h)) && !strings.HasPrefix(v, "unix:") {
					w.res.add(Dangerous, "`"+chain+" "+a.text+"`: sends the build and its data to another host")
				}
			}
			continue
		}
		if strings.HasPrefix(s, "-") {
			continue
		}
		if verb == "" {
			verb = s
			continue
		}
		if verb == "run" && matchOp("*deploy* *publish* *release* *push* *prod* *upload*", strings.ToLower(s)) {
			w.res.add(Dangerous, "`"+chain+" run "+a.text+"`: runs a target whose name says it deploys or publishes")
		}
	}
}

// inBuildDir reports a file under one of the workspace's regenerable
// build directories (build/, dist/, target/ …).
func (w *walker) inBuildDir(target string) bool {
	p, ok := w.abs(target)
	if !ok || !w.inside(p) {
		return false
	}
	rel := strings.TrimPrefix(p, w.ws.Dir+"/")
	dir, _, nested := strings.Cut(rel, "/")
	return nested && buildDirs.Get()[dir]
}

// gitLog judges git log's output file and a pickaxe search (-S, -G) for
// secret-shaped strings whose changes it prints (-p): the history's
// secrets, the removed ones too.
func (w *walker) gitLog(chain string, args []arg, io ioInfo) {
	w.outflag(chain, args, io)
	patch, pat, flag := false, "", ""
	for i := 1; i < len(args); i++ {
		a := args[i].s
		if a == "--" {
			break
		}
		if v, j, ok := optValue(args, i, "-S", "-G"); ok {
			pat, flag, i = v, args[i].s[:2], j
			continue
		}
		patch = patch || matchFlag("-p -u --patch --patch-with-stat --patch-with-raw", a)
	}
	if patch && pat != "" && secret.SearchPattern(pat) {
		w.discloses("`" + chain + " " + flag + " " + pat + "`: prints the changes that hold secret-shaped strings " +
			"(the history's secrets, removed ones too)")
	}
}

// projectLibs reports a library variable (LD_PRELOAD, LD_LIBRARY_PATH,
// DYLD_*) whose every entry is a file or directory of the workspace that
// this string did not download, set for prog, a program of the workspace.
func (w *walker) projectLibs(name, val, prog string) bool {
	switch name {
	case "LD_PRELOAD", "LD_LIBRARY_PATH", "DYLD_INSERT_LIBRARIES", "DYLD_LIBRARY_PATH":
	default:
		return false
	}
	if p, ok := w.abs(prog); val == "" || hasHole(val) || !strings.Contains(prog, "/") || !ok || !w.inside(p) {
		return false
	}
	for _, e := range strings.FieldsFunc(val, func(r rune) bool { return r == ':' || r == ' ' }) {
		p, ok := w.abs(e)
		if !ok || !w.inside(p) || w.shared.downloads[p] || w.downloaded(p) {
			return false
		}
	}
	return true
}

// httpStatements judges statements sent to a database's HTTP API in a
// URL's query or the request's data (InfluxDB's /query?q=DROP …,
// ClickHouse's ?query=, CrateDB's _sql): a drop or delete there is a
// drop, whatever carries it.
func (w *walker) httpStatements(name string, args []arg) {
	for i, a := range args[1:] {
		v := a.s
		if strings.HasPrefix(v, "-") {
			continue
		}
		if i > 0 {
			prev := args[i].s
			if !strings.Contains(v, "://") && !strings.HasPrefix(prev, "-d") && !strings.HasPrefix(prev, "--data") &&
				prev != "-G" {
				continue
			}
		}
		if !foldContainsAny(v, "drop", "delete", "truncate", "alter", "flush") {
			continue
		}
		if u, err := url.QueryUnescape(strings.ReplaceAll(v, "+", " ")); err == nil {
			v = u
		}
		up := " " + strings.ToUpper(v) + " "
		for _, k := range []string{"DROP ", "DELETE FROM ", "DELETE SERIES", "TRUNCATE ", "ALTER TABLE", "FLUSHALL",
			"FLUSHDB"} {
			if strings.Contains(strings.Join(strings.Fields(up), " ")+" ", k) {
				w.res.add(Dangerous, "`"+name+" "+a.text+"`: sends a statement that drops, deletes or changes data")
				return
			}
		}
	}
}

// localEndpoint reports aws's --endpoint-url (or AWS_ENDPOINT_URL of the
// run) on this machine.
func (w *walker) localEndpoint(args []arg) bool {
	v := ""
	for i := 1; i < len(args); i++ {
		if x, j, ok := optValue(args, i, "--endpoint-url"); ok {
			v, i = x, j
		}
	}
	if v == "" {
		for _, a := range w.assigns {
			if a.Name != nil && a.Name.Value == "AWS_ENDPOINT_URL" && a.Value != nil {
				v = w.literal(a.Value)
			}
		}
	}
	h, ok := urlHost(v)
	return v != "" && ok && localHost(h)
}

// tfBackend judges terraform init's -backend-config key=value naming a
// URL of another host: the state, secrets in it, goes there.
func (w *walker) tfBackend(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		v, j, ok := optValue(args, i, "-backend-config", "--backend-config")
		if !ok {
			continue
		}
		i = j
		_, val, kv := strings.Cut(v, "=")
		if !kv {
			continue // a file of the project
		}
		if h, ok := urlHost(val); strings.Contains(val, "://") && (!ok || !localHost(h)) {
			w.res.add(Dangerous, "`"+chain+" -backend-config="+v+"`: keeps the state, secrets in it, at "+h)
		}
	}
}

// ghAPI judges gh api's fields: they make the request a POST that may
// change remote state, unless the endpoint is graphql and the query holds
// no mutation (the other fields are its variables).
func (w *walker) ghAPI(chain string, args []arg, io ioInfo) {
	r := &rule{vals: "-X --method -H --header -F --field -f --raw-field --jq -q --template -t --input -p --preview " +
		"--hostname --cache"}
	ops := scan(r, args)
	graphql := len(ops) > 0 && args[ops[0]].s == "graphql"
	for i := 1; i < len(args); i++ {
		a := args[i].s
		if a == "--input" || strings.HasPrefix(a, "--input=") {
			w.res.add(Dangerous, "`"+chain+" --input`: sends data that may change remote state")
			continue
		}
		v, j, ok := optValue(args, i, "-f", "--raw-field", "-F", "--field")
		if !ok {
			continue
		}
		text := args[i].text
		i = j
		if name, q, _ := strings.Cut(v, "="); graphql && name != "query" ||
			graphql && !strings.HasPrefix(q, "@") && !hasHole(q) && !strings.Contains(strings.ToLower(q), "mutation") {
			continue
		}
		w.res.add(Dangerous, "`"+chain+" "+text+"`: sends data that may change remote state")
	}
}

// foldContainsAny reports whether s holds one of the lower-case words in
// any case, without allocating.
func foldContainsAny(s string, words ...string) bool {
	for _, wd := range words {
		for i := 0; i+len(wd) <= len(s); i++ {
			if strings.EqualFold(s[i:i+len(wd)], wd) {
				return true
			}
		}
	}
	return false
}
