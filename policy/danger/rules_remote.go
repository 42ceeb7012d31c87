package danger

import (
	"strings"

	"github.com/qsh-shell/qsh/policy/secret"
)

// remoteCommands is the part of the table (see rules.go) for infrastructure, cloud and deploy CLIs,
// and databases.
func remoteCommands() map[string]*rule {
	return map[string]*rule{
		"terraform": {
			class: Dangerous,
			why:   "unknown terraform command",
			sub:   terraformRules(),
			vals:  "-chdir",
		},
		"tofu": {class: Dangerous, why: "unknown tofu command", sub: terraformRules(), vals: "-chdir"},
		// Message brokers' admin tools: listing and describing read the
		// broker; creating, altering, deleting, resetting change it.
		"kafka-topics":          kafkaAdmin("--list --describe"),
		"kafka-consumer-groups": kafkaAdmin("--list --describe"),
		"kafka-configs":         kafkaAdmin("--describe"),
		"kafka-acls":            kafkaAdmin("--list"),
		"rabbitmqctl": {
			class: Dangerous,
			why:   "changes the broker",
			sub: map[string]*rule{
				"list_queues": dev(remoteRead), "list_exchanges": dev(remoteRead), "list_bindings": dev(remoteRead),
				"list_connections": dev(remoteRead), "list_channels": dev(remoteRead),
				"list_consumers": dev(remoteRead), "list_vhosts": dev(remoteRead), "list_policies": dev(remoteRead),
				"list_permissions": dev(remoteRead), "list_users": dev(remoteRead), "status": dev(remoteRead),
				"cluster_status": dev(remoteRead), "ping": dev(remoteRead), "version": safe("prints its version"),
				"help": safe("shows help"),
			},
			vals: "-n --node -p --vhost -t --timeout",
		},
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
				"config": {
					class: Dev,
					why:   "shows the stack's configuration, secrets masked",
					flags: []flag{raise("--show-secrets", Dangerous, "prints the stack's secrets")},
					sub: map[string]*rule{
						"get": {class: Dev, why: remoteRead, shows: "prints a value, a secret one decrypted"},
						"set": dev("changes the stack's configuration"),
						"rm":  dev("changes the stack's configuration"),
						"cp":  dev("copies the stack's configuration"),
						"env": dev("changes the stack's environments"),
					},
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
		"ansible": {class: Dangerous, why: "runs commands on remote machines", check: (*walker).ansible},
		"aws": {
			names: true, // resources, not files
			class: Safe,
			why:   "runs a cloud CLI",
			check: (*walker).cloud,
			vals:  "--profile --region --output --endpoint-url --query",
		},
		"gcloud": {
			names: true, // resources, not files
			class: Safe,
			why:   "runs a cloud CLI",
			check: (*walker).cloud,
			vals:  "--project --region --zone --format --account --configuration",
		},
		"az": {
			names: true, // resources, not files
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
		"doctl":       {class: Safe, why: "runs a cloud CLI", check: (*walker).cloud},
		"rclone":      rcloneRule(),
		"code-server": {class: Dev, why: "serves an editor", check: (*walker).codeServer, noscope: true},
		"jupyter": {
			class: Dangerous,
			why:   "runs a Jupyter command",
			sub: map[string]*rule{
				"notebook": jupyterServer(), "lab": jupyterServer(), "server": jupyterServer(),
				"nbconvert": dev("converts notebooks, running them with --execute"),
				"kernelspec": {class: Dangerous, why: "changes kernels",
					sub: map[string]*rule{"list": safe("lists kernels")}, open: true},
			},
			open: true,
		},
		"goreleaser": {
			class: Dangerous,
			why:   "publishes a release",
			sub: map[string]*rule{
				"release": {
					class: Dangerous,
					why:   "publishes a release",
					dry: flag{match: "--snapshot --skip=publish --skip-publish", class: Dev,
						why: "builds a release, publishes nothing"},
				},
				"build":       dev(buildWhy),
				"check":       safe("checks the configuration"),
				"healthcheck": safe("checks the tools it needs"),
				"init":        dev("writes a configuration"),
			},
		},
		"flyctl": {
			class: Dangerous,
			why:   remoteEdit,
			sub: map[string]*rule{
				"version": safe("prints the version"),
				"status":  dev(remoteRead),
				"logs":    dev(remoteRead),
				"deploy":  dangerous("deploys"),
				// Names and digests of the app's secrets, not their values.
				"secrets": {class: Dangerous, why: remoteEdit,
					sub: map[string]*rule{"list": dev("lists secret names")}},
				"apps": {class: Dangerous, why: remoteEdit, sub: map[string]*rule{"list": dev(remoteRead)}},
			},
		},
		"fly": {
			class: Dangerous,
			why:   remoteEdit,
			sub: map[string]*rule{
				"version": safe("prints the version"),
				"status":  dev(remoteRead),
				"logs":    dev(remoteRead),
				"deploy":  dangerous("deploys"),
				// Names and digests of the app's secrets, not their values.
				"secrets": {class: Dangerous, why: remoteEdit,
					sub: map[string]*rule{"list": dev("lists secret names")}},
				"apps": {class: Dangerous, why: remoteEdit, sub: map[string]*rule{"list": dev(remoteRead)}},
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
				// Names and targets of variables; pull writes their values.
				"env": {class: Dangerous, why: "changes or downloads environment variables",
					sub: map[string]*rule{"ls": dev(remoteRead), "list": dev(remoteRead)}},
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
				"secret": {class: Dangerous, why: remoteEdit, sub: map[string]*rule{"list": dev("lists secret names")}},
				"d1": {class: Dangerous, why: remoteEdit, sub: map[string]*rule{
					"list": dev(remoteRead), "info": dev(remoteRead),
					"execute": {class: Dev, why: "runs SQL on the local development database", check: (*walker).d1}}},
				"deployments": {class: Dangerous, why: remoteEdit, sub: map[string]*rule{"list": dev(remoteRead)}},
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
	}
}

// terraformRules are terraform's (and tofu's) subcommands: their files
// (-var-file=prod.tfvars) configure the run, they are not printed.
// rcloneRule: rclone reads and writes remote storage; what it copies to
// this machine lands in files, what it changes is remote state.
func rcloneRule() *rule {
	read := dev(remoteRead)
	change := dangerous(remoteEdit)
	r := &rule{class: Dangerous, why: "unknown rclone command", sub: map[string]*rule{
		"ls": read, "lsd": read, "lsl": read, "lsf": read, "lsjson": read, "size": read, "about": read,
		"tree": read, "check": read, "md5sum": read, "sha1sum": read, "hashsum": read, "cat": read,
		"listremotes": safe("lists configured remotes"), "version": safe("prints its version"),
		"copy": change, "sync": change, "move": change, "copyto": change, "moveto": change,
		"delete": change, "deletefile": change, "purge": change, "rmdir": change, "rmdirs": change,
		"dedupe": change, "cleanup": change, "mkdir": change, "touch": change, "rcat": change,
		"config": dangerous("shows or changes remotes and their credentials"),
		"mount":  dangerous("mounts remote storage"), "serve": dangerous("serves files to the network"),
	}}
	for _, s := range r.sub {
		if s.class > Dev {
			s.dry = flag{match: "-n --dry-run", class: Dev, why: dryRunWhy}
		}
	}
	return r
}

func terraformRules() map[string]*rule {
	m := terraformSubs()
	for _, r := range m {
		r.names = true
	}
	return m
}

func terraformSubs() map[string]*rule {
	return map[string]*rule{
		"plan":     dev("plans changes without applying them"),
		"validate": dev("validates the configuration"),
		"fmt": {
			class: Dev,
			why:   "formats the configuration",
			flags: []flag{set("-check -diff", Safe, "checks formatting")},
		},
		"init": {class: Dev, why: "downloads providers and modules", check: (*walker).tfBackend},
		"show": {
			class: Dev,
			why:   remoteRead,
			flags: []flag{raise("-json", Dangerous, "shows sensitive values in plain text")},
		},
		"output": {
			class: Dev,
			why:   "shows outputs",
			flags: []flag{raise("-json", Dangerous, "shows sensitive values in plain text")},
			check: (*walker).tfOutputRaw,
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
				"pull": {class: Dev, why: remoteRead,
					shows: "prints the whole state, every secret in it in plain text"},
			},
			open: true,
		},
		"test": dev(buildWhy),
	}
}

// tfOutputRaw judges terraform output -raw: one output printed as it is,
// sensitive or not. An output named as secrets are (db_password) is shown;
// without a name, or with one not known, every output may be.
func (w *walker) tfOutputRaw(chain string, args []arg, io ioInfo) {
	raw := false
	for _, a := range args[1:] {
		raw = raw || a.s == "-raw" || a.s == "--raw"
	}
	if !raw {
		return
	}
	ops := scan(&rule{vals: "-state"}, args)
	if len(ops) == 0 || hasHole(args[ops[0]].s) || secret.Var(args[ops[0]].s) ||
		strings.Contains(strings.ToLower(args[ops[0]].s), "key") {
		w.discloses("`" + chain + " -raw`: shows sensitive values in plain text")
	}
}

// kafkaAdmin is the rule of a Kafka admin script (kafka-topics.sh …):
// dangerous unless one of the reading flags says it only reads.
func kafkaAdmin(reads string) *rule {
	return &rule{
		class:    Dangerous,
		why:      "changes the broker's topics, groups or settings",
		suffixes: true,
		flags: []flag{
			raise("--create --alter --delete --reset-offsets --execute --add --remove --delete-offsets", Dangerous,
				"changes the broker"),
			set(reads, Dev, remoteRead),
		},
	}
}

// ansible judges an ad-hoc command: -m shell, command or raw runs -a's
// string on each host, localhost included, as a shell would; what it
// runs is judged as if here (rm -rf ~ wipes the account it reaches).
func (w *walker) ansible(chain string, args []arg, io ioInfo) {
	module, cmd := "command", ""
	for i := 1; i+1 < len(args); i++ {
		switch a := args[i].s; a {
		case "-m", "--module-name":
			module = args[i+1].s
		case "-a", "--args":
			cmd = args[i+1].s
		}
	}
	switch strings.TrimPrefix(module, "ansible.builtin.") {
	case "shell", "command", "raw":
		if cmd != "" {
			w.nested(cmd, input{})
		}
	}
}
