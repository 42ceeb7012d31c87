package danger

import (
	"strings"

	"github.com/qsh-shell/qsh/internal/lazy"
)

// Network exposure: a server told to listen on every interface (0.0.0.0,
// ::, or a port alone such as :8080) serves the project, and whatever it
// runs, to the network; a client told to use a proxy or to resolve a name
// elsewhere sends its traffic to another machine.

// listenFlag reports whether a flag's name says its value is an address
// to listen on: --host, --bind, --addr, --listen, --ip, and the short
// forms servers use (-b for rails and gunicorn, -H for next, -a for
// http-server).
func listenFlag(name string) bool {
	switch name {
	case "-b", "-H", "-a", "-h", "-l", "--ip":
		return true
	}
	if len(name) <= 2 {
		return false
	}
	n := strings.ToLower(name)
	for _, k := range []string{"host", "bind", "addr", "listen", "interface", "http"} {
		if strings.Contains(n, k) {
			return true
		}
	}
	return false
}

// everyInterface reports whether an address means every network
// interface: 0.0.0.0, ::, *, or a port with no host.
func everyInterface(addr string) bool {
	host := addr
	if h, port, ok := strings.Cut(addr, "]:"); ok && strings.HasPrefix(h, "[") && isNumber(port) {
		host = h[1:]
	} else if i := strings.LastIndexByte(addr, ':'); i >= 0 && isNumber(addr[i+1:]) && strings.Count(addr, ":") == 1 {
		host = addr[:i]
	}
	host = strings.Trim(host, "[]")
	switch host {
	case "0.0.0.0", "::", "*", "0", "":
		return addr != ""
	}
	return false
}

// listens judges a command's arguments for a listening address that is
// every interface.
func (w *walker) listens(chain string, args []arg) {
	name := firstWord(chain)
	if fetchers.Get()[name] {
		return // a client: 0.0.0.0 is this machine
	}
	for i := 1; i < len(args); i++ {
		a := args[i].s
		flag, val, hasVal := strings.Cut(a, "=")
		switch {
		case strings.HasPrefix(a, "-") && listenFlag(flag):
			if !hasVal {
				if i+1 >= len(args) || strings.HasPrefix(args[i+1].s, "-") {
					if flag == "--host" {
						// vite, astro: --host alone listens on every interface.
						w.res.add(Dangerous, "`"+chain+" --host`: listens on every network interface")
						return
					}
					continue
				}
				val = args[i+1].s
			}
			short := len(flag) <= 2
			if everyInterface(val) && (!short || strings.Contains(val, "0.0.0.0") || strings.Contains(val, "::")) {
				w.res.add(Dangerous, "`"+chain+" "+a+"`: listens on every network interface")
				return
			}
		case !strings.HasPrefix(a, "-") && (strings.HasPrefix(a, "0.0.0.0") || strings.HasPrefix(a, "[::]")) &&
			everyInterface(a):
			w.res.add(Dangerous, "`"+chain+" "+args[i].text+"`: listens on every network interface")
			return
		}
	}
}

// sourceFlags name where a command fetches packages from, or the proxy it
// sends traffic through.
var sourceFlags = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{
		"--registry": true, "--index-url": true, "--extra-index-url": true, "--index": true,
		"--default-index": true, "--find-links": true, "--proxy": true, "--https-proxy": true,
		"--http-proxy": true, "--trusted-host": true, "--pypi-mirror": true,
	}
}}

// secretFlags make a command print secrets it would otherwise hide.
var secretFlags = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{
		"--show-secrets": true, "--show-secret": true, "--show-token": true, "--reveal": true,
		"--with-decryption": true, "--decrypt": true, "--show-sensitive": true, "--unmask": true,
		"--show-values": true, "--plaintext": true,
	}
}}

// elsewhere judges flags that fetch packages from another server or send
// traffic through one (--registry, --index-url, --proxy), and flags that
// make a command print its secrets.
func (w *walker) elsewhere(chain string, args []arg) {
	name := firstWord(chain)
	for i := 1; i < len(args); i++ {
		flag, v, hasV := strings.Cut(args[i].s, "=")
		if secretFlags.Get()[flag] {
			w.discloses("`" + chain + " " + flag + "`: prints secrets")
			continue
		}
		pip := strings.HasPrefix(name, "pip") || name == "uv"
		if !sourceFlags.Get()[flag] && !(pip && (flag == "-i" || flag == "-f")) {
			continue
		}
		if !hasV {
			if i+1 >= len(args) {
				continue
			}
			i++
			v = args[i].s
		}
		if !strings.Contains(v, "://") && !strings.HasSuffix(flag, "proxy") && flag != "--trusted-host" {
			continue // a file or a name, not a server
		}
		host, ok := urlHost(v)
		if ok && !localHost(host) {
			w.res.add(Dangerous, "`"+chain+" "+flag+" "+v+"`: fetches packages from, or sends traffic through, `"+
				host+"`")
		}
	}
}

// pkgSource judges where an install takes packages from: a URL, a
// repository (git+https://, github:user/repo) or a path outside the
// workspace is code the registry did not vet, and its install scripts
// run.
func (w *walker) pkgSource(chain string, args []arg, io ioInfo) {
	switch firstWord(chain) {
	case "npm", "pnpm", "yarn", "bun":
		w.jsGlobal(chain, args, io)
		w.jsScripts(chain, args, io)
	}
	for _, i := range scan(&rule{vals: "-r --requirement -c --constraint -e --editable --registry " +
		"--index-url -i --extra-index-url -f --find-links --prefix --target -t --root"}, args) {
		w.pkgSpec(chain, args[i])
	}
	for i := 1; i+1 < len(args); i++ {
		if args[i].s == "-e" || args[i].s == "--editable" {
			w.pkgSpec(chain, args[i+1])
		}
	}
}

// pipUninstall judges which packages are removed: named ones are the
// project's business; a list not known before running (-r <(pip
// freeze), xargs) may be every package of the interpreter.
func (w *walker) pipUninstall(chain string, args []arg, io ioInfo) {
	for i, a := range args[1:] {
		req := ""
		switch {
		case (a.s == "-r" || a.s == "--requirement") && i+2 < len(args):
			req = args[i+2].s
		case strings.HasPrefix(a.s, "--requirement="):
			req = strings.TrimPrefix(a.s, "--requirement=")
		case !strings.HasPrefix(a.s, "-") && hasHole(a.s):
			w.res.add(Dangerous, "`"+chain+" "+a.text+"`: removes packages not known before running, maybe all")
			return
		default:
			continue
		}
		p, ok := w.abs(req)
		if content, wrote := w.shared.scripts[p]; !ok || strings.HasPrefix(p, "/dev/") && (!wrote || hasHole(content)) {
			w.res.add(Dangerous, "`"+chain+" -r "+req+"`: removes packages not known before running, maybe all")
			return
		}
	}
}

func (w *walker) pkgSpec(chain string, a arg) {
	spec := a.s
	_, after, named := strings.Cut(spec, "@") // name@https://…, name@file:…
	if named && strings.Contains(after, ":") {
		spec = strings.TrimSpace(after)
	}
	switch {
	case strings.Contains(spec, "://") || strings.HasPrefix(spec, "git+") || strings.HasPrefix(spec, "github:") ||
		strings.HasPrefix(spec, "gitlab:") || strings.HasPrefix(spec, "bitbucket:") || strings.HasPrefix(spec, "git@"):
		if host, ok := urlHost(strings.TrimPrefix(spec, "git+")); !ok || !localHost(host) {
			w.res.add(Dangerous, "`"+chain+" "+a.text+"`: installs code from a URL or repository, and runs its scripts")
			w.shared.urlInstall = true
		}
	case strings.HasPrefix(spec, "file:") || strings.HasPrefix(spec, ".") || strings.HasPrefix(spec, "/") ||
		strings.HasPrefix(spec, "~"):
		if p, ok := w.abs(strings.TrimPrefix(spec, "file:")); !ok || !(w.inside(p) || p == w.ws.Dir) {
			w.res.add(Dangerous, "`"+chain+" "+a.text+"`: installs code from outside the workspace")
		}
	}
}
