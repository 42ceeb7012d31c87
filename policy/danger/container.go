package danger

import (
	"io"
	"os"
	"path"
	"strings"

	"github.com/qsh-shell/qsh/internal/lazy"
	"github.com/qsh-shell/qsh/policy/secret"
)

// Containers: what a container does to itself is its own business; what
// it does to the host's files it is given (-v, --mount) and the powers it
// is given over the host (--privileged, --pid=host …) are the user's.

// box is the view of paths from inside a container: mounted host
// directories, and the container's own files, which stand in a scratch
// directory no rule cares about.
type box struct {
	mounts []mount
	hit    bool // a path led through a mount to the host
}

type mount struct{ host, container string }

// scratch is where the container's own files are judged to be.
const scratch = "/qsh-container"

// hostPath maps a container path to the host.
func (b *box) hostPath(p string) string {
	best := -1
	for i, m := range b.mounts {
		if under(p, m.container) && (best < 0 || len(m.container) > len(b.mounts[best].container)) {
			best = i
		}
	}
	if best < 0 {
		return scratch + p
	}
	b.hit = true
	m := b.mounts[best]
	// path.Join: a mount at / (TrimPrefix leaves no slash) joins as well
	// as one at /app.
	return path.Join(m.host, strings.TrimPrefix(p, m.container))
}

// hostPowers are docker run options that give a container power over the
// host; each is dangerous.
func hostPowers(a, next string) bool {
	name, v, ok := strings.Cut(a, "=")
	if !ok {
		v = next
	}
	switch name {
	case "--privileged":
		return true
	case "--cap-add", "--device", "--device-cgroup-rule":
		return true
	case "--pid", "--net", "--network", "--ipc", "--uts", "--userns", "--cgroupns":
		return v == "host"
	case "--security-opt":
		return strings.Contains(v, "unconfined") || strings.Contains(v, "disable")
	case "--volumes-from":
		return true
	}
	return false
}

// containersNamed: stopping the project's container by name is dev; a
// list not known before running ($(docker ps -q)) is at worst every
// container on the machine, other projects' and services' too.
func (w *walker) containersNamed(chain string, args []arg, io ioInfo) {
	for _, i := range scan(&rule{vals: "-t --time -s --signal"}, args) {
		if hasHole(args[i].s) {
			w.res.add(Dangerous, "`"+chain+" "+args[i].text+"`: acts on containers not known before running, "+
				"at worst every container on the machine")
			return
		}
	}
}

// publishesAll reports whether docker's -p value binds every interface:
// an address of 0.0.0.0 or ::, or none, which docker takes for 0.0.0.0
// (-p 8080:80 listens as -p 0.0.0.0:8080:80 does).
func publishesAll(v string) bool {
	v, _, _ = strings.Cut(v, "/") // the protocol
	if strings.HasPrefix(v, "[") {
		host, _, _ := strings.Cut(strings.TrimPrefix(v, "["), "]")
		return host == "::" || host == ""
	}
	parts := strings.Split(v, ":")
	if len(parts) < 3 {
		return true
	}
	return parts[0] == "0.0.0.0" || parts[0] == "" || hasHole(parts[0])
}

// dockerRun judges docker (podman) run and create: the host paths it
// mounts, the powers it gives, and what the command inside does to the
// mounts.
func (w *walker) dockerRun(chain string, args []arg, io ioInfo) {
	b := &box{}
	workdir := "/"
	// With -i the container's command reads this command's input.
	stdin := input{}
	envFile := false
	for i := 1; i < len(args); i++ {
		a := args[i].s
		next := ""
		if i+1 < len(args) {
			next = args[i+1].s
		}
		name, inline, hasInline := strings.Cut(a, "=")
		val := ""
		switch {
		case hostPowers(a, next):
			w.res.add(Dangerous, "`"+chain+" "+a+"`: gives the container power over the host")
			dev := inline
			if !hasInline && name != "--privileged" && strings.HasPrefix(name, "--") {
				dev = next
				i++
			}
			// A device given to the container is the host's device inside
			// it, as a mount is: dd of=/dev/sda there writes the host disk.
			switch name {
			case "--privileged":
				b.mounts = append(b.mounts, mount{host: "/dev", container: "/dev"})
			case "--device":
				host, inside, _ := strings.Cut(dev, ":")
				inside, _, _ = strings.Cut(inside, ":")
				if inside == "" {
					inside = host
				}
				if strings.HasPrefix(host, "/") && strings.HasPrefix(inside, "/") {
					b.mounts = append(b.mounts, mount{host: path.Clean(host), container: path.Clean(inside)})
				}
			}
			continue
		case a == "-p" || a == "--publish" || name == "--publish" && hasInline:
			v := inline
			if !hasInline {
				v = next
				i++
			}
			if publishesAll(v) {
				w.res.add(Dangerous, "`"+chain+" -p "+v+"`: publishes a port on every network interface")
			}
			continue
		case a == "-P" || a == "--publish-all":
			w.res.add(Dangerous, "`"+chain+" "+a+"`: publishes ports on every network interface")
			continue
		case a == "-e" || a == "--env" || name == "--env":
			v := inline
			if !hasInline {
				v = next
				i++
			}
			// -e NAME=value written here gives what the command shows;
			// -e NAME (or a value not known) passes the user's secret.
			if n, val, given := strings.Cut(v, "="); secret.Var(n) && (!given || hasHole(val)) {
				w.res.add(Dangerous, "`"+chain+" -e "+n+"`: gives the container a secret, and what it prints "+
					"reaches the model")
			}
			continue
		case a == "--env-file" || name == "--env-file":
			envFile = true
			if !hasInline {
				i++
			}
			continue
		case a == "-i" || a == "--interactive" || a == "-it" || a == "-ti":
			stdin = io.in
			continue
		case a == "-w" || a == "--workdir" || name == "--workdir":
			workdir = inline
			if !hasInline {
				workdir = next
				i++
			}
			continue
		case a == "-v" || a == "--volume" || a == "--mount":
			val = next
			i++
		case name == "--volume" || name == "--mount":
			val = inline
		case !strings.HasPrefix(a, "-"):
			// The image; the rest is the command the container runs.
			w.image(chain, args[i])
			if envFile && i+1 < len(args) && printsEnv(args[i+1:]) {
				w.discloses("`" + chain + " --env-file`: the container prints the environment the file gave it")
			}
			if i+1 < len(args) {
				w.inContainer(chain, b, workdir, args[i+1:], stdin)
			}
			return
		default:
			if takesValue(commands.Get()["docker"].sub["run"].vals, a) {
				i++
			}
			continue
		}
		w.dockerMount(chain, b, val)
	}
}

// printsEnv reports whether a container's command may print what its
// environment holds: env, printenv, /proc/self/environ, process.env,
// os.environ, a variable expanded.
func printsEnv(cmd []arg) bool {
	parts := make([]string, len(cmd))
	for i, a := range cmd {
		parts[i] = a.s
	}
	return envAccess.Get().MatchString(strings.Join(parts, " "))
}

// envAccess finds code that reads the environment.
var envAccess = lazy.Regexp{Expr: `(^|[^\w-])(env|printenv|set|export|declare|compgen)($|[^\w-])|environ|` +
	`process\.env|getenv|ENV\[|ENV\.|\$ENV|\$\{?[A-Za-z_]|%[A-Za-z_]+%`}

// image judges the image a container runs: code from a registry. An
// official image of Docker Hub (node:20, alpine), one of a registry on
// this machine, one the project names (its Dockerfiles, compose files,
// workflows, README) or one this command line built is the project's
// choice; any other repository is code from a registry nobody named.
func (w *walker) image(chain string, a arg) {
	if hasHole(a.s) {
		w.res.add(Dangerous, "`"+chain+" "+a.text+"`: runs an image not known before running")
		return
	}
	repo := imageRepo(a.s)
	host, rest, _ := strings.Cut(repo, "/")
	switch {
	case !strings.Contains(repo, "/"), repo == "docker.io/library/"+path.Base(repo), host == "docker.io" &&
		!strings.Contains(rest, "/"):
		return // an official image
	case localHost(strings.Split(host, ":")[0]) && (strings.Contains(host, ".") || strings.Contains(host, ":") ||
		host == "localhost"):
		return
	case w.shared.images[repo] || w.projectNames(repo):
		return
	}
	w.res.add(Dangerous, "`"+chain+" "+a.text+"`: runs an image from `"+repo+"`, which nobody named in the project")
}

// imageRepo is an image reference without its tag or digest:
// ghcr.io/x/y:1@sha256:… → ghcr.io/x/y.
func imageRepo(ref string) string {
	ref, _, _ = strings.Cut(ref, "@")
	if i := strings.LastIndexByte(ref, ':'); i > strings.LastIndexByte(ref, '/') {
		ref = ref[:i]
	}
	return strings.TrimPrefix(ref, "docker.io/library/")
}

// builtImage records the images docker build -t and docker tag name, so
// that running one later in the string runs the project's build.
func (w *walker) builtImage(chain string, args []arg, io ioInfo) {
	tags := []string{}
	for i := 1; i < len(args); i++ {
		name, v, hasV := strings.Cut(args[i].s, "=")
		switch {
		case (name == "-t" || name == "--tag") && !hasV && i+1 < len(args):
			i++
			tags = append(tags, args[i].s)
		case name == "--tag" && hasV:
			tags = append(tags, v)
		case strings.HasSuffix(chain, " tag") && !strings.HasPrefix(args[i].s, "-"):
			tags = append(tags, args[i].s)
		}
	}
	if !strings.HasSuffix(chain, " tag") {
		ops := scan(&rule{vals: "-t --tag -f --file --build-arg --target --platform --label --network --secret " +
			"--ssh --cache-from --cache-to -o --output --iidfile --progress --add-host --shm-size -m --memory " +
			"--ulimit --build-context --annotation --attest --metadata-file --builder"}, args)
		for _, i := range ops {
			if c := args[i].s; strings.Contains(c, "://") || strings.HasPrefix(c, "git@") ||
				strings.HasPrefix(c, "github.com/") {
				w.res.add(Dangerous, "`"+chain+" "+args[i].text+"`: builds from a repository fetched from "+
					"elsewhere, running its steps")
			}
		}
	}
	if w.shared.images == nil {
		w.shared.images = map[string]bool{}
	}
	for _, t := range tags {
		w.shared.images[imageRepo(t)] = true
	}
}

// projectNames reports whether the project's files name an image
// repository: its Dockerfiles, compose files, CI workflows, makefiles and
// README. They are read once per judgement, at most 64 files of 256 KiB.
func (w *walker) projectNames(repo string) bool {
	if w.ws.Dir == "" {
		return false
	}
	if w.shared.projectText == nil {
		var b strings.Builder
		budget := 64
		var read func(dir string, depth int)
		read = func(dir string, depth int) {
			ents, err := os.ReadDir(dir)
			if err != nil {
				return
			}
			for _, e := range ents {
				name, p := e.Name(), path.Join(dir, e.Name())
				switch {
				case budget <= 0:
					return
				case e.IsDir() && depth < 2 && projectDirs.Get()[name]:
					read(p, depth+1)
				case e.Type().IsRegular() && imageFile(name, depth > 0):
					budget--
					if f, err := os.Open(p); err == nil {
						io.Copy(&b, io.LimitReader(f, 256<<10))
						f.Close()
						b.WriteByte('\n')
					}
				}
			}
		}
		read(w.ws.Dir, 0)
		t := strings.ToLower(b.String())
		w.shared.projectText = &t
	}
	return strings.Contains(*w.shared.projectText, strings.ToLower(repo))
}

// projectDirs are the directories of a project that hold files naming
// its images.
var projectDirs = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{".github": true, "workflows": true, ".devcontainer": true, "docker": true,
		"deploy": true, "k8s": true, "kubernetes": true, "helm": true, "charts": true, ".circleci": true,
		".gitlab": true, "ci": true, "compose": true}
}}

// imageFile reports a file that may name the project's images: any file
// of a directory in projectDirs, or at the root a Dockerfile, a compose
// file, a makefile, a README or a CI configuration. .env files are not
// read.
func imageFile(name string, inDir bool) bool {
	n := strings.ToLower(name)
	if secret.Name(name) {
		return false
	}
	if inDir {
		return true
	}
	for _, p := range []string{"dockerfile", "containerfile", "compose", "makefile", "justfile", "taskfile",
		"readme", ".gitlab-ci", "skaffold", "tiltfile", "devcontainer", "docker-bake"} {
		if strings.Contains(n, p) {
			return true
		}
	}
	return strings.HasSuffix(n, ".dockerfile")
}

// kubectlGet judges kubectl get of Secrets: the list (names, types, how
// many keys) is no secret; an output that prints objects (-o yaml, json,
// a template reading .data) shows their values.
func (w *walker) kubectlGet(chain string, args []arg, io ioInfo) {
	secrets, shows := false, false
	for i := 1; i < len(args); i++ {
		a := args[i].s
		name, v, hasV := strings.Cut(a, "=")
		switch {
		case name == "-o" || name == "--output" || name == "--template":
			if !hasV && i+1 < len(args) {
				i++
				v = args[i].s
			}
			if name == "--template" {
				v = "go-template=" + v
			}
			shows = shows || printsObjects(v)
		case strings.HasPrefix(a, "-o") && len(a) > 2 && !strings.HasPrefix(a, "--"):
			shows = shows || printsObjects(a[2:])
		case strings.HasPrefix(a, "-"):
			if takesValue(commands.Get()["kubectl"].sub["get"].vals, a) {
				i++
			}
		default:
			for _, r := range strings.Split(a, ",") {
				kind, _, _ := strings.Cut(r, "/")
				secrets = secrets || kind == "secret" || kind == "secrets" || hasHole(kind)
			}
		}
	}
	if secrets && shows {
		w.discloses("`" + chain + "` of Secrets with an output that prints them: shows their values")
	}
}

// printsObjects reports a kubectl output format that prints what an
// object holds, not only its name and columns.
func printsObjects(format string) bool {
	kind, expr, _ := strings.Cut(format, "=")
	switch kind {
	case "", "wide", "name":
		return false
	case "custom-columns", "jsonpath", "jsonpath-as-json", "go-template", "template":
		return expr == "" || strings.Contains(expr, ".data") || strings.Contains(expr, "Data") ||
			strings.Contains(expr, "'data'") || strings.Contains(expr, `"data"`) || strings.Contains(expr, "{.}") ||
			strings.Contains(expr, "{@}") || strings.Contains(expr, "..") || strings.Contains(expr, "{{.}}") ||
			strings.Contains(expr, "json")
	}
	return true // yaml, json, file-based templates, anything new
}

// dockerMount judges one -v or --mount value and records the mount.
func (w *walker) dockerMount(chain string, b *box, val string) {
	src, dst := "", ""
	if strings.HasPrefix(val, "type=") || strings.Contains(val, "source=") || strings.Contains(val, "src=") {
		for f := range strings.SplitSeq(val, ",") {
			k, v, _ := strings.Cut(f, "=")
			switch k {
			case "source", "src":
				src = v
			case "target", "dst", "destination":
				dst = v
			}
		}
	} else {
		parts := strings.Split(val, ":")
		src = parts[0]
		if len(parts) > 1 {
			dst = parts[1]
		}
	}
	if !strings.HasPrefix(src, "/") && !strings.HasPrefix(src, ".") && !strings.HasPrefix(src, "~") && !hasHole(src) {
		return // a named volume
	}
	p, ok := w.abs(src)
	if ok && strings.HasPrefix(dst, "/") {
		b.mounts = append(b.mounts, mount{host: p, container: path.Clean(dst)})
	}
	switch {
	case !ok:
		w.res.add(Dangerous, "`"+chain+" -v "+val+"`: mounts a path not known before running")
	case w.inside(p) || p == w.ws.Dir:
		w.res.add(Dev, "`"+chain+" -v "+val+"`: mounts the project")
	case p == "/var/run/docker.sock" || p == "/run/docker.sock":
		w.res.add(Dangerous, "`"+chain+" -v "+val+"`: gives the container the Docker daemon, which is root")
	default:
		w.res.add(Dangerous, "`"+chain+" -v "+val+"`: mounts a host path outside the workspace")
	}
	if why := w.secretFile(p); ok && why != "" {
		w.res.add(Dangerous, "`"+chain+" -v "+val+"`: gives the container secrets ("+why+")")
	}
}

// inContainer judges the command a container runs: only what it does to
// the host's mounted files counts (rm -rf /src with the workspace at /src).
// composeExec judges docker compose exec SERVICE COMMAND by the command,
// run in the project's container: what it changes there (a database
// dropped) counts; its paths are the container's.
func (w *walker) composeExec(chain string, args []arg, io ioInfo) {
	i := 1
	for ; i < len(args); i++ {
		a := args[i].s
		switch {
		case a == "--privileged":
			w.res.add(Dangerous, "`"+chain+" --privileged`: runs with power over the host")
		case a == "-u" || a == "--user" || a == "-w" || a == "--workdir" || a == "-e" || a == "--env" ||
			a == "--index":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			goto service
		}
	}
	return
service:
	if i+1 >= len(args) {
		return
	}
	// A service may mount the project anywhere: the command is judged
	// as if the container's root were the workspace, the worst case.
	c := w.clone()
	c.res = &result{home: w.ws.Home}
	c.box = &box{}
	if w.ws.Dir != "" {
		c.box.mounts = []mount{{host: w.ws.Dir, container: "/"}}
	}
	c.cwd = "/"
	c.exec(args[i+1:], ioInfo{in: io.in})
	if c.res.class >= Dangerous {
		for _, r := range c.res.reasons {
			w.res.add(Dangerous, "in the `"+args[i].text+"` container: "+r)
		}
	}
}

func (w *walker) inContainer(chain string, b *box, workdir string, inner []arg, in input) {
	if len(b.mounts) == 0 {
		return
	}
	c := w.clone()
	c.res = &result{}
	c.box = b
	c.cwd = path.Clean("/" + workdir)
	c.exec(inner, ioInfo{in: in})
	switch {
	case c.res.class == Blocked:
		for _, r := range c.res.reasons {
			w.res.add(Blocked, "inside the container, on a host mount: "+r)
		}
	case c.res.class == Dangerous && b.hit:
		for _, r := range c.res.reasons {
			w.res.add(Dangerous, "inside the container, on a host mount: "+r)
		}
	}
}

// composeFile judges the compose files -f names: the project's are its
// containers; one from elsewhere describes containers nobody named in the
// project, and one from the network is code downloaded and run.
func (w *walker) composeFile(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		name, v, hasV := strings.Cut(args[i].s, "=")
		if name != "-f" && name != "--file" {
			continue
		}
		if !hasV && i+1 < len(args) {
			i++
			v = args[i].s
		}
		p, ok := w.abs(v)
		switch {
		case strings.Contains(v, "://"):
			w.res.add(Blocked, "`"+chain+" -f "+v+"`: runs containers a compose file from the network describes")
		case v == "-":
			if io.in.kind == inDownload {
				w.res.add(Blocked, "`"+chain+" -f -`: runs containers a compose file from the network describes")
			} else if io.in.kind != inData {
				w.res.add(Dangerous, "`"+chain+" -f -`: runs containers a file not known before running describes")
			}
		case !ok || !w.inside(p) && path.Dir(p) != w.ws.Dir:
			w.res.add(Dangerous, "`"+chain+" -f "+v+"`: runs containers a compose file outside the workspace describes")
		}
	}
}
