package danger

import "strings"

// devToolCommands are the everyday tools of languages and frameworks the
// other domains do not cover: SDKs whose subcommands build, test and
// fetch the project's dependencies; formatters that print unless told to
// rewrite; local clusters and their dev loops; hook managers. Their
// global forms (an SDK's upgrade, a global activation, a deploy to the
// current cluster, a certificate authority added to the system) are
// dangerous, as everywhere.
func devToolCommands() map[string]*rule {
	publishes := raise("publish* deploy* release* upload*", Dangerous, "publishes or deploys")
	return map[string]*rule{
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
			sub:   map[string]*rule{"get": safe("lists local clusters"), "version": safe("prints its version")},
			open:  true,
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
			},
			open: true,
		},
		// Tilt refuses clusters that are not local unless the project
		// allows them; skaffold run, deploy and delete act on whatever
		// cluster the context names.
		"tilt": dev("runs the project's dev loop on a local cluster"),
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
