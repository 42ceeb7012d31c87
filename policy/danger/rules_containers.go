package danger

// containerCommands is the part of the table (see rules.go) for containers and clusters: docker,
// podman, compose, kubectl, helm.
func containerCommands() map[string]*rule {
	return map[string]*rule{
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
		"nerdctl": {
			class: Dangerous,
			why:   "unknown nerdctl command",
			sub:   dockerRules(),
			vals:  "-n --namespace -a --address -H --host",
		},
		"docker-compose": {
			class: Dev,
			why:   "runs the project's containers",
			sub:   dockerRules()["compose"].sub,
			vals:  "-f --file -p --project-name",
			check: (*walker).composeFile,
		},
		"kubectl": {
			class: Dangerous,
			why:   "unknown kubectl command",
			sub:   withDry(kubectlRules(), "--dry-run"),
			vals: "-n --namespace --context --cluster --kubeconfig -s --server --user -l --selector " +
				"-o --output -f --filename -c --container",
		},
		"k9s": {class: Dangerous, why: "opens an interactive cluster console",
			flags: []flag{set("--readonly", Dev, "opens a read-only cluster console")}},
		"helm": {
			class: Dangerous,
			why:   "unknown helm command",
			sub:   withDry(helmRules(), "--dry-run"),
			vals:  "-n --namespace --kube-context --kubeconfig",
		},
	}
}

func dockerRules() map[string]*rule {
	return map[string]*rule{
		"export": {class: Dev, why: "writes a container's filesystem to an archive", check: (*walker).outflag},
		// podman machine: the local VM that runs containers.
		"machine": {class: Dev, why: "manages the local container VM",
			sub: map[string]*rule{"rm": dangerous("deletes the VM and its disk"),
				"reset": dangerous("deletes every VM and its disk"), "list": safe("lists VMs"),
				"ls": safe("lists VMs"), "inspect": safe("shows a VM")},
			open: true},
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
		"build":   {class: Dev, why: "builds an image", check: (*walker).builtImage},
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
		"tag":     {class: Dev, why: "tags an image", check: (*walker).builtImage},
		"start":   dev("starts a container"),
		"stop":    {class: Dev, why: "stops a container", check: (*walker).containersNamed},
		"restart": {class: Dev, why: "restarts a container", check: (*walker).containersNamed},
		"pause":   {class: Dev, why: "pauses a container", check: (*walker).containersNamed},
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
				"build":   {class: Dev, why: "builds an image", check: (*walker).builtImage},
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
			check: (*walker).builtImage,
			sub: map[string]*rule{
				"ls": safe("lists builders"), "du": safe("shows the build cache"),
				"version": safe("prints its version"),
			},
			open: true,
		},
		"builder": {
			class: Dangerous,
			why:   "changes builders",
			sub: map[string]*rule{
				"prune": {class: Dev, why: "removes the build cache, which rebuilds",
					flags: []flag{raise("-a --all", Dev, "removes the whole build cache")}},
				"ls": safe("lists builders"), "du": safe("shows the build cache"),
			},
			open: true,
		},
		"manifest": {
			class: Dangerous,
			why:   "changes an image's manifest list",
			sub:   map[string]*rule{"inspect": dev("reads an image's manifest from its registry")},
			open:  true,
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
			check: (*walker).composeFile,
			sub: composeDry(map[string]*rule{
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
				"exec":    {class: Dev, why: "runs a command in the project's container", check: (*walker).composeExec},
				"rm":      dangerous("deletes containers"),
				"kill":    dangerous("kills containers"),
				"push":    dangerous("publishes images"),
				"version": safe("prints the version"),
				"ls":      safe("lists projects"),
				"port":    safe("shows ports"),
				"watch":   dev("rebuilds on change"),
			}),
		},
	}
}

func kubectlRules() map[string]*rule {
	return map[string]*rule{
		"get": {
			class: Dev,
			why:   remoteRead,
			names: true, // resources, not files
			vals:  "-o --output -l --selector -n --namespace --template -f --filename",
			check: (*walker).kubectlGet,
		},
		"describe": {
			class: Dev,
			why:   remoteRead,
			names: true,
			ops: []flag{
				raise("secret secrets secret/* secrets/*", Dangerous, "shows a secret's keys and annotations"),
			},
		},
		"logs":          dev(remoteRead),
		"top":           dev(remoteRead),
		"explain":       safe("shows documentation"),
		"api-resources": dev(remoteRead),
		"api-versions":  dev(remoteRead),
		"version": {class: Dev, why: remoteRead,
			flags: []flag{set("--client", Safe, "prints the client's version")}},
		"cluster-info": dev(remoteRead),
		"diff":         dev("compares manifests with the cluster"),
		"events":       dev(remoteRead),
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
					class: Safe,
					why:   "shows kubeconfig, credentials redacted",
					flags: []flag{raise("--raw --flatten", Dangerous, "prints the cluster credentials")},
				},
				"get-contexts":    safe("lists contexts"),
				"current-context": safe("shows the context"),
				"get-clusters":    safe("lists clusters"),
				"get-users":       safe("lists users"),
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
		"history": dev(remoteRead),
		// Renders the chart to standard output, or with --output-dir to files.
		"template": {class: Safe, why: "renders charts",
			flags: []flag{raise("--output-dir", Dev, "writes the rendered files")}},
		"lint": dev("lints a chart"),
		// A chart from a repository is fetched (dev); one in a directory
		// or archive here is only read.
		"show": {class: Dev, why: "shows a chart",
			ops: []flag{set("./* ../* /* *.tgz", Safe, "shows a local chart")}},
		"search":     dev("searches charts"),
		"version":    safe("prints the version"),
		"dependency": dev("manages chart dependencies"),
		"package":    dev("packages a chart"),
		"pull":       dev("downloads a chart"),
		"repo": {
			class: Dev,
			why:   "manages chart repositories",
			sub: map[string]*rule{
				"list": safe("lists repositories"),
				"add":  dangerous("adds a chart repository, which later installs trust"),
			},
			open: true,
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

// composeDry marks compose's subcommands with compose's --dry-run, which
// reports what down -v or rm would do (compose v2).
func composeDry(m map[string]*rule) map[string]*rule {
	return withDry(m, "--dry-run")
}
