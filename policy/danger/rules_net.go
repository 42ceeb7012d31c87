package danger

import "strings"

// networkCommands is the part of the table (see rules.go) for the network: transfers, remote
// shells, sockets, DNS and probes.
// publicHalf is openssl pkey and its kin: -pubout prints only the public
// half of the key it reads; -text or no -pubout prints the key itself.
func publicHalf(why string) *rule {
	// -noout prints none of the key (rsa -check says whether it is sound).
	return &rule{class: Safe, why: why, namesWith: "-pubout -noout", contents: "-text", check: (*walker).outflag}
}

func networkCommands() map[string]*rule {
	return map[string]*rule{
		"curl":         {class: Safe, why: "transfers data", check: (*walker).fetch, noscope: true},
		"wget":         {class: Safe, why: "transfers data", check: (*walker).fetch, noscope: true},
		"http":         {class: Safe, why: "transfers data", check: (*walker).fetch, noscope: true},
		"https":        {class: Safe, why: "transfers data", check: (*walker).fetch, noscope: true},
		"xh":           {class: Safe, why: "transfers data", check: (*walker).fetch, noscope: true},
		"aria2c":       {class: Dangerous, why: "downloads from the network", check: (*walker).saves},
		"axel":         {class: Dangerous, why: "downloads from the network", check: (*walker).saves},
		"lwp-download": {class: Dangerous, why: "downloads from the network", check: (*walker).saves},
		"wget2":        {class: Safe, why: "transfers data", check: (*walker).fetch, noscope: true},
		"ssh": {
			class: Dangerous,
			why:   "connects to a remote machine",
			check: (*walker).ssh,
			flags: []flag{set("-V -G -Q", Safe, "prints its version, configuration or a query's answer")},
		},
		"scp":  {class: Dangerous, why: "copies files over the network", check: (*walker).ssh},
		"mosh": {class: Dangerous, why: "connects to a remote machine", check: (*walker).mosh},
		"sftp": {class: Dangerous, why: "copies files over the network", check: (*walker).ssh},
		"rsync": {
			class: Dev,
			why:   "copies files",
			check: (*walker).rsync,
			dry:   flag{match: "-n --dry-run", class: Safe, why: "a dry run: lists what it would copy"},
		},
		"nc": {
			class: Dev,
			why:   "opens network connections",
			check: (*walker).netcat,
			flags: []flag{
				raise(
					"-e -c --exec --sh-exec --lua-exec",
					Blocked,
					"runs a shell over the network (reverse shell)",
				),
			},
		},
		"ncat": {
			class: Dev,
			why:   "opens network connections",
			check: (*walker).netcat,
			flags: []flag{
				raise(
					"-e -c --exec --sh-exec --lua-exec",
					Blocked,
					"runs a shell over the network (reverse shell)",
				),
			},
		},
		"netcat": {
			class: Dev,
			why:   "opens network connections",
			check: (*walker).netcat,
			flags: []flag{raise("-e -c", Blocked, "runs a shell over the network (reverse shell)")},
		},
		"ttyd":  {class: Dangerous, why: "serves a terminal", check: (*walker).webTerminal, noscope: true},
		"gotty": {class: Dangerous, why: "serves a terminal", check: (*walker).webTerminal, noscope: true},
		"socat": {
			class: Dev,
			why:   "relays data",
			check: (*walker).socat,
			ops: []flag{
				raise(
					"exec:* EXEC:* system:* SYSTEM:*",
					Blocked,
					"runs a program over the network (reverse shell)",
				),
			},
		},
		"telnet": dangerous("opens a network connection"),
		"ftp":    dangerous("opens a network connection"),
		"openssl": {
			class: Safe,
			why:   "computes crypto",
			check: (*walker).outflag,
			sub: map[string]*rule{
				"s_client": {class: Dev, why: "opens a TLS connection", check: (*walker).sClient},
				"s_server": dangerous("listens on the network"),
				// Certificates, requests and revocation lists are public;
				// a key shows only its public half with -pubout.
				"x509": {class: Safe, why: "shows or converts a certificate", names: true, check: (*walker).outflag},
				"req": {class: Safe, why: "shows or makes a certificate request", names: true,
					check: (*walker).outflag},
				"crl":    {class: Safe, why: "shows a revocation list", names: true, check: (*walker).outflag},
				"verify": named(safe("verifies a certificate")),
				"dgst":   named(safe("hashes files")),
				"pkey":   publicHalf("shows or converts a key"),
				"rsa":    publicHalf("shows or converts an RSA key"),
				"ec":     publicHalf("shows or converts an EC key"),
			},
			open: true,
		},
		// Probes and lookups reach beyond this machine unless every name
		// they are given is local: network use, not a dev tool's fetch.
		"ping": {class: Dev, why: "sends network probes", check: (*walker).lookupName,
			vals: "-c -i -W -w -s -t -I -p -l -M -Q -m -F -T"},
		"ping6": {class: Dev, why: "sends network probes", check: (*walker).lookupName,
			vals: "-c -i -W -w -s -t -I -p -l -M -Q -m -F -T"},
		"dig":      {class: Dev, why: "queries DNS", check: (*walker).lookupName, vals: "-p -b -c -t -q -f -k -y"},
		"nslookup": {class: Dev, why: "queries DNS", check: (*walker).lookupName},
		"host":     {class: Dev, why: "queries DNS", check: (*walker).lookupName, vals: "-t -c -N -R -W -m"},
		"drill":    {class: Dev, why: "queries DNS", check: (*walker).lookupName, vals: "-p -t -c -k -y"},
		"traceroute": {class: Dev, why: "traces a network route", check: (*walker).lookupName,
			vals: "-f -m -q -w -p -i -s -z -N -g -t -l"},
		"tracepath": {class: Dev, why: "traces a network route", check: (*walker).lookupName, vals: "-l -m -p"},
		"mtr": {class: Dev, why: "traces a network route", check: (*walker).lookupName,
			vals: "-c -i -s -a -B -Q"},
		"whois": {class: Dangerous, why: "queries a registry on the network", check: (*walker).lookupName},
		"ss": {class: Safe, why: "lists sockets",
			flags: []flag{raise("-K --kill", Dangerous, "closes the sockets it matches")}},
		"netstat": safe("lists sockets"),
		"lsof":    safe("lists open files"),
		"ip": {
			class: Dangerous,
			why:   "changes network settings",
			sub: map[string]*rule{
				"a": safe("shows addresses"),
				"addr": {
					class: Safe,
					why:   "shows addresses",
					sub: map[string]*rule{
						"show": safe("shows addresses"),
						"list": safe("shows addresses"),
						"add":  dangerous("changes addresses"),
						"del":  dangerous("changes addresses"),
					},
				},
				"address": safe("shows addresses"),
				"route": {
					class: Safe,
					why:   "shows routes",
					sub: map[string]*rule{
						"show": safe("shows routes"),
						"list": safe("shows routes"),
						"get":  safe("shows a route"),
					},
				},
				"r": safe("shows routes"),
				"link": {
					class: Safe,
					why:   "shows links",
					sub: map[string]*rule{
						"show": safe("shows links"),
						"set":  dangerous("changes a network link"),
					},
				},
				"neigh": safe("shows neighbours"),
			},
		},
		"ifconfig": {class: Dangerous, why: "changes network settings", bare: safe("shows interfaces")},
		"ngrok":    dangerous("exposes a local port to the internet"),
		"tailscale": {
			class: Dangerous,
			why:   "changes the network",
			sub:   map[string]*rule{"status": safe("shows the network"), "ip": safe("shows addresses")},
		},
	}
}

// sClient judges openssl s_client -connect HOST:PORT: a server of this
// machine is a local dev server's certificate, as curl localhost is.
func (w *walker) sClient(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		name, v, ok := strings.Cut(args[i].s, "=")
		if name != "-connect" {
			continue
		}
		if !ok && i+1 < len(args) {
			i++
			v = args[i].s
		}
		host := v
		if h, _, found := strings.Cut(strings.TrimPrefix(v, "["), "]:"); found {
			host = h
		} else if j := strings.LastIndexByte(v, ':'); j >= 0 {
			host = v[:j]
		}
		if !localHost(host) {
			w.res.add(Dangerous, "`"+chain+" -connect "+v+"`: opens a network connection")
		}
		return
	}
	// Without -connect, s_client talks to HOST:PORT given as an operand,
	// or to localhost:4433.
	for i := 1; i < len(args); i++ {
		if a := args[i].s; !strings.HasPrefix(a, "-") && (i == 1 || !strings.HasPrefix(args[i-1].s, "-")) {
			host := a
			if j := strings.LastIndexByte(a, ':'); j >= 0 {
				host = a[:j]
			}
			if !localHost(strings.Trim(host, "[]")) {
				w.res.add(Dangerous, "`"+chain+" "+args[i].text+"`: opens a network connection")
			}
		}
	}
}
