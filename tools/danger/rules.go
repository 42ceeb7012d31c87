package danger

import "github.com/qsh-shell/qsh/tools/danger/lazy"

// This file is the classifier's knowledge: which forms of which commands
// are read-only, dev work or dangerous. Extend it here; the code in
// judge.go and checks.go reads it.
//
// A rule gives a command (or one of its subcommands) a class and the reason
// the user reads. Flags and operands can raise that class (or, with set,
// replace it); sub holds subcommands; bare applies when there are no
// operands; write says which operands are files the command writes (judged
// by path: workspace, outside, raw disk …); check names code in checks.go
// for what a table cannot say (rm's targets, curl's host, find -exec …).

// kind says how a command runs other commands.
type kind uint8

const (
	kindPlain  kind = iota
	kindWrap        // runs the rest of its arguments as a command: sudo, env, timeout …
	kindShell       // runs shell code from -c, a script file or its input: bash, sh …
	kindInterp      // runs code from -c/-e, a script file or its input: python, node …
	kindEval        // runs its arguments joined as shell code: eval
	// kindRun runs the rest of its arguments as a command of the project's
	// environment: bundle exec, poetry run. An unknown command is the
	// project's own tool.
	kindRun
)

// writeMode says which operands a command writes.
type writeMode uint8

const (
	writeNone  writeMode = iota
	writeAll             // every operand (touch, mkdir, tee)
	writeLast            // the destination (cp, ln, install)
	writeFirst           // the archive (zip)
)

type rule struct {
	class Class
	why   string
	kind  kind
	// vals are flags whose value is the next argument, so it is not taken
	// for an operand or subcommand ("-C -c" for git).
	vals  string
	code  string // shells and interpreters: flags whose value is code
	skip  int    // wrappers: operands before the command (timeout's duration)
	joins bool   // wrappers: the command is the arguments joined as shell code (watch)
	// assigns: wrappers skip NAME=value operands (env).
	assigns bool
	sub     map[string]*rule
	open    bool // an operand not in sub is an ordinary operand, not an unknown subcommand
	bare    *rule
	bareMax int // bare also applies with up to this many operands (git config KEY)
	flags   []flag
	ops     []flag
	write   writeMode
	check   check
	// suffixes: the rule also applies to name.x and versioned names
	// (mkfs.ext4, python3.12).
	suffixes bool
	// noscope: an approval never covers this command by name alone.
	noscope bool
	// progs are flags whose value is a command line the program runs
	// (zip -TT, sort --compress-program): judged for what is worse than
	// dangerous.
	progs string
	// local: the rule also applies to the project's own copy of the
	// program (./gradlew, bin/rails, python manage.py, php artisan).
	local bool
}

// flag matches arguments: for flags, `-f` (also inside `-xdf`) and
// `--force` (also `--force=x`); for operands, exact words or patterns.
type flag struct {
	match string
	class Class
	why   string
	set   bool // replaces the rule's class instead of raising it
}

func safe(why string) *rule      { return &rule{class: Safe, why: why} }
func dev(why string) *rule       { return &rule{class: Dev, why: why} }
func dangerous(why string) *rule { return &rule{class: Dangerous, why: why} }
func blocked(why string) *rule   { return &rule{class: Blocked, why: why} }

func raise(match string, c Class, why string) flag { return flag{match: match, class: c, why: why} }
func set(match string, c Class, why string) flag {
	return flag{match: match, class: c, why: why, set: true}
}

// Reasons reused across the table.
const (
	readOnly   = "only reads"
	remoteRead = "reads remote state through a recognised CLI"
	remoteEdit = "changes remote state"
	buildWhy   = "builds or tests the project"
)

func gitRules() map[string]*rule {
	return map[string]*rule{
		"status": safe("shows the working tree state"),
		"log": {
			class: Safe,
			why:   "shows history",
			check: (*walker).outflag,
			flags: []flag{raise("--ext-diff", Dangerous, "runs an external diff program")},
		},
		"diff": {
			class: Safe,
			why:   "shows changes",
			check: (*walker).outflag,
			flags: []flag{raise("--ext-diff", Dangerous, "runs an external diff program")},
		},
		"show": {
			class: Safe,
			why:   "shows an object",
			check: (*walker).outflag,
			flags: []flag{raise("--ext-diff", Dangerous, "runs an external diff program")},
		},
		"blame":     safe("shows who changed each line"),
		"annotate":  safe("shows who changed each line"),
		"ls-files":  safe("lists tracked files"),
		"ls-tree":   safe("lists a tree"),
		"ls-remote": remoteRule("lists refs of a remote"),
		"rev-parse": safe("resolves names"),
		"rev-list":  safe("lists commits"),
		"describe":  safe("names a commit"),
		"shortlog":  safe("summarises history"),
		"grep": {
			class: Safe,
			why:   "searches tracked files",
			progs: "-O --open-files-in-pager",
			flags: []flag{raise("-O --open-files-in-pager", Dangerous, "runs a pager program")},
		},
		"cat-file":     safe("shows an object"),
		"show-ref":     safe("lists refs"),
		"for-each-ref": safe("lists refs"),
		"merge-base":   safe("finds a common ancestor"),
		"name-rev":     safe("names a commit"),
		"reflog": {
			class: Safe,
			why:   "shows the reflog",
			sub: map[string]*rule{
				"show":   safe("shows the reflog"),
				"expire": dangerous("drops reflog entries, making lost commits unrecoverable"),
				"delete": dangerous("drops reflog entries"),
			},
			open: true,
		},
		"whatchanged":   safe("shows history"),
		"count-objects": safe("counts objects"),
		"check-ignore":  safe("checks ignore rules"),
		"var":           safe("shows a git variable"),
		"version":       safe("prints the version"),
		"help":          safe("shows help"),
		"range-diff":    safe("compares commit ranges"),
		"cherry":        safe("lists unmerged commits"),
		"fsck":          safe("checks the repository"),
		"verify-commit": safe("checks a signature"),
		"config": {
			class: Safe,
			why:   "reads or changes the repository's config",
			vals:  "--file -f --type --default --blob --comment",
			check: (*walker).gitConfig,
		},

		"add": {
			class: Dev,
			why:   "stages changes",
			flags: []flag{set("-n --dry-run", Safe, "shows what would be staged")},
		},
		"commit": dev("records a commit"),
		"checkout": {
			class: Dev,
			why:   "switches branches",
			flags: []flag{
				raise("-f --force", Dangerous, "throws away local changes"),
				raise("--", Dangerous, "throws away local changes to files"),
				set("-b -B", Dev, "creates a branch"),
			},
			ops: []flag{raise(". :/ \\*", Dangerous, "throws away local changes")},
		},
		"switch": {
			class: Dev,
			why:   "switches branches",
			flags: []flag{raise("-f --force --discard-changes", Dangerous, "throws away local changes")},
		},
		"restore": {
			class: Dangerous,
			why:   "throws away local changes",
			flags: []flag{set("--staged -S", Dev, "unstages changes")},
			ops:   []flag{raise(". :/ \\*", Dangerous, "throws away local changes in the whole tree")},
		},
		"branch": {
			class: Dev,
			why:   "creates or changes a branch",
			bare:  safe("lists branches"),
			flags: []flag{
				set(
					"--list -l -a -r -v -vv --show-current --contains --merged --no-merged --all "+
						"--remotes --verbose",
					Safe,
					"lists branches",
				),
				raise("-D", Dangerous, "deletes a branch even if unmerged"),
				raise("-f --force", Dangerous, "overwrites a branch"),
				raise("-M -C", Dangerous, "overwrites a branch"),
			},
		},
		"tag": {
			class: Dev,
			why:   "creates or deletes a tag",
			bare:  safe("lists tags"),
			flags: []flag{
				set("-l --list -n --contains --points-at --merged", Safe, "lists tags"),
				raise("-f --force", Dangerous, "moves an existing tag"),
			},
		},
		"stash": {
			class: Dev,
			why:   "stashes changes",
			sub: map[string]*rule{
				"list":   safe("lists stashes"),
				"show":   safe("shows a stash"),
				"pop":    dev("applies a stash"),
				"apply":  dev("applies a stash"),
				"push":   dev("stashes changes"),
				"save":   dev("stashes changes"),
				"branch": dev("makes a branch from a stash"),
				"create": dev("creates a stash"),
				"store":  dev("stores a stash"),
				"drop":   dangerous("deletes a stash"),
				"clear":  dangerous("deletes every stash"),
			},
			open: true,
		},
		"merge": {
			class: Dev,
			why:   "merges a branch",
			flags: []flag{set("--abort", Dev, "aborts a merge")},
		},
		"rebase": {
			class: Dev,
			why:   "rebases the branch",
			flags: []flag{
				raise("-i --interactive", Dangerous, "interactive rebase needs an editor"),
				raise("--exec -x", Dangerous, "runs commands for each commit"),
			},
			progs: "-x --exec",
		},
		"cherry-pick": dev("applies commits"),
		"revert":      dev("reverts a commit"),
		"reset": {
			class: Dev,
			why:   "moves HEAD, keeping changes",
			flags: []flag{
				raise("--hard", Dangerous, "throws away local changes"),
				raise("--merge --keep", Dangerous, "may throw away local changes"),
			},
		},
		"clean": {
			class: Dangerous,
			why:   "deletes untracked files",
			flags: []flag{set("-n --dry-run", Safe, "lists what would be deleted")},
			check: (*walker).gitClean,
		},
		"rm": {
			class: Dev,
			why:   "removes files from the index and tree",
			flags: []flag{
				set("-n --dry-run", Safe, "shows what would be removed"),
				set("--cached", Dev, "untracks files"),
			},
			check: (*walker).gitRm,
		},
		"mv":   dev("renames tracked files"),
		"init": dev("creates a repository"),
		"clone": {
			class: Dev,
			why:   "fetches a repository",
			progs: "-u --upload-pack",
			vals: "-b --branch -o --origin --depth -c --config --reference --template -j --jobs -u --upload-pack " +
				"--separate-git-dir --shallow-since --shallow-exclude --filter --server-option",
			check: (*walker).gitClone,
			ops:   remoteRule("").ops,
			flags: []flag{
				raise("-u --upload-pack --template", Dangerous, "runs a program or installs hooks of its choice"),
			},
		},
		"fetch": remoteRule("fetches from a remote"),
		"pull": {
			class: Dev,
			why:   "fetches and merges from a remote",
			flags: []flag{raise("-f --force", Dangerous, "overwrites local refs")},
			ops:   remoteRule("").ops,
			check: (*walker).gitExt,
		},
		"push": {
			class: Dev,
			why:   "pushes the branch",
			vals:  "-o --push-option --repo --receive-pack --exec",
			check: (*walker).gitPush,
			flags: []flag{
				raise(
					"-f --force --force-with-lease --force-if-includes",
					Dangerous,
					"rewrites the remote branch's history",
				),
				raise("--mirror --prune", Dangerous, "overwrites or deletes remote refs"),
				raise("-d --delete", Dangerous, "deletes a remote branch"),
				raise("--all --tags", Dangerous, "pushes every branch or tag"),
				raise("--receive-pack --exec", Dangerous, "runs a program on the remote"),
				set("-n --dry-run", Dev, "shows what would be pushed"),
			},
			ops: []flag{
				raise("+*", Dangerous, "force-pushes a ref"),
				raise(":*", Dangerous, "deletes a remote branch"),
				raise(
					"main master trunk release* production prod",
					Dangerous,
					"pushes to a shared branch",
				),
			},
		},
		"remote": {
			class: Dev,
			why:   "changes remotes",
			bare:  safe("lists remotes"),
			flags: []flag{set("-v --verbose", Safe, "lists remotes")},
			sub: map[string]*rule{
				"show":     dev("queries a remote"),
				"get-url":  safe("shows a remote's URL"),
				"add":      remoteSet("adds a remote"),
				"remove":   dev("removes a remote"),
				"rm":       dev("removes a remote"),
				"rename":   dev("renames a remote"),
				"set-url":  remoteSet("changes a remote's URL"),
				"prune":    dev("prunes stale refs"),
				"update":   dev("fetches remotes"),
				"set-head": dev("sets the remote HEAD"),
			},
			open: true,
		},
		"submodule": {
			class: Dev,
			why:   "manages submodules",
			bare:  safe("lists submodules"),
			sub: map[string]*rule{
				"status":  safe("lists submodules"),
				"foreach": {class: Dev, why: "runs a command in each submodule", kind: kindEval},
				"deinit": {
					class: Dev,
					why:   "unregisters a submodule",
					flags: []flag{
						raise("-f --force --all", Dangerous, "removes submodule trees, local changes with them"),
					},
				},
				"add": remoteRule("adds a submodule"),
			},
			open: true,
		},
		"worktree": {
			class: Dev,
			why:   "manages worktrees",
			sub: map[string]*rule{
				"list": safe("lists worktrees"),
				"add": {
					class: Dev,
					why:   "adds a worktree",
					vals:  "-b -B --reason",
					check: (*walker).gitWorktreeAdd,
				},
				"remove": {
					class: Dev,
					why:   "removes a worktree",
					flags: []flag{raise("-f --force", Dangerous, "removes a worktree with changes")},
				},
			},
			open: true,
		},
		"bisect": {
			class: Dev,
			why:   "bisects history",
			sub: map[string]*rule{
				"run": {class: Dev, why: "runs a command at each step", kind: kindWrap},
			},
			open: true,
		},
		"am": {class: Dev, why: "applies patches", check: (*walker).gitApply},
		"apply": {
			class: Dev,
			why:   "applies a patch",
			check: (*walker).gitApply,
			flags: []flag{
				set("--check --stat --numstat --summary", Safe, "checks a patch"),
				raise("--unsafe-paths", Dangerous, "may patch files outside the repository"),
			},
		},
		"format-patch":    {class: Dev, why: "writes patch files", check: (*walker).outflag},
		"notes":           dev("edits notes"),
		"sparse-checkout": dev("changes the sparse checkout"),
		"lfs": {
			class: Dev,
			why:   "manages large files",
			sub: map[string]*rule{
				"ls-files": safe("lists large files"),
				"status":   safe("shows large-file state"),
			},
			open: true,
		},
		"gc": {
			class: Dev,
			why:   "compacts the repository",
			flags: []flag{
				raise("--prune=now --prune=all", Dangerous, "deletes unreachable commits for good"),
			},
		},
		"prune": dangerous("deletes unreachable objects"),
		"filter-branch": {
			class: Dangerous,
			why:   "rewrites history",
			progs: "--env-filter --tree-filter --index-filter --parent-filter --msg-filter --commit-filter " +
				"--tag-name-filter",
		},
		"send-pack":    {class: Dangerous, why: "pushes objects", progs: "--receive-pack --exec"},
		"fetch-pack":   {class: Dev, why: "fetches objects", progs: "--upload-pack --exec"},
		"filter-repo":  dangerous("rewrites history"),
		"replace":      dangerous("replaces objects"),
		"update-ref":   dangerous("moves a ref directly"),
		"symbolic-ref": safe("shows a symbolic ref"),
		"archive": {
			class: Dev,
			why:   "writes an archive",
			check: (*walker).outflag,
			flags: []flag{raise("--remote --exec", Dangerous, "runs a program or reaches a remote")},
			progs: "--exec",
		},
		"bundle":      dev("writes a bundle"),
		"maintenance": dev("runs maintenance tasks"),
		"send-email":  dangerous("sends email"),
		"daemon":      dangerous("serves the repository on the network"),
		"instaweb":    {class: Dangerous, why: "starts a web server", progs: "--httpd -d --browser -b"},
		"credential":  dangerous("handles credentials"),
		"hash-object": safe("hashes a file"),
		"mergetool":   dangerous("runs a merge tool"),
		"difftool":    {class: Dangerous, why: "runs a diff tool", progs: "-x --extcmd"},
	}
}

// globalRemove is npm's rm and its aliases: -g removes a global package.
func globalRemove() *rule {
	return &rule{
		class: Dev,
		why:   "removes a dependency",
		flags: []flag{raise("-g --global --location=global", Dangerous, "changes global packages")},
	}
}

// destroyNames are script and target names that say they destroy data.
const destroyNames = "*drop* *reset* *destroy* *purge* *wipe* *truncate* *nuke* *teardown* *flush*"

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
	return &rule{class: Dev, why: "runs a command with " + what, kind: kindRun, noscope: true, vals: runnerVals}
}

// runnerVals are the project runners' options that take a value (uv run
// --with PKG python …): the value is not the command run.
const runnerVals = "--with --with-editable --with-requirements --python -p --package --extra --group " +
	"--env-file --directory --project --index --default-index --from --gemfile"

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

// remoteRule is a git command that reaches a remote: the ext:: and fd::
// transports run a command instead (git-remote-ext(1)).
func remoteRule(why string) *rule {
	return &rule{
		class: Dev,
		why:   why,
		ops:   []flag{raise("ext::* fd::*", Dangerous, "a transport that runs a command")},
		flags: []flag{raise("--upload-pack -u", Dangerous, "runs a program of its choice")},
		progs: "--upload-pack -u",
		check: (*walker).gitExt,
	}
}

// perfRun is perf record, stat and trace, which run the command given
// after their options.
func perfRun() *rule {
	return &rule{
		class: Dangerous,
		why:   "profiles a command",
		kind:  kindWrap,
		vals: "-e --event -o --output -p --pid -t --tid -F --freq -c --count -C --cpu -m --mmap-pages " +
			"-u --uid -G --cgroup --call-graph -r --repeat -x --field-separator -I --interval-print",
		noscope: true,
	}
}

// remoteSet is git remote add and set-url: a later push to the remote
// goes where the string chose.
func remoteSet(why string) *rule {
	r := remoteRule(why)
	r.vals = "-t -m --track --master"
	r.check = (*walker).gitRemoteSet
	return r
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
			ops:   []flag{raise("*@*", Dangerous, "downloads and runs a module from the network")},
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
		"install": dangerous("installs a program outside the workspace"),
		"work":    dev("edits go.work"),
		"tool":    dev("runs a Go tool"),
		"bug":     dangerous("opens a browser"),
		"fix":     dev("rewrites code"),
		"telemetry": {
			class: Dev,
			why:   "changes telemetry settings",
			bare:  safe("shows telemetry settings"),
		},
	}
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
		"ci": dev("installs dependencies into the project"),
		"uninstall": {
			class: Dev,
			why:   "removes a dependency",
			flags: []flag{raise("-g --global", Dangerous, "changes global packages")},
		},
		"remove": {
			class: Dev,
			why:   "removes a dependency",
			flags: []flag{raise("-g --global", Dangerous, "changes global packages")},
		},
		"rm": globalRemove(),
		"r":  globalRemove(),
		"un": globalRemove(),
		"update": {
			class: Dev,
			why:   "updates dependencies",
			flags: []flag{raise("-g --global", Dangerous, "changes global packages")},
		},
		"upgrade": dev("updates dependencies"),
		"test":    dev(buildWhy),
		"t":       dev(buildWhy),
		"run": {
			class: Dev,
			why:   "runs a project script",
			ops: []flag{
				raise("deploy* publish* release*", Dangerous, "runs a deploy or release script"),
				raise(destroyNames, Dangerous, "runs a script whose name says it destroys data"),
			},
		},
		"run-script": {
			class: Dev,
			why:   "runs a project script",
			ops: []flag{
				raise("deploy* publish* release*", Dangerous, "runs a deploy or release script"),
				raise(destroyNames, Dangerous, "runs a script whose name says it destroys data"),
			},
		},
		"start":     dev("starts the project"),
		"build":     dev(buildWhy),
		"dev":       dev("starts the project's dev server"),
		"lint":      dev("lints the project"),
		"exec":      dangerous("runs a package's program"),
		"dlx":       {class: Dangerous, why: "downloads and runs a package", check: (*walker).npx},
		"x":         dangerous("downloads and runs a package"),
		"publish":   dangerous("publishes a package"),
		"unpublish": dangerous("removes a published package"),
		"deprecate": dangerous("changes a published package"),
		"dist-tag":  dangerous("changes a published package"),
		"link":      dangerous("links a package globally"),
		"login":     dangerous("stores credentials"),
		"logout":    dangerous("changes credentials"),
		"adduser":   dangerous("stores credentials"),
		"token":     dangerous("handles credentials"),
		"whoami":    dev("queries the registry"),
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
		"create": dangerous("downloads and runs a project generator"),
		"pack":   dev("packs the project"),
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
		"rebuild":      dev("rebuilds dependencies"),
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
	return map[string]bool{
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
}}

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
		"run":               {class: Dev, why: "runs the project's code", check: (*walker).cargoConfig},
		"r":                 {class: Dev, why: "runs the project's code", check: (*walker).cargoConfig},
		"bench":             {class: Dev, why: buildWhy, check: (*walker).cargoConfig},
		"doc":               dev("builds documentation"),
		"new":               dev("creates a crate"),
		"init":              dev("creates a crate"),
		"add":               dev("adds a dependency"),
		"remove":            dev("removes a dependency"),
		"update":            dev("updates dependencies"),
		"fetch":             dev("fetches dependencies"),
		"clean":             dev("removes build output"),
		"tree":              safe("shows the dependency tree"),
		"metadata":          safe("prints metadata"),
		"search":            dev("queries the registry"),
		"version":           safe("prints the version"),
		"publish":           dangerous("publishes a crate"),
		"yank":              dangerous("yanks a published crate"),
		"install":           dangerous("installs a program outside the workspace"),
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
	}
}

func pipRules() map[string]*rule {
	return map[string]*rule{
		"install": {
			class: Dev,
			why:   "installs packages into the environment",
			flags: []flag{
				raise("--user", Dangerous, "installs into the user's site-packages"),
				raise("--break-system-packages", Dangerous, "installs into the system Python"),
				raise("--target -t --prefix --root", Dangerous, "installs to another location"),
			},
			check: (*walker).pkgSource,
		},
		"uninstall": dev("removes packages from the environment"),
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

func dockerRules() map[string]*rule {
	return map[string]*rule{
		"ps":     safe("lists containers"),
		"images": safe("lists images"),
		"logs":   safe("shows container logs"),
		"inspect": {
			class: Safe,
			why:   "shows an object",
			ops: []flag{
				raise(
					"*Env* *env*",
					Dangerous,
					"shows environment variables, which may include secrets",
				),
			},
		},
		"version": safe("prints versions"),
		"info":    safe("shows the daemon state"),
		"top":     safe("lists container processes"),
		"stats":   safe("shows container usage"),
		"port":    safe("shows ports"),
		"diff":    safe("shows container changes"),
		"history": safe("shows image history"),
		"events":  safe("shows events"),
		"search":  dev("queries the registry"),
		"build":   dev("builds an image"),
		"run": {
			class: Dev,
			why:   "runs a local container",
			check: (*walker).dockerRun,
			vals: "-v --volume -e --env --name -p --publish -w --workdir --mount --network " +
				"--entrypoint -u --user --env-file --platform -l --label --cpus -m --memory " +
				"--hostname --add-host --cap-add --device --pid --ipc --restart --gpus --shm-size " +
				"--tmpfs --ulimit --security-opt --log-driver --log-opt --cidfile --dns --expose " +
				"--health-cmd --link --runtime",
		},
		"create":  {class: Dev, why: "creates a local container", check: (*walker).dockerRun},
		"pull":    dev("downloads an image"),
		"push":    dangerous("publishes an image"),
		"tag":     dev("tags an image"),
		"start":   dev("starts a container"),
		"stop":    dev("stops a container"),
		"restart": dev("restarts a container"),
		"exec":    dangerous("runs a command inside a container"),
		"cp":      dangerous("copies files into or out of a container"),
		"rm":      dangerous("deletes containers"),
		"rmi":     dangerous("deletes images"),
		"kill":    dangerous("kills containers"),
		"login":   dangerous("stores registry credentials"),
		"logout":  dangerous("changes registry credentials"),
		"save":    dev("writes an image archive"),
		"load":    dev("loads an image"),
		"commit":  dev("makes an image from a container"),
		"attach":  dangerous("attaches to a container"),
		"network": {
			class: Dangerous,
			why:   "changes networks",
			sub: map[string]*rule{
				"ls":      safe("lists networks"),
				"inspect": safe("shows a network"),
				"create":  dev("creates a network"),
			},
			open: true,
		},
		"volume": {
			class: Dangerous,
			why:   "changes volumes",
			sub: map[string]*rule{
				"ls":      safe("lists volumes"),
				"inspect": safe("shows a volume"),
				"create":  dev("creates a volume"),
			},
			open: true,
		},
		"system": {
			class: Dangerous,
			why:   "changes the docker system",
			sub:   map[string]*rule{"df": safe("shows disk use"), "info": safe("shows the daemon state")},
			open:  true,
		},
		"image": {
			class: Dev,
			why:   "manages images",
			sub: map[string]*rule{
				"ls":      safe("lists images"),
				"inspect": safe("shows an image"),
				"history": safe("shows image history"),
				"build":   dev("builds an image"),
				"rm":      dangerous("deletes images"),
				"prune":   dangerous("deletes images"),
				"push":    dangerous("publishes an image"),
			},
			open: true,
		},
		"container": {
			class: Dev,
			why:   "manages containers",
			sub: map[string]*rule{
				"ls":      safe("lists containers"),
				"inspect": safe("shows a container"),
				"logs":    safe("shows logs"),
				"rm":      dangerous("deletes containers"),
				"prune":   dangerous("deletes containers"),
			},
			open: true,
		},
		"buildx": {
			class: Dev,
			why:   "builds images",
			flags: []flag{raise("--push", Dangerous, "publishes an image")},
		},
		"context": {
			class: Dangerous,
			why:   "changes the docker context",
			sub: map[string]*rule{
				"ls":      safe("lists contexts"),
				"show":    safe("shows the context"),
				"inspect": safe("shows a context"),
			},
			open: true,
		},
		"compose": {
			class: Dev,
			why:   "runs the project's containers",
			vals:  "-f --file -p --project-name --profile --env-file",
			sub: map[string]*rule{
				"up": dev("starts the project's containers"),
				"down": {
					class: Dev,
					why:   "stops the project's containers",
					flags: []flag{
						raise("-v --volumes", Dangerous, "deletes the project's volumes"),
						raise("--rmi", Dangerous, "deletes images"),
					},
				},
				"build": dev("builds the project's images"),
				"ps":    safe("lists the project's containers"),
				"logs":  safe("shows container logs"),
				"config": {
					class: Dangerous,
					why:   "prints the resolved config, with values from .env that may be secrets",
					flags: []flag{
						set(
							"-q --quiet --services --volumes --profiles --images",
							Safe,
							"checks or lists the config",
						),
					},
				},
				"images":  safe("lists images"),
				"top":     safe("lists processes"),
				"pull":    dev("downloads images"),
				"start":   dev("starts containers"),
				"stop":    dev("stops containers"),
				"restart": dev("restarts containers"),
				"run":     {class: Dev, why: "runs a one-off project container", check: (*walker).dockerRun},
				"exec":    dangerous("runs a command inside a container"),
				"rm":      dangerous("deletes containers"),
				"kill":    dangerous("kills containers"),
				"push":    dangerous("publishes images"),
				"version": safe("prints the version"),
				"ls":      safe("lists projects"),
				"port":    safe("shows ports"),
				"watch":   dev("rebuilds on change"),
			},
		},
	}
}

func kubectlRules() map[string]*rule {
	return map[string]*rule{
		"get": {
			class: Dev,
			why:   remoteRead,
			ops:   []flag{raise("secret secrets secret/* secrets/*", Dangerous, "shows secrets")},
		},
		"describe": {
			class: Dev,
			why:   remoteRead,
			ops:   []flag{raise("secret secrets secret/* secrets/*", Dangerous, "shows secrets")},
		},
		"logs":          dev(remoteRead),
		"top":           dev(remoteRead),
		"explain":       safe("shows documentation"),
		"api-resources": dev(remoteRead),
		"api-versions":  dev(remoteRead),
		"version":       dev(remoteRead),
		"cluster-info":  dev(remoteRead),
		"diff":          dev("compares manifests with the cluster"),
		"events":        dev(remoteRead),
		"auth": {
			class: Dev,
			why:   remoteRead,
			sub:   map[string]*rule{"can-i": dev(remoteRead), "whoami": dev(remoteRead)},
		},
		"config": {
			class: Dangerous,
			why:   "changes kubeconfig",
			sub: map[string]*rule{
				"view": {
					class: Dev,
					why:   "shows kubeconfig, credentials redacted",
					flags: []flag{raise("--raw --flatten", Dangerous, "prints the cluster credentials")},
				},
				"get-contexts":    safe("lists contexts"),
				"current-context": safe("shows the context"),
				"get-clusters":    safe("lists clusters"),
			},
			open: true,
		},
		"rollout": {
			class: Dangerous,
			why:   remoteEdit,
			sub:   map[string]*rule{"status": dev(remoteRead), "history": dev(remoteRead)},
			open:  true,
		},
		"apply": {
			class: Dangerous,
			why:   "changes the cluster",
			flags: []flag{
				set("--dry-run --dry-run=client --dry-run=server", Dev, "validates without changing"),
			},
		},
		"delete":       dangerous("deletes cluster resources"),
		"create":       dangerous("changes the cluster"),
		"replace":      dangerous("changes the cluster"),
		"patch":        dangerous("changes the cluster"),
		"edit":         dangerous("changes the cluster"),
		"scale":        dangerous("changes the cluster"),
		"autoscale":    dangerous("changes the cluster"),
		"set":          dangerous("changes the cluster"),
		"label":        dangerous("changes the cluster"),
		"annotate":     dangerous("changes the cluster"),
		"expose":       dangerous("changes the cluster"),
		"run":          dangerous("starts a pod"),
		"exec":         dangerous("runs a command in a pod"),
		"cp":           dangerous("copies files to or from a pod"),
		"port-forward": dev("forwards a local port"),
		"proxy":        dev("starts a local proxy"),
		"drain":        dangerous("evicts pods from a node"),
		"cordon":       dangerous("changes a node"),
		"uncordon":     dangerous("changes a node"),
		"taint":        dangerous("changes a node"),
		"attach":       dangerous("attaches to a pod"),
		"debug":        dangerous("starts a debug pod"),
		"kustomize":    safe("renders manifests"),
		"plugin":       dev("lists plugins"),
		"wait":         dev(remoteRead),
		"certificate":  dangerous("approves certificates"),
	}
}

func terraformRules() map[string]*rule {
	return map[string]*rule{
		"plan":     dev("plans changes without applying them"),
		"validate": dev("validates the configuration"),
		"fmt": {
			class: Dev,
			why:   "formats the configuration",
			flags: []flag{set("-check -diff", Safe, "checks formatting")},
		},
		"init": dev("downloads providers and modules"),
		"show": {
			class: Dev,
			why:   remoteRead,
			flags: []flag{raise("-json", Dangerous, "shows sensitive values in plain text")},
		},
		"output": {
			class: Dev,
			why:   "shows outputs",
			flags: []flag{raise("-json -raw", Dangerous, "shows sensitive values in plain text")},
		},
		"providers":    safe("lists providers"),
		"graph":        safe("prints the graph"),
		"version":      safe("prints the version"),
		"console":      dangerous("opens a console"),
		"get":          dev("downloads modules"),
		"apply":        dangerous("applies infrastructure changes"),
		"destroy":      dangerous("destroys infrastructure"),
		"import":       dangerous("changes the state"),
		"taint":        dangerous("changes the state"),
		"untaint":      dangerous("changes the state"),
		"refresh":      dangerous("changes the state"),
		"force-unlock": dangerous("breaks a state lock"),
		"login":        dangerous("stores credentials"),
		"logout":       dangerous("changes credentials"),
		"workspace": {
			class: Dangerous,
			why:   "changes workspaces",
			sub: map[string]*rule{
				"list":   safe("lists workspaces"),
				"show":   safe("shows the workspace"),
				"select": dev("selects a workspace"),
				"new":    dev("creates a workspace"),
			},
			open: true,
		},
		"state": {
			class: Dangerous,
			why:   "changes the state",
			sub: map[string]*rule{
				"list": dev(remoteRead),
				"show": dev(remoteRead),
				"pull": dev(remoteRead),
			},
			open: true,
		},
		"test": dev(buildWhy),
	}
}

func helmRules() map[string]*rule {
	return map[string]*rule{
		"list":   dev(remoteRead),
		"ls":     dev(remoteRead),
		"status": dev(remoteRead),
		"get": {
			class: Dev,
			why:   remoteRead,
			sub: map[string]*rule{
				"values":   dangerous("prints a release's values, which often hold secrets"),
				"manifest": dangerous("prints a release's manifests, Secrets among them"),
				"all":      dangerous("prints a release's values and manifests, which hold secrets"),
			},
			open: true,
		},
		"history":    dev(remoteRead),
		"template":   dev("renders charts"),
		"lint":       dev("lints a chart"),
		"show":       dev("shows a chart"),
		"search":     dev("searches charts"),
		"version":    safe("prints the version"),
		"dependency": dev("manages chart dependencies"),
		"package":    dev("packages a chart"),
		"pull":       dev("downloads a chart"),
		"repo": {
			class: Dev,
			why:   "manages chart repositories",
			sub:   map[string]*rule{"list": safe("lists repositories")},
			open:  true,
		},
		"diff":   dev("compares releases"),
		"env":    safe("shows settings"),
		"verify": dev("verifies a chart"),
		"install": {
			class: Dangerous,
			why:   "installs a release",
			flags: []flag{set("--dry-run", Dev, "renders without installing")},
		},
		"upgrade": {
			class: Dangerous,
			why:   "upgrades a release",
			flags: []flag{set("--dry-run", Dev, "renders without upgrading")},
		},
		"uninstall": dangerous("removes a release"),
		"delete":    dangerous("removes a release"),
		"rollback":  dangerous("rolls back a release"),
		"push":      dangerous("publishes a chart"),
		"plugin":    dangerous("manages plugins"),
		"registry":  dangerous("handles registry credentials"),
		"test":      dangerous("runs release tests in the cluster"),
	}
}

func ghRules() map[string]*rule {
	return map[string]*rule{
		"pr": {
			class: Dangerous,
			why:   remoteEdit,
			sub: map[string]*rule{
				"list":     dev(remoteRead),
				"view":     dev(remoteRead),
				"status":   dev(remoteRead),
				"diff":     dev(remoteRead),
				"checks":   dev(remoteRead),
				"checkout": dev("checks out a pull request"),
				"create":   dangerous("opens a pull request"),
				"merge":    dangerous("merges a pull request"),
				"close":    dangerous("closes a pull request"),
				"comment":  dangerous("comments on a pull request"),
				"edit":     dangerous("edits a pull request"),
				"review":   dangerous("reviews a pull request"),
				"reopen":   dangerous("reopens a pull request"),
				"ready":    dangerous("changes a pull request"),
			},
		},
		"issue": {
			class: Dangerous,
			why:   remoteEdit,
			sub: map[string]*rule{
				"list":    dev(remoteRead),
				"view":    dev(remoteRead),
				"status":  dev(remoteRead),
				"create":  dangerous("opens an issue"),
				"close":   dangerous("closes an issue"),
				"comment": dangerous("comments on an issue"),
				"edit":    dangerous("edits an issue"),
				"delete":  dangerous("deletes an issue"),
				"reopen":  dangerous("reopens an issue"),
			},
		},
		"release": {
			class: Dangerous,
			why:   remoteEdit,
			sub: map[string]*rule{
				"list":     dev(remoteRead),
				"view":     dev(remoteRead),
				"download": dev("downloads release assets"),
				"create":   dangerous("publishes a release"),
				"delete":   dangerous("deletes a release"),
				"upload":   dangerous("uploads release assets"),
				"edit":     dangerous("edits a release"),
			},
		},
		"repo": {
			class: Dangerous,
			why:   remoteEdit,
			sub: map[string]*rule{
				"view":    dev(remoteRead),
				"list":    dev(remoteRead),
				"clone":   dev("fetches a repository"),
				"create":  dangerous("creates a repository"),
				"delete":  dangerous("deletes a repository"),
				"fork":    dangerous("forks a repository"),
				"edit":    dangerous("changes a repository"),
				"rename":  dangerous("renames a repository"),
				"archive": dangerous("archives a repository"),
				"sync":    dangerous("changes a repository"),
			},
		},
		"run": {
			class: Dangerous,
			why:   remoteEdit,
			sub: map[string]*rule{
				"list":     dev(remoteRead),
				"view":     dev(remoteRead),
				"watch":    dev(remoteRead),
				"download": dev("downloads artifacts"),
				"rerun":    dangerous("re-runs a workflow"),
				"cancel":   dangerous("cancels a workflow run"),
				"delete":   dangerous("deletes a workflow run"),
			},
		},
		"workflow": {
			class: Dangerous,
			why:   remoteEdit,
			sub: map[string]*rule{
				"list": dev(remoteRead),
				"view": dev(remoteRead),
				"run":  dangerous("starts a workflow"),
			},
		},
		"auth": {
			class: Dangerous,
			why:   "handles credentials",
			sub: map[string]*rule{
				"status": {
					class: Dev,
					why:   "shows the login state",
					flags: []flag{
						raise("-t --show-token", Dangerous, "prints the access token, a secret"),
					},
				},
				"token":  dangerous("prints the access token, a secret"),
				"login":  dangerous("stores credentials"),
				"logout": dangerous("changes credentials"),
			},
		},
		"api": {
			class: Dev,
			why:   remoteRead,
			vals: "-X --method -H --header -F --field -f --raw-field --jq -q --template -t --input " +
				"-p --preview --hostname --cache",
			flags: []flag{
				raise("-X --method", Dangerous, "may change remote state"),
				raise(
					"-F --field -f --raw-field --input",
					Dangerous,
					"sends data that may change remote state",
				),
			},
		},
		"search": dev(remoteRead),
		"status": dev(remoteRead),
		"browse": dangerous("opens a browser"),
		"secret": {
			class: Dangerous,
			why:   "handles secrets",
			sub:   map[string]*rule{"list": dev(remoteRead)},
		},
		"variable": {class: Dangerous, why: remoteEdit, sub: map[string]*rule{"list": dev(remoteRead)}},
		"gist": {
			class: Dangerous,
			why:   "publishes a gist",
			sub:   map[string]*rule{"list": dev(remoteRead), "view": dev(remoteRead)},
		},
		"label": {class: Dangerous, why: remoteEdit, sub: map[string]*rule{"list": dev(remoteRead)}},
		"cache": {class: Dangerous, why: remoteEdit, sub: map[string]*rule{"list": dev(remoteRead)}},
		"extension": {
			class: Dangerous,
			why:   "installs extensions",
			sub:   map[string]*rule{"list": safe("lists extensions")},
		},
		"config": {
			class: Dangerous,
			why:   "changes gh config",
			sub:   map[string]*rule{"get": safe("reads config"), "list": safe("reads config")},
		},
		"version": safe("prints the version"),
		"help":    safe("shows help"),
	}
}

func systemctlRules() map[string]*rule {
	return map[string]*rule{
		"status":            safe("shows a service"),
		"is-active":         safe("shows a service"),
		"is-enabled":        safe("shows a service"),
		"is-failed":         safe("shows a service"),
		"list-units":        safe("lists services"),
		"list-unit-files":   safe("lists services"),
		"list-timers":       safe("lists timers"),
		"show":              safe("shows a service"),
		"cat":               safe("shows a unit file"),
		"list-dependencies": safe("lists dependencies"),
		"get-default":       safe("shows the default target"),
		"list-sockets":      safe("lists sockets"),
		"list-jobs":         safe("lists jobs"),
		"list-machines":     safe("lists machines"),
		"list-paths":        safe("lists paths"),
		"show-environment":  safe("shows the manager's environment"),
		"help":              safe("shows a unit's documentation"),
	}
}

// jqRule: jq only prints, but its program can print the environment.
func jqRule() *rule {
	return &rule{
		class: Safe,
		why:   "filters JSON",
		vals:  "--arg --argjson --slurpfile --rawfile -f --from-file --indent",
		ops: []flag{
			raise(
				"env $ENV *$ENV* env.* *|env* *(env* *env|* *env)*",
				Dangerous,
				"prints environment variables, which may include secrets",
			),
		},
	}
}

// vimRule: an editor on project files, unless told to run commands.
func vimRule() *rule {
	return &rule{
		class: Dev,
		why:   "edits files",
		vals:  "-c --cmd -S -u -i -T -w -W -U -r -t -q",
		check: (*walker).vim,
		flags: []flag{raise("-e -es -Es -E", Dangerous, "runs editor commands from its input")},
	}
}

// compiler writes its -o output, which must stay in the workspace.
func compiler() *rule {
	return &rule{class: Dev, why: "compiles code", check: (*walker).outflag}
}

// commands is the table: every command the classifier recognises. It is
// built on first use (see package lazy); init only names its builder, which the
// checks the table refers to lead back to.
var commands lazy.Value[map[string]*rule]

func init() { commands.Build = commandTable }

func commandTable() map[string]*rule {
	return map[string]*rule{
		// Reading files and text.
		"ls":   safe("lists files"),
		"dir":  safe("lists files"),
		"vdir": safe("lists files"),
		"exa":  safe("lists files"),
		"eza":  safe("lists files"),
		"lsd":  safe("lists files"),
		"cat":  safe(readOnly),
		"tac":  safe(readOnly),
		"head": safe(readOnly),
		"tail": safe(readOnly),
		"less": {
			class: Safe,
			why:   readOnly,
			vals:  "-o -O -k -b -h -j -p -P -t -T -x -y -z -#",
			check: (*walker).less,
		},
		"more":    safe(readOnly),
		"bat":     safe(readOnly),
		"batcat":  safe(readOnly),
		"wc":      safe("counts"),
		"nl":      safe(readOnly),
		"od":      safe(readOnly),
		"xxd":     {class: Safe, why: readOnly, check: (*walker).second, vals: "-c -g -l -s -o -n -C"},
		"hexdump": safe(readOnly),
		"strings": safe(readOnly),
		"file":    safe("identifies files"),
		"stat":    safe("shows file metadata"),
		"du":      safe("shows disk use"),
		"df":      safe("shows disk space"),
		"tree":    {class: Safe, why: "lists files", check: (*walker).outflag},
		"grep":    safe("searches"),
		"egrep":   safe("searches"),
		"fgrep":   safe("searches"),
		"zgrep":   safe("searches"),
		"ag": {
			class: Safe,
			why:   "searches",
			flags: []flag{raise("--pager", Dangerous, "runs a pager program")},
		},
		"ack": {
			class: Safe,
			why:   "searches",
			flags: []flag{raise("--pager", Dangerous, "runs a pager program")},
		},
		"rg": {
			class: Safe,
			why:   "searches",
			flags: []flag{raise("--pre", Dangerous, "runs a preprocessor program on each file")},
		},
		"sort": {
			class: Safe,
			why:   "sorts",
			flags: []flag{
				raise("-o --output", Dev, "writes its output to a file"),
				raise("--compress-program", Dangerous, "runs a program of its choice"),
			},
			progs: "--compress-program",
			check: (*walker).sortOut,
		},
		"uniq": {
			class: Safe,
			why:   "filters lines",
			check: (*walker).second,
			vals:  "-f -s -w --skip-fields --skip-chars --check-chars",
		},
		"cut":       safe("cuts fields"),
		"paste":     safe("joins lines"),
		"join":      safe("joins files"),
		"comm":      safe("compares files"),
		"tr":        safe("translates characters"),
		"fold":      safe("wraps lines"),
		"fmt":       safe("formats text"),
		"column":    safe("formats columns"),
		"expand":    safe("converts tabs"),
		"unexpand":  safe("converts tabs"),
		"rev":       safe("reverses lines"),
		"shuf":      {class: Safe, why: "shuffles lines", check: (*walker).outflag},
		"seq":       safe("prints numbers"),
		"diff":      safe("compares files"),
		"cmp":       safe("compares files"),
		"sdiff":     {class: Safe, why: "compares files", check: (*walker).outflag},
		"colordiff": safe("compares files"),
		"diff3":     safe("compares files"),
		"look":      safe("searches"),
		"md5sum":    safe("hashes"),
		"sha1sum":   safe("hashes"),
		"sha256sum": safe("hashes"),
		"sha512sum": safe("hashes"),
		"b2sum":     safe("hashes"),
		"cksum":     safe("hashes"),
		"shasum":    safe("hashes"),
		"md5":       safe("hashes"),
		"base64":    safe("encodes"),
		"base32":    safe("encodes"),
		"iconv":     {class: Safe, why: "converts encodings", check: (*walker).outflag},
		"zcat":      safe(readOnly),
		"bzcat":     safe(readOnly),
		"xzcat":     safe(readOnly),
		"zless":     safe(readOnly),
		"jq":        jqRule(),
		"gojq":      jqRule(),
		"yq": {
			class: Safe,
			why:   "filters YAML",
			ops: []flag{
				raise(
					"*env(* *strenv(*",
					Dangerous,
					"reads environment variables, which may include secrets",
				),
			},
			flags: []flag{raise("-i --inplace", Dev, "edits files in place")},
			check: (*walker).inplace,
		},
		"xmllint": {class: Safe, why: "checks XML", check: (*walker).outflag},
		"csvlook": safe(readOnly),
		"tldr":    safe("shows help"),
		"man": {
			class: Safe,
			why:   "shows a manual",
			check: (*walker).pager,
			flags: []flag{raise("-P --pager -H --html", Dangerous, "runs a program of its choice")},
		},
		"info":     {class: Safe, why: "shows a manual", check: (*walker).outflag},
		"help":     safe("shows help"),
		"realpath": safe("resolves paths"),
		"readlink": safe("resolves links"),
		"basename": safe("prints a name"),
		"dirname":  safe("prints a name"),
		"pwd":      safe("prints the directory"),
		"locate":   safe("searches the file index"),
		"whereis":  safe("finds programs"),
		"which":    safe("finds programs"),
		"type":     safe("describes commands"),
		"hash": {
			class: Safe,
			why:   "shows the command cache",
			flags: []flag{raise("-p", Dangerous, "points a command name at another program")},
		},
		"echo":     safe("prints text"),
		"printf":   {class: Safe, why: "prints text", check: (*walker).printfVar},
		"complete": {class: Safe, why: "sets how a command's arguments complete", check: (*walker).complete},
		"compgen":  {class: Safe, why: "lists completions", check: (*walker).complete},
		"compopt":  safe("sets completion options"),
		"true":     safe("does nothing"),
		"false":    safe("does nothing"),
		":":        safe("does nothing"),
		"test":     {class: Safe, why: "tests a condition", check: (*walker).testVar},
		"[":        {class: Safe, why: "tests a condition", check: (*walker).testVar},
		"sleep":    safe("waits"),
		"wait":     safe("waits"),
		"yes":      safe("prints text"),
		"date": {
			class: Safe,
			why:   "prints the date",
			flags: []flag{raise("-s --set", Dangerous, "sets the system clock")},
		},
		"cal":       safe("prints a calendar"),
		"expr":      safe("computes"),
		"bc":        safe("computes"),
		"dc":        dangerous("runs a calculator program, which can run shell commands"),
		"factor":    safe("computes"),
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
			flags: []flag{raise("-c -d -w -a", Dev, "changes the history")},
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
		"source":  {class: Dev, why: "runs a file in this shell", check: (*walker).source},
		".":       {class: Dev, why: "runs a file in this shell", check: (*walker).source},
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
			flags:   []flag{set("-l -v -k -K --list --validate", Dangerous, "uses root privileges")},
		},
		"doas":   {class: Dangerous, why: "runs as root", kind: kindWrap, vals: "-u -C", noscope: true},
		"pkexec": {class: Dangerous, why: "runs as root", kind: kindWrap, vals: "--user", noscope: true},
		"su":     {class: Dangerous, why: "runs as another user", check: (*walker).su, noscope: true},
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
			class:   Safe,
			why:     "runs a command repeatedly",
			kind:    kindWrap,
			joins:   true,
			vals:    "-n --interval -d --differences -q --equexit",
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
		"find": {class: Safe, why: "lists files", check: (*walker).find, noscope: true},
		"fd":   {class: Safe, why: "lists files", check: (*walker).fd, noscope: true},
		// Shells and interpreters: what they run is judged by its code.
		"bash": {
			class:    Safe,
			why:      "runs shell code",
			kind:     kindShell,
			code:     "-c",
			suffixes: true,
			noscope:  true,
		},
		"sh":   {class: Safe, why: "runs shell code", kind: kindShell, code: "-c", noscope: true},
		"zsh":  {class: Safe, why: "runs shell code", kind: kindShell, code: "-c", noscope: true},
		"dash": {class: Safe, why: "runs shell code", kind: kindShell, code: "-c", noscope: true},
		"ksh":  {class: Safe, why: "runs shell code", kind: kindShell, code: "-c", noscope: true},
		"fish": {class: Safe, why: "runs shell code", kind: kindShell, code: "-c", noscope: true},
		"qsh":  {class: Safe, why: "runs shell code", kind: kindShell, code: "-c", noscope: true},
		"gosh": {class: Safe, why: "runs shell code", kind: kindShell, code: "-c", noscope: true},
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
				"eval":    {class: Dangerous, why: "runs inline code", check: (*walker).deno},
				"task":    dev("runs a project task"),
				"run":     {class: Dev, why: "runs the project's code", check: (*walker).deno},
				"serve":   {class: Dev, why: "serves the project's code", check: (*walker).deno},
				"test":    dev(buildWhy),
				"fmt":     dev("formats the code"),
				"lint":    dev("lints the code"),
				"check":   dev(buildWhy),
				"install": dangerous("installs a program outside the workspace"),
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
		"Rscript":   {class: Safe, why: "runs R", kind: kindInterp, code: "-e", noscope: true},
		"awk":       {class: Safe, why: "processes text", check: (*walker).awk, noscope: true},
		"gawk":      {class: Safe, why: "processes text", check: (*walker).awk, noscope: true},
		"mawk":      {class: Safe, why: "processes text", check: (*walker).awk, noscope: true},
		"nawk":      {class: Safe, why: "processes text", check: (*walker).awk, noscope: true},
		"sed":       {class: Safe, why: "edits a stream", check: (*walker).sed, noscope: true},
		"gsed":      {class: Safe, why: "edits a stream", check: (*walker).sed, noscope: true},
		"osascript": dangerous("runs AppleScript"),
		"tclsh":     dangerous("runs Tcl"),
		// Changing files.
		"touch": {class: Dev, why: "creates or touches files", write: writeAll},
		"mkdir": {class: Dev, why: "creates directories", write: writeAll},
		"rmdir": {class: Dev, why: "removes empty directories", write: writeAll},
		"cp": {
			class: Dev,
			why:   "copies files",
			check: (*walker).copies,
			write: writeLast,
			vals:  "-t --target-directory -S --suffix",
			ops:   []flag{raise("/dev/null", Dangerous, "truncates the destination")},
		},
		"mv": {
			class: Dev,
			why:   "moves files",
			write: writeAll,
			check: (*walker).mv,
			vals:  "-t --target-directory -S --suffix",
			ops:   []flag{raise("/dev/null", Dangerous, "throws the file away")},
		},
		"ln": {
			class: Dev,
			why:   "creates a link",
			write: writeLast,
			check: (*walker).ln,
			vals:  "-t --target-directory -S --suffix",
		},
		"install": {
			class: Dev,
			why:   "installs files",
			check: (*walker).copies,
			write: writeLast,
			vals:  "-m --mode -o --owner -g --group -t --target-directory -S",
		},
		"tee":    {class: Safe, why: "copies its input", write: writeAll, check: (*walker).tee},
		"chmod":  {class: Dev, why: "changes permissions", check: (*walker).chmod},
		"chown":  {class: Dev, why: "changes owners", check: (*walker).chmod},
		"chgrp":  {class: Dev, why: "changes groups", check: (*walker).chmod},
		"rm":     {class: Safe, why: "deletes files", check: (*walker).rm, noscope: true},
		"unlink": {class: Safe, why: "deletes a file", check: (*walker).rm, noscope: true},
		"shred":  {class: Dangerous, why: "destroys file contents", write: writeAll},
		"truncate": {
			class: Dangerous,
			why:   "truncates files",
			write: writeAll,
			vals:  "-s --size -r --reference",
		},
		"dd": {class: Safe, why: "copies data", check: (*walker).dd, noscope: true},
		"patch": {
			class: Dev,
			why:   "patches files",
			vals:  "-d --directory -i --input -o --output -p --strip -B --prefix -r --reject-file -z --suffix -D -F -V",
			check: (*walker).patch,
			flags: []flag{set("--dry-run", Safe, "checks a patch")},
		},
		"tar": {class: Safe, why: "packs or unpacks files", check: (*walker).tar, noscope: true},
		"unzip": {
			class: Dev,
			why:   "unpacks files",
			flags: []flag{
				set("-l -v -t -Z", Safe, "lists an archive"),
				raise("-:", Dangerous, "keeps ../ in member names: files can land outside the target directory"),
			},
			check: (*walker).unzip,
		},
		"zip": {
			class: Dev,
			why:   "packs files",
			write: writeFirst,
			flags: []flag{raise("-TT --unzip-command", Dangerous, "runs a program of its choice")},
			progs: "-TT --unzip-command",
		},
		"gzip": {
			class: Dev,
			why:   "compresses files in place",
			write: writeAll,
			flags: []flag{set("-c --stdout -l --list -t --test", Safe, "writes to standard output")},
		},
		"gunzip": {
			class: Dev,
			why:   "decompresses files in place",
			write: writeAll,
			flags: []flag{set("-c --stdout -l --list -t --test", Safe, "writes to standard output")},
		},
		"bzip2": {
			class: Dev,
			why:   "compresses files in place",
			write: writeAll,
			flags: []flag{set("-c --stdout -t", Safe, "writes to standard output")},
		},
		"xz": {
			class: Dev,
			why:   "compresses files in place",
			write: writeAll,
			flags: []flag{set("-c --stdout -l --list -t", Safe, "writes to standard output")},
		},
		"zstd": {
			class: Dev,
			why:   "compresses files",
			flags: []flag{set("-c --stdout -l -t", Safe, "writes to standard output")},
		},
		"7z": {
			class: Dev,
			why:   "packs or unpacks files",
			sub: map[string]*rule{
				"l": safe("lists an archive"),
				"t": safe("tests an archive"),
				"x": {class: Dev, why: "unpacks files", check: (*walker).sevenZipOut},
				"e": {class: Dev, why: "unpacks files", check: (*walker).sevenZipOut},
				"a": dev("packs files"),
			},
		},
		"dos2unix": {class: Dev, why: "converts files in place", write: writeAll},
		"unix2dos": {class: Dev, why: "converts files in place", write: writeAll},
		"mktemp":   {class: Dev, why: "creates a temporary file"},
		"split":    dev("splits a file"),
		"csplit":   dev("splits a file"),
		"vim":      vimRule(),
		"vi":       vimRule(),
		"nvim":     vimRule(),
		"ex":       vimRule(),
		"view":     vimRule(),
		"vimdiff":  vimRule(),
		"gvim":     vimRule(),
		"nano":     {class: Dev, why: "edits files", write: writeAll},
		"emacs":    {class: Dev, why: "edits files", write: writeAll, check: (*walker).emacs},
		"gofmt": {
			class: Safe,
			why:   "prints formatted code",
			flags: []flag{raise("-w", Dev, "rewrites files")},
			check: (*walker).inplace,
		},
		"goimports": {
			class: Safe,
			why:   "prints formatted code",
			flags: []flag{raise("-w", Dev, "rewrites files")},
			check: (*walker).inplace,
		},
		"sqlite3": {class: Safe, why: "opens a database file", check: (*walker).sql},
		// Builds, tests, linters and project tools.
		"go": {class: Dangerous, why: "unknown go command", sub: goRules()},
		"make": {
			class: Dev,
			why:   "runs the project's build",
			vals:  "-C -f --file --makefile --directory -j -l -o -W -E --eval -I --include-dir",
			check: (*walker).make,
			flags: []flag{
				set("-n --dry-run --just-print -q --question -p", Safe, "shows what would run"),
			},
			ops: []flag{
				raise("install uninstall", Dangerous, "installs outside the workspace"),
				raise("deploy* publish* release* upload* push*", Dangerous, "publishes or deploys"),
				raise(destroyNames, Dangerous, "runs a target whose name says it destroys data"),
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
			check: (*walker).cmake,
			flags: []flag{raise("--install", Dangerous, "installs outside the workspace")},
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
		"bazel":    {class: Dev, why: buildWhy},
		"bazelisk": {class: Dev, why: buildWhy},
		"just": {
			class: Dev,
			why:   "runs a project recipe",
			ops: []flag{
				raise("deploy* publish* release* install", Dangerous, "publishes, deploys or installs"),
				raise(destroyNames, Dangerous, "runs a recipe whose name says it destroys data"),
			},
		},
		"task": {
			class: Dev,
			why:   "runs a project task",
			ops: []flag{
				raise("deploy* publish* release* install", Dangerous, "publishes, deploys or installs"),
				raise(destroyNames, Dangerous, "runs a recipe whose name says it destroys data"),
			},
		},
		"mvn": {
			class: Dev,
			why:   buildWhy,
			ops:   []flag{raise("deploy release:*", Dangerous, "publishes artifacts")},
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
		},
		"gradlew": {
			class: Dev,
			why:   buildWhy,
			check: (*walker).gradle,
			local: true,
			ops:   []flag{raise("publish* upload*", Dangerous, "publishes artifacts")},
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
		},
		"gcc":      compiler(),
		"g++":      compiler(),
		"cc":       compiler(),
		"c++":      compiler(),
		"clang":    {class: Dev, why: "compiles code", suffixes: true, check: (*walker).outflag},
		"clang++":  compiler(),
		"rustc":    dev("compiles code"),
		"javac":    dev("compiles code"),
		"java":     dev("runs Java code"),
		"kotlinc":  dev("compiles code"),
		"swift":    dev(buildWhy),
		"swiftc":   dev("compiles code"),
		"zig":      dev(buildWhy),
		"ghc":      dev("compiles code"),
		"stack":    dev(buildWhy),
		"cabal":    dev(buildWhy),
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
		"mkfifo":    {class: Dev, why: "creates a named pipe", write: writeAll},
		"fallocate": {
			class: Dev,
			why:   "allocates a file",
			write: writeAll,
			vals:  "-l -o --length --offset",
		},
		"irb": dangerous("starts an interactive Ruby session"),
		"pry": dangerous("starts an interactive Ruby session"),
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
		"pytest":     dev(buildWhy),
		"py.test":    dev(buildWhy),
		"tox":        dev(buildWhy),
		"nox":        dev(buildWhy),
		"coverage":   dev(buildWhy),
		"unittest":   dev(buildWhy),
		"jest":       dev(buildWhy),
		"vitest":     dev(buildWhy),
		"mocha":      dev(buildWhy),
		"playwright": dev(buildWhy),
		"cypress":    dev(buildWhy),
		"eslint":     dev("lints the project"),
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
			ops:   []flag{raise("install uninstall", Dev, "changes git hooks")},
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
		"cargo": {class: Dangerous, why: "unknown cargo command", sub: cargoRules()},
		"rustup": {
			class: Dev,
			why:   "manages toolchains",
			sub: map[string]*rule{
				"show":      safe("shows toolchains"),
				"which":     safe("finds a tool"),
				"target":    dev("manages targets"),
				"component": dev("manages components"),
				"update":    dev("updates toolchains"),
				"default":   dev("sets the default toolchain"),
				"toolchain": dev("manages toolchains"),
				"override":  dev("sets a project toolchain"),
				"run":       dev("runs a toolchain"),
				"doc":       safe("shows documentation"),
				"self":      dangerous("changes rustup itself"),
			},
		},
		"npm": {
			class: Dangerous,
			why:   "unknown npm command",
			sub:   jsRules(),
			vals:  "--prefix -w --workspace",
		},
		"pnpm": {
			class: Dangerous,
			why:   "unknown pnpm command",
			check: (*walker).jsBin,
			sub:   jsRules(),
			vals:  "-C --dir --filter -F -w --workspace",
		},
		"yarn": {
			class: Dev,
			why:   "installs dependencies or runs a project script",
			check: (*walker).jsBin,
			sub:   jsRules(),
			open:  true,
			ops: []flag{
				raise("deploy* publish* release*", Dangerous, "runs a deploy or release script"),
				raise(destroyNames, Dangerous, "runs a script whose name says it destroys data"),
			},
		},
		"bun": {
			class: Dev, why: "runs a project script", sub: bunRules(), open: true, check: (*walker).bun,
			vals: "-e --eval -p --print",
		},
		"npx": {class: Safe, why: "runs a package", check: (*walker).npx, noscope: true},
		"pip": {class: Dangerous, why: "unknown pip command", sub: pipRules(), suffixes: true},
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
				"run":     runIn("the project's environment"),
				"sync":    dev("installs dependencies"),
				"lock":    dev("locks dependencies"),
				"add":     dev("adds a dependency"),
				"remove":  dev("removes a dependency"),
				"venv":    dev("creates a virtual environment"),
				"build":   dev(buildWhy),
				"tree":    safe("shows the dependency tree"),
				"version": safe("prints the version"),
				"publish": dangerous("publishes a package"),
				"tool": {
					class: Dangerous,
					why:   "installs or runs tools outside the project",
					sub: map[string]*rule{
						"list": safe("lists tools"),
						"run":  dangerous("downloads and runs a tool"),
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
		"uvx": {class: Dangerous, why: "downloads and runs a tool", noscope: true},
		"pipx": {
			class: Dangerous,
			why:   "installs or runs tools outside the project",
			sub:   map[string]*rule{"list": safe("lists tools")},
			open:  true,
		},
		"poetry": {
			class: Dev,
			why:   "manages the project environment",
			sub: map[string]*rule{
				"run":     runIn("the project's environment"),
				"publish": dangerous("publishes a package"),
				"show":    safe("shows dependencies"),
				"check":   safe("checks pyproject.toml"),
				"version": {class: Dev, why: "bumps the version", bare: safe("prints the version")},
				"config": {
					class: Dangerous,
					why:   "changes poetry config",
					flags: []flag{
						set("--list", Safe, "reads config"),
						raise("--local", Dev, "changes project config"),
					},
				},
				"self": dangerous("changes poetry itself"),
			},
			open: true,
		},
		"pipenv": {
			class: Dev,
			why:   "manages the project environment",
			sub:   map[string]*rule{"run": runIn("the project's environment")},
			open:  true,
		},
		"pdm": {
			class: Dev,
			why:   "manages the project environment",
			sub: map[string]*rule{
				"run":     runIn("the project's environment"),
				"publish": dangerous("publishes a package"),
			},
			open: true,
		},
		"hatch": {
			class: Dev,
			why:   "manages the project environment",
			sub: map[string]*rule{
				"run":     runIn("the project's environment"),
				"publish": dangerous("publishes a package"),
			},
			open: true,
		},
		"conda": {
			class: Dangerous,
			why:   "changes conda environments",
			sub: map[string]*rule{
				"activate":   dev("activates an environment for this session"),
				"deactivate": dev("deactivates the environment"),
				"run":        dev("runs in an environment"),
				"list":       safe("lists packages"),
				"info":       safe("shows conda"),
				"env": {
					class: Dangerous,
					why:   "changes environments",
					sub: map[string]*rule{
						"list":   safe("lists environments"),
						"export": safe("prints an environment"),
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
			},
			open: true,
		},
		"gem": {
			class: Dangerous,
			why:   "changes installed gems",
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
		},

		// Web frameworks' tasks: those that drop, reset or empty a database
		// or open a session that runs anything are dangerous.
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
		// Version control and remote services.
		"git": {
			class: Dangerous,
			why:   "unknown git command",
			sub:   gitRules(),
			vals:  "-C -c --git-dir --work-tree --namespace --exec-path --super-prefix --config-env",
			check: (*walker).gitGlobal,
		},
		"gh": {class: Dangerous, why: "unknown gh command", sub: ghRules(), vals: "-R --repo"},
		"glab": {
			class: Dangerous,
			why:   remoteEdit,
			sub: map[string]*rule{
				"mr": {
					class: Dangerous,
					why:   remoteEdit,
					sub: map[string]*rule{
						"list": dev(remoteRead),
						"view": dev(remoteRead),
						"diff": dev(remoteRead),
					},
				},
			},
			open: true,
		},
		"hub": dangerous("changes GitHub state"),
		"docker": {
			class: Dangerous,
			why:   "unknown docker command",
			sub:   dockerRules(),
			vals:  "-H --host --context -c --config -l --log-level",
		},
		"podman": {
			class: Dangerous,
			why:   "unknown podman command",
			sub:   dockerRules(),
			vals:  "--url -c --connection",
		},
		"docker-compose": {
			class: Dev,
			why:   "runs the project's containers",
			sub:   dockerRules()["compose"].sub,
			vals:  "-f --file -p --project-name",
		},
		"kubectl": {
			class: Dangerous,
			why:   "unknown kubectl command",
			sub:   kubectlRules(),
			vals: "-n --namespace --context --cluster --kubeconfig -s --server --user -l --selector " +
				"-o --output -f --filename -c --container",
		},
		"k9s": dangerous("opens an interactive cluster console"),
		"helm": {
			class: Dangerous,
			why:   "unknown helm command",
			sub:   helmRules(),
			vals:  "-n --namespace --kube-context --kubeconfig",
		},
		"terraform": {
			class: Dangerous,
			why:   "unknown terraform command",
			sub:   terraformRules(),
			vals:  "-chdir",
		},
		"tofu":       {class: Dangerous, why: "unknown tofu command", sub: terraformRules(), vals: "-chdir"},
		"terragrunt": {class: Dangerous, why: "unknown terragrunt command", sub: terraformRules()},
		"pulumi": {
			class: Dangerous,
			why:   remoteEdit,
			sub: map[string]*rule{
				"preview": dev("previews changes"),
				"stack": {
					class: Dev,
					why:   remoteRead,
					sub: map[string]*rule{
						"ls":     dev(remoteRead),
						"output": dev(remoteRead),
						"rm":     dangerous("deletes a stack"),
					},
					open: true,
				},
				"up":      dangerous("applies infrastructure changes"),
				"destroy": dangerous("destroys infrastructure"),
				"whoami":  dev(remoteRead),
				"version": safe("prints the version"),
			},
		},
		"ansible-playbook": {
			class: Dangerous,
			why:   "changes remote machines",
			flags: []flag{
				set(
					"--check -C --syntax-check --list-hosts --list-tasks",
					Dev,
					"checks without changing",
				),
			},
		},
		"ansible": dangerous("runs commands on remote machines"),
		"aws": {
			class: Safe,
			why:   "runs a cloud CLI",
			check: (*walker).cloud,
			vals:  "--profile --region --output --endpoint-url --query",
		},
		"gcloud": {
			class: Safe,
			why:   "runs a cloud CLI",
			check: (*walker).cloud,
			vals:  "--project --region --zone --format --account --configuration",
		},
		"az": {
			class: Safe,
			why:   "runs a cloud CLI",
			check: (*walker).cloud,
			vals:  "-g --resource-group --subscription -o --output --query",
		},
		"gsutil": {
			class: Dangerous,
			why:   remoteEdit,
			sub: map[string]*rule{
				"ls":   dev(remoteRead),
				"cat":  dev(remoteRead),
				"du":   dev(remoteRead),
				"stat": dev(remoteRead),
			},
		},
		"doctl": {class: Safe, why: "runs a cloud CLI", check: (*walker).cloud},
		"flyctl": {
			class: Dangerous,
			why:   remoteEdit,
			sub: map[string]*rule{
				"status": dev(remoteRead),
				"logs":   dev(remoteRead),
				"deploy": dangerous("deploys"),
			},
		},
		"vercel": {
			class: Dangerous,
			why:   "deploys",
			sub: map[string]*rule{
				"ls":    dev(remoteRead),
				"list":  dev(remoteRead),
				"logs":  dev(remoteRead),
				"dev":   dev("starts the dev server"),
				"build": dev(buildWhy),
			},
			bare: dangerous("deploys"),
		},
		"netlify": {
			class: Dangerous,
			why:   "deploys",
			sub: map[string]*rule{
				"status": dev(remoteRead),
				"dev":    dev("starts the dev server"),
				"build":  dev(buildWhy),
			},
		},
		"heroku": {
			class: Dangerous,
			why:   remoteEdit,
			sub: map[string]*rule{
				"logs": dev(remoteRead),
				"ps":   dev(remoteRead),
				"apps": dev(remoteRead),
			},
		},
		"firebase": {
			class: Dangerous,
			why:   remoteEdit,
			sub: map[string]*rule{
				"emulators:start": dev("starts local emulators"),
				"serve":           dev("serves locally"),
			},
		},
		"wrangler": {
			class: Dangerous,
			why:   remoteEdit,
			sub: map[string]*rule{
				"dev":    dev("starts the dev server"),
				"whoami": dev(remoteRead),
				"tail":   dev(remoteRead),
			},
		},
		"twine": {
			class: Dangerous,
			why:   "publishes packages",
			sub:   map[string]*rule{"check": safe("checks distributions")},
		},
		"psql":         {class: Safe, why: "talks to a database", check: (*walker).sql, noscope: true},
		"mysql":        {class: Safe, why: "talks to a database", check: (*walker).sql, noscope: true},
		"mariadb":      {class: Safe, why: "talks to a database", check: (*walker).sql, noscope: true},
		"mongosh":      {class: Safe, why: "talks to a database", check: (*walker).sql, noscope: true},
		"mongo":        {class: Safe, why: "talks to a database", check: (*walker).sql, noscope: true},
		"redis-cli":    {class: Safe, why: "talks to a database", check: (*walker).redis, noscope: true},
		"dropdb":       dangerous("drops a database"),
		"createdb":     dev("creates a database"),
		"pg_dump":      dev("dumps a database"),
		"mysqldump":    dev("dumps a database"),
		"pg_restore":   dangerous("overwrites a database"),
		"mongodump":    dev("dumps a database"),
		"mongorestore": dangerous("overwrites a database"),
		// Network.
		"curl":   {class: Safe, why: "transfers data", check: (*walker).fetch, noscope: true},
		"wget":   {class: Safe, why: "transfers data", check: (*walker).fetch, noscope: true},
		"http":   {class: Safe, why: "transfers data", check: (*walker).fetch, noscope: true},
		"https":  {class: Safe, why: "transfers data", check: (*walker).fetch, noscope: true},
		"xh":     {class: Safe, why: "transfers data", check: (*walker).fetch, noscope: true},
		"aria2c": dangerous("downloads from the network"),
		"ssh": {
			class: Dangerous,
			why:   "connects to a remote machine",
			check: (*walker).ssh,
			flags: []flag{set("-V -G -Q", Safe, "prints its version, configuration or a query's answer")},
		},
		"scp":   {class: Dangerous, why: "copies files over the network", check: (*walker).ssh},
		"sftp":  {class: Dangerous, why: "copies files over the network", check: (*walker).ssh},
		"rsync": {class: Dev, why: "copies files", check: (*walker).rsync},
		"nc": {
			class: Dangerous,
			why:   "opens network connections",
			flags: []flag{
				raise(
					"-e -c --exec --sh-exec --lua-exec",
					Blocked,
					"runs a shell over the network (reverse shell)",
				),
			},
		},
		"ncat": {
			class: Dangerous,
			why:   "opens network connections",
			flags: []flag{
				raise(
					"-e -c --exec --sh-exec --lua-exec",
					Blocked,
					"runs a shell over the network (reverse shell)",
				),
			},
		},
		"netcat": {
			class: Dangerous,
			why:   "opens network connections",
			flags: []flag{raise("-e -c", Blocked, "runs a shell over the network (reverse shell)")},
		},
		"socat": {
			class: Dangerous,
			why:   "opens network connections",
			ops: []flag{
				raise(
					"exec:* EXEC:* system:* SYSTEM:*",
					Blocked,
					"runs a program over the network (reverse shell)",
				),
			},
		},
		"telnet": dangerous("opens a network connection"),
		"ftp":    dangerous("opens a network connection"),
		"openssl": {
			class: Safe,
			why:   "computes crypto",
			check: (*walker).outflag,
			sub: map[string]*rule{
				"s_client": dangerous("opens a network connection"),
				"s_server": dangerous("listens on the network"),
			},
			open: true,
		},
		"ping":       {class: Dev, why: "sends network probes", check: (*walker).lookupName},
		"dig":        {class: Dev, why: "queries DNS", check: (*walker).lookupName},
		"nslookup":   {class: Dev, why: "queries DNS", check: (*walker).lookupName},
		"host":       {class: Dev, why: "queries DNS", check: (*walker).lookupName},
		"traceroute": {class: Dev, why: "traces a network route", check: (*walker).lookupName},
		"whois":      {class: Dev, why: "queries a registry", check: (*walker).lookupName},
		"mtr":        dev("traces a network route"),
		"ss":         safe("lists sockets"),
		"netstat":    safe("lists sockets"),
		"lsof":       safe("lists open files"),
		"ip": {
			class: Dangerous,
			why:   "changes network settings",
			sub: map[string]*rule{
				"a": safe("shows addresses"),
				"addr": {
					class: Safe,
					why:   "shows addresses",
					sub: map[string]*rule{
						"show": safe("shows addresses"),
						"list": safe("shows addresses"),
						"add":  dangerous("changes addresses"),
						"del":  dangerous("changes addresses"),
					},
				},
				"address": safe("shows addresses"),
				"route": {
					class: Safe,
					why:   "shows routes",
					sub: map[string]*rule{
						"show": safe("shows routes"),
						"list": safe("shows routes"),
						"get":  safe("shows a route"),
					},
				},
				"r": safe("shows routes"),
				"link": {
					class: Safe,
					why:   "shows links",
					sub: map[string]*rule{
						"show": safe("shows links"),
						"set":  dangerous("changes a network link"),
					},
				},
				"neigh": safe("shows neighbours"),
			},
		},
		"ifconfig": {class: Dangerous, why: "changes network settings", bare: safe("shows interfaces")},
		"ngrok":    dangerous("exposes a local port to the internet"),
		"tailscale": {
			class: Dangerous,
			why:   "changes the network",
			sub:   map[string]*rule{"status": safe("shows the network"), "ip": safe("shows addresses")},
		},
		// System state.
		"ps": {
			class: Safe,
			why:   "lists processes",
			ops: []flag{
				raise("*e*", Dangerous, "shows process environments, which may include secrets"),
			},
		},
		"pgrep":   safe("finds processes"),
		"pstree":  safe("lists processes"),
		"top":     safe("shows processes"),
		"htop":    safe("shows processes"),
		"btop":    safe("shows processes"),
		"free":    safe("shows memory"),
		"uptime":  safe("shows uptime"),
		"vmstat":  safe("shows statistics"),
		"iostat":  safe("shows statistics"),
		"nproc":   safe("counts CPUs"),
		"lscpu":   safe("shows CPUs"),
		"lsblk":   safe("lists block devices"),
		"blkid":   safe("lists filesystems"),
		"findmnt": safe("lists mounts"),
		"lsusb":   safe("lists devices"),
		"lspci":   safe("lists devices"),
		"lsmod":   safe("lists modules"),
		"uname":   safe("shows the system"),
		"hostname": {
			class: Dangerous,
			why:   "sets the host name",
			bare:  safe("shows the host name"),
			flags: []flag{set("-f -s -i -I -d -A --fqdn --short", Safe, "shows the host name")},
		},
		"hostnamectl": {
			class: Dangerous,
			why:   "changes the host name",
			bare:  safe("shows the host"),
			sub:   map[string]*rule{"status": safe("shows the host")},
			open:  true,
		},
		"whoami":  safe("shows the user"),
		"id":      safe("shows the user"),
		"groups":  safe("shows groups"),
		"who":     safe("shows users"),
		"w":       safe("shows users"),
		"last":    safe("shows logins"),
		"users":   safe("shows users"),
		"tty":     safe("shows the terminal"),
		"locale":  safe("shows the locale"),
		"getconf": safe("shows settings"),
		"getent": {
			class: Safe,
			why:   "looks up names in the system databases",
			ops:   []flag{raise("shadow gshadow", Dangerous, "prints password hashes")},
		},
		"arch":        safe("shows the architecture"),
		"sw_vers":     safe("shows the system"),
		"lsb_release": safe("shows the system"),
		"env-update":  dangerous("changes system settings"),
		"sysctl": {
			class: Dangerous,
			why:   "changes kernel settings",
			flags: []flag{set("-a -n", Safe, "shows kernel settings")},
			ops:   []flag{raise("*=*", Dangerous, "changes kernel settings")},
		},
		"dmesg": {
			class: Safe,
			why:   "shows kernel messages",
			flags: []flag{raise("-c -C --clear", Dangerous, "clears kernel messages")},
		},
		"journalctl": {
			class: Safe,
			why:   "shows logs",
			flags: []flag{
				raise(
					"--vacuum-size --vacuum-time --vacuum-files --rotate --flush",
					Dangerous,
					"deletes or rotates logs",
				),
			},
		},
		"systemctl": {
			class: Dangerous,
			why:   "changes system services",
			sub:   systemctlRules(),
			open:  true,
			vals:  "-H --host -M --machine -p --property -t --type --state",
			bare:  safe("lists units (systemctl alone is list-units)"),
		},
		"service": {
			class: Dangerous,
			why:   "changes system services",
			ops: []flag{
				set("status", Safe, "shows a service"),
				set("--status-all", Safe, "lists services"),
			},
			flags: []flag{set("--status-all", Safe, "lists services")},
		},
		"launchctl": {
			class: Dangerous,
			why:   "changes system services",
			sub:   map[string]*rule{"list": safe("lists services"), "print": safe("shows a service")},
			open:  true,
		},
		"crontab": {
			class: Dangerous,
			why:   "replaces the crontab",
			check: (*walker).crontab,
			flags: []flag{
				set("-l", Safe, "lists the crontab"),
				raise("-r -e -i", Dangerous, "changes or removes the crontab"),
			},
		},
		"at":    {class: Dangerous, why: "schedules a command", check: (*walker).at},
		"batch": {class: Dangerous, why: "schedules a command", check: (*walker).at},
		"kill":  {class: Safe, why: "signals processes or lists signals", check: (*walker).kill},
		"pkill": {
			class: Dangerous,
			why:   "kills processes",
			flags: []flag{set("-0 --signal=0", Safe, "checks that processes exist")},
		},
		"killall": {
			class: Dangerous,
			why:   "kills processes",
			flags: []flag{set("-0 --signal=0", Safe, "checks that processes exist")},
		},
		"xkill":    dangerous("kills a window's process"),
		"shutdown": dangerous("shuts the machine down"),
		"reboot":   dangerous("reboots the machine"),
		"halt":     dangerous("halts the machine"),
		"poweroff": dangerous("powers the machine off"),
		"init":     dangerous("changes the run level"),
		"telinit":  dangerous("changes the run level"),
		"mount": {
			class: Dangerous,
			why:   "mounts a filesystem",
			bare:  safe("lists mounts"),
			flags: []flag{set("-l", Safe, "lists mounts")},
		},
		"umount": dangerous("unmounts a filesystem"),
		"swapon": {
			class: Dangerous,
			why:   "changes swap",
			flags: []flag{set("-s --show", Safe, "shows swap")},
			bare:  safe("shows swap"),
		},
		"swapoff": dangerous("changes swap"),
		"mkfs":    {class: Blocked, why: "makes a filesystem, wiping the device", suffixes: true},
		"mke2fs":  blocked("makes a filesystem, wiping the device"),
		"mkswap":  blocked("makes swap, wiping the device"),
		"mkdosfs": blocked("makes a filesystem, wiping the device"),
		"mkntfs":  blocked("makes a filesystem, wiping the device"),
		"newfs":   blocked("makes a filesystem, wiping the device"),
		"wipefs": {
			class: Blocked,
			why:   "wipes filesystem signatures",
			flags: []flag{set("-n --no-act", Safe, "lists signatures")},
			bare:  safe("lists signatures"),
		},
		"blkdiscard": blocked("discards every block on a device"),
		"parted": {
			class: Dangerous,
			why:   "edits partition tables",
			flags: []flag{set("-l --list", Safe, "lists partitions")},
			ops: []flag{
				raise("mklabel mktable rm mkpart resizepart", Blocked, "rewrites the partition table"),
			},
		},
		"fdisk": {
			class: Dangerous,
			why:   "edits partition tables",
			flags: []flag{set("-l --list", Safe, "lists partitions")},
		},
		"sfdisk": {
			class: Blocked,
			why:   "rewrites partition tables",
			flags: []flag{set("-l --list -d --dump", Safe, "lists partitions")},
		},
		"sgdisk": {
			class: Dangerous,
			why:   "edits partition tables",
			flags: []flag{
				set("-p --print", Safe, "lists partitions"),
				raise("-Z --zap-all -o --clear -z --zap", Blocked, "wipes the partition table"),
			},
		},
		"gdisk":  dangerous("edits partition tables"),
		"cfdisk": dangerous("edits partition tables"),
		"cryptsetup": {
			class: Dangerous,
			why:   "changes encrypted devices",
			ops:   []flag{raise("luksFormat erase", Blocked, "wipes an encrypted device")},
		},
		"fsck":      dangerous("repairs a filesystem"),
		"e2fsck":    dangerous("repairs a filesystem"),
		"tune2fs":   dangerous("changes a filesystem"),
		"resize2fs": dangerous("resizes a filesystem"),
		"losetup":   dangerous("sets up loop devices"),
		"modprobe":  dangerous("loads kernel modules"),
		"insmod":    dangerous("loads kernel modules"),
		"rmmod":     dangerous("unloads kernel modules"),
		"iptables": {
			class: Dangerous,
			why:   "changes the firewall",
			flags: []flag{set("-L --list -S --list-rules", Safe, "shows the firewall")},
		},
		"ip6tables": {
			class: Dangerous,
			why:   "changes the firewall",
			flags: []flag{set("-L --list -S", Safe, "shows the firewall")},
		},
		"nft": {
			class: Dangerous,
			why:   "changes the firewall",
			ops:   []flag{set("list", Safe, "shows the firewall")},
		},
		"ufw": {
			class: Dangerous,
			why:   "changes the firewall",
			ops:   []flag{set("status", Safe, "shows the firewall")},
		},
		"firewall-cmd": {
			class: Dangerous,
			why:   "changes the firewall",
			flags: []flag{
				set(
					"--state --list-all --list-ports --list-services --get-zones --get-active-zones",
					Safe,
					"shows the firewall",
				),
			},
		},
		"useradd":  dangerous("changes user accounts"),
		"userdel":  dangerous("changes user accounts"),
		"usermod":  dangerous("changes user accounts"),
		"adduser":  dangerous("changes user accounts"),
		"deluser":  dangerous("changes user accounts"),
		"groupadd": dangerous("changes groups"),
		"groupdel": dangerous("changes groups"),
		"passwd":   dangerous("changes a password"),
		"chpasswd": dangerous("changes passwords"),
		"visudo":   dangerous("changes sudo rules"),
		"chsh":     dangerous("changes the login shell"),
		"timedatectl": {
			class: Dangerous,
			why:   "changes the clock",
			bare:  safe("shows the clock"),
			sub: map[string]*rule{
				"status":         safe("shows the clock"),
				"show":           safe("shows the clock"),
				"list-timezones": safe("lists time zones"),
			},
			open: true,
		},
		"update-alternatives": dangerous("changes system defaults"),
		"ldconfig":            dangerous("changes the linker cache"),
		"chattr":              dangerous("changes file attributes"),
		"lsattr":              safe("shows file attributes"),
		"setfacl":             dangerous("changes permissions"),
		"getfacl":             safe("shows permissions"),
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
		"strace": {
			class:   Dangerous,
			why:     "traces a process",
			kind:    kindWrap,
			vals:    "-o -e -p -s -u -E -P -I -a -b -X -O -S --output --trace --signal --user --env",
			noscope: true,
		},
		"ltrace": {
			class:   Dangerous,
			why:     "traces a process",
			kind:    kindWrap,
			vals:    "-o -e -p -s -u -n -a -A -D -F -l -w --output --library",
			noscope: true,
		},
		"gdb":    {class: Dangerous, why: "debugs a process", check: (*walker).gdb},
		"entr":   {class: Dev, why: "runs a command when files change", check: (*walker).entr, noscope: true},
		"script": {class: Dev, why: "records a terminal session", check: (*walker).scriptCmd},
		"expect": {class: Dangerous, why: "drives interactive programs", check: (*walker).expect},
		"ed":     {class: Dev, why: "edits files", check: (*walker).ed},
		"perf": {
			class: Dangerous,
			why:   "profiles the system",
			sub: map[string]*rule{
				"record": perfRun(),
				"stat":   perfRun(),
				"trace":  perfRun(),
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
		"xdg-open": dangerous("opens a program"),
		"open":     dangerous("opens a program"),
		"code":     dangerous("opens an editor"),
		"pbcopy":   dangerous("writes the clipboard"),
		"xclip":    dangerous("uses the clipboard"),
		"pbpaste":  safe("reads the clipboard"),
		"wall":     dangerous("messages every user"),
		"write":    dangerous("messages a user"),
		"mail":     dangerous("sends mail"),
		"sendmail": dangerous("sends mail"),
		"screen":   {class: Dangerous, why: "starts a terminal multiplexer", check: (*walker).screen},
		"tmux": {
			class: Dangerous,
			why:   "controls terminal sessions",
			check: (*walker).tmux,
			sub: map[string]*rule{
				"ls":            safe("lists sessions"),
				"list-sessions": safe("lists sessions"),
				"list-windows":  safe("lists windows"),
				"capture-pane":  safe("reads a pane"),
			},
			open: true,
		},
		"direnv": {
			class: Dangerous,
			why:   "allows code to run on cd",
			sub:   map[string]*rule{"status": safe("shows state")},
			open:  true,
		},
		"gpg": {
			class: Dangerous,
			why:   "handles keys",
			flags: []flag{
				set(
					"--verify --list-keys -k --list-public-keys --fingerprint",
					Safe,
					"checks or lists keys",
				),
				raise("--export-secret-keys --export-secret-subkeys", Dangerous, "exports secret keys"),
			},
		},
		"ssh-keygen": {
			class: Dangerous,
			why:   "creates or changes keys",
			flags: []flag{set("-l -F -y", Safe, "shows keys")},
		},
		"ssh-add": {
			class: Dangerous,
			why:   "changes the key agent",
			flags: []flag{
				set("-l -L", Safe, "lists the keys the agent holds"),
				raise("-d -D -x -X -s -e -t -c -k -K -T -H -S -q -v", Dangerous, "changes the key agent"),
			},
		},
		"ssh-copy-id": dangerous("installs a key on a remote machine"),
		"security":    dangerous("reads the keychain"),
		"pass":        dangerous("reads a password store"),
		"op":          dangerous("reads a password manager"),
		"vault":       dangerous("reads secrets"),
		// System package managers.
		"apt": {
			class: Dangerous,
			why:   "changes system packages",
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
			open:  true,
			flags: []flag{set("-s --simulate --dry-run --just-print", Safe, "simulates")},
		},
		"apt-cache": safe("queries packages"),
		"dpkg": {
			class: Dangerous,
			why:   "changes system packages",
			flags: []flag{
				set(
					"-l --list -L --listfiles -s --status -S --search --get-selections "+
						"--print-architecture",
					Safe,
					"queries packages",
				),
			},
		},
		"dpkg-query": safe("queries packages"),
		"yum": {
			class: Dangerous,
			why:   "changes system packages",
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
		"zypper": dangerous("changes system packages"),
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
		"nix": {
			class: Dev,
			why:   "builds with Nix",
			sub:   map[string]*rule{"profile": dangerous("changes user packages")},
			open:  true,
		},
		"sdkmanager": dangerous("installs SDKs"),
		"asdf": {
			class: Dangerous,
			why:   "installs tool versions",
			sub:   map[string]*rule{"list": safe("lists versions"), "current": safe("shows versions")},
			open:  true,
		},
		"mise": {
			class: Dangerous,
			why:   "installs tool versions",
			sub: map[string]*rule{
				"ls":      safe("lists versions"),
				"current": safe("shows versions"),
				"run":     dev("runs a project task"),
				"exec":    runIn("the project's tools"),
			},
			open: true,
		},
		"nvm": {
			class: Dev,
			why:   "selects a Node version",
			sub: map[string]*rule{
				"ls":        safe("lists versions"),
				"current":   safe("shows the version"),
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
				"version":   safe("shows the version"),
				"install":   dangerous("installs a Python version"),
				"uninstall": dangerous("removes a Python version"),
				"global":    dangerous("changes the default version"),
			},
			open: true,
		},
	}
}
