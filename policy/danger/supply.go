package danger

import (
	"path"
	"slices"
	"strings"

	"github.com/qsh-shell/qsh/internal/lazy"
	"github.com/qsh-shell/qsh/policy/secret"
)

// Where the project's code comes from: the registry its package manager
// uses, the lock files that pin what it installs and their hashes, the
// scripts an install runs, the repository a dependency is taken from.
// Changing one of them, even inside the workspace, is trust added to
// remote code (dangerous): the next install runs what it now points at.

// lockFiles pin the dependencies' versions, sources and hashes; package
// managers write them, people do not.
var lockFiles = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return nameSet("package-lock.json npm-shrinkwrap.json yarn.lock pnpm-lock.yaml bun.lock bun.lockb " +
		"Cargo.lock go.sum poetry.lock Pipfile.lock uv.lock pdm.lock composer.lock Gemfile.lock " +
		"packages.lock.json flake.lock mix.lock pubspec.lock Package.resolved gradle.lockfile")
}}

// pkgConfigs say where a package manager fetches from.
var pkgConfigs = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return nameSet(".npmrc .yarnrc .yarnrc.yml bunfig.toml pip.conf pip.ini uv.toml .condarc nuget.config " +
		"NuGet.Config NuGet.config go.env .pypirc")
}}

// registryKeys are the settings that point a package manager elsewhere
// or stop it checking what it fetches.
var registryKeys = lazy.Regexp{Expr: `(?i)registry|index-url|index_url|npmRegistryServer|replace-with|` +
	`\[source|\[registries|GOPROXY|GONOSUMDB|GONOSUMCHECK|GOINSECURE|GOSUMDB|strict-ssl|trusted-host|` +
	`packageSources|channels|unsafeHttpWhitelist|enableStrictSsl|cafile|ca=`}

// goModReplace is a go.mod replace directive to another module (not a
// local directory).
var goModReplace = lazy.Regexp{Expr: `(?m)replace\s*\(?\s*\S+(\s+v\S+)?\s*=>\s*[^.\s/]\S*\s+v`}

// installScripts are the package.json scripts an install runs.
var installScripts = lazy.Regexp{Expr: `scripts\.(?:pre|post)?(?:install|prepare|prepublish|prepack)\b|` +
	`"(?:pre|post)?(?:install|prepare)"\s*:`}

// supplyWrite judges a write whose content is known (or not) to a file
// that says where code comes from.
func (w *walker) supplyWrite(p, data string, known bool) {
	base := path.Base(p)
	dir := path.Base(path.Dir(p))
	switch {
	case pkgConfigs.Get()[base] || (base == "config.toml" || base == "config") && dir == ".cargo":
		if !known || registryKeys.Get().MatchString(data) {
			w.res.add(Dangerous, "`"+base+"`: changes where packages come from, or how they are checked")
		}
	case base == "go.mod" && known && goModReplace.Get().MatchString(data):
		w.res.add(Dangerous, "`go.mod`: replaces a dependency with another repository's code")
	case base == "package.json" && known && installScripts.Get().MatchString(data):
		w.res.add(Dangerous, "`package.json`: sets a script that runs at the next install")
	case base == "tasks.json" && dir == ".vscode" && (!known || strings.Contains(data, "folderOpen")):
		w.res.add(Dangerous, "`.vscode/tasks.json`: sets a task that runs when the folder is opened")
	}
}

// lockWrite is the class of writing p by hand: a lock file changed by
// anything but its package manager changes what gets installed.
func lockWrite(p string) bool {
	return lockFiles.Get()[path.Base(p)]
}

// jqScript judges a jq filter that sets a package.json install script:
// jq '.scripts.preinstall = "…"' package.json > p && mv p package.json.
func (w *walker) jqScript(chain string, args []arg, io ioInfo) {
	r := jqRule()
	if ops := scan(r, args); len(ops) > 0 && !slices.ContainsFunc(args, func(a arg) bool {
		return matchFlag(r.patternFlags, a.s)
	}) {
		w.jqEnv(chain, args[ops[0]])
	}
	// --rawfile NAME FILE binds FILE's text to $NAME, which the filter
	// prints: FILE is read.
	for i := 1; i+2 < len(args); i++ {
		if f := args[i].s; f == "--rawfile" || f == "--slurpfile" || f == "--argfile" {
			p, ok := w.abs(args[i+2].s)
			w.readFile(p, ok, "`"+chain+" "+f+" "+args[i+2].text+"`")
			i += 2
		}
	}
	// npm pkg set scripts.NAME=LINE: npm runs LINE later, as the
	// project's script: judged now for what it does, but no more than
	// dangerous, since setting it runs nothing.
	for _, a := range args[1:] {
		key, line, ok := strings.Cut(a.s, "=")
		if n, bracket := strings.CutPrefix(key, "scripts["); bracket && strings.HasSuffix(n, "]") {
			key = "scripts." + strings.Trim(n[:len(n)-1], `"'`) // npm pkg set 'scripts[x]=…'
		}
		if ok && strings.HasPrefix(key, "scripts.") && line != "" {
			if strings.HasSuffix(chain, " pkg set") {
				w.plant(key[len("scripts."):], line)
			}
			c := w.clone()
			c.res = &result{}
			c.nested(line, input{})
			for _, r := range c.res.reasons {
				w.res.add(min(c.res.class, Dangerous), "`"+chain+" "+key+"`: "+r)
			}
		}
	}
	for _, a := range args[1:] {
		if !strings.HasPrefix(a.s, "-") && installScripts.Get().MatchString(a.s) &&
			(strings.Contains(a.s, "=") || firstWord(chain) == "npm") {
			w.res.add(Dangerous, "`"+chain+"`: sets a script that npm runs at the next install")
			return
		}
	}
}

// plant records a script npm pkg set puts in the package.json of the
// current directory, for a later install or run in the string (see
// jsScripts).
func (w *walker) plant(name, line string) {
	p := path.Join(w.cwd, "package.json")
	if w.shared.planted == nil {
		w.shared.planted = map[string]map[string]string{}
	}
	if w.shared.planted[p] == nil {
		w.shared.planted[p] = map[string]string{}
	}
	w.shared.planted[p][name] = line
}

// goReplace judges go mod edit -replace OLD=NEW: a local directory is the
// project's own copy; another module path swaps the dependency's code for
// another repository's.
func (w *walker) goReplace(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		v, ok := strings.CutPrefix(args[i].s, "-replace=")
		if !ok && args[i].s == "-replace" && i+1 < len(args) {
			v, ok = args[i+1].s, true
			i++
		}
		if !ok {
			continue
		}
		old, repl, _ := strings.Cut(v, "=")
		old, _, _ = strings.Cut(old, "@")
		mod, _, _ := strings.Cut(repl, "@")
		if strings.HasPrefix(mod, ".") || strings.HasPrefix(mod, "/") || mod == old || mod == "" {
			continue
		}
		w.res.add(Dangerous, "`"+chain+" -replace "+v+"`: takes `"+old+"` from another repository, `"+mod+"`")
	}
}

// gitDependency judges a dependency taken from a repository instead of
// the registry (cargo add --git URL): code the registry never saw.
func (w *walker) gitDependency(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		v, ok := strings.CutPrefix(args[i].s, "--git=")
		if !ok && args[i].s == "--git" && i+1 < len(args) {
			v, ok = args[i+1].s, true
			i++
		}
		if ok {
			w.pkgSpec(chain, arg{s: "git+" + strings.TrimPrefix(v, "git+"), text: "--git " + v})
		}
	}
}

var (
	// jqEnvName is a variable named in jq's environment: env.HOME,
	// $ENV.PATH, env["LANG"].
	jqEnvName = lazy.Regexp{Expr: `(?:\$ENV|\benv)(?:\.([A-Za-z_]\w*)|\[\s*"([A-Za-z_]\w*)"\s*\])`}
	// jqEnvAny is the environment as a whole.
	jqEnvAny = lazy.Regexp{Expr: `\$ENV|\benv\b`}
)

// jqEnv judges a jq filter that reads the environment: a variable named
// and not secret prints that one value (env.HOME, as echo $HOME); the
// whole object, or a secret's name, may print secrets.
func (w *walker) jqEnv(chain string, filter arg) {
	f := filter.s
	if !strings.Contains(f, "env") && !strings.Contains(f, "ENV") {
		return
	}
	rest := jqEnvName.Get().ReplaceAllStringFunc(f, func(m string) string {
		sub := jqEnvName.Get().FindStringSubmatch(m)
		if secret.Var(sub[1] + sub[2]) {
			return m
		}
		return "x"
	})
	if jqEnvAny.Get().MatchString(rest) {
		w.discloses("`" + chain + " " + filter.text + "`: prints environment variables, which may include secrets")
	}
}

// yqLoad is yq's load family, which reads a file the expression names:
// load("f"), load_str, load_xml, load_props, load_base64.
var yqLoad = lazy.Regexp{Expr: `\bload(?:_str|_xml|_props|_base64)?\s*\(\s*("([^"\\]*)"|[^)]*)`}

// yq judges yq: in place edits as other editors', and the files its
// expression loads as reads of those files (a secret's is dangerous); a
// name only known when it runs could be any file.
func (w *walker) yq(chain string, args []arg, io ioInfo) {
	w.inplace(chain, args, io)
	for _, a := range args[1:] {
		if !strings.Contains(a.s, "load") {
			continue
		}
		for _, m := range yqLoad.Get().FindAllStringSubmatch(a.s, -1) {
			if m[2] == "" {
				w.res.add(Dangerous, "`"+chain+"`: load() reads a file named only when it runs")
				continue
			}
			p, ok := w.abs(m[2])
			w.readFile(p, ok, "`"+chain+" load(\""+m[2]+"\")`")
		}
	}
}
