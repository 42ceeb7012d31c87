package danger

import (
	"strings"
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
	"dist": true, "export": true, "generate": true}

// production judges a project runner aimed at production: an
// environment variable of the run, or an option (--env, --environment,
// --stage, -e of rails) or NAME=value operand naming it. Migrating,
// running a task or deploying there changes production's state:
// dangerous. Building for production stays what it was.
func (w *walker) production(name string, args []arg) {
	hit := ""
	for _, a := range w.assigns {
		if a.Name != nil && selectsEnv(a.Name.Value) && a.Value != nil && prodValue(w.literal(a.Value)) {
			hit = a.Name.Value + "=" + w.literal(a.Value)
			break
		}
	}
	var words []string
	for _, a := range args[1:] {
		if strings.ContainsAny(a.s, " \t") {
			words = append(words, strings.Fields(a.s)...)
		} else {
			words = append(words, a.s)
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
