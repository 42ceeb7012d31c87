package danger

import "strings"

// Servers that run code for whoever reaches them: a terminal on the web
// (ttyd, gotty) or a notebook (jupyter). Listening beyond this machine
// with nothing to log in, they are a shell anyone on the network gets:
// blocked, as a reverse shell is.

// webTerminal judges ttyd and gotty: the command they serve is run for
// every visitor; writable (ttyd -W, gotty -w) it is a shell for them.
func (w *walker) webTerminal(chain string, args []arg, io ioInfo) {
	writable, local, login := false, false, false
	i := 1
	for ; i < len(args); i++ {
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
		case flag == "-W" || flag == "--writable" || flag == "-w" || flag == "--permit-write":
			writable = true
		case flag == "-i" || flag == "--interface" || flag == "-a" || flag == "--address":
			addr := next()
			local = addr == "lo" || addr == "lo0" || localHost(addr) && addr != "0.0.0.0"
		case flag == "-c" || flag == "--credential" || flag == "-H" || flag == "--auth-header" ||
			flag == "--random-url" || flag == "-r":
			login = true
			if flag != "--random-url" && flag != "-r" {
				next()
			}
		case flag == "-p" || flag == "--port" || flag == "-t" || flag == "--client-option" || flag == "-T" ||
			flag == "--terminal-type" || flag == "-u" || flag == "--uid" || flag == "-g" || flag == "--gid" ||
			flag == "-s" || flag == "--signal" || flag == "-I" || flag == "--index" || flag == "-b" ||
			flag == "--base-path" || flag == "-m" || flag == "--max-clients" ||
			flag == "--title-format" || flag == "--config":
			next()
		case strings.HasPrefix(a, "-"):
		default:
			goto served
		}
	}
served:
	switch {
	case writable && !local && !login:
		w.res.add(Blocked, "`"+chain+"`: serves a writable terminal to the network with no login: a shell "+
			"for anyone who reaches it")
	case !local:
		w.res.add(Dangerous, "`"+chain+"`: serves a terminal to the network")
	default:
		w.res.add(Dangerous, "`"+chain+"`: serves a terminal on this machine")
	}
	if i < len(args) {
		w.exec(args[i:], io)
	}
}

// notebook judges a Jupyter server: on this machine with its token it is
// the project's work; on every interface it serves code execution to the
// network, and with the token and password emptied to anyone.
func (w *walker) notebook(chain string, args []arg, io ioInfo) {
	public, open := false, 0
	for i := 1; i < len(args); i++ {
		a := args[i].s
		flag, v, hasV := strings.Cut(a, "=")
		if !hasV && i+1 < len(args) && (flag == "--ip" || strings.HasSuffix(flag, ".ip")) {
			v = args[i+1].s
			i++
		}
		switch {
		case flag == "--ip" || strings.HasSuffix(flag, ".ip"):
			public = !localHost(v) || v == "0.0.0.0"
		case strings.HasSuffix(flag, ".token") || strings.HasSuffix(flag, ".password"):
			if strings.Trim(v, `'"`) == "" {
				open++
			}
		}
	}
	switch {
	case public && open > 0:
		w.res.add(Blocked, "`"+chain+"`: serves code execution to the network with no token or password")
	case public:
		w.res.add(Dangerous, "`"+chain+"`: serves code execution to the network")
	case open > 0:
		w.res.add(Dangerous, "`"+chain+"`: serves code execution with no token or password")
	}
}

// socat judges a relay: one that stays on this machine is dev.
func (w *walker) socat(chain string, args []arg, io ioInfo) {
	if !socatLocal(args) {
		w.res.add(Dangerous, "`"+chain+"`: opens network connections")
	}
}

// netcat judges nc: a connection to, or a port check of, this machine is
// dev; anything else reaches or opens the network.
func (w *walker) netcat(chain string, args []arg, io ioInfo) {
	listen, source, hosts := false, "", []string{}
	for i := 1; i < len(args); i++ {
		a := args[i].s
		switch {
		case a == "-s" || a == "--source":
			if i+1 < len(args) {
				source = args[i+1].s
			}
			i++
		case a == "-w" || a == "-p" || a == "-i" || a == "-q" || a == "-W" || a == "-X" || a == "-x" ||
			a == "-T" || a == "-I" || a == "-O" || a == "-P" || a == "-V" || a == "-M" || a == "-m":
			i++
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "l"):
			listen = true
		case a == "--listen":
			listen = true
		case strings.HasPrefix(a, "-"):
		default:
			if len(hosts) == 0 {
				hosts = append(hosts, a)
			}
		}
	}
	local := len(hosts) > 0 && localHost(hosts[0]) && hosts[0] != "0.0.0.0"
	if listen {
		local = source != "" && localHost(source) && source != "0.0.0.0" || len(hosts) > 0 && local
	}
	if local {
		// What it sends is a service's own protocol: a database's
		// writes through nc are its client's (echo FLUSHALL | nc …).
		if text := strings.Join(append([]string{io.in.data}, io.in.parts...), "\n"); io.in.kind == inData &&
			serviceWrites(text) {
			w.res.add(Dangerous, "`"+chain+"`: sends a local service commands that change its data")
			return
		}
		w.res.add(Dev, "`"+chain+"`: talks to this machine")
		return
	}
	w.res.add(Dangerous, "`"+chain+"`: opens network connections")
}

// serviceWrites reports whether text sent to a service holds a write of
// SQL or of redis' protocol.
func serviceWrites(text string) bool {
	u := " " + strings.ToUpper(strings.Join(strings.Fields(text), " ")) + " "
	for _, k := range []string{" FLUSHALL ", " FLUSHDB ", " DEL ", " UNLINK ", " SHUTDOWN ", " CONFIG SET ",
		" SLAVEOF ", " REPLICAOF ", " MIGRATE ", " SWAPDB ", " DEBUG "} {
		if strings.Contains(u, k) {
			return true
		}
	}
	return sqlWrites(text) && !hasHole(text)
}

// codeServer judges code-server: an editor with a terminal, served; with
// --auth none on an address beyond loopback, a shell for anyone.
func (w *walker) codeServer(chain string, args []arg, io ioInfo) {
	public, open := false, false
	for i := 1; i < len(args); i++ {
		flag, v, hasV := strings.Cut(args[i].s, "=")
		if !hasV && i+1 < len(args) && (flag == "--auth" || flag == "--bind-addr" || flag == "--host") {
			v = args[i+1].s
			i++
		}
		switch flag {
		case "--auth":
			open = v == "none"
		case "--bind-addr", "--host":
			host := v
			if h, _, ok := strings.Cut(v, ":"); ok {
				host = h
			}
			public = !localHost(host) || host == "0.0.0.0"
		}
	}
	switch {
	case public && open:
		w.res.add(Blocked, "`"+chain+" --auth none`: serves an editor with a terminal to the network, with no "+
			"login")
	case public:
		w.res.add(Dangerous, "`"+chain+"`: serves an editor with a terminal to the network")
	}
}

// socatLocal reports socat addresses that stay on this machine: a
// listener bound to loopback, a connection to it, a Unix socket or a
// standard stream.
func socatLocal(args []arg) bool {
	n := 0
	for _, a := range args[1:] {
		if strings.HasPrefix(a.s, "-") && a.s != "-" {
			continue
		}
		n++
		kind, rest, _ := strings.Cut(a.s, ":")
		switch strings.ToUpper(kind) {
		case "-", "STDIO", "STDIN", "STDOUT", "UNIX-LISTEN", "UNIX-CONNECT", "UNIX-CLIENT", "UNIX", "PIPE", "OPEN":
		case "TCP-LISTEN", "TCP4-LISTEN", "TCP6-LISTEN", "UDP-LISTEN", "UDP4-LISTEN":
			bind := ""
			for _, o := range strings.Split(rest, ",")[1:] {
				if v, ok := strings.CutPrefix(o, "bind="); ok {
					bind = v
				}
			}
			if bind == "" || !localHost(bind) || bind == "0.0.0.0" {
				return false
			}
		case "TCP", "TCP4", "TCP6", "UDP", "UDP4", "UDP6":
			host, _, _ := strings.Cut(rest, ":")
			if !localHost(host) || host == "0.0.0.0" {
				return false
			}
		default:
			return false
		}
	}
	return n == 2
}
