package danger

import (
	"strings"
)

// buildCommands is the part of the table (see rules.go) for builds, compilers, test runners,
// linters, formatters, generators and the web frameworks' tasks.
func buildCommands() map[string]*rule {
	return map[string]*rule{
		"go": {class: Dangerous, why: "unknown go command", sub: allNamed(goRules())},
		"make": {
			class: Dev,
			why:   "runs the project's build",
			vals:  "-C -f --file --makefile --directory -j -l -o -W -E --eval -I --include-dir",
			check: (*walker).make,
			flags: []flag{
				set("-q --question -p", Safe, "shows what would run"),
			},
			// make -n install prints the install's commands; what its
			// makefile runs even then ($(shell …), + lines) is judged.
			dry: flag{match: "-n --dry-run --just-print --recon", class: Safe, why: "shows what would run"},
			ops: []flag{
				raise("install uninstall", Dangerous, "installs outside the workspace"),
				raise("deploy* publish* release* upload* push*", Dangerous, "publishes or deploys"),
				destroys("runs a target whose name says it destroys data"),
			},
		},
		"gmake": {
			class: Dev,
			why:   "runs the project's build",
			ops: []flag{
				raise("install uninstall", Dangerous, "installs outside the workspace"),
				raise("deploy* publish* release*", Dangerous, "publishes or deploys"),
			},
		},
		"cmake": {
			class: Dev,
			why:   buildWhy,
			// cmake --install: see (*walker).cmake.
			check: (*walker).cmake,
			ops:   []flag{raise("install", Dangerous, "installs outside the workspace")},
		},
		"ninja": {
			class: Dev,
			why:   buildWhy,
			ops:   []flag{raise("install", Dangerous, "installs outside the workspace")},
		},
		"meson": {
			class: Dev,
			why:   buildWhy,
			ops:   []flag{raise("install", Dangerous, "installs outside the workspace")},
		},
		"bazel":    {class: Dev, why: buildWhy, check: (*walker).bazel},
		"bazelisk": {class: Dev, why: buildWhy, check: (*walker).bazel},
		"just": {
			class: Dev,
			why:   "runs a project recipe",
			check: (*walker).recipeFile,
			flags: []flag{set("--list -l --summary --dump --show -s --variables --groups", Safe,
				"lists or shows the project's recipes")},
			ops: []flag{
				raise("deploy* publish* release* install", Dangerous, "publishes, deploys or installs"),
				destroys("runs a recipe whose name says it destroys data"),
			},
		},
		"task": {
			class: Dev,
			why:   "runs a project task",
			check: (*walker).recipeFile,
			flags: []flag{set("--list -l --list-all -a --summary", Safe, "lists the project's tasks")},
			ops: []flag{
				raise("deploy* publish* release* install", Dangerous, "publishes, deploys or installs"),
				destroys("runs a recipe whose name says it destroys data"),
			},
		},
		"mvn": {
			class: Dev,
			why:   buildWhy,
			ops:   []flag{raise("deploy release:*", Dangerous, "publishes artifacts")},
			check: (*walker).mvn,
		},
		"mvnw": {
			class: Dev,
			why:   buildWhy,
			local: true,
			ops:   []flag{raise("deploy", Dangerous, "publishes artifacts")},
		},
		"gradle": {
			class: Dev,
			why:   buildWhy,
			check: (*walker).gradle,
			ops:   []flag{raise("publish* upload*", Dangerous, "publishes artifacts")},
			flags: gradleFlags(),
		},
		"gradlew": {
			class: Dev,
			why:   buildWhy,
			check: (*walker).gradle,
			local: true,
			ops:   []flag{raise("publish* upload*", Dangerous, "publishes artifacts")},
			flags: gradleFlags(),
		},
		"ant": dev(buildWhy),
		"sbt": {
			class: Dev,
			why:   buildWhy,
			ops:   []flag{raise("publish* release* sonatype*", Dangerous, "publishes artifacts")},
		},
		"lein": {
			class: Dev,
			why:   buildWhy,
			ops:   []flag{raise("deploy release", Dangerous, "publishes artifacts")},
		},
		"dotnet": {
			class: Dev,
			why:   buildWhy,
			ops: []flag{
				raise("nuget", Dangerous, "publishes packages"),
				raise("drop 0", Dangerous, "drops the database or reverts every migration"),
			},
			flags: []flag{raise("-g --global", Dangerous, "installs a tool for the user")},
			check: (*walker).dotnetFile,
			sub: map[string]*rule{
				// user-secrets keeps the project's secrets outside it: list
				// prints their values.
				"user-secrets": {class: Dangerous, why: "prints or changes the project's user secrets",
					sub: map[string]*rule{"init": dev("gives the project a user-secrets id")}},
				"dev-certs": {class: Dev, why: "makes a development certificate",
					flags: []flag{raise("--trust -t", Dangerous, "adds a certificate to the machine's trusted ones"),
						raise("--clean --export-path -ep", Dangerous, "removes certificates or exports the key")}},
			},
			open: true,
		},
		"gcc":     compiler(),
		"g++":     compiler(),
		"cc":      compiler(),
		"c++":     compiler(),
		"clang":   {class: Dev, why: "compiles code", suffixes: true, check: (*walker).compile},
		"clang++": compiler(),
		"rustc":   dev("compiles code"),
		"javac":   dev("compiles code"),
		"java":    {class: Dev, why: "runs Java code", check: (*walker).java},
		"kotlinc": dev("compiles code"),
		"swift": {class: Dev, why: buildWhy,
			flags: []flag{raise("-e", Dangerous, "runs code that cannot be seen into")}},
		"swiftc": dev("compiles code"),
		"zig":    dev(buildWhy),
		"ghc":    dev("compiles code"),
		"stack": {
			class: Dev,
			why:   buildWhy,
			sub: map[string]*rule{"exec": runWith("the project's environment", "--package", 0),
				"install": {class: Dangerous, why: "installs programs for the user", check: (*walker).installsFrom},
				"upload":  dangerous("publishes a package")},
			open: true,
		},
		"cabal": {
			class: Dev,
			why:   buildWhy,
			sub: map[string]*rule{"exec": runWith("the project's environment", "", 0),
				"install": {class: Dangerous, why: "installs programs for the user", check: (*walker).installsFrom},
				"upload":  dangerous("publishes a package")},
			open: true,
		},
		"tsc":      dev("compiles TypeScript"),
		"esbuild":  dev(buildWhy),
		"vite":     dev(buildWhy),
		"webpack":  dev(buildWhy),
		"uvicorn":  dev("runs the project's server"),
		"gunicorn": dev("runs the project's server"),
		"air":      dev("runs the project with live reload"),
		"nodemon":  {class: Dev, why: "runs the project with live reload", check: (*walker).nodemon},
		"ts-node":  {class: Dev, why: "runs the project's code", check: (*walker).script1},
		"tsx":      {class: Dev, why: "runs the project's code", check: (*walker).script1},
		"next":     dev(buildWhy),
		"nuxt":     dev(buildWhy),
		"ng":       dev(buildWhy),
		"turbo":    dev(buildWhy),
		"nx":       dev(buildWhy),
		"lerna": {
			class: Dev,
			why:   buildWhy,
			ops:   []flag{raise("publish version", Dangerous, "publishes packages")},
		},
		"storybook": dev(buildWhy),
		"gofumpt": {
			class: Safe,
			why:   "prints formatted code",
			flags: []flag{raise("-w", Dev, "rewrites files")},
			check: (*walker).inplace,
		},
		"ctest": dev(buildWhy),
		"cloc":  safe("counts lines of code"),
		"tokei": safe("counts lines of code"),
		"scc":   safe("counts lines of code"),
		"valgrind": {
			class:   Dev,
			why:     "runs a program under a checker",
			kind:    kindWrap,
			vals:    "--log-file --tool",
			noscope: true,
		},
		"hyperfine": {
			class: Dev,
			why:   "benchmarks commands",
			check: (*walker).hyperfine,
			vals: "-w --warmup -r --runs -m --min-runs -M --max-runs -p --prepare -c --cleanup " +
				"--export-json --export-markdown --export-csv -n --command-name -P --parameter-scan " +
				"-L --parameter-list -S --shell",
			noscope: true,
		},
		"pytest":   dev(buildWhy),
		"py.test":  dev(buildWhy),
		"tox":      dev(buildWhy),
		"nox":      dev(buildWhy),
		"coverage": dev(buildWhy),
		"unittest": dev(buildWhy),
		"jest":     dev(buildWhy),
		"vitest":   dev(buildWhy),
		"mocha":    dev(buildWhy),
		"playwright": {class: Dev, why: buildWhy,
			// The browsers' system libraries come from the system's
			// package manager, with sudo.
			flags: []flag{raise("--with-deps", Dangerous, "installs system packages with sudo")},
			ops:   []flag{raise("install-deps", Dangerous, "installs system packages with sudo")}},
		"cypress": dev(buildWhy),
		"eslint":  dev("lints the project"),
		"prettier": {
			class: Dev,
			why:   "formats the project",
			flags: []flag{set("--check -c --list-different -l", Safe, "checks formatting")},
		},
		"black": {
			class: Dev,
			why:   "formats the project",
			flags: []flag{set("--check --diff", Safe, "checks formatting")},
		},
		"isort": {
			class: Dev,
			why:   "formats imports",
			flags: []flag{set("--check --check-only --diff -c", Safe, "checks imports")},
		},
		"ruff": {
			class: Dev,
			why:   "lints the project",
			sub: map[string]*rule{
				"check": {class: Dev, why: "lints the project"},
				"format": {
					class: Dev,
					why:   "formats the project",
					flags: []flag{set("--check --diff", Safe, "checks formatting")},
				},
			},
			open: true,
		},
		"flake8":     dev("lints the project"),
		"pylint":     dev("lints the project"),
		"mypy":       dev("type-checks the project"),
		"pyright":    dev("type-checks the project"),
		"shellcheck": safe("lints shell scripts"),
		"shfmt": {
			class: Safe,
			why:   "prints formatted scripts",
			flags: []flag{raise("-w --write", Dev, "rewrites files")},
			check: (*walker).inplace,
		},
		"golangci-lint": dev("lints the project"),
		"staticcheck":   dev("lints the project"),
		"govulncheck":   dev("checks for vulnerabilities"),
		"gopls":         dev("analyses code"),
		"rustfmt":       dev("formats code"),
		"clippy-driver": dev("lints code"),
		"clang-format": {
			class: Safe,
			why:   "prints formatted code",
			flags: []flag{raise("-i", Dev, "rewrites files")},
			check: (*walker).inplace,
		},
		"hadolint":     safe("lints a Dockerfile"),
		"yamllint":     safe("lints YAML"),
		"markdownlint": safe("lints Markdown"),
		"actionlint":   safe("lints workflows"),
		"pre-commit": {
			class: Dev,
			why:   "runs the project's hooks",
			sub: map[string]*rule{"try-repo": {class: Dev, why: "runs a repository's hooks on the project",
				check: (*walker).tryRepo}},
			open: true,
			ops:  []flag{raise("install uninstall", Dev, "changes git hooks")},
		},
		"protoc": dev("generates code"),
		"buf":    dev("generates or lints code"),
		"sqlc":   dev("generates code"),
		"swag":   dev("generates docs"),
		"hugo":   dev(buildWhy),
		"jekyll": dev(buildWhy),
		"mkdocs": {
			class: Dev,
			why:   buildWhy,
			ops:   []flag{raise("gh-deploy", Dangerous, "publishes the site")},
		},
		"cargo": {class: Dangerous, why: "unknown cargo command", sub: allNamed(cargoRules()), alone: "--list -V"},
		"rustup": {
			class: Dev,
			why:   "manages toolchains",
			sub: map[string]*rule{
				"show":  safe("shows toolchains"),
				"which": safe("finds a tool"),
				"target": {class: Dev, why: "manages targets",
					sub: map[string]*rule{"list": safe("lists targets")}, open: true},
				"component": {class: Dev, why: "manages components",
					sub: map[string]*rule{"list": safe("lists components")}, open: true},
				"update": dev("updates toolchains"),
				// Every project without an override uses the default, as
				// pyenv global and nvm alias default change.
				"default": {class: Dangerous, why: "changes the default toolchain of every project",
					bare: safe("shows the default toolchain")},
				"toolchain": {class: Dev, why: "manages toolchains",
					sub: map[string]*rule{"list": safe("lists toolchains")}, open: true},
				"override": dev("sets a project toolchain"),
				"run":      runWith("a toolchain", "", 1),
				"doc":      safe("shows documentation"),
				"self":     dangerous("changes rustup itself"),
			},
		},
		"rake":      {class: Dev, why: "runs a project task", local: true, ops: railsTasks()},
		"rails":     {class: Dev, why: "runs a Rails task", local: true, ops: railsTasks(), check: (*walker).rails},
		"manage.py": djangoRule(),
		"console": {
			class: Dev,
			why:   "runs a Symfony command",
			local: true,
			ops: []flag{
				raise("doctrine:database:drop doctrine:schema:drop doctrine:fixtures:load doctrine:query:sql",
					Dangerous, "drops, purges or changes the database"),
			},
		},
		"setup.py": {
			class: Dev,
			why:   "builds the Python package",
			local: true,
			ops: []flag{
				raise("install develop", Dangerous, "installs outside the workspace"),
				raise("upload register", Dangerous, "publishes the package"),
			},
		},
		"django-admin": djangoRule(),
		"alembic": {
			class: Dev,
			why:   "migrates the project database",
			ops:   []flag{raise("downgrade", Dangerous, "rolls back migrations, which may drop data")},
			// --sql: offline mode prints the statements, runs none.
			dry: flag{match: "--sql", class: Dev, why: "prints the migration's statements, runs none"},
		},
		"flask": {
			class: Dev,
			why:   "runs a Flask command",
			sub: map[string]*rule{
				"db": {
					class: Dev,
					why:   "migrates the project database",
					ops:   []flag{raise("downgrade", Dangerous, "rolls back migrations, which may drop data")},
				},
				"shell": dangerous("opens an interactive Python session"),
			},
			open: true,
		},
		"mix": {
			class: Dev,
			why:   buildWhy,
			flags: []flag{raise("-e --eval", Dangerous, "runs Elixir code that cannot be seen into")},
			ops: []flag{
				raise("ecto.drop ecto.reset ecto.rollback", Dangerous, "drops, resets or rolls back the database"),
				raise("hex.publish", Dangerous, "publishes a package"),
				raise("archive.install escript.install local.hex local.rebar local.phx", Dangerous,
					"installs for the user, outside the project"),
			},
		},
		"artisan": {
			class: Dev,
			why:   "runs a Laravel command",
			local: true,
			ops: []flag{
				raise("migrate:fresh migrate:refresh migrate:reset migrate:rollback db:wipe", Dangerous,
					"drops, resets or rolls back the database"),
				raise("tinker db", Dangerous, "opens an interactive session"),
			},
		},
		"prisma": {
			class: Dev,
			why:   "runs a Prisma command",
			sub: map[string]*rule{
				"migrate": {
					class: Dev,
					why:   "migrates the project database",
					sub: map[string]*rule{
						"reset":  dangerous("drops the database and applies every migration again"),
						"status": safe("shows migrations"),
						"diff":   safe("shows a migration"),
					},
					open: true,
				},
				"db": {
					class: Dev,
					why:   "changes the project database",
					sub: map[string]*rule{
						"push": {
							class: Dev,
							why:   "changes the schema",
							flags: []flag{
								raise("--force-reset --accept-data-loss", Dangerous, "drops data to change the schema"),
							},
						},
						"execute": dangerous("runs statements on the database"),
					},
					open: true,
				},
				"validate": safe("checks the schema"),
				"version":  safe("prints the version"),
			},
			open: true,
		},
		"sequelize":     sequelizeRule(),
		"sequelize-cli": sequelizeRule(),
		"knex": {
			class: Dev,
			why:   "migrates the project database",
			ops: []flag{
				raise("migrate:rollback migrate:down", Dangerous, "rolls back migrations, which may drop data"),
			},
		},
		"typeorm": {
			class: Dev,
			why:   "migrates the project database",
			ops: []flag{
				raise("schema:drop schema:sync migration:revert query", Dangerous, "drops or changes data"),
			},
		},
		"drizzle-kit": {
			class: Dev,
			why:   "migrates the project database",
			sub: map[string]*rule{
				"drop": dangerous("drops a migration"),
				"push": {
					class: Dev,
					why:   "changes the schema",
					flags: []flag{raise("--force", Dangerous, "drops data")},
				},
			},
			open: true,
		},
		"mikro-orm": {
			class: Dev,
			why:   "migrates the project database",
			ops: []flag{
				raise("schema:drop schema:fresh migration:fresh migration:down", Dangerous, "drops or resets data"),
			},
		},
	}
}

// railsTasks are the Rails and rake tasks that drop, reset or empty a
// database, print secrets or open a session.
func railsTasks() []flag {
	return []flag{
		raise("db:drop* db:reset db:schema:load db:structure:load db:migrate:reset db:purge* db:setup "+
			"db:truncate_all db:fixtures:load db:seed:replant", Dangerous, "drops, resets or empties a database"),
		raise("db:rollback db:migrate:down db:migrate:redo", Dangerous, "rolls back migrations, which may drop data"),
		raise("credentials:show secret secrets:show", Dangerous, "prints secrets"),
		raise("console c dbconsole db credentials:edit", Dangerous, "opens an interactive session"),
		raise("deploy* release* publish*", Dangerous, "publishes or deploys"),
	}
}

// djangoRule is manage.py and django-admin.
func djangoRule() *rule {
	return &rule{
		class: Dev,
		why:   "runs a Django command",
		local: true,
		check: (*walker).django,
		ops: []flag{
			// The users' password hashes, sessions and API tokens.
			raise("auth auth.user auth.User sessions authtoken authtoken.token oauth2_provider socialaccount",
				Dangerous, "dumps password hashes, sessions or tokens"),
			raise("flush reset_db reset_schema drop_test_database", Dangerous, "drops or empties a database"),
			raise("zero", Dangerous, "unapplies every migration"),
		},
	}
}

// sequelizeRule is sequelize and sequelize-cli.
func sequelizeRule() *rule {
	return &rule{
		class: Dev,
		why:   "migrates the project database",
		ops: []flag{
			raise("db:drop db:migrate:undo* db:seed:undo*", Dangerous, "drops data or rolls back migrations"),
		},
	}
}

// goExec are go flags that run a program of the caller's choice.
func goExec() []flag {
	return []flag{raise("-exec -toolexec -vettool", Dangerous, "runs a program of its choice")}
}

func goRules() map[string]*rule {
	return map[string]*rule{
		"build":    {class: Dev, why: buildWhy, flags: goExec(), check: (*walker).outflag},
		"test":     {class: Dev, why: buildWhy, flags: goExec(), check: (*walker).outflag},
		"vet":      {class: Dev, why: "checks the code", flags: goExec()},
		"fmt":      dev("formats the code"),
		"generate": dev("runs the project's generators"),
		"run": {
			class: Dev,
			why:   "runs the project's code",
			flags: goExec(),
			ops:   []flag{raise("*@*", Blocked, "downloads a module from the network and runs it")},
			check: (*walker).goRun,
		},
		"mod": {
			class: Dev,
			why:   "manages dependencies",
			sub: map[string]*rule{
				"graph":  safe("shows the module graph"),
				"why":    safe("explains a dependency"),
				"verify": dev("verifies the module cache"),
				"edit": {
					class: Dev,
					why:   "edits go.mod",
					flags: []flag{set("-json -print", Safe, "prints go.mod")},
					check: (*walker).goReplace,
				},
			},
			open: true,
		},
		"get":  dev("fetches dependencies"),
		"list": {class: Safe, why: "lists packages", flags: goExec()},
		"doc":  safe("shows documentation"),
		"env": {
			class: Safe,
			why:   "shows Go settings",
			flags: []flag{raise("-w -u", Dangerous, "changes Go's global settings")},
		},
		"version": safe("prints the version"),
		"help":    safe("shows help"),
		"clean": {
			class: Dev,
			why:   "removes build output and caches",
			flags: []flag{set("-n", Safe, "shows what would be removed")},
		},
		"install": {class: Dev, why: "builds and installs programs", check: (*walker).goInstall},
		"work":    dev("edits go.work"),
		"tool": {
			class: Dev,
			why:   "runs a Go tool",
			sub: map[string]*rule{
				"nm":        safe("lists a binary's symbols"),
				"objdump":   safe("disassembles a binary"),
				"addr2line": safe("maps addresses to lines"),
				"buildid":   safe("shows a binary's build id"),
				"doc":       safe("shows documentation"),
				// A report of a profile file, or a web UI (-http).
				"pprof": {class: Dev, why: "reads a profile",
					flags: []flag{set("-top -text -list -traces -peek -tree -raw", Safe, "prints a profile report")}},
				"cover": {class: Safe, why: "reports coverage", check: (*walker).outflag},
			},
			open: true, // a tool of the go.mod tool directive: the project's
		},
		"bug": dangerous("opens a browser"),
		"fix": dev("rewrites code"),
		"telemetry": {
			class: Dev,
			why:   "changes telemetry settings",
			bare:  safe("shows telemetry settings"),
		},
	}
}

func cargoRules() map[string]*rule {
	return map[string]*rule{
		"build":  {class: Dev, why: buildWhy, check: (*walker).cargoConfig},
		"b":      {class: Dev, why: buildWhy, check: (*walker).cargoConfig},
		"test":   {class: Dev, why: buildWhy, check: (*walker).cargoConfig},
		"t":      {class: Dev, why: buildWhy, check: (*walker).cargoConfig},
		"check":  {class: Dev, why: buildWhy, check: (*walker).cargoConfig},
		"c":      {class: Dev, why: buildWhy, check: (*walker).cargoConfig},
		"clippy": dev("lints the project"),
		"fmt": {
			class: Dev,
			why:   "formats the code",
			flags: []flag{set("--check", Safe, "checks formatting")},
		},
		"run":      {class: Dev, why: "runs the project's code", check: (*walker).cargoConfig},
		"r":        {class: Dev, why: "runs the project's code", check: (*walker).cargoConfig},
		"bench":    {class: Dev, why: buildWhy, check: (*walker).cargoConfig},
		"doc":      dev("builds documentation"),
		"new":      dev("creates a crate"),
		"init":     dev("creates a crate"),
		"add":      {class: Dev, why: "adds a dependency", check: (*walker).gitDependency},
		"remove":   dev("removes a dependency"),
		"update":   dev("updates dependencies"),
		"fetch":    dev("fetches dependencies"),
		"clean":    dev("removes build output"),
		"tree":     safe("shows the dependency tree"),
		"metadata": safe("prints metadata"),
		"search":   dev("queries the registry"),
		"version":  safe("prints the version"),
		"publish":  dryRule(dangerous("publishes a crate"), "--dry-run -n"),
		"generate": {class: Dev, why: "renders a project template", check: (*walker).template},
		"yank":     dangerous("yanks a published crate"),
		"install": {class: Dangerous, why: "installs a program outside the workspace",
			check: (*walker).installsFrom},
		"uninstall":         dangerous("removes an installed program"),
		"login":             dangerous("stores credentials"),
		"logout":            dangerous("changes credentials"),
		"owner":             dangerous("changes crate owners"),
		"vendor":            dev("vendors dependencies"),
		"generate-lockfile": dev("writes Cargo.lock"),
		"package":           dev("packages the crate"),
		"nextest":           dev(buildWhy),
		"audit":             dev("checks dependencies for advisories"),
		"expand":            dev(buildWhy),
		"llvm-cov":          dev(buildWhy),
		"tarpaulin":         dev(buildWhy),
		"help":              safe("shows help"),
		"verify-project":    safe("checks the manifest"),
		"fix":               dev("applies the compiler's suggested fixes to the project"),
		"watch":             {class: Dev, why: "reruns cargo commands when files change", check: (*walker).cargoWatch},
		"deny":              dev("checks the project's dependencies"),
		"outdated":          dev("checks the registry for updates"),
		"udeps":             dev("finds unused dependencies"),
		"machete":           dev("finds unused dependencies"),
		"insta":             dev("reviews test snapshots"),
		"bloat":             dev("measures the binary"),
		"flamegraph":        dev("profiles the project's binary"),
		"miri":              dev("tests the project under an interpreter"),
		"fuzz":              dev("fuzzes the project"),
		"semver-checks":     dev("checks the project's API"),
		"hack":              dev(buildWhy),
		"make":              dev("runs the project's tasks"),
		"release":           dangerous("publishes a release"),
		"info":              dev("queries the registry"),
	}
}

// cargoWatch judges the cargo commands -x runs and the shell commands -s
// runs on every change.
func (w *walker) cargoWatch(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		name, v, hasV := strings.Cut(args[i].s, "=")
		switch name {
		case "-x", "--exec", "-s", "--shell":
			if !hasV && i+1 < len(args) {
				i++
				v = args[i].s
			}
			if name == "-x" || name == "--exec" {
				v = "cargo " + v
			}
			w.nested(v, input{})
		}
	}
}

// compiler writes its -o output, which must stay in the workspace.
func compiler() *rule {
	return &rule{class: Dev, why: "compiles code", check: (*walker).compile}
}

// compile judges a C compiler's output file, and the options that make it
// run a program or load code named on the line (gcc -wrapper sh,-c,…; a
// plugin; tools from another directory with -B; a linker by path).
func (w *walker) compile(chain string, args []arg, io ioInfo) {
	w.outflag(chain, args, io)
	runs := func(s string) bool {
		for _, p := range []string{"-B", "--ld-path=", "-fplugin=", "-fpass-plugin=", "-specs=", "--specs="} {
			if strings.HasPrefix(s, p) {
				return true
			}
		}
		return s == "-wrapper" || strings.HasPrefix(s, "-fuse-ld=") && strings.Contains(s, "/")
	}
	for _, a := range args[1:] {
		if runs(a.s) {
			w.res.add(Dangerous, "`"+chain+" "+a.text+"`: has the compiler run a program or load a plugin it names")
		}
	}
}

// goInstall judges go install PKG@VERSION: a module from its repository,
// built and put on PATH, as go run PKG@VERSION runs one (a command later
// in the string may be that program).
func (w *walker) goInstall(chain string, args []arg, io ioInfo) {
	local := true
	for _, i := range scan(&rule{vals: "-o -C -p -tags -ldflags -gcflags -mod -modfile"}, args) {
		mod, _, versioned := strings.Cut(args[i].s, "@")
		if first, _, _ := strings.Cut(mod, "/"); versioned && strings.Contains(first, ".") {
			w.shared.urlInstall = true
		}
		local = local && !versioned && (strings.HasPrefix(mod, "./") || mod == ".")
	}
	// GOBIN in the project (GOBIN=$PWD/bin go install ./cmd/...): the
	// project's programs built into its own directory, a build.
	if bin, ok := w.envValue("GOBIN"); ok && local {
		if p, ok := w.abs(bin); ok && w.inside(p) {
			w.res.add(Dev, "`"+chain+"`: builds the project's programs into `"+bin+"`, in the workspace")
			return
		}
	}
	w.res.add(Dangerous, "`"+chain+"`: installs a program outside the workspace")
}
