package danger

import (
	"strings"

	"github.com/qsh-shell/qsh/internal/lazy"
)

// packageCommands is the part of the table (see rules.go) for package managers: the languages'
// (npm, pip, uv …; cargo is with the builds) and the system's (apt, brew, nix …).

// scriptShell judges npm's --script-shell, before or after the
// subcommand: every script of the project runs with the program it names
// instead of sh.
func (w *walker) scriptShell(chain string, args []arg, io ioInfo) {
	for _, a := range args[1:] {
		if a.s == "--script-shell" || strings.HasPrefix(a.s, "--script-shell=") {
			w.res.add(Dangerous, "`"+chain+" --script-shell`: runs the project's scripts with a program it names")
		}
	}
}
func packageCommands() map[string]*rule {
	return allNamed(map[string]*rule{
		"npm": {
			hoist: true,
			class: Dangerous,
			why:   "unknown npm command",
			sub:   jsRules(),
			vals:  "--prefix -w --workspace",
			check: (*walker).scriptShell,
			whole: true,
		},
		"pnpm": {
			hoist: true,
			class: Dangerous,
			why:   "unknown pnpm command",
			check: (*walker).jsBin,
			sub:   jsRules(),
			vals:  "-C --dir --filter -F -w --workspace",
		},
		"yarn": {
			hoist: true,
			class: Dev,
			why:   "installs dependencies or runs a project script",
			check: (*walker).jsBin,
			whole: true, // jsBin tells bare yarn and yarn SCRIPT from a subcommand
			sub:   jsRules(),
			open:  true,
			ops: []flag{
				raise("deploy* publish* release*", Dangerous, "runs a deploy or release script"),
				destroys("runs a script whose name says it destroys data"),
			},
		},
		"bun": {
			hoist: true,
			class: Dev, why: "runs a project script", sub: bunRules(), open: true, check: (*walker).bun,
			vals: "-e --eval -p --print",
		},
		"npx":  {class: Safe, why: "runs a package", check: (*walker).npx, noscope: true},
		"bunx": {class: Safe, why: "runs a package", check: (*walker).npx, noscope: true},
		"pnpx": {class: Safe, why: "runs a package", check: (*walker).npx, noscope: true},
		"pip":  {class: Dangerous, why: "unknown pip command", sub: pipRules(), suffixes: true},
		"uv": {
			class: Dev,
			why:   "manages the project environment",
			sub: map[string]*rule{
				"pip": {
					class: Dev,
					why:   "manages the project environment",
					sub:   pipRules(),
					flags: []flag{raise("--system", Dangerous, "changes the system Python")},
				},
				"run":     uvRunRule(),
				"sync":    dev("installs dependencies"),
				"lock":    dev("locks dependencies"),
				"add":     {class: Dev, why: "adds a dependency", check: (*walker).pkgSource},
				"remove":  dev("removes a dependency"),
				"venv":    dev("creates a virtual environment"),
				"build":   dev(buildWhy),
				"tree":    safe("shows the dependency tree"),
				"version": safe("prints the version"),
				"publish": dryRule(dangerous("publishes a package"), "--dry-run"),
				"tool": {
					class: Dangerous,
					why:   "installs or runs tools outside the project",
					sub: map[string]*rule{
						"list": safe("lists tools"),
						"run":  {class: Dangerous, why: "downloads and runs a tool", check: (*walker).toolRun},
					},
				},
				"python": {
					class: Dev,
					why:   "manages Python versions",
					sub: map[string]*rule{
						"list": safe("lists Python versions"),
						"find": safe("finds Python"),
					},
				},
				"self":   dangerous("changes uv itself"),
				"cache":  dev("manages the cache"),
				"init":   dev("creates a project"),
				"export": dev("exports requirements"),
			},
		},
		"uvx": {class: Dangerous, why: "downloads and runs a tool", noscope: true, check: (*walker).toolRun},
		"pipx": {
			class: Dangerous,
			why:   "installs or runs tools outside the project",
			sub: map[string]*rule{
				"list": safe("lists tools"),
				"run":  {class: Dangerous, why: "downloads and runs a tool", check: (*walker).toolRun},
			},
			open: true,
		},
		"poetry": {
			class: Dev,
			why:   "manages the project environment",
			sub: map[string]*rule{
				"run":     runIn("the project's environment"),
				"publish": dryRule(dangerous("publishes a package"), "--dry-run"),
				"show":    safe("shows dependencies"),
				"add":     {class: Dev, why: "adds a dependency", check: (*walker).pkgSource},
				"source": {
					class: Dangerous,
					why:   "adds a package source, which later installs trust",
					sub:   map[string]*rule{"show": safe("lists sources")},
					open:  true,
				},
				"check": safe("checks pyproject.toml"),
				"env": {class: Dev, why: "manages the project environment",
					sub:  map[string]*rule{"info": safe("shows the environment"), "list": safe("lists environments")},
					open: true},
				"version": {class: Dev, why: "bumps the version", bare: safe("prints the version")},
				"config": {
					class: Dangerous,
					why:   "changes poetry config",
					flags: []flag{
						set("--list", Safe, "reads config"),
						set("--local", Dev, "changes project config"),
					},
					// Even in the project: where packages come from and the
					// credentials sent there.
					ops: []flag{raise("repositories.* certificates.* http-basic.* pypi-token.*", Dangerous,
						"changes where packages come from or their credentials")},
				},
				"self": dangerous("changes poetry itself"),
			},
			open: true,
		},
		"pipenv": {
			class: Dev,
			why:   "manages the project environment",
			sub: map[string]*rule{
				"run":     runIn("the project's environment"),
				"install": {class: Dev, why: "installs dependencies", check: (*walker).pkgSource},
			},
			open: true,
		},
		"pdm": {
			class: Dev,
			why:   "manages the project environment",
			sub: map[string]*rule{
				"run":     runIn("the project's environment"),
				"publish": dryRule(dangerous("publishes a package"), "--dry-run"),
				"add":     {class: Dev, why: "adds a dependency", check: (*walker).pkgSource},
			},
			open: true,
		},
		"hatch": {
			class: Dev,
			why:   "manages the project environment",
			sub: map[string]*rule{
				"run":     runIn("the project's environment"),
				"publish": dryRule(dangerous("publishes a package"), "--dry-run"),
			},
			open: true,
		},
		"conda": {
			class: Dangerous,
			why:   "changes conda environments",
			sub: map[string]*rule{
				"activate":    dev("activates an environment for this session"),
				"shell.bash":  safe("prints its shell setup code"),
				"shell.zsh":   safe("prints its shell setup code"),
				"shell.fish":  safe("prints its shell setup code"),
				"shell.posix": safe("prints its shell setup code"),
				"deactivate":  dev("deactivates the environment"),
				"run":         runWith("a conda environment", "-n --name -p --prefix --cwd", 0),
				"list":        safe("lists packages"),
				"info":        safe("shows conda"),
				"env": {
					class: Dangerous,
					why:   "changes environments",
					sub: map[string]*rule{
						"list":   safe("lists environments"),
						"export": safe("prints an environment"),
						// From the project's environment.yml, as a venv
						// from requirements.txt.
						"create": {class: Dev, why: "creates the project's environment", check: (*walker).condaFile},
						"update": {class: Dev, why: "updates the project's environment", check: (*walker).condaFile},
					},
				},
				"search": dev("queries channels"),
			},
			open: true,
		},
		"virtualenv": dev("creates a virtual environment"),
		"bundle": {
			class: Dev,
			why:   "manages the project's gems",
			sub: map[string]*rule{
				"install": dev("installs the project's gems"),
				"exec":    runIn("the project's gems"),
				"update":  dev("updates gems"),
				"list":    safe("lists gems"),
				"show":    safe("shows a gem"),
				"config": {class: Dev, why: "changes the project's Bundler settings",
					flags: []flag{raise("--global", Dangerous, "changes Bundler's settings for every project")},
					ops: []flag{raise("mirror.* MIRROR.* BUNDLE_MIRROR* ssl_verify_mode disable_checksum_validation",
						Dangerous, "changes where gems come from or stops checking them")}},
			},
			open: true,
		},
		"gem": {
			class: Dangerous,
			why:   "changes installed gems",
			check: (*walker).installsFrom,
			sub: map[string]*rule{
				"list":   safe("lists gems"),
				"search": dev("queries the registry"),
				"env":    safe("shows settings"),
				"build":  dev("builds a gem"),
				"push":   dangerous("publishes a gem"),
			},
			open: true,
		},
		"composer": {
			class: Dev,
			why:   "manages the project's dependencies",
			flags: []flag{raise("global", Dangerous, "changes global packages")},
			ops:   []flag{raise("global", Dangerous, "changes global packages")},
			// Installed packages and their licenses are read from the
			// lock file; --latest and --outdated ask the registry.
			sub: map[string]*rule{
				"show": {class: Safe, why: "lists installed packages",
					flags: []flag{raise("-l --latest -o --outdated -a --available", Dev, remoteRead)}},
				"licenses": safe("lists licenses"), "depends": safe("shows dependants"),
				"why": safe("shows dependants"), "why-not": safe("shows what prevents a version"),
				"validate": safe("checks composer.json"),
			},
			open: true,
		},

		"apt": {
			class: Dangerous,
			why:   "changes system packages",
			dry:   flag{match: "-s --simulate --dry-run --just-print --no-act --recon", class: Safe, why: "simulates"},
			sub: map[string]*rule{
				"list":      safe("lists packages"),
				"search":    safe("searches packages"),
				"show":      safe("shows a package"),
				"policy":    safe("shows versions"),
				"depends":   safe("shows dependencies"),
				"rdepends":  safe("shows dependencies"),
				"changelog": dev("downloads a changelog"),
			},
			open: true,
		},
		"apt-get": {
			class: Dangerous,
			why:   "changes system packages",
			sub: map[string]*rule{
				"download":  dev("downloads a package"),
				"source":    dev("downloads sources"),
				"changelog": dev("downloads a changelog"),
			},
			open: true,
			dry:  flag{match: "-s --simulate --dry-run --just-print --no-act --recon", class: Safe, why: "simulates"},
		},
		"apt-cache": safe("queries packages"),
		"dpkg": {
			class: Dangerous,
			why:   "changes system packages",
			flags: []flag{
				set(
					"-l --list -L --listfiles -s --status -S --search --get-selections "+
						"--print-architecture -c --contents -I --info -f --field",
					Safe,
					"queries packages",
				),
			},
		},
		"dpkg-query": safe("queries packages"),
		"yum": {
			class: Dangerous,
			why:   "changes system packages",
			dry:   flag{match: "--assumeno", class: Safe, why: "simulates"},
			sub: map[string]*rule{
				"list":   safe("lists packages"),
				"search": safe("searches packages"),
				"info":   safe("shows a package"),
			},
			open: true,
		},
		"dnf": {
			class: Dangerous,
			why:   "changes system packages",
			dry:   flag{match: "--assumeno", class: Safe, why: "simulates"},
			sub: map[string]*rule{
				"list":   safe("lists packages"),
				"search": safe("searches packages"),
				"info":   safe("shows a package"),
			},
			open: true,
		},
		"rpm": {
			class: Dangerous,
			why:   "changes system packages",
			flags: []flag{set("-q --query -V --verify", Safe, "queries packages")},
		},
		"pacman": {
			class: Dangerous,
			why:   "changes system packages",
			flags: []flag{set("-Q -Ss -Si -Sl -Qi -Ql", Safe, "queries packages")},
		},
		"apk": {
			class: Dangerous,
			why:   "changes system packages",
			sub: map[string]*rule{
				"info":   safe("lists packages"),
				"search": safe("searches packages"),
				"list":   safe("lists packages"),
			},
			open: true,
		},
		"zypper": dryRule(dangerous("changes system packages"), "--dry-run -D"),
		"snap": {
			class: Dangerous,
			why:   "changes system packages",
			sub: map[string]*rule{
				"list": safe("lists packages"),
				"find": safe("searches packages"),
				"info": safe("shows a package"),
			},
			open: true,
		},
		"flatpak": {
			class: Dangerous,
			why:   "changes system packages",
			sub: map[string]*rule{
				"list":   safe("lists packages"),
				"search": safe("searches packages"),
				"info":   safe("shows a package"),
			},
			open: true,
		},
		"brew": {
			class: Dangerous,
			why:   "changes system packages",
			dry:   flag{match: "-n --dry-run", class: Safe, why: "simulates"},
			// brew --prefix openssl: where a package is, whatever it names.
			flags: []flag{set("--prefix --cellar --repository --cache", Safe, "prints a directory")},
			sub: map[string]*rule{
				"list":     safe("lists packages"),
				"ls":       safe("lists packages"),
				"info":     safe("shows a package"),
				"search":   dev("searches packages"),
				"outdated": dev("checks for updates"),
				"deps":     safe("lists dependencies"),
				"config":   safe("shows settings"),
				"doctor":   safe("checks the setup"),
				"--prefix": safe("prints a directory"),
				"leaves":   safe("lists packages"),
				"uses":     safe("lists dependants"),
			},
			open: true,
		},
		"port":    dangerous("changes system packages"),
		"nix-env": dangerous("changes user packages"),
		"nix-channel": {class: Dangerous, why: "changes the channels packages come from", flags: []flag{
			set("--list", Safe, "lists channels")}},
		"add-apt-repository": dangerous("adds a package repository, which the system's installs trust"),
		"apt-add-repository": dangerous("adds a package repository, which the system's installs trust"),
		"apt-key": {
			class: Dangerous,
			why:   "changes the keys the system's installs trust",
			sub:   map[string]*rule{"list": safe("lists keys"), "finger": safe("lists keys")},
			open:  true,
		},
		"nix": {
			class: Dev,
			why:   "builds with Nix",
			sub: map[string]*rule{
				"profile": dangerous("changes user packages"),
				"run":     {class: Dev, why: "runs the project's flake", check: (*walker).nix},
				"shell":   {class: Dev, why: "runs a shell with packages", check: (*walker).nix},
				"develop": {class: Dev, why: "enters the project's development shell", check: (*walker).nix},
				"build":   {class: Dev, why: "builds with Nix", check: (*walker).nix},
				"registry": {
					class: Dangerous,
					why:   "changes which flakes names mean",
					sub:   map[string]*rule{"list": safe("lists the registry")},
					open:  true,
				},
			},
			open: true,
		},
		"nix-shell": {class: Dev, why: "enters the project's Nix shell", check: (*walker).nixShell},
		"opam": {
			class: Dangerous,
			why:   "changes OCaml packages for the user",
			sub: map[string]*rule{
				"exec": runWith("the project's OCaml switch", "--switch", 0),
				"list": safe("lists packages"),
				"show": safe("shows a package"),
				"switch": {class: Dangerous, why: "changes switches",
					sub:  map[string]*rule{"list": safe("lists switches"), "show": safe("shows the switch")},
					open: true},
				"env": dev("prints the switch's environment for this session"),
				"config": {class: Dangerous, why: "changes opam's settings",
					sub: map[string]*rule{"list": safe("shows settings")}, open: true},
			},
			open: true,
		},
		"sdkmanager": dangerous("installs SDKs"),
		"asdf": {
			class: Dangerous,
			why:   "installs tool versions",
			sub: map[string]*rule{"list": safe("lists versions"), "current": safe("shows versions"),
				"install": pinnedInstall()},
			open: true,
		},
		"mise": {
			class: Dangerous,
			why:   "installs tool versions",
			sub: map[string]*rule{
				"ls":      safe("lists versions"),
				"current": safe("shows versions"),
				"install": pinnedInstall(),
				"run":     dev("runs a project task"),
				"exec":    miseExec(),
				"x":       miseExec(),
			},
			open: true,
		},
		// Template runners render a template and run its hooks: one
		// fetched from elsewhere is code from the network run here.
		"cookiecutter": {class: Dev, why: "renders a project template", check: (*walker).template},
		"copier":       {class: Dev, why: "renders a project template", check: (*walker).template},
		"nvm": {
			class: Dev,
			why:   "selects a Node version",
			sub: map[string]*rule{
				"ls":        safe("lists versions"),
				"current":   safe("shows the version"),
				"exec":      {class: Dev, why: "runs a command with a Node version", check: (*walker).nvm},
				"run":       {class: Dev, why: "runs node of a version", check: (*walker).nvm},
				"install":   dangerous("installs a Node version"),
				"uninstall": dangerous("removes a Node version"),
				"alias":     dangerous("changes the default version"),
			},
			open: true,
		},
		"pyenv": {
			class: Dev,
			why:   "selects a Python version",
			sub: map[string]*rule{
				"versions":  safe("lists versions"),
				"exec":      runWith("a Python version", "", 0),
				"version":   safe("shows the version"),
				"install":   dangerous("installs a Python version"),
				"uninstall": dangerous("removes a Python version"),
				"global":    dangerous("changes the default version"),
			},
			open: true,
		},
	})
}

// pinnedInstall is asdf and mise install: with no operand it installs the
// versions the project's .tool-versions pins, as a lock file's install
// does; a tool named on the line is the user's choice, for every project.
func pinnedInstall() *rule {
	return &rule{class: Dangerous, why: "installs tool versions", bare: dev("installs the versions the project pins")}
}

// condaFile judges conda env create -f: a file of the workspace is the
// project's environment; one from elsewhere or the network is not.
func (w *walker) condaFile(chain string, args []arg, io ioInfo) {
	file := ""
	for i := 1; i < len(args); i++ {
		switch name, v, ok := strings.Cut(args[i].s, "="); {
		case name == "-f" || name == "--file":
			if !ok && i+1 < len(args) {
				i++
				v = args[i].s
			}
			file = v
		}
	}
	if p, ok := w.abs(file); file == "" || strings.Contains(file, "://") || !ok || !w.inside(p) {
		w.res.add(Dangerous, "`"+chain+"`: creates an environment from packages not named by the project")
	}
}

// globalRemove is npm's rm and its aliases: -g removes a global package.
func globalRemove() *rule {
	return &rule{
		class: Dev,
		why:   "removes a dependency",
		flags: []flag{raise("-g --global --location=global", Dangerous, "changes global packages")},
		check: (*walker).jsGlobal,
	}
}

// bunRules are jsRules with bun run, which runs files too (bun run x.ts).
func bunRules() map[string]*rule {
	r := jsRules()
	run := *r["run"]
	run.check = (*walker).script1
	r["run"] = &run
	return r
}

// runIn is a subcommand that runs a command in the project's environment.
func runIn(what string) *rule {
	return runWith(what, runnerVals, 0)
}

// miseExec is mise exec TOOL@VERSION… -- COMMAND: the tools named are
// fetched first (see miseTools).
func miseExec() *rule {
	r := runIn("the project's tools")
	r.check = (*walker).miseTools
	return r
}

// uvRunRule is uv run: a command of the project's environment, or a
// script given by URL.
func uvRunRule() *rule {
	r := runIn("the project's environment")
	r.check = (*walker).uvRun
	return r
}

// runWith is a subcommand that runs a command in an environment, with
// the options that take a value and the operands before the command
// (rustup run TOOLCHAIN CMD).
func runWith(what, vals string, skip int) *rule {
	return &rule{class: Dev, why: "runs a command with " + what, kind: kindRun, noscope: true, vals: vals, skip: skip}
}

// runnerVals are the project runners' options that take a value (uv run
// --with PKG python …): the value is not the command run.
const runnerVals = "--with --with-editable --with-requirements --python -p --package --extra --group " +
	"--env-file --directory --project --index --default-index --from --gemfile"

// scriptsRun is r for a subcommand that runs the project's lifecycle
// scripts (npm pack runs prepack and prepare): see jsScripts.
func scriptsRun(r *rule) *rule {
	r.check = (*walker).jsScripts
	return r
}

// jsRules are npm, yarn, pnpm and bun subcommands.
func jsRules() map[string]*rule {
	return map[string]*rule{
		"install": {
			class: Dev,
			why:   "installs dependencies into the project",
			flags: []flag{raise("-g --global --location=global", Dangerous, "installs globally")},
			check: (*walker).pkgSource,
		},
		"i": {
			class: Dev,
			why:   "installs dependencies into the project",
			flags: []flag{raise("-g --global", Dangerous, "installs globally")},
			check: (*walker).pkgSource,
		},
		"add": {
			class: Dev,
			why:   "adds a dependency",
			flags: []flag{raise("-g --global", Dangerous, "installs globally")},
			check: (*walker).pkgSource,
		},
		"ci": {class: Dev, why: "installs dependencies into the project", check: (*walker).jsScripts},
		"uninstall": {
			class: Dev,
			why:   "removes a dependency",
			flags: []flag{raise("-g --global", Dangerous, "changes global packages")},
			check: (*walker).jsGlobal,
		},
		"remove": {
			class: Dev,
			why:   "removes a dependency",
			flags: []flag{raise("-g --global", Dangerous, "changes global packages")},
			check: (*walker).jsGlobal,
		},
		"rm": globalRemove(),
		"r":  globalRemove(),
		"un": globalRemove(),
		"update": {
			class: Dev,
			why:   "updates dependencies",
			flags: []flag{raise("-g --global", Dangerous, "changes global packages")},
			check: (*walker).jsGlobal,
		},
		"upgrade": dev("updates dependencies"),
		"test":    {class: Dev, why: buildWhy, check: (*walker).jsScripts},
		"t":       {class: Dev, why: buildWhy, check: (*walker).jsScripts},
		"run": {
			class: Dev,
			why:   "runs a project script",
			check: (*walker).jsScripts,
			bare:  safe("lists the project's scripts"),
			ops: []flag{
				raise("deploy* publish* release*", Dangerous, "runs a deploy or release script"),
				destroys("runs a script whose name says it destroys data"),
			},
		},
		"run-script": {
			class: Dev,
			why:   "runs a project script",
			check: (*walker).jsScripts,
			bare:  safe("lists the project's scripts"),
			ops: []flag{
				raise("deploy* publish* release*", Dangerous, "runs a deploy or release script"),
				destroys("runs a script whose name says it destroys data"),
			},
		},
		"start":     {class: Dev, why: "starts the project", check: (*walker).jsScripts},
		"build":     scriptsRun(dev(buildWhy)),
		"dev":       scriptsRun(dev("starts the project's dev server")),
		"lint":      scriptsRun(dev("lints the project")),
		"exec":      {class: Dev, why: "runs a package's program", check: (*walker).npx, noscope: true},
		"dlx":       {class: Dev, why: "runs a package", check: (*walker).npx, noscope: true},
		"x":         {class: Dev, why: "runs a package", check: (*walker).npx, noscope: true},
		"publish":   scriptsRun(dryRule(dangerous("publishes a package"), "--dry-run")),
		"unpublish": dangerous("removes a published package"),
		"deprecate": dangerous("changes a published package"),
		"dist-tag":  dangerous("changes a published package"),
		"pkg": {
			class: Dev,
			why:   "edits package.json",
			sub: map[string]*rule{
				"get": safe("shows package.json fields"),
				"set": {class: Dev, why: "edits package.json", check: (*walker).jqScript},
			},
			open: true,
		},
		"link":    dangerous("links a package globally"),
		"login":   dangerous("stores credentials"),
		"logout":  dangerous("changes credentials"),
		"adduser": dangerous("stores credentials"),
		"token":   dangerous("handles credentials"),
		"whoami":  dev("queries the registry"),
		"config": {
			class: Dangerous,
			why:   "changes user config",
			sub: map[string]*rule{
				"get": {
					class: Safe,
					why:   "reads config",
					ops: []flag{
						raise("*token* *Token* *auth* *Auth* *password* *_auth*", Dangerous, "prints a credential"),
					},
				},
				"list": safe("reads config, credentials hidden"),
				"ls":   safe("reads config, credentials hidden"),
			},
			open: true,
		},
		"list":     safe("lists installed packages"),
		"ls":       safe("lists installed packages"),
		"outdated": dev("checks the registry for updates"),
		"view":     dev("queries the registry"),
		"info":     dev("queries the registry"),
		"show":     dev("queries the registry"),
		"search":   dev("queries the registry"),
		"why":      safe("explains a dependency"),
		"explain":  safe("explains a dependency"),
		"audit": {
			class: Dev,
			why:   "checks dependencies for advisories",
			sub:   map[string]*rule{"fix": dev("updates vulnerable dependencies")},
			open:  true,
		},
		"init":   {class: Dev, why: "creates package.json", vals: "-w --workspace --scope", check: (*walker).npmInit},
		"create": {class: Dangerous, why: "downloads and runs a project generator", check: (*walker).creates},
		"pack":   scriptsRun(dev("packs the project")),
		"prune":  dev("removes extraneous dependencies"),
		"dedupe": dev("dedupes dependencies"),
		"cache": {
			class: Dev,
			why:   "manages the package cache",
			sub: map[string]*rule{
				"ls":     safe("lists the cache"),
				"list":   safe("lists the cache"),
				"verify": dev("verifies the cache"),
			},
			open: true,
		},
		"version":      {class: Dev, why: "bumps the project version", bare: safe("prints versions")},
		"root":         safe("prints a directory"),
		"prefix":       safe("prints a directory"),
		"bin":          safe("prints a directory"),
		"help":         safe("shows help"),
		"doctor":       dev("checks the setup"),
		"rebuild":      scriptsRun(dev("rebuilds dependencies")),
		"workspace":    dev("runs in a workspace package"),
		"workspaces":   dev("runs in workspace packages"),
		"set":          dangerous("changes settings"),
		"global":       dangerous("changes global packages"),
		"format":       dev("formats the project"),
		"typecheck":    dev(buildWhy),
		"preview":      dev("serves a build preview"),
		"serve":        dev("serves the project"),
		"watch":        dev(buildWhy),
		"coverage":     dev(buildWhy),
		"e2e":          dev(buildWhy),
		"tsc":          dev(buildWhy),
		"check":        dev(buildWhy),
		"install-test": dev(buildWhy),
	}
}

// npxTools are the recognised project tools npx may run; anything else
// may be downloaded and run.
var npxTools = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	m := map[string]bool{
		"tsc":           true,
		"eslint":        true,
		"prettier":      true,
		"jest":          true,
		"vitest":        true,
		"mocha":         true,
		"tsx":           true,
		"ts-node":       true,
		"vite":          true,
		"next":          true,
		"webpack":       true,
		"rollup":        true,
		"esbuild":       true,
		"playwright":    true,
		"cypress":       true,
		"nodemon":       true,
		"stylelint":     true,
		"biome":         true,
		"turbo":         true,
		"nx":            true,
		"lerna":         true,
		"astro":         true,
		"svelte-kit":    true,
		"svelte-check":  true,
		"vue-tsc":       true,
		"tailwindcss":   true,
		"postcss":       true,
		"babel":         true,
		"ava":           true,
		"c8":            true,
		"nyc":           true,
		"prisma":        true,
		"drizzle-kit":   true,
		"knip":          true,
		"depcheck":      true,
		"sequelize":     true,
		"sequelize-cli": true,
		"knex":          true,
		"typeorm":       true,
		"mikro-orm":     true,
		"husky":         true,
		"lint-staged":   true,
		"tap":           true,
		"uvu":           true,
		"storybook":     true,
	}
	// Build, test and code-generation tools a project keeps among its
	// dev dependencies; none publishes or deploys by default.
	for _, t := range strings.Fields("changeset commitlint cz concurrently npm-run-all run-s run-p cross-env " +
		"wait-on start-server-and-test openapi-typescript graphql-codegen gql-gen ng vue-cli-service " +
		"react-scripts nuxt nuxi remix gatsby docusaurus vuepress vitepress karma ts-jest oxlint sass lessc " +
		"tsc-watch tsup unbuild microbundle parcel swc ncc typedoc jsdoc size-limit madge syncpack " +
		"patch-package license-checker markdownlint markdownlint-cli2 cspell secretlint eslint_d jscodeshift " +
		"ts-prune type-coverage attw publint api-extractor rollup-plugin-visualizer expo react-native") {
		m[t] = true
	}
	return m
}}

func pipRules() map[string]*rule {
	return map[string]*rule{
		"install": {
			class: Dev,
			why:   "installs packages into the environment",
			flags: []flag{
				raise("--user", Dangerous, "installs into the user's site-packages"),
				raise("--break-system-packages", Dangerous, "installs into the system Python"),
				raise("--system", Dangerous, "installs into the system Python"),
			},
			check: (*walker).pipInstall,
			dry:   flag{match: "--dry-run", class: Dev, why: dryRunWhy},
		},
		"uninstall": {class: Dev, why: "removes packages from the environment", check: (*walker).pipUninstall},
		"download":  dev("downloads packages"),
		"wheel":     dev("builds wheels"),
		"list":      safe("lists packages"),
		"show":      safe("shows a package"),
		"freeze":    safe("lists packages"),
		"check":     safe("checks dependencies"),
		"help":      safe("shows help"),
		"index":     dev("queries the index"),
		"inspect":   safe("shows the environment"),
		"debug":     safe("shows debug information"),
		"cache": {
			class: Dev,
			why:   "manages the cache",
			sub: map[string]*rule{
				"dir":  safe("prints a directory"),
				"info": safe("shows the cache"),
				"list": safe("lists the cache"),
			},
			open: true,
		},
		"config": {
			class: Dangerous,
			why:   "changes pip config",
			sub: map[string]*rule{
				"list":  safe("reads config"),
				"get":   safe("reads config"),
				"debug": safe("reads config"),
			},
			open: true,
		},
		"search": dev("queries the index"),
	}
}

// pipInstall judges where pip installs and from where: --target, --prefix
// and --root in the workspace (pip install --target ./vendor) are the
// project's own directory of packages; elsewhere, another location.
func (w *walker) pipInstall(chain string, args []arg, io ioInfo) {
	w.pkgSource(chain, args, io)
	for i := 1; i < len(args); i++ {
		flag, v, hasV := strings.Cut(args[i].s, "=")
		if flag != "--target" && flag != "-t" && flag != "--prefix" && flag != "--root" {
			continue
		}
		if !hasV && i+1 < len(args) {
			i++
			v = args[i].s
		}
		if p, ok := w.abs(v); ok && w.inside(p) {
			w.res.add(Dev, "`"+chain+" "+flag+" "+v+"`: installs into a directory of the project")
			continue
		}
		w.res.add(Dangerous, "`"+chain+" "+flag+"`: installs to another location")
	}
}
