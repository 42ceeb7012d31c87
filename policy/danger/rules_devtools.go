package danger

import "strings"

// devToolCommands are the everyday tools of languages and frameworks the
// other domains do not cover: SDKs whose subcommands build, test and
// fetch the project's dependencies; formatters that print unless told to
// rewrite; local clusters and their dev loops; hook managers. Their
// global forms (an SDK's upgrade, a global activation, a deploy to the
// current cluster, a certificate authority added to the system) are
// dangerous, as everywhere.
// allClusters: deleting every local cluster deletes other projects' too.
const allClusters = "deletes every local cluster, not only the project's"

func devToolCommands() map[string]*rule {
	publishes := raise("publish* deploy* release* upload*", Dangerous, "publishes or deploys")
	return map[string]*rule{
		"elm": {
			class: Dangerous,
			why:   "unknown elm command",
			sub: map[string]*rule{
				"make":    {class: Dev, why: buildWhy, check: (*walker).outflag},
				"reactor": dev("serves the project locally"),
				"repl":    dev("opens the project's REPL"),
				"init":    dev("creates a project"),
				"install": dev("adds a dependency to the project"),
				"diff":    dev("compares a package's versions"),
				"bump":    dev("bumps the project's version"),
				"test":    dev(buildWhy),
			},
		},
		"flutter": {
			class: Dev,
			why:   buildWhy,
			sub: map[string]*rule{
				"doctor":    safe("checks the SDK"),
				"devices":   safe("lists devices"),
				"emulators": dev("lists or starts emulators"),
				"upgrade":   dangerous("upgrades the SDK for every project"),
				"downgrade": dangerous("changes the SDK for every project"),
				"channel":   dangerous("changes the SDK for every project"),
				"config":    dangerous("changes the SDK's settings"),
				"install":   dangerous("installs the app on a device"),
				"pub":       dartPub(),
			},
			open: true,
			ops:  []flag{publishes},
		},
		"dart": {
			class: Dev,
			why:   buildWhy,
			sub: map[string]*rule{
				"pub":     dartPub(),
				"format":  dev("formats code"),
				"analyze": dev("analyses code"),
				"info":    safe("shows the SDK"),
			},
			open: true,
			ops:  []flag{publishes},
		},
		"autopep8": {
			class: Safe,
			why:   "prints formatted code",
			flags: []flag{raise("-i --in-place", Dev, "rewrites files")},
			check: (*walker).inplace,
		},
		"yapf": {
			class: Safe,
			why:   "prints formatted code",
			flags: []flag{raise("-i --in-place", Dev, "rewrites files")},
			check: (*walker).inplace,
		},
		"stylua": {
			class: Dev,
			why:   "formats code",
			flags: []flag{set("-c --check", Safe, "checks formatting")},
		},
		"taplo": {
			class: Dev,
			why:   "formats TOML",
			sub:   map[string]*rule{"check": safe("checks TOML"), "lint": safe("checks TOML")},
			open:  true,
			flags: []flag{set("--check", Safe, "checks formatting")},
		},
		"dprint": {
			class: Dev,
			why:   "formats the project",
			sub:   map[string]*rule{"check": safe("checks formatting"), "output-file-paths": safe("lists files")},
			open:  true,
		},
		"sphinx-build":     {class: Dev, why: "builds the documentation", check: (*walker).readerFlags},
		"sphinx-autobuild": dev("builds and serves the documentation"),
		"wasm-pack": {
			class: Dev,
			why:   buildWhy,
			ops:   []flag{raise("publish login", Dangerous, "publishes packages or stores a login")},
		},
		"trunk": {class: Dev, why: buildWhy, ops: []flag{publishes}},
		"husky": {
			class: Dev,
			why:   "sets up the project's git hooks",
		},
		"lefthook": {
			class: Dev,
			why:   "runs or sets up the project's git hooks",
		},
		"streamlit": {
			class: Dev,
			why:   "serves the project's app",
			sub:   map[string]*rule{"run": {class: Dev, why: "serves the project's app", check: (*walker).script1}},
			open:  true,
		},
		// Local clusters and the dev loops that deploy to them.
		"kind": {
			class: Dev,
			why:   "manages a local Kubernetes cluster",
			sub: map[string]*rule{"get": safe("lists local clusters"), "version": safe("prints its version"),
				"delete": {class: Dev, why: "deletes a local cluster",
					flags: []flag{raise("--all -A", Dangerous, allClusters)},
					ops:   []flag{raise("clusters", Dangerous, allClusters)}}},
			open: true,
		},
		"k3d": dev("manages a local Kubernetes cluster"),
		"minikube": {
			class: Dev,
			why:   "manages a local Kubernetes cluster",
			sub: map[string]*rule{
				"status":  safe("shows the local cluster"),
				"ip":      safe("shows the local cluster"),
				"profile": dev("manages local clusters"),
				"version": safe("prints its version"),
				"delete": {class: Dev, why: "deletes a local cluster",
					flags: []flag{raise("--all --purge", Dangerous,
						"deletes every local cluster, or all of minikube's state")}},
			},
			open: true,
		},
		// Tilt refuses clusters that are not local unless the project
		// allows them; skaffold run, deploy and delete act on whatever
		// cluster the context names.
		"tilt": {class: Dev, why: "runs the project's dev loop on a local cluster",
			sub: map[string]*rule{"down": {class: Dev, why: "removes what the dev loop deployed",
				flags: []flag{raise("--delete-namespaces", Dangerous,
					"deletes whole namespaces, with what else is in them")}}},
			open: true},
		"skaffold": {
			class: Dev,
			why:   "builds and tests the project's images",
			ops: []flag{raise("run deploy delete apply", Dangerous,
				"deploys to, or deletes from, the cluster the current context names")},
		},
		"mkcert": {
			class: Dev,
			why:   "makes a development certificate",
			names: true, // its operands are host names; what it writes is judged
			check: (*walker).mkcertFiles,
			flags: []flag{
				raise("-install -uninstall", Dangerous, "changes the system's and browsers' trusted authorities"),
				set("-CAROOT", Safe, "shows where its authority is"),
			},
		},
		// Linkers, archivers of objects and binary rewriters write the file
		// they make or rewrite the one they are given: judged by where.
		"ld": {class: Dev, why: "links objects", check: (*walker).outflag},
		"ar": {class: Dev, why: "makes a library of objects", check: (*walker).arLib,
			ops: []flag{set("t tv p pv -t -tv -p -pv", Safe, "lists or prints an archive's members")}},
		"objcopy":  {class: Dev, why: "copies and converts an object file", write: writeLast},
		"strip":    {class: Dev, why: "removes symbols from binaries", write: writeAll, stdout: "-o"},
		"upx":      {class: Dev, why: "compresses executables", write: writeAll, check: (*walker).outflag},
		"emcc":     {class: Dev, why: "compiles code", check: (*walker).outflag},
		"em++":     {class: Dev, why: "compiles code", check: (*walker).outflag},
		"tinygo":   dev(buildWhy),
		"wasm-opt": {class: Safe, why: "optimises WebAssembly", check: (*walker).outflag},
		"rubocop": {class: Dev, why: "lints the project",
			flags: []flag{raise("-a -A --autocorrect --autocorrect-all", Dev, "rewrites files")}},
		"rspec": dev(buildWhy),
		"nim":   {class: Dev, why: buildWhy, ops: []flag{publishes}},
		"nimble": {class: Dev, why: buildWhy,
			ops: []flag{raise("install uninstall", Dangerous, "installs for the user"), publishes}},
		"crystal": dev(buildWhy),
		"shards":  dev("fetches the project's dependencies"),
		"xcodebuild": {class: Dev, why: buildWhy, flags: []flag{raise("-exportArchive", Dev, "exports an archive"),
			raise("-runFirstLaunch -license -downloadPlatform -downloadAllPlatforms -importPlatform", Dangerous,
				"installs system packages or accepts the license for the machine")}},
		"pod": {class: Dev, why: "fetches the project's dependencies",
			sub: map[string]*rule{"trunk": dangerous("publishes or registers pods"),
				"repo": dangerous("changes the pod sources"), "search": dev("queries the registry")},
			open: true},
		"pip-compile": dev("pins the project's dependencies"),
		"pip-sync":    dev("installs the project's pinned dependencies"),
		"rye": {class: Dev, why: "manages the project",
			sub: map[string]*rule{"publish": dangerous("publishes the package"),
				"install": dangerous("installs a tool for the user"), "self": dangerous("changes rye itself")},
			open: true},
		"openapi-generator-cli": dev("generates code"),
		"openapi-generator":     dev("generates code"),
		"swagger-codegen":       dev("generates code"),
		// Data pipelines and experiment tracking of the project.
		"dvc": {class: Dev, why: "runs the project's data pipeline",
			sub: map[string]*rule{"push": dangerous("uploads data to the remote"),
				"gc": dangerous("deletes cached data"), "destroy": dangerous("deletes the project's DVC data"),
				"status": safe("shows the pipeline"), "dag": safe("shows the pipeline"),
				"remote": {class: Dangerous, why: "changes where data goes or its credentials",
					sub: map[string]*rule{"add": dev("names a remote for the project's data"),
						"list": safe("lists remotes"), "default": dev("picks the project's remote")}}},
			open: true},
		"mlflow": {class: Dev, why: "runs the project's experiment tracking",
			sub: map[string]*rule{
				"run": {class: Dev, why: "runs an MLflow project", check: (*walker).mlflowRun},
				"gc":  dangerous("deletes deleted runs and their artifacts for good"),
				"experiments": {class: Dev, why: "manages experiments",
					sub: map[string]*rule{"delete": dangerous("deletes an experiment")}, open: true},
				"runs": {class: Dev, why: "manages runs",
					sub: map[string]*rule{"delete": dangerous("deletes a run")}, open: true}},
			open: true},
		// Development environments and local runners of CI.
		"vagrant": {class: Dev, why: "manages the project's development VM",
			sub: map[string]*rule{"destroy": dangerous("deletes the VM and its disk"),
				"box":    dangerous("changes the boxes installed for the user"),
				"plugin": dangerous("installs plugins for the user"), "status": safe("shows the VM"),
				"global-status": safe("shows the VMs"), "validate": safe("checks the Vagrantfile"),
				"init": {class: Dev, why: "writes a Vagrantfile",
					ops: []flag{raise("*/*", Dangerous, "names a box from a stranger's account")}}},
			open: true},
		"devcontainer": dev("builds or runs the project's dev container"),
		"devbox": {class: Dev, why: "runs the project's environment",
			sub: map[string]*rule{"global": dangerous("changes the user's global packages")}, open: true},
		"dagger": {class: Dev, why: "runs the project's pipeline", check: (*walker).daggerModule},
		"act":    dev("runs the project's workflows in local containers"),
		"buildah": {class: Dev, why: "builds images",
			sub: map[string]*rule{"push": dangerous("publishes an image"), "rm": dev("removes a working container"),
				"rmi": dev("removes images")},
			open: true},
		"molecule": dev("tests the project's roles in local instances"),
		"packer": {class: Dev, why: "checks image templates",
			sub: map[string]*rule{"build": dangerous("builds machine images in the cloud accounts it names"),
				"inspect": safe("shows a template")},
			open: true},
		// Cloud frameworks: synthesising, building and emulating are
		// local; deploying and deleting change the cloud.
		"cdk":        cloudFramework("synth diff ls list doctor init context metadata notices acknowledge watch"),
		"sam":        cloudFramework("build validate local init logs list"),
		"serverless": cloudFramework("package print offline invoke config plugin create info"),
		"sls":        cloudFramework("package print offline invoke config plugin create info"),
		"localstack": dev("runs local cloud emulators"),
		"supabase": {class: Dev, why: "runs the project's local stack",
			sub: map[string]*rule{
				"db": {class: Dev, why: "works on the local database", sub: map[string]*rule{
					"push": dangerous("changes the linked project's database"),
					"reset": {class: Dev, why: "resets the local database",
						flags: []flag{raise("--linked --db-url", Dangerous, "resets a remote database")}},
					"dump": {class: Dev, why: "dumps a database",
						flags: []flag{raise("--linked --db-url", Dangerous, "dumps a remote database")}},
				}, open: true},
				"functions": {class: Dev, why: "serves functions locally",
					sub: map[string]*rule{"deploy": dangerous("deploys functions"),
						"delete": dangerous("deletes functions")},
					open: true},
				"secrets":  dangerous("changes or lists the project's secrets"),
				"link":     dangerous("links a remote project"),
				"login":    dangerous("stores a login"),
				"projects": dangerous("manages remote projects"),
				"status":   safe("shows the local stack"),
			},
			open: true},
		// Image, sound and video converters: the last operand (or -o) is
		// what they write, the others what they read.
		"convert": {class: Safe, why: "converts images", write: writeLast, check: (*walker).mediaArgs},
		"magick": {class: Safe, why: "converts images", write: writeLast, check: (*walker).mediaArgs,
			sub: map[string]*rule{"identify": safe("inspects an image")}, open: true},
		"mogrify": {class: Dev, why: "rewrites images in place", write: writeAll, check: (*walker).mediaArgs,
			vals: "-path -format -resize -quality -strip -geometry -crop -rotate"},
		"ffmpeg": {class: Safe, why: "converts audio and video", write: writeLast, check: (*walker).mediaArgs,
			vals: "-i -f -c -codec -c:v -c:a -vcodec -acodec -b:v -b:a -r -s -t -ss -to -vf -af -filter_complex " +
				"-map -preset -crf -pix_fmt -ar -ac -loglevel -threads -metadata"},
		"sox":                 {class: Safe, why: "converts audio", write: writeLast, check: (*walker).mediaArgs},
		"optipng":             {class: Dev, why: "rewrites images in place", write: writeAll},
		"jpegoptim":           {class: Dev, why: "rewrites images in place", write: writeAll},
		"pngquant":            {class: Dev, why: "writes compressed images", write: writeAll, check: (*walker).outflag},
		"gifsicle":            {class: Safe, why: "converts GIFs", check: (*walker).outflag},
		"cwebp":               {class: Safe, why: "converts images", check: (*walker).outflag},
		"svgo":                {class: Dev, why: "rewrites SVGs", write: writeAll, check: (*walker).outflag},
		"qemu-system-x86_64":  qemuSystem(),
		"qemu-system-aarch64": qemuSystem(),
		"qemu-system-i386":    qemuSystem(),
		"qemu-system-arm":     qemuSystem(),
		"qemu-system-riscv64": qemuSystem(),
		// Runners whose operand may be a URL or a catalogue's alias: a
		// script from the network, run.
		"scala-cli": {class: Dev, why: "runs the project's code",
			sub:  map[string]*rule{"run": {class: Dev, why: "runs the project's code", check: (*walker).script1}},
			open: true, check: (*walker).script1},
		"groovy": {class: Dev, why: "runs the project's code", check: (*walker).script1,
			flags: []flag{raise("-e", Dangerous, "runs code that cannot be seen into")}},
		"jbang": {class: Dev, why: "runs the project's code", check: (*walker).jbang},
		"pixi": {class: Dev, why: "manages the project's environment",
			sub: map[string]*rule{
				"exec":   dangerous("fetches packages and runs a command from them, outside the project"),
				"global": dangerous("installs programs for the user"),
				"run":    runWith("the project's environment", "-e --environment --manifest-path", 0),
				"list":   safe("lists packages"),
				"info":   safe("shows the environment"),
			},
			open: true},
		"eget": {class: Dangerous, why: "downloads a program from a repository's releases",
			check: (*walker).markInstall},
		"kustomize": {class: Dev, why: "renders the project's manifests",
			sub: map[string]*rule{"edit": dev("edits the project's kustomization")}, open: true,
			check: (*walker).readerFlags},
		"helmfile": cloudFramework("diff template lint list status build deps repos fetch write-values show-dag " +
			"version"),
		"ansible-inventory": {class: Dev, why: "reads the project's inventory",
			flags: []flag{set("--graph", Safe, "draws the inventory's groups"),
				raise("--list --host -y --yaml --toml --export", Dangerous,
					"prints the inventory's variables, which may include secrets")}},
		// GitOps tools: reading what the cluster runs is a remote read;
		// syncing, suspending, deleting change it.
		"argocd": {class: Dangerous, why: remoteEdit, sub: map[string]*rule{
			"app":    gitopsVerbs("get list diff history logs manifests resources wait"),
			"appset": gitopsVerbs("get list"), "proj": gitopsVerbs("get list"), "repo": gitopsVerbs("get list"),
			"cluster": gitopsVerbs("get list"), "version": dev(remoteRead), "context": dev("lists contexts"),
		}, open: true},
		"flux": {class: Dangerous, why: remoteEdit, sub: map[string]*rule{
			"get": dev(remoteRead), "logs": dev(remoteRead), "check": dev(remoteRead), "version": dev(remoteRead),
			"tree": dev(remoteRead), "stats": dev(remoteRead), "diff": dev(remoteRead), "events": dev(remoteRead),
			"trace": dev(remoteRead), "export": dev(remoteRead), "build": dev("renders the project's manifests"),
		}, open: true},
		// Load testers and protocol clients: judged by the host they
		// reach, this machine or another.
		"ab":       netClient("measures a server's load"),
		"wrk":      netClient("measures a server's load"),
		"hey":      netClient("measures a server's load"),
		"vegeta":   netClient("measures a server's load"),
		"grpcurl":  netClient("calls a gRPC server"),
		"websocat": netClient("talks to a WebSocket server"),
		"k6":       {class: Dev, why: "runs the project's load test", check: (*walker).script1},
		"newman":   {class: Dev, why: "runs the project's API collection", check: (*walker).readerFlags},
		// Migration tools apply the project's migrations to a database:
		// a local one is dev work, rolling back, dropping or cleaning it
		// destroys data, another host's is remote state.
		"dbmate":    migrator(),
		"goose":     migrator(),
		"migrate":   migrator(),
		"flyway":    migrator(),
		"liquibase": migrator(),
		"sqitch":    migrator(),
		"atlas":     migrator(),
		// Procfile runners start the project's processes.
		"foreman": {class: Dev, why: "runs the project's processes",
			ops: []flag{raise("export", Dangerous, "installs system services")}},
		"overmind": dev("runs the project's processes"),
		"honcho": {class: Dev, why: "runs the project's processes",
			ops: []flag{raise("export", Dangerous, "installs system services")}},
		"caddy": {class: Dev, why: "serves the project",
			sub: map[string]*rule{"trust": dangerous("adds its authority to the system's trust store"),
				"untrust": dangerous("changes the system's trust store"), "fmt": dev("formats the Caddyfile"),
				"validate": safe("checks the Caddyfile"), "version": safe("prints its version")},
			open: true, check: (*walker).readerFlags},
		// Kubernetes helpers: listing contexts reads; switching one changes
		// what later commands reach, as use-context does.
		"kubectx": {class: Dangerous, why: "switches the context later commands use", bare: safe("lists contexts")},
		"kubens": {class: Dangerous, why: "switches the namespace later commands use",
			bare: safe("lists namespaces")},
		"stern":    dev(remoteRead),
		"kubetail": dev(remoteRead),
		"fnm": {class: Dev, why: "selects a Node version",
			sub: map[string]*rule{"install": dangerous("installs a Node version"),
				"uninstall": dangerous("removes a Node version"), "default": dangerous("changes the default version"),
				"list": safe("lists versions"), "ls": safe("lists versions"), "current": safe("shows the version"),
				"exec": runWith("a Node version", "--using", 0)},
			open: true},
		"reflex": {class: Dev, why: "runs a command when files change", kind: kindWrap, noscope: true,
			vals: "-r --regex -R --inverse-regex -g --glob -G --inverse-glob -c --config -d --decoration"},
		"step": {class: Dangerous, why: "manages certificates and authorities",
			sub: map[string]*rule{"certificate": {class: Dangerous, why: "manages certificates",
				sub: map[string]*rule{"inspect": named(safe("shows a certificate")),
					"verify":      named(safe("checks a certificate")),
					"fingerprint": named(safe("shows a fingerprint"))}, open: true}},
			open: true},
		"cfssl": {class: Dangerous, why: "manages certificates",
			sub: map[string]*rule{"certinfo": named(safe("shows a certificate")),
				"version": safe("prints its version")},
			open: true},
		// Profilers run the program they are given, or attach to one.
		"memray":  {class: Dev, why: "profiles the project's program", check: (*walker).profiled},
		"scalene": {class: Dev, why: "profiles the project's program", check: (*walker).profiled},
		"py-spy":  {class: Dev, why: "profiles a program", check: (*walker).profiled},
		"heaptrack": {class: Dev, why: "profiles a program", kind: kindWrap, noscope: true,
			vals:  "-o --output -p --pid",
			flags: []flag{raise("-p --pid", Dangerous, "attaches to a running process and reads what it holds")}},
		// Mobile development: devices and emulators attached to this
		// machine, the project's app on them.
		// An attached phone or emulator is a machine outside the
		// workspace: what installs, removes or writes there is dangerous;
		// asking it how it is, or copying from it, is not.
		"adb": {class: Dangerous, why: "changes the attached device or emulator",
			vals: "-s -t -H -P -L",
			sub: map[string]*rule{"devices": safe("lists devices"), "version": safe("prints its version"),
				"help": safe("prints help"), "get-state": safe("shows a device"),
				"get-serialno": safe("shows a device"), "get-devpath": safe("shows a device"),
				"logcat": {class: Dev, why: "reads a device's log", flags: []flag{
					set("-d", Safe, "prints a device's log and exits"),
					raise("-c --clear -f --file", Dangerous, "clears the device's log or writes a file on it")}},
				"pull":            {class: Dev, why: "copies files from a device", write: writeLast},
				"wait-for-device": dev("waits for a device"), "start-server": dev("starts adb's server"),
				"kill-server": dev("stops adb's server"), "forward": dev("forwards a local port"),
				"reverse": dev("forwards a device's port"), "reboot": dev("reboots the device"),
				"root": dangerous("restarts the device's daemon as root"), "disable-verity": dangerous("turns off a " +
					"device's verified boot"),
				"sideload": dangerous("installs a system update on the device"),
				"shell":    dangerous("runs commands on the device, as root on many")},
			open: true},
		"emulator": {class: Dev, why: "runs an Android emulator", flags: []flag{
			set("-list-avds -help -version", Safe, "lists emulators or prints help")}},
		"tensorboard":  {class: Dev, why: "serves the project's training logs", check: (*walker).readerFlags},
		"expo":         {class: Dev, why: buildWhy, ops: []flag{publishes}},
		"react-native": {class: Dev, why: buildWhy, ops: []flag{publishes}},
		"nvcc":         {class: Dev, why: "compiles code", check: (*walker).outflag},
		// Machine learning: the project's scripts, launched; models and
		// data fetched are downloads, pushed or uploaded ones publish.
		"papermill": {class: Dev, why: "runs the project's notebook", write: writeLast,
			vals: "-k --kernel -f --parameters_file -y --parameters_yaml -b --parameters_base64 --cwd --log-level " +
				"--language --engine --execution-timeout --start-timeout",
			vals2: "-p --parameters -r --parameters_raw", check: (*walker).papermill},
		"torchrun": {class: Dev, why: "runs the project's training script", check: (*walker).profiled},
		"accelerate": {class: Dev, why: "runs the project's training script", check: (*walker).profiled,
			ops: []flag{raise("config", Dev, "writes its settings")}},
		"huggingface-cli": {class: Dev, why: "downloads models and data",
			sub: map[string]*rule{"whoami": dev(remoteRead), "upload": dangerous("publishes files"),
				"login": dangerous("stores a token"), "logout": dev("forgets the token"),
				"repo": dangerous("changes repositories"), "delete-cache": dev("removes cached models")},
			open: true},
		"ollama": {class: Dev, why: "runs local models",
			sub: map[string]*rule{"list": safe("lists models"), "ps": safe("lists running models"),
				"show": safe("shows a model"), "push": dangerous("publishes a model"),
				"serve": {class: Dev, why: "serves local models", check: (*walker).readerFlags},
				"rm":    dev("deletes a local model")},
			open: true},
		"dbt": {class: Dev, why: "builds the project's models in its target database",
			flags: []flag{raise("--target=prod* --target=production* -t=prod*", Dangerous,
				"builds in the production database")},
			ops: []flag{raise("prod production", Dangerous, "names the production target"),
				destroys("runs a macro or model whose name says it destroys data")}},
		"spark-submit": {class: Dev, why: "runs the project's job", check: (*walker).profiled},
		// Local virtual machines for containers.
		"colima": dev("runs the local container VM"),
		"lima":   {class: Dev, why: "runs a command in the local VM", kind: kindWrap, noscope: true},
		"limactl": {class: Dev, why: "manages local VMs",
			sub:  map[string]*rule{"delete": dangerous("deletes a VM and its disk"), "list": safe("lists VMs")},
			open: true},
		"patchelf": {class: Dev, why: "rewrites a binary's headers", write: writeAll,
			flags: []flag{set("--print-rpath --print-interpreter --print-needed --print-soname --print-os-abi",
				Safe, "prints a binary's headers")},
			stdout: "--print-rpath --print-interpreter --print-needed --print-soname --print-os-abi"},
		"plantuml": {class: Dev, why: "renders diagrams beside their sources", check: (*walker).readerFlags},
		"d2":       {class: Dev, why: "renders a diagram", write: writeLast, check: (*walker).readerFlags},
		"qpdf": {class: Dev, why: "rewrites a PDF", write: writeLast,
			flags:  []flag{set("--check --show-npages --show-encryption --json --show-pages", Safe, "inspects a PDF")},
			stdout: "--check --show-npages --show-encryption --json --show-pages"},
		"mutool": {class: Dev, why: "converts or rewrites a document", check: (*walker).outflag,
			sub: map[string]*rule{"info": safe("inspects a document"), "pages": safe("inspects a document"),
				"show": safe("prints a document's objects")},
			open: true},
		"exiv2": {class: Dangerous, why: "rewrites an image's metadata",
			sub: map[string]*rule{"pr": safe("prints an image's metadata"),
				"print": safe("prints an image's metadata")},
			open: true, bare: safe("prints its usage")},
		"bear": {class: Dev, why: "records the project's build", check: (*walker).afterDashes},
		"ccache": {class: Dev, why: "manages the compiler cache",
			flags: []flag{set("-s --show-stats -p --show-config -V", Safe, "shows the cache")}},
		"sccache": {class: Dev, why: "manages the compiler cache",
			flags: []flag{set("-s --show-stats", Safe, "shows the cache")}},
		"conan": {class: Dev, why: "fetches the project's dependencies",
			sub: map[string]*rule{"upload": dangerous("publishes packages"),
				"remote":  dangerous("changes package sources"),
				"profile": dev("manages build profiles"), "search": dev("queries the remotes")},
			open: true},
		"vcpkg": {class: Dev, why: "fetches the project's dependencies",
			sub: map[string]*rule{"integrate": dangerous("changes the build setup for every project"),
				"list": safe("lists packages")},
			open: true},
		"rbenv":  versionManager("Ruby"),
		"nodenv": versionManager("Node"),
		"goenv":  versionManager("Go"),
		"jenv":   versionManager("Java"),
	}
}

// dartPub is dart pub and flutter pub: the project's dependencies, and a
// global activation that installs a tool for the user.
func dartPub() *rule {
	return &rule{
		class: Dev,
		why:   "fetches the project's dependencies",
		sub: map[string]*rule{
			"deps":     safe("lists dependencies"),
			"outdated": dev("checks the registry for updates"),
			"global":   dangerous("installs or runs a tool for the user"),
			"publish": {class: Dangerous, why: "publishes the package",
				dry: flag{match: "-n --dry-run", class: Dev, why: dryRunWhy}},
			"token": dangerous("stores or prints a registry token"),
		},
		open: true,
	}
}

// versionManager is rbenv and its kin, which pyenv's rule describes.
func versionManager(lang string) *rule {
	return &rule{
		class: Dev,
		why:   "selects a " + lang + " version",
		sub: map[string]*rule{
			"versions":  safe("lists versions"),
			"version":   safe("shows the version"),
			"which":     safe("finds a program"),
			"exec":      runWith("a "+lang+" version", "", 0),
			"install":   dangerous("installs a " + lang + " version"),
			"uninstall": dangerous("removes a " + lang + " version"),
			"global":    dangerous("changes the default version"),
		},
		open: true,
	}
}

// mkcertFiles judges the files mkcert writes: -cert-file, -key-file,
// -p12-file.
func (w *walker) mkcertFiles(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		name, v, hasV := strings.Cut(args[i].s, "=")
		switch strings.TrimPrefix(name, "-") {
		case "cert-file", "key-file", "p12-file", "-cert-file", "-key-file", "-p12-file":
			if !hasV && i+1 < len(args) {
				i++
				v = args[i].s
			}
			w.writeTo(v, chain+" "+name, v)
		}
	}
}

// cloudFramework is cdk, sam and serverless: the listed subcommands work
// on the project here; anything else (deploy, destroy, remove, bootstrap,
// sync) changes the cloud account.
func cloudFramework(local string) *rule {
	r := &rule{class: Dangerous, why: "deploys to or changes the cloud account", sub: map[string]*rule{}, open: true}
	for v := range strings.FieldsSeq(local) {
		r.sub[v] = dev("works on the project locally")
	}
	return r
}

// arLib judges ar's archive, its first operand after the key letters.
func (w *walker) arLib(chain string, args []arg, io ioInfo) {
	ops := scan(&rule{}, args)
	if len(ops) < 2 {
		return
	}
	key := strings.TrimPrefix(args[ops[0]].s, "-")
	if strings.ContainsAny(key, "dmqrs") {
		w.writeTo(args[ops[1]].s, chain, args[ops[1]].text)
	}
}

// daggerModule judges dagger -m REF: a module from a repository is code
// from the network run.
func (w *walker) daggerModule(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		name, v, hasV := strings.Cut(args[i].s, "=")
		if name != "-m" && name != "--mod" {
			continue
		}
		if !hasV && i+1 < len(args) {
			i++
			v = args[i].s
		}
		if strings.Contains(v, "://") || strings.HasPrefix(v, "github.com/") || strings.HasPrefix(v, "gitlab.com/") ||
			strings.HasPrefix(v, "git@") {
			w.res.add(Blocked, "`"+chain+" -m "+v+"`: runs a module fetched from a repository")
		}
	}
}

// jbang judges the script jbang runs: a file of the project is dev; a URL
// or a catalogue's alias (hello@someone) is code from the network.
func (w *walker) jbang(chain string, args []arg, io ioInfo) {
	ops := scan(&rule{vals: "--deps --repos --cp --class-path -D --java --main -m"}, args)
	if len(ops) == 0 {
		return
	}
	a := args[ops[0]]
	switch a.s {
	case "run", "edit", "build":
		if len(ops) < 2 {
			return
		}
		a = args[ops[1]]
	case "app", "trust", "catalog", "alias", "jdk":
		w.res.add(Dangerous, "`"+chain+" "+a.s+"`: changes what jbang trusts or installs for the user")
		return
	case "template", "init", "export", "info", "version", "cache":
		return
	}
	if strings.Contains(a.s, "@") && !strings.Contains(a.s, "/") || strings.Contains(a.s, "://") {
		w.res.add(Blocked, "`"+chain+" "+a.text+"`: downloads a script and runs it")
		return
	}
	w.runFile(a.s, a.text, "java")
}

// markInstall records a program installed from the network: a command
// later in the string that the table does not know may be it.
func (w *walker) markInstall(chain string, args []arg, io ioInfo) {
	w.shared.urlInstall = true
}

// mediaArgs judges a converter's arguments: ImageMagick runs the command a
// name starting with | gives, and any of them reads a URL from the
// network.
func (w *walker) mediaArgs(chain string, args []arg, io ioInfo) {
	for _, a := range args[1:] {
		switch {
		case strings.HasPrefix(a.s, "|"):
			w.res.add(Dangerous, "`"+chain+" "+a.text+"`: runs the command its file name gives")
			w.nested(a.s[1:], input{})
		case strings.Contains(a.s, "://") && !strings.HasPrefix(a.s, "file://"):
			if host, ok := urlHost(a.s); !ok || !localHost(host) {
				w.res.add(Dangerous, "`"+chain+" "+a.text+"`: reads from the network")
			}
		}
	}
}

// qemuSystem runs a virtual machine on the project's image files; a raw
// disk given to it is written by the guest.
func qemuSystem() *rule {
	return &rule{class: Dev, why: "runs a virtual machine", check: (*walker).qemuDisks, names: true}
}

// qemuDisks judges the disks a VM gets: a raw disk of this machine, by any
// option (-hda /dev/sda, -drive file=/dev/sdb), is blocked as any write
// of one is; an image outside the workspace is dangerous.
func (w *walker) qemuDisks(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		v := args[i].s
		if strings.HasPrefix(v, "-") {
			continue
		}
		for _, part := range strings.Split(v, ",") {
			if _, f, ok := strings.Cut(part, "file="); ok {
				part = f
			}
			if !strings.Contains(part, "/") && !strings.Contains(part, ".") {
				continue
			}
			p, ok := w.abs(part)
			switch {
			case !ok:
			case strings.HasPrefix(p, "/dev/") && rawDevice.Get().MatchString(p):
				w.res.add(Blocked, "`"+chain+" "+args[i].text+"`: gives a virtual machine a raw disk to write")
			case strings.HasPrefix(args[i-1].s, "-hd") || strings.HasPrefix(args[i-1].s, "-drive") ||
				args[i-1].s == "-cdrom":
				if !w.inside(p) && p != w.ws.Dir && !strings.HasPrefix(p, "/dev/") {
					w.res.add(Dangerous, "`"+chain+" "+args[i].text+"`: runs a disk image outside the workspace")
				}
			}
		}
	}
}

// gitopsVerbs is a GitOps tool's object: the verbs in reads read what the
// cluster runs; any other changes it.
func gitopsVerbs(reads string) *rule {
	r := &rule{class: Dangerous, why: remoteEdit, sub: map[string]*rule{}, open: true}
	for v := range strings.FieldsSeq(reads) {
		r.sub[v] = dev(remoteRead)
	}
	return r
}

// netClient is a client judged by the hosts its operands name: this
// machine is dev work, another host network access (dangerous).
func netClient(why string) *rule {
	return &rule{class: Dev, why: why, check: (*walker).clientHosts}
}

// clientHosts judges the hosts a network client's operands name
// (http://x, ws://x, host:port).
func (w *walker) clientHosts(chain string, args []arg, io ioInfo) {
	for _, a := range args[1:] {
		s := a.s
		if strings.HasPrefix(s, "-") || !strings.Contains(s, "://") && !strings.Contains(s, ":") {
			continue
		}
		if host, ok := urlHost(s); !ok || !localHost(host) {
			w.res.add(Dangerous, "`"+chain+" "+a.text+"`: reaches another machine")
		}
	}
}

// migrator is a database migration tool (see devToolCommands).
func migrator() *rule {
	return &rule{
		class: Dev,
		why:   "applies the project's migrations",
		ops: []flag{raise("down down-to drop reset clean rollback redo undo wipe destroy force fix repair",
			Dangerous, "rolls back, drops or cleans the database")},
		check: (*walker).migratorDB,
	}
}

// migratorDB judges the database a migration tool is pointed at: a URL
// of another host, or one not known before running, is remote state.
func (w *walker) migratorDB(chain string, args []arg, io ioInfo) {
	for _, a := range args[1:] {
		v := a.s
		if _, after, ok := strings.Cut(v, "="); ok && strings.HasPrefix(v, "-") {
			v = after
		}
		if hasHole(v) && (strings.Contains(a.text, "URL") || strings.Contains(a.text, "DSN") ||
			strings.Contains(a.text, "DATABASE")) {
			w.res.add(Dangerous, "`"+chain+" "+a.text+"`: changes a database not known before running")
			continue
		}
		if strings.Contains(v, "://") || strings.Contains(v, "host=") || strings.Contains(v, "@tcp(") {
			tcp := strings.Contains(v, "@tcp(") && !strings.Contains(v, "@tcp(localhost") &&
				!strings.Contains(v, "@tcp(127.0.0.1")
			if !sqlLocal([]arg{{s: chain}, {s: v}}) || tcp {
				w.res.add(Dangerous, "`"+chain+"`: changes the database of another host")
			}
		}
	}
}

// profiled judges memray, scalene and py-spy: the program they run
// (memray run app.py, py-spy record -- python x.py) is judged; attaching
// to a running process (--pid) reads what it holds.
func (w *walker) profiled(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		a := args[i].s
		switch {
		case a == "--pid" || a == "-p" || strings.HasPrefix(a, "--pid="):
			w.res.add(Dangerous, "`"+chain+" "+a+"`: attaches to a running process and reads what it holds")
			return
		case a == "--":
			if i+1 < len(args) {
				w.exec(args[i+1:], io)
			}
			return
		case strings.HasSuffix(a, ".py"):
			w.runFile(a, args[i].text, "python")
			return
		}
	}
}

// afterDashes judges the command after -- (bear -- make).
func (w *walker) afterDashes(chain string, args []arg, io ioInfo) {
	for i, a := range args {
		if a.s == "--" && i+1 < len(args) {
			w.exec(args[i+1:], io)
			return
		}
	}
}
