package danger

import (
	"os"
	"path"
	"slices"
	"strings"

	"github.com/qsh-shell/qsh/internal/lazy"
)

// Code from elsewhere: which commands print what another machine holds,
// which copy it into files here, and which commands run those files. Run,
// it is download-and-run by another name (blocked), however it came.

// remoteReaders print what another machine holds: a remote shell, DNS,
// cloud and code-host CLIs, network sockets. Database clients count when
// they name another host.
var remoteReaders = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return nameSet("ssh dig host nslookup drill whois gh glab aws gcloud gsutil az s3cmd mc rclone kubectl oc " +
		"nc ncat netcat socat telnet openssl ftp tftp lftp smbclient ldapsearch snmpget")
}}

// dbClients print what a database server holds.
var dbClients = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return nameSet("redis-cli psql mysql mariadb mongosh mongo sqlcmd clickhouse-client cqlsh valkey-cli")
}}

// remoteOutput reports whether what the command prints comes from
// another machine.
func remoteOutput(name string, args []string) bool {
	switch {
	case fetchers.Get()[name] || remoteReaders.Get()[name]:
		return true
	case dbClients.Get()[name]:
		for i, a := range args {
			host, ok := "", false
			switch {
			case (a == "-h" || a == "--host" || a == "-H") && i+1 < len(args):
				host, ok = args[i+1], true
			case strings.HasPrefix(a, "--host="):
				host, ok = strings.TrimPrefix(a, "--host="), true
			case strings.Contains(a, "://"):
				host, ok = urlHost(a)
			}
			if ok && !localHost(host) {
				return true
			}
		}
	}
	return false
}

// remoteCopy records the files a copy from another machine writes here
// (scp host:x ., rsync host:x dir/, aws s3 cp s3://b/x ., kubectl cp
// pod:x .): what they hold was downloaded.
func (w *walker) remoteCopy(srcs []string, dest string, recursive bool) {
	remote := slices.ContainsFunc(srcs, remotePath)
	if !remote || remotePath(dest) {
		return
	}
	p, ok := w.abs(dest)
	if !ok {
		return
	}
	into := dest == "." || dest == ".." || strings.HasSuffix(dest, "/") || len(srcs) > 1
	if fi, err := os.Stat(p); err == nil && fi.IsDir() {
		into = true
	}
	if !into {
		if w.shared.download(p); recursive {
			w.shared.dlDirs = append(w.shared.dlDirs, p)
		}
		return
	}
	for _, s := range srcs {
		if strings.HasSuffix(s, "/") && recursive {
			// rsync host:dir/ dest/: dir's content lands in dest.
			w.shared.dlDirs = append(w.shared.dlDirs, p)
			continue
		}
		rest := s
		if i := strings.Index(s, "://"); i >= 0 {
			rest = s[i+3:]
		} else if _, r, ok := strings.Cut(s, ":"); ok {
			rest = r
		}
		if base := path.Base(strings.TrimRight(rest, "/")); base != "." && base != "/" && base != "" {
			t := path.Join(p, base)
			if w.shared.download(t); recursive {
				w.shared.dlDirs = append(w.shared.dlDirs, t)
			}
		}
	}
}

// remotePath reports a copy operand on another machine: host:path,
// user@host:path, s3://…, gs://…, remote:path of rclone.
func remotePath(s string) bool {
	if strings.Contains(s, "://") {
		return !strings.HasPrefix(s, "file://")
	}
	host, _, ok := strings.Cut(s, ":")
	return ok && host != "" && !strings.Contains(host, "/")
}

// projectFiles are the files of a project that a tool runs as code when
// run in its directory: make runs the Makefile's recipes, pytest imports
// conftest.py, npm install runs package.json's scripts.
var projectFiles = lazy.Value[map[string][]string]{Build: func() map[string][]string {
	js := []string{"package.json", ".npmrc", ".yarnrc.yml", ".pnpmfile.cjs"}
	py := []string{"setup.py", "pyproject.toml", "setup.cfg", "conftest.py", "noxfile.py", "tox.ini"}
	compose := []string{"compose.yml", "compose.yaml", "docker-compose.yml", "docker-compose.yaml", "Dockerfile"}
	return map[string][]string{
		"make": {"Makefile", "makefile", "GNUmakefile"}, "just": {"justfile", "Justfile", ".justfile"},
		"task": {"Taskfile.yml", "Taskfile.yaml"}, "rake": {"Rakefile"}, "bundle": {"Gemfile"},
		"npm": js, "yarn": js, "pnpm": js, "bun": js, "npx": js,
		"pytest": py, "pip": py, "pip3": py, "python": py, "python3": py, "tox": py, "nox": py, "uv": py,
		"poetry": py, "hatch": py, "pdm": py,
		"cargo": {"Cargo.toml", "build.rs"}, "go": {"go.mod"}, "mvn": {"pom.xml"},
		"gradle":    {"build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts"},
		"./gradlew": {"gradlew", "build.gradle", "build.gradle.kts"}, "cmake": {"CMakeLists.txt"},
		"meson": {"meson.build"}, "composer": {"composer.json"}, "docker": compose, "docker-compose": compose,
		"podman": compose, "podman-compose": compose, "vagrant": {"Vagrantfile"}, "tilt": {"Tiltfile"},
		"terraform": {"main.tf"}, "tofu": {"main.tf"}, "direnv": {".envrc"}, "deno": {"deno.json"},
	}
}}

// runsDownloaded judges a tool run in a directory where this string
// downloaded a file the tool runs as code (curl -o Makefile … && make),
// and a command found on PATH that the string downloaded there.
func (w *walker) runsDownloaded(name string, args []arg) {
	if len(w.shared.downloads) == 0 && len(w.shared.dlDirs) == 0 {
		return
	}
	if !strings.Contains(name, "/") {
		for _, dir := range []string{"/usr/local/bin", "/usr/bin", "/bin", "/usr/local/sbin", "/usr/sbin",
			path.Join(w.ws.Home, "bin"), path.Join(w.ws.Home, ".local/bin")} {
			if w.shared.downloads[path.Join(dir, name)] {
				w.res.add(Blocked, "`"+name+"`: runs `"+path.Join(dir, name)+"`, which this command downloads")
				return
			}
		}
	}
	dir := w.cwd
	for i, a := range args {
		// -f FILE, -C DIR, --file FILE: the tool's file or directory.
		if i+1 < len(args) && (a.s == "-C" || a.s == "--directory" || a.s == "--project-directory") {
			if p, ok := w.abs(args[i+1].s); ok {
				dir = p
			}
		}
		if i+1 < len(args) && (a.s == "-f" || a.s == "--file" || a.s == "--makefile") {
			if p, ok := w.abs(args[i+1].s); ok && w.downloaded(p) {
				w.res.add(Blocked, "`"+name+" "+a.text+" "+args[i+1].text+"`: runs a file this command downloads")
				return
			}
		}
	}
	if dir == "" {
		return
	}
	// Only a file fetched by itself: building a whole repository that
	// was cloned is the everyday work the definitions call dev.
	for _, f := range projectFiles.Get()[name] {
		if p := path.Join(dir, f); w.shared.downloads[p] {
			w.res.add(Blocked, "`"+name+"`: runs `"+f+"`, which this command downloads")
			return
		}
	}
}

// downloaded reports a file this string fetched, or one in a directory a
// download was unpacked or copied into.
func (w *walker) downloaded(p string) bool {
	return w.shared.downloads[p] ||
		slices.ContainsFunc(w.shared.dlDirs, func(d string) bool { return under(p, d) && p != d })
}

// saves records the files a download manager writes (aria2c -o/-d,
// axel -o, lwp-download URL FILE; by default the URL's last name), for
// what runs them later.
func (w *walker) saves(chain string, args []arg, io ioInfo) {
	out, dir := "", "."
	var urls []string
	for i := 1; i < len(args); i++ {
		a := args[i].s
		flag, v, hasV := strings.Cut(a, "=")
		next := func() string {
			if hasV {
				return v
			}
			if i+1 < len(args) {
				i++
				return args[i].s
			}
			return ""
		}
		switch {
		case flag == "-o" || flag == "--out" || flag == "--output":
			out = next()
		case flag == "-d" || flag == "--dir":
			dir = next()
		case strings.HasPrefix(a, "-"):
			if flag == "-i" || flag == "--input-file" || flag == "-n" || flag == "-s" || flag == "-x" ||
				flag == "-j" || flag == "-k" || flag == "-H" || flag == "--header" || flag == "-U" {
				next()
			}
		case strings.Contains(a, "://") || chain == "lwp-download" && len(urls) == 0:
			urls = append(urls, a)
		case chain == "lwp-download":
			out = a
		}
	}
	if out == "" && len(urls) > 0 {
		out = path.Base(strings.SplitN(strings.SplitN(urls[0], "?", 2)[0], "#", 2)[0])
	}
	if out != "" && !path.IsAbs(out) && dir != "." {
		out = path.Join(dir, out)
	}
	if out != "" {
		w.download(out, chain)
	}
	for _, u := range urls {
		if host, ok := urlHost(u); ok {
			w.res.add(Dangerous, "`"+chain+"` to `"+host+"`: network access")
		}
	}
}

// template judges a template runner (cookiecutter, copier, cargo
// generate) by where its template comes from: rendered, a template runs
// its hooks, so one from another machine is download-and-run.
func (w *walker) template(chain string, args []arg, io ioInfo) {
	src := ""
	for i := 1; i < len(args); i++ {
		a := args[i].s
		switch {
		case a == "--git" || a == "-g" && firstWord(chain) == "cargo":
			if i+1 < len(args) {
				src = args[i+1].s
			}
			i++
		case strings.HasPrefix(a, "--git="):
			src = strings.TrimPrefix(a, "--git=")
		case strings.HasPrefix(a, "-"):
			if matchFlag("-o --output-dir --name -n --config-file --directory --checkout -c --data -d --vcs-ref "+
				"--answers-file -a --branch -b --tag --path", a) && !strings.Contains(a, "=") {
				i++
			}
		case src == "" && a != "copy" && a != "update" && a != "recopy":
			src = a
		}
	}
	remote := strings.Contains(src, "://") || strings.HasPrefix(src, "git@") || strings.HasPrefix(src, "git+") ||
		strings.HasPrefix(src, "gh:") || strings.HasPrefix(src, "gl:") || strings.HasPrefix(src, "bb:") ||
		firstWord(chain) == "cargo" && strings.Count(src, "/") == 1 && !strings.HasPrefix(src, ".")
	switch {
	case src == "":
	case remote:
		w.res.add(Blocked, "`"+chain+" "+src+"`: renders a template fetched from elsewhere and runs its hooks")
	default:
		if p, ok := w.abs(src); !ok || !w.inside(p) && p != w.ws.Dir {
			w.res.add(Dangerous, "`"+chain+" "+src+"`: runs the hooks of a template outside the workspace")
		}
	}
}

// miseTools judges the tools mise exec is told to provide: a backend's
// (ubi:, github:, npm:, cargo: …) is a program fetched from a repository
// or registry and run, as npx of a package the project lacks; a core
// tool's version is a toolchain fetched fresh.
func (w *walker) miseTools(chain string, args []arg, io ioInfo) {
	for _, a := range args[1:] {
		if a.s == "--" {
			return
		}
		if strings.HasPrefix(a.s, "-") {
			continue
		}
		if backend, _, ok := strings.Cut(a.s, ":"); ok && backend != "" && !strings.Contains(backend, "/") {
			w.res.add(Blocked, "`"+chain+" "+a.text+"`: fetches a program from "+backend+" and runs it")
			return
		}
		if strings.Contains(a.s, "@") {
			w.res.add(Dangerous, "`"+chain+" "+a.text+"`: fetches a toolchain and runs it, outside the project")
		}
	}
}

// releaseAssets records what gh release download writes: -O FILE, the
// assets -p names (a literal name), or everything under -D DIR.
func (w *walker) releaseAssets(chain string, args []arg, io ioInfo) {
	dir := "."
	var names []string
	for i := 1; i+1 < len(args); i++ {
		switch a, v := args[i].s, args[i+1].s; a {
		case "-O", "--output":
			w.download(v, chain)
			return
		case "-D", "--dir":
			dir = v
		case "-p", "--pattern":
			names = append(names, v)
		}
	}
	p, ok := w.abs(dir)
	if !ok {
		return
	}
	if dir != "." && p != w.cwd && p != w.ws.Dir {
		w.shared.dlDirs = append(w.shared.dlDirs, p)
	}
	for _, n := range names {
		if !hasGlob(n) {
			w.shared.download(path.Join(p, n))
		}
	}
}

// installers install package files they are given.
var installers = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return nameSet("dpkg apt apt-get aptitude yum dnf rpm zypper pacman pip pip3 pipx uv npm pnpm yarn bun gem " +
		"snap flatpak brew installer port pkg apk cargo")
}}

// installsDownloaded judges a package manager given a package file this
// string downloaded: installing runs the package's own scripts (dpkg's
// maintainer scripts, setup.py, npm's install scripts).
func (w *walker) installsDownloaded(chain string, args []arg) {
	for _, a := range args[1:] {
		if p, ok := w.abs(a.s); ok && w.downloaded(p) {
			w.res.add(Blocked, "`"+chain+" "+a.text+"`: installs a package this command downloads, which runs "+
				"its scripts")
			return
		}
	}
}
