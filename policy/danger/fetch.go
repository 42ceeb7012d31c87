package danger

import (
	"net/url"
	"path"
	"slices"
	"strings"
)

// Checks for commands that use the network.

// localHost reports whether host is this machine.
func localHost(host string) bool {
	h := strings.ToLower(strings.Trim(host, "[]"))
	switch {
	case h == "localhost" || h == "::1" || h == "0.0.0.0" || strings.HasSuffix(h, ".localhost"):
		return true
	case strings.HasPrefix(h, "127."):
		return true
	}
	return false
}

func urlHost(s string) (string, bool) {
	if hasHole(s) {
		return "", false
	}
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil || u.Hostname() == "" {
		return "", false
	}
	return u.Hostname(), true
}

func (w *walker) fetch(chain string, args []arg, io ioInfo) {
	name := firstWord(chain)
	vals := "--output-dir -o --output -H --header -d --data --data-raw --data-binary --data-urlencode -F --form -u --user -X --request -A --user-agent -e --referer -b --cookie -c --cookie-jar -x --proxy -T --upload-file -m --max-time --connect-timeout -w --write-out -r --range -K --config --retry --resolve --cacert --cert --key --url --unix-socket --abstract-unix-socket"
	if name == "wget" {
		vals = "-O --output-document -o --output-file -a --append-output -P --directory-prefix -U --user-agent --header --post-data --post-file --body-data --body-file --method -T --timeout -t --tries -i --input-file -e --execute --user --password"
	}
	r := &rule{vals: vals}
	ops := scan(r, args)
	var urls []arg
	method, socket := "", ""
	httpie := name == "http" || name == "https" || name == "xh"
	for n, i := range ops {
		s := args[i].s
		switch {
		case httpie && n == 0 && httpMethod(s):
			method = s // HTTPie: http DELETE :9200/x
		case httpie && len(urls) > 0:
			// HTTPie's request items after the URL: key=value, Header:value
		case httpie && strings.HasPrefix(s, ":"):
			a := args[i]
			a.s = "localhost" + s // :8000/x is localhost:8000/x
			urls = append(urls, a)
		default:
			urls = append(urls, args[i])
		}
	}
	for i := 1; i < len(args); i++ {
		a := args[i].s
		switch {
		case (a == "-X" || a == "--request") && i+1 < len(args):
			method = strings.ToUpper(args[i+1].s)
		case strings.HasPrefix(a, "-X") && len(a) > 2:
			method = strings.ToUpper(a[2:])
		case strings.HasPrefix(a, "--request="):
			method = strings.ToUpper(strings.TrimPrefix(a, "--request="))
		case (a == "--unix-socket" || a == "--abstract-unix-socket") && i+1 < len(args):
			socket = args[i+1].s
		}
	}
	if method == "DELETE" || method == "PURGE" {
		for _, u := range urls {
			if bulkDelete(u.s) {
				w.res.add(Dangerous, "`"+name+" "+method+" "+u.text+"`: deletes a whole index, database or "+
					"collection")
			}
		}
	}
	if socket != "" && (strings.Contains(socket, "docker") || strings.Contains(socket, "podman") ||
		strings.Contains(socket, "containerd")) && !daemonVersion(method, urls) {
		// The daemon's API is root's: beyond its version it shows
		// containers' configurations, environments and files, or changes
		// them.
		w.res.add(Dangerous, "`"+name+" --unix-socket "+socket+"`: uses the container daemon's API, which "+
			"acts as root")
	}
	out, outDir := "", ""
	remoteName := false
	for i := 1; i < len(args); i++ {
		a := args[i].s
		next := func() string {
			if i+1 < len(args) {
				return args[i+1].s
			}
			return ""
		}
		switch {
		case a == "--url":
			urls = append(urls, args[min(i+1, len(args)-1)])
		case name == "wget" && (a == "-P" || a == "--directory-prefix") || name == "curl" && a == "--output-dir":
			outDir = next()
		case name == "wget" && strings.HasPrefix(a, "--directory-prefix="), name == "curl" &&
			strings.HasPrefix(a, "--output-dir="):
			_, outDir, _ = strings.Cut(a, "=")
		case name == "curl" && a == "--output", name == "wget" && a == "--output-document":
			out = next()
		case name == "curl" && strings.HasPrefix(a, "--output="):
			out = strings.TrimPrefix(a, "--output=")
		case name == "wget" && strings.HasPrefix(a, "--output-document="):
			out = strings.TrimPrefix(a, "--output-document=")
		case name == "curl" && clusterHas(a, 'o'), name == "wget" && clusterHas(a, 'O'):
			out = clusterValue(a, map[string]byte{"curl": 'o', "wget": 'O'}[name], next())
		case name == "curl" && (a == "-O" || a == "--remote-name" || a == "--remote-name-all" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && letters(a[1:]) && strings.Contains(a, "O")):
			remoteName = true
		case name == "curl" && curlElsewhere(a):
			// -x/--proxy HOST, --resolve HOST:PORT:ADDR, --connect-to
			// H1:P1:H2:P2: the request goes to another machine.
			flag, v, ok := strings.Cut(a, "=")
			if !ok {
				v = next()
				i++
			}
			if target := curlTarget(flag, v); target != "" {
				w.res.add(Dangerous, "`curl "+flag+" "+v+"`: sends the request through or to `"+target+"`")
			}
		case name == "curl" && (a == "-K" || a == "--config" || strings.HasPrefix(a, "--config=")):
			w.res.add(Dangerous, "`curl "+a+"`: takes options from a file")
		case name == "wget" && (a == "-e" || a == "--execute" || strings.HasPrefix(a, "--execute=")):
			w.res.add(Dangerous, "`wget "+a+"`: runs wgetrc commands (proxies, output files)")
		case a == "-T" || a == "--upload-file" || strings.HasPrefix(a, "--post-file") || strings.HasPrefix(a, "--body-file"):
			w.res.add(Dangerous, "`"+name+" "+args[i].text+"`: uploads a file")
		case a == "-F" || a == "--form" || strings.HasPrefix(a, "-d") || strings.HasPrefix(a, "--data"):
			if strings.Contains(next(), "@") || strings.Contains(a, "@") {
				w.res.add(Dangerous, "`"+name+" "+args[i].text+"`: uploads a file")
			}
		}
	}
	if len(urls) == 0 {
		w.res.add(Dangerous, "`"+name+"`: network access")
		return
	}
	w.httpStatements(name, args)
	for _, u := range urls {
		host, ok := urlHost(u.s)
		if socket != "" {
			host, ok = "localhost", true // the request goes to the socket
		}
		switch {
		case !ok:
			w.res.add(Dangerous, "`"+name+" "+u.text+"`: address not known before running")
		case localHost(host):
			w.res.add(Dev, "`"+name+" "+u.text+"`: talks to a local server")
		default:
			w.res.add(Dangerous, "`"+name+"` to `"+host+"`: network access")
		}
		if name == "wget" && out == "" || name == "curl" && remoteName {
			base := path.Base(strings.SplitN(strings.SplitN(u.s, "?", 2)[0], "#", 2)[0])
			if base == "." || base == "/" || !strings.Contains(u.s, "/") {
				base = "index.html"
			}
			if outDir != "" {
				base = path.Join(outDir, base)
			}
			w.download(base, name)
		}
	}
	if out != "" && out != "-" {
		if outDir != "" && !path.IsAbs(out) {
			out = path.Join(outDir, out)
		}
		w.download(out, name)
	}
	for _, p := range io.out {
		w.shared.download(p)
	}
}

// bulkDelete reports a DELETE that drops more than a record: _all or a
// wildcard, or a top-level name on a database's HTTP port (Elasticsearch
// and OpenSearch drop an index, CouchDB a database).
func bulkDelete(raw string) bool {
	if strings.Contains(raw, "_all") || strings.Contains(raw, "*") {
		return true
	}
	u, err := url.Parse(raw)
	if err != nil || !strings.Contains(raw, "://") {
		u, err = url.Parse("http://" + raw)
	}
	if err != nil {
		return true
	}
	switch u.Port() {
	case "9200", "9201", "5984", "8086", "6333", "8529":
		return strings.Count(strings.Trim(u.Path, "/"), "/") == 0
	}
	return false
}

// daemonVersion reports a read of a container daemon's version or health
// only (GET /version, /_ping, /info).
func daemonVersion(method string, urls []arg) bool {
	if method != "" && method != "GET" && method != "HEAD" || len(urls) == 0 {
		return false
	}
	for _, u := range urls {
		raw := u.s
		if !strings.Contains(raw, "://") {
			raw = "http://" + raw
		}
		p, err := url.Parse(raw)
		if err != nil {
			return false
		}
		switch path.Base(p.Path) {
		case "version", "_ping", "info":
		default:
			return false
		}
	}
	return true
}

// httpMethod reports an HTTP method as HTTPie takes it before the URL.
func httpMethod(s string) bool {
	switch s {
	case "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "PURGE":
		return true
	}
	return false
}

// curlElsewhere reports curl's options that send a request to another
// machine than its URL names.
func curlElsewhere(a string) bool {
	flag, _, _ := strings.Cut(a, "=")
	switch flag {
	case "-x", "--proxy", "--preproxy", "--socks4", "--socks4a", "--socks5", "--socks5-hostname",
		"--proxy1.0", "--resolve", "--connect-to", "--doh-url", "--dns-servers":
		return true
	}
	return false
}

// curlTarget is the machine such an option sends to, when it is not this
// one ("" when it is).
func curlTarget(flag, v string) string {
	host := v
	switch flag {
	case "--resolve":
		// HOST:PORT:ADDR[,ADDR]
		if parts := strings.SplitN(v, ":", 3); len(parts) == 3 {
			host, _, _ = strings.Cut(parts[2], ",")
		}
	case "--connect-to":
		// HOST1:PORT1:HOST2:PORT2
		if parts := strings.Split(v, ":"); len(parts) >= 4 {
			host = parts[2]
		}
		if host == "" {
			return ""
		}
	case "--dns-servers":
		host, _, _ = strings.Cut(v, ",")
	default:
		if h, ok := urlHost(v); ok {
			host = h
		}
	}
	host = strings.Trim(host, "[]+")
	if host == "" || hasHole(v) {
		return "an address not known before running"
	}
	if localHost(host) {
		return ""
	}
	return host
}

func (w *walker) download(target, name string) {
	p, ok := w.abs(target)
	if ok {
		w.shared.download(p)
	}
	c, why := w.writeClass(pathOrEmpty(p, ok), "`"+name+" -o "+target+"`")
	w.res.add(c, why)
}

func (w *walker) rsync(chain string, args []arg, io ioInfo) {
	ops := scan(&rule{vals: "-e --rsh -f --filter --exclude --include --exclude-from --include-from --port " +
		"--password-file --log-file --rsync-path -T --temp-dir --partial-dir --backup-dir --files-from"}, args)
	deletes := false
	for i := 1; i < len(args); i++ {
		a := args[i].s
		name, v, hasV := strings.Cut(a, "=")
		switch {
		case a == "-e" || name == "--rsh" || name == "--rsync-path":
			if !hasV && i+1 < len(args) {
				i++
				v = args[i].s
			}
			w.res.add(Dangerous, "`rsync "+name+"`: runs a program of its choice")
			w.literal1(v)
		case !w.dry && (a == "--delete" || strings.HasPrefix(a, "--delete-") || a == "--del" ||
			a == "--remove-source-files" || a == "--remove-sent-files"):
			w.res.add(Dangerous, "`rsync "+args[i].text+"`: deletes files")
			deletes = deletes || a != "--remove-source-files"
		}
	}
	if len(ops) > 1 && !w.dry {
		srcs := make([]string, 0, len(ops)-1)
		for _, i := range ops[:len(ops)-1] {
			srcs = append(srcs, args[i].s)
		}
		w.remoteCopy(srcs, args[ops[len(ops)-1]].s, true)
	}
	for _, i := range ops {
		s := args[i].s
		if host, _, ok := strings.Cut(s, ":"); ok && !strings.Contains(host, "/") || strings.HasPrefix(s, "rsync://") {
			w.res.add(Dangerous, "`rsync "+args[i].text+"`: copies over the network")
			return
		}
	}
	if len(ops) > 0 && !w.dry {
		last := args[ops[len(ops)-1]]
		w.writeTo(last.s, chain, last.text)
		// --delete makes the destination a copy of the source: whatever
		// else it held is deleted.
		if p, ok := w.abs(last.s); ok && deletes && len(ops) > 1 {
			if why := w.catastrophic(p); why != "" || p == w.ws.Home {
				w.res.add(Blocked, "`rsync --delete` into `"+last.text+"`: deletes what the source lacks there, "+
					strings.TrimPrefix(why, "deletes "))
			}
		}
	}
}

// ssh judges ssh's and scp's options that run local programs:
// ProxyCommand, LocalCommand, KnownHostsCommand, Match exec (ssh_config(5))
// and scp's -S. -V, -G and -Q only print.
func (w *walker) ssh(chain string, args []arg, io ioInfo) {
	name := firstWord(chain)
	if name == "scp" {
		ops := scan(&rule{vals: "-P -i -o -F -S -c -l -J -D -X"}, args)
		if len(ops) > 1 {
			srcs := make([]string, 0, len(ops)-1)
			for _, i := range ops[:len(ops)-1] {
				srcs = append(srcs, args[i].s)
			}
			recursive := slices.ContainsFunc(args[1:], func(a arg) bool { return matchFlag("-r", a.s) })
			w.remoteCopy(srcs, args[ops[len(ops)-1]].s, recursive)
		}
	}
	if name == "ssh" {
		w.remoteCommand(chain, args)
	}
	for i := 1; i < len(args); i++ {
		a := args[i].s
		if !strings.HasPrefix(a, "-") {
			if name == "ssh" {
				break // the host; the rest is the remote command
			}
			continue
		}
		switch {
		case a == "-o" || strings.HasPrefix(a, "-o"):
			opt := strings.TrimPrefix(a, "-o")
			if opt == "" && i+1 < len(args) {
				i++
				opt = args[i].s
			}
			key, val, ok := strings.Cut(opt, "=")
			if !ok {
				key, val, _ = strings.Cut(strings.TrimSpace(opt), " ")
			}
			switch strings.ToLower(key) {
			case "proxycommand", "localcommand", "knownhostscommand", "match":
				w.res.add(Dangerous, "`"+name+" -o "+key+"`: runs a local command")
				code := strings.TrimPrefix(strings.TrimSpace(val), "exec ")
				if strings.ToLower(key) == "proxycommand" {
					// ssh runs `exec VALUE` with the user's shell: a value
					// that starts with ';' or '&' is a command after exec's
					// nothing, not a syntax error.
					code = "exec " + code
				}
				w.literal1(code)
			}
		case a == "-S" && name != "ssh" || a == "-D" && name == "sftp":
			if i+1 < len(args) {
				i++
				w.res.add(Dangerous, "`"+name+" "+a+"`: runs a program of its choice")
				w.literal1(args[i].s)
			}
		case a == "-F" && i+1 < len(args):
			i++
			if p, ok := w.abs(args[i].s); !ok || !w.inside(p) {
				w.res.add(Dangerous, "`"+name+" -F`: reads a configuration that may run commands")
			}
		}
	}
}

// remoteCommand judges the command ssh runs on the other machine as if it
// ran here, in a home directory with no workspace: wiping a server's
// root is as catastrophic as wiping this one's.
func (w *walker) remoteCommand(chain string, args []arg) {
	ops := scan(&rule{vals: "-b -c -D -E -e -F -I -i -J -L -l -m -O -o -p -Q -R -S -W -w"}, args)
	if len(ops) < 2 {
		return
	}
	parts := make([]string, 0, len(args))
	for _, a := range args[ops[1]:] {
		parts = append(parts, a.s)
	}
	c := w.clone()
	c.res = &result{home: w.ws.Home}
	c.ws.Dir = ""
	c.cwd = w.ws.Home
	c.box = nil
	c.nested(strings.Join(parts, " "), input{})
	if c.res.class == Blocked {
		for _, r := range c.res.reasons {
			w.res.add(Blocked, "on `"+args[ops[0]].text+"`: "+r)
		}
	}
}

// mosh judges the command mosh runs on the other machine (mosh HOST --
// COMMAND) as ssh's is judged.
func (w *walker) mosh(chain string, args []arg, io ioInfo) {
	for i, a := range args {
		if a.s == "--" && i > 1 && i+1 < len(args) {
			w.remoteCommand(chain, append([]arg{args[0], args[i-1]}, args[i+1:]...))
			return
		}
	}
}

// clusterHas reports whether a is a cluster of short flags holding the
// flag c, its value joined or not: -o, -so, -sSLo, -ofile, -qOfile.
func clusterHas(a string, c byte) bool {
	if len(a) < 2 || a[0] != '-' || a[1] == '-' {
		return false
	}
	i := strings.IndexByte(a[1:], c)
	return i == 0 || i > 0 && letters(a[1:1+i])
}

// clusterValue is the value such a cluster gives c: the rest of the word
// after it, or else the next word.
func clusterValue(a string, c byte, next string) string {
	if v := a[strings.IndexByte(a[1:], c)+2:]; v != "" {
		return v
	}
	return next
}
