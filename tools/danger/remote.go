package danger

import (
	"strings"
)

// Checks for databases, containers, cloud CLIs and tools that fetch code.

func sqlWrites(s string) bool {
	if hasHole(s) {
		return true
	}
	u := " " + strings.ToUpper(s) + " "
	for _, k := range []string{"DROP", "DELETE", "TRUNCATE", "UPDATE", "INSERT", "ALTER", "CREATE", "GRANT", "REVOKE", "REPLACE", "ATTACH", "VACUUM", "COPY", "\\!", ".SHELL", ".SYSTEM", "DB.DROP", "REMOVE(", "DELETEMANY", "DROPDATABASE", "INSERTONE", "UPDATEONE", "UPDATEMANY", "PRAGMA", "LOAD_EXTENSION", "SET "} {
		if strings.Contains(u, k) {
			return true
		}
	}
	return false
}

func (w *walker) redis(chain string, args []arg, io ioInfo) {
	ops := scan(&rule{vals: "-h -p -a -n -u --user --pass"}, args)
	if len(ops) == 0 {
		w.res.add(Dangerous, "`redis-cli`: opens an interactive session")
		return
	}
	switch strings.ToUpper(args[ops[0]].s) {
	case "GET", "MGET", "KEYS", "SCAN", "PING", "INFO", "TTL", "TYPE", "EXISTS", "HGET", "HGETALL", "LRANGE", "SMEMBERS", "DBSIZE", "LLEN", "STRLEN", "ZRANGE":
		w.res.add(Dev, "`redis-cli "+args[ops[0]].text+"`: reads from the database")
	default:
		w.res.add(Dangerous, "`redis-cli "+args[ops[0]].text+"`: changes the database")
	}
}

func (w *walker) npx(chain string, args []arg, io ioInfo) {
	ops := scan(&rule{vals: "-p --package -c --call"}, args)
	for i, a := range args[1:] {
		if a.s == "-c" || a.s == "--call" {
			w.res.add(Dangerous, "`npx -c`: runs shell code")
			if i+2 < len(args) {
				w.nested(args[i+2].s, input{})
			}
			return
		}
	}
	if len(ops) == 0 {
		w.res.add(Dangerous, "`npx`: runs a package")
		return
	}
	name := args[ops[0]].s
	if i := strings.LastIndexByte(name, '@'); i > 0 {
		name = name[:i]
	}
	if name == "rimraf" || name == "del-cli" || name == "trash-cli" {
		// rm -rf by another name.
		rm := append([]arg{{s: "rm", text: name}, {s: "-rf", text: name}}, args[ops[0]+1:]...)
		w.exec(rm, io)
	}
	if r := lookup(name); r != nil && npxTools.Get()[name] {
		// A tool the table knows: its own rule judges its arguments
		// (npx prisma migrate reset).
		w.exec(args[ops[0]:], io)
		return
	}
	if npxTools.Get()[name] {
		w.res.add(Dev, "`npx "+name+"`: runs a project tool")
		return
	}
	w.res.add(Dangerous, "`npx "+args[ops[0]].text+"`: may download and run a package")
}

// cloudRead are verbs of cloud CLIs that only read.
var cloudRead = []string{"list", "ls", "describe", "get", "show", "view", "status", "info", "whoami", "version", "lookup", "search", "check", "print", "export-config", "tail", "filter", "read", "wait", "validate", "test"}

// cloudSecret are verbs that print secrets.
var cloudSecret = []string{"secret", "password", "token", "credential", "decrypt", "access-key", "login"}

func (w *walker) cloud(chain string, args []arg, io ioInfo) {
	name := firstWord(chain)
	ops := scan(commands.Get()[name], args)
	if len(ops) == 0 {
		w.res.add(Safe, "`"+name+"`: shows help")
		return
	}
	var words []string
	for _, i := range ops {
		words = append(words, args[i].s)
	}
	if name == "aws" && len(words) >= 2 && words[0] == "s3" {
		switch words[1] {
		case "ls":
			w.res.add(Dev, "`aws s3 ls`: "+remoteRead)
		case "cp", "sync", "mv":
			local := true
			for _, x := range words[2:] {
				if strings.HasPrefix(x, "s3://") {
					local = false
				}
			}
			if !local && strings.HasPrefix(words[len(words)-1], "s3://") {
				w.res.add(Dangerous, "`aws s3 "+words[1]+"`: uploads to a bucket")
			} else {
				w.res.add(Dangerous, "`aws s3 "+words[1]+"`: copies from a bucket")
			}
		default:
			w.res.add(Dangerous, "`aws s3 "+words[1]+"`: "+remoteEdit)
		}
		return
	}
	text := name + " " + strings.Join(words, " ")
	var all []string
	for _, a := range args {
		all = append(all, a.s)
	}
	lower := strings.ToLower(strings.Join(all, " "))
	for _, s := range cloudSecret {
		if strings.Contains(lower, s) && !strings.Contains(lower, "list") {
			w.res.add(Dangerous, "`"+text+"`: may print a secret")
			return
		}
	}
	if name == "aws" && len(words) == 2 && words[0] == "configure" && (words[1] == "list" || words[1] == "list-profiles") {
		w.res.add(Safe, "`aws configure list`: shows where settings come from, keys masked")
		return
	}
	if len(words) > 0 && (words[0] == "configure" || words[0] == "config" && len(words) > 1 && words[1] == "set") {
		w.res.add(Dangerous, "`"+text+"`: changes CLI settings or credentials")
		return
	}
	// The verb is the last operand word that looks like one.
	for i := len(words) - 1; i >= 0; i-- {
		v := words[i]
		for _, r := range cloudRead {
			if v == r || strings.HasPrefix(v, r+"-") {
				w.res.add(Dev, "`"+text+"`: "+remoteRead)
				return
			}
		}
	}
	w.res.add(Dangerous, "`"+text+"`: may change cloud resources")
}

// bun judges bun's -e/--eval/-p/--print code as node's, and a project
// tool run by name (see jsBin).
func (w *walker) bun(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args) && strings.HasPrefix(args[i].s, "-"); i++ {
		name, v, ok := strings.Cut(args[i].s, "=")
		switch name {
		case "-e", "--eval", "-p", "--print":
			if !ok && i+1 < len(args) {
				v, ok = args[i+1].s, true
			}
			if ok {
				w.inline("bun", v)
				return
			}
		}
	}
	w.jsBin(chain, args, io)
}

// jsBin judges yarn, pnpm and bun running a project tool by name (yarn
// prisma migrate reset) by the tool's own rule.
func (w *walker) jsBin(chain string, args []arg, io ioInfo) {
	ops := scan(commands.Get()[firstWord(chain)], args)
	if len(ops) == 0 {
		return
	}
	name := args[ops[0]].s
	if r := lookup(name); r != nil && npxTools.Get()[name] {
		w.exec(args[ops[0]:], io)
	}
}

// lookupName judges DNS and probe tools (nslookup, dig, host, ping): a name
// built from what a command prints or a value not known before running
// ("$(whoami).x.evil.example") carries that data to the name's servers.
func (w *walker) lookupName(chain string, args []arg, io ioInfo) {
	for _, a := range args[1:] {
		if hasHole(a.s) && strings.Contains(a.s, ".") {
			w.res.add(Dangerous, "`"+firstWord(chain)+" "+a.text+"`: sends data not known before running in a DNS name")
		}
	}
}
