package danger

// gitCommands is the part of the table (see rules.go) for git and the forges' CLIs (gh, glab, hub).
func gitCommands() map[string]*rule {
	return map[string]*rule{
		"git": {
			class: Dangerous,
			why:   "unknown git command",
			sub:   gitRules(),
			vals:  "-C -c --git-dir --work-tree --namespace --exec-path --super-prefix --config-env",
			check: (*walker).gitGlobal,
			whole: true,
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
	}
}

// logContents are git log's flags that show the changes, file contents
// with them.
const logContents = "-p -u -L -c --cc --patch --patch-with-stat --patch-with-raw"

// diffNames are git diff's and show's flags that print names and counts
// instead of the changes.
const diffNames = "--name-only --name-status --stat --numstat --shortstat --quiet --no-patch -s"

func gitRules() map[string]*rule {
	// git maintenance start installs a job of the user's scheduler (cron,
	// launchd, a systemd timer) that runs on its own from then on.
	scheduled := dangerous("installs a scheduled job of the user's that runs git from then on")
	return map[string]*rule{
		"status": named(safe("shows the working tree state")),
		"log": {
			class:    Safe,
			why:      "shows history",
			check:    (*walker).gitLog,
			names:    true,
			contents: logContents,
			flags:    []flag{raise("--ext-diff", Dangerous, "runs an external diff program")},
		},
		"diff": {
			class:     Safe,
			why:       "shows changes",
			check:     (*walker).outflag,
			namesWith: diffNames,
			flags:     []flag{raise("--ext-diff", Dangerous, "runs an external diff program")},
		},
		"show": {
			class:     Safe,
			why:       "shows an object",
			check:     (*walker).outflag,
			namesWith: diffNames,
			flags:     []flag{raise("--ext-diff", Dangerous, "runs an external diff program")},
		},
		"blame":     safe("shows who changed each line"),
		"annotate":  safe("shows who changed each line"),
		"ls-files":  named(safe("lists tracked files")),
		"ls-tree":   named(safe("lists a tree")),
		"ls-remote": remoteRule("lists refs of a remote"),
		"rev-parse": safe("resolves names"),
		"rev-list":  named(safe("lists commits")),
		"describe":  safe("names a commit"),
		"shortlog":  named(safe("summarises history")),
		"grep": {
			class:        Safe,
			why:          "searches tracked files",
			pattern:      true,
			patternFlags: "-e -f",
			namesWith: "-l -L -c -q --name-only --files-with-matches --files-without-match --count " +
				"--quiet",
			vals:  "-e -f -A -B -C -m --max-count --max-depth --threads --context --after-context --before-context",
			progs: "-O --open-files-in-pager",
			flags: []flag{raise("-O --open-files-in-pager", Dangerous, "runs a pager program")},
		},
		"cat-file":     safe("shows an object"),
		"show-ref":     safe("lists refs"),
		"show-branch":  safe("shows branches and their commits"),
		"for-each-ref": safe("lists refs"),
		"merge-base":   safe("finds a common ancestor"),
		"name-rev":     safe("names a commit"),
		"reflog": {
			class: Safe,
			why:   "shows the reflog",
			sub: map[string]*rule{
				"show":   safe("shows the reflog"),
				"expire": dryRule(dangerous("drops reflog entries, making lost commits unrecoverable"), "-n --dry-run"),
				"delete": dangerous("drops reflog entries"),
			},
			open: true,
		},
		"whatchanged":   {class: Safe, why: "shows history", names: true, contents: logContents},
		"count-objects": safe("counts objects"),
		"check-ignore":  named(safe("checks ignore rules")),
		"check-attr":    named(safe("shows attributes")),
		"update-index":  named(dev("changes the index")),
		"var":           safe("shows a git variable"),
		"version":       safe("prints the version"),
		"help":          safe("shows help"),
		"range-diff":    safe("compares commit ranges"),
		"cherry":        safe("lists unmerged commits"),
		"fsck":          safe("checks the repository"),
		"verify-commit": safe("checks a signature"),
		"verify-tag":    safe("checks a signature"),
		"config": {
			class: Safe,
			why:   "reads or changes the repository's config",
			vals:  "--file -f --type --default --blob --comment",
			check: (*walker).gitConfig,
		},

		"add": {
			names: true,
			class: Dev,
			why:   "stages changes",
			check: (*walker).gitStage,
			flags: []flag{set("-n --dry-run", Safe, "shows what would be staged")},
		},
		"commit": {class: Dev, why: "records a commit", names: true, check: (*walker).gitStage},
		"checkout": {
			names: true,
			class: Dev,
			why:   "switches branches",
			flags: []flag{
				raise("-f --force", Dangerous, "throws away local changes"),
				raise("--", Dangerous, "throws away local changes to files"),
				set("-b", Dev, "creates a branch"),
				set("-B", Dangerous, "resets the branch if it exists, and its own commits are lost"),
			},
			ops: []flag{raise(". :/ \\*", Dangerous, "throws away local changes")},
		},
		"switch": {
			names: true, // refs, not files
			class: Dev,
			why:   "switches branches",
			flags: []flag{
				raise("-f --force --discard-changes", Dangerous, "throws away local changes"),
				raise("-C --force-create", Dangerous, "resets the branch if it exists, and its own commits are lost"),
			},
		},
		"restore": {
			names: true,
			class: Dangerous,
			why:   "throws away local changes",
			flags: []flag{set("--staged -S", Dev, "unstages changes")},
			check: (*walker).gitRestore,
		},
		"branch": {
			names: true, // refs, not files
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
			names: true, // refs, not files
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
			names: true, // refs, not files
			class: Dev,
			why:   "merges a branch",
			flags: []flag{set("--abort", Dev, "aborts a merge")},
		},
		"rebase": {
			names: true, // refs, not files
			class: Dev,
			why:   "rebases the branch",
			flags: []flag{
				raise("-i --interactive", Dangerous, "interactive rebase needs an editor"),
			},
			// The command runs at each commit, in the work tree: judged.
			check: (*walker).rebaseExec,
		},
		"cherry-pick": named(dev("applies commits")),
		"revert":      named(dev("reverts a commit")),
		"reset": {
			names: true,
			class: Dev,
			why:   "moves HEAD, keeping changes",
			flags: []flag{
				raise("--hard", Dangerous, "throws away local changes"),
				// --keep refuses when a local change would be lost.
				raise("--merge", Dangerous, "may throw away local changes"),
			},
		},
		"clean": {
			names: true,
			class: Dangerous,
			why:   "deletes untracked files",
			flags: []flag{set("-n --dry-run", Safe, "lists what would be deleted")},
			check: (*walker).gitClean,
		},
		"rm": {
			names: true,
			class: Dev,
			why:   "removes files from the index and tree",
			flags: []flag{
				set("-n --dry-run", Safe, "shows what would be removed"),
				set("--cached", Dev, "untracks files"),
			},
			check: (*walker).gitRm,
		},
		"mv":   named(dev("renames tracked files")),
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
		"fetch": fetchRule(),
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
			dry:   flag{match: "-n --dry-run", class: Dev, why: dryRunWhy},
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
				"log": safe("shows the bisection so far"), "visualize": safe("shows the commits left"),
				"view": safe("shows the commits left"),
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
		"format-patch": {class: Dev, why: "writes patch files", check: (*walker).outflag},
		"notes": {class: Dev, why: "edits notes",
			sub: map[string]*rule{"list": safe("lists notes"), "show": safe("shows a note")}, open: true},
		"sparse-checkout": dev("changes the sparse checkout"),
		"lfs": {
			class: Dev,
			why:   "manages large files",
			sub: map[string]*rule{
				"ls-files": safe("lists large files"),
				"status":   safe("shows large-file state"),
				"env":      safe("shows large-file settings"),
				"version":  safe("prints its version"),
				"locks":    dev(remoteRead),
				// Uploads and remote locks change the server; install
				// without --local writes the user's git config; migrate
				// rewrites history.
				"push":    dangerous("uploads large files to a remote"),
				"lock":    dangerous("locks files on the remote"),
				"unlock":  dangerous("unlocks files on the remote"),
				"migrate": dangerous("rewrites history"),
				"install": {class: Dangerous, why: "changes the user's git config",
					flags: []flag{set("--local", Dev, "sets up large files in this repository")}},
				"uninstall": {class: Dangerous, why: "changes the user's git config",
					flags: []flag{set("--local", Dev, "removes large files' setup from this repository")}},
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
		"prune": dryRule(dangerous("deletes unreachable objects"), "-n --dry-run"),
		"filter-branch": {
			class: Dangerous,
			why:   "rewrites history",
			progs: "--env-filter --tree-filter --index-filter --parent-filter --msg-filter --commit-filter " +
				"--tag-name-filter",
		},
		"send-pack":  {class: Dangerous, why: "pushes objects", progs: "--receive-pack --exec"},
		"fetch-pack": {class: Dev, why: "fetches objects", progs: "--upload-pack --exec"},
		"filter-repo": {class: Dangerous, why: "rewrites history",
			flags: []flag{set("--analyze --help", Dev, "analyses the repository's history")}},
		"replace": {class: Dangerous, why: "replaces objects",
			flags: []flag{set("-l --list", Safe, "lists replacements")}, bare: safe("lists replacements")},
		"update-ref": dangerous("moves a ref directly"),
		"symbolic-ref": {
			class:   Dangerous,
			why:     "points a ref at another branch",
			bare:    safe("shows a symbolic ref"),
			bareMax: 1,
			flags:   []flag{raise("-d --delete", Dangerous, "deletes a symbolic ref")},
		},
		"archive": {
			class: Safe,
			why:   "prints an archive of a commit (-o writes one)",
			check: (*walker).outflag,
			flags: []flag{raise("--remote --exec", Dangerous, "runs a program or reaches a remote")},
			progs: "--exec",
		},
		"bundle": {class: Dev, why: "writes a bundle",
			sub: map[string]*rule{"verify": safe("checks a bundle"), "list-heads": safe("lists a bundle's refs"),
				"create": {class: Dev, why: "writes a bundle", write: writeFirst, names: true}},
			open: true},
		"maintenance": {class: Dev, why: "runs maintenance tasks", open: true,
			sub: map[string]*rule{"start": scheduled, "register": scheduled}},
		"send-email":  dangerous("sends email"),
		"daemon":      dangerous("serves the repository on the network"),
		"instaweb":    {class: Dangerous, why: "starts a web server", progs: "--httpd -d --browser -b"},
		"credential":  dangerous("handles credentials"),
		"hash-object": safe("hashes a file"),
		"mergetool":   dangerous("runs a merge tool"),
		"difftool":    {class: Dangerous, why: "runs a diff tool", progs: "-x --extcmd"},
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

// fetchRule is git fetch: a refspec with + (or --force) moves local
// branches whatever they hold.
func fetchRule() *rule {
	r := remoteRule("fetches from a remote")
	r.flags = append(r.flags, raise("-f --force", Dangerous, "force-updates local branches, dropping their commits"))
	r.ops = append(r.ops, raise("+*:*", Dangerous, "force-updates a local branch, dropping its commits"))
	return r
}

// remoteSet is git remote add and set-url: a later push to the remote
// goes where the string chose.
func remoteSet(why string) *rule {
	r := remoteRule(why)
	r.vals = "-t -m --track --master"
	r.check = (*walker).gitRemoteSet
	return r
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
				"download": {class: Dev, why: "downloads release assets", check: (*walker).releaseAssets},
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
			},
			// -f/-F send data (a POST); to graphql, a query without a
			// mutation only reads.
			check: (*walker).ghAPI,
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
