package danger

import (
	"strings"
)

// Database clients run statements, and their own commands, which can run
// programs and read or write files: mysql's system and \!, psql's \! and
// \o |cmd, COPY … PROGRAM, sqlite3's .shell, .system, .output, .read.

// sql judges a database client's command line and what it reads on its
// input.
func (w *walker) sql(chain string, args []arg, io ioInfo) {
	name := firstWord(chain)
	var code []string
	var files []arg // -f FILE: statements in a file
	for i := 1; i < len(args); i++ {
		a := args[i].s
		next := func() (arg, bool) {
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return arg{}, false
		}
		switch {
		case a == "-c" || a == "--command" || a == "-e" || a == "--execute" || a == "--eval" || a == "-cmd":
			if v, ok := next(); ok {
				code = append(code, v.s)
			}
		case strings.HasPrefix(a, "--command=") || strings.HasPrefix(a, "--execute=") ||
			strings.HasPrefix(a, "--eval="):
			_, v, _ := strings.Cut(a, "=")
			code = append(code, v)
		case name == "psql" && (a == "-f" || a == "--file"), name == "mongosh" && a == "--file":
			if v, ok := next(); ok {
				files = append(files, v)
			}
		case name == "psql" && (a == "-o" || a == "--output" || a == "-L" || a == "--log-file"):
			if v, ok := next(); ok {
				w.sqlOut(chain, v.s)
			}
		case (name == "mysql" || name == "mariadb") && (a == "--tee" || strings.HasPrefix(a, "--tee=")):
			_, v, _ := strings.Cut(a, "=")
			if v == "" {
				if n, ok := next(); ok {
					v = n.s
				}
			}
			w.writeTo(v, chain+" --tee", v)
		case (name == "mysql" || name == "mariadb") && (a == "--pager" || strings.HasPrefix(a, "--pager=")):
			_, v, _ := strings.Cut(a, "=")
			w.res.add(Dangerous, "`"+chain+" --pager`: pipes output through a program")
			w.literal1(v)
		}
	}
	if name == "sqlite3" {
		ops := scan(&rule{vals: "-cmd -separator -newline -nullvalue -init -mmap -pagecache -lookaside -heap"}, args)
		if len(ops) >= 1 {
			if db := args[ops[0]].s; db != ":memory:" && db != "" {
				if p, ok := w.abs(db); !ok || !w.inside(p) {
					w.res.add(Dangerous, "`sqlite3`: opens a database outside the workspace")
				}
			}
		}
		for _, i := range ops[min(1, len(ops)):] {
			code = append(code, args[i].s)
		}
		for i, a := range args {
			if a.s == "-init" && i+1 < len(args) {
				files = append(files, args[i+1])
			}
		}
	}
	local := sqlLocal(args)
	for _, f := range files {
		w.sqlFile(chain, f.s)
		if !local {
			w.res.add(Dangerous, "`"+chain+" "+f.text+"`: runs statements that cannot be seen on a database of "+
				"another host")
		}
	}
	if len(code) == 0 && len(files) == 0 {
		switch io.in.kind {
		case inData:
			code = append(code, io.in.data)
		case inNone:
			if name == "sqlite3" {
				return // an interactive session on a project database
			}
			w.res.add(Dangerous, "`"+name+"`: opens an interactive session")
			return
		case inFile:
			// sqlite3 dev.db < schema.sql: the project's statements on its
			// database file. A server's client reading its input stays
			// unseen: at run time the guard sees it open an interactive
			// session, which only a dangerous approval covers.
			if io.in.data != "" && name == "sqlite3" {
				w.sqlFile(chain, io.in.data)
				return
			}
			w.res.add(Dangerous, "`"+name+"`: runs statements that cannot be seen")
			return
		default:
			w.res.add(Dangerous, "`"+name+"`: runs statements that cannot be seen")
			return
		}
	}
	for _, c := range code {
		w.sqlCode(chain, name, c)
	}
}

// sqlCode judges statements and client commands given to a client.
func (w *walker) sqlCode(chain, name, code string) {
	if hasHole(code) {
		w.res.add(Dangerous, "`"+name+"`: statements not known before running")
		return
	}
	for _, line := range sqlLines(code) {
		w.sqlCommand(chain, name, line)
	}
	if sqlSecretRead(code) {
		w.discloses("`" + name + "`: the query reads passwords, their hashes or tokens")
	}
	if why := sqlAdmin(code); why != "" {
		w.res.add(Dangerous, "`"+name+"`: "+why)
		return
	}
	switch {
	case name == "sqlite3" && sqlAdds(code):
		// The project's database file, rows added or changed by name:
		// an edit of a project file, as sed -i is.
		w.res.add(Dev, "`"+name+"`: adds to or edits rows of a project database")
	case sqlWrites(code):
		w.res.add(Dangerous, "`"+name+"`: the statement changes or drops data")
	case name == "sqlite3":
		w.res.add(Safe, "`"+name+"`: queries a project database")
	default:
		w.res.add(Dev, "`"+name+"`: runs a read-only query")
	}
}

// sqlAdds reports whether statements that write only create, insert, or
// update rows chosen by a WHERE: nothing dropped, deleted, attached or run.
func sqlAdds(code string) bool {
	if !sqlWrites(code) || hasHole(code) || sqlAdmin(code) != "" {
		return false
	}
	u := " " + strings.ToUpper(code) + " "
	for _, k := range []string{"DROP", "DELETE", "TRUNCATE", "ATTACH", "VACUUM", "PRAGMA", "LOAD_EXTENSION", "COPY",
		"GRANT", "REVOKE", ".SHELL", ".SYSTEM", "\\!", ".OUTPUT", ".ONCE", ".IMPORT", ".READ", ".SAVE",
		".BACKUP", ".RESTORE", ".CD"} {
		if strings.Contains(u, k) {
			return false
		}
	}
	return !strings.Contains(u, "UPDATE") || strings.Contains(u, "WHERE")
}

// sqlAdmin says why statements act on the server beyond its data, or "":
// ending other sessions, stopping or reconfiguring the server, reading or
// writing its host's files, running procedures or programs.
func sqlAdmin(code string) string {
	u := " " + strings.ToUpper(code) + " "
	for _, k := range []string{"PG_TERMINATE_BACKEND", "PG_CANCEL_BACKEND", " KILL ", "KILLOP", "KILLSESSIONS",
		"KILLALLSESSIONS", "KILLCURSORS"} {
		if strings.Contains(u, k) {
			return "ends other sessions or queries on the server"
		}
	}
	for _, k := range []string{" SHUTDOWN", "SHUTDOWNSERVER", "PG_RELOAD_CONF", "PG_ROTATE_LOGFILE", "PG_PROMOTE",
		"PG_SWITCH_WAL", "ALTER SYSTEM", "SET GLOBAL", "SET PERSIST", " FLUSH ", " RESET ", " PURGE ", "CHECKPOINT",
		"FSYNCLOCK", "STEPDOWN", "ADMINCOMMAND", "RUNCOMMAND", "INSTALL PLUGIN", "INSTALL SONAME", "UNINSTALL ",
		"CHANGE MASTER", "CHANGE REPLICATION", " STOP SLAVE", " STOP REPLICA", " START SLAVE", " START REPLICA",
		"LOAD EXTENSION", "CONFIG SET"} {
		if strings.Contains(u, k) {
			return "stops, reconfigures or administers the server"
		}
	}
	for _, k := range []string{"LO_EXPORT", "LO_IMPORT", "PG_WRITE", "DBLINK", " CALL ", " EXEC ", " EXECUTE ", " DO ",
		"DB.EVAL", "RUNPROGRAM", "RUNMONGOPROGRAM", "REQUIRE(", " LOAD(", "XP_CMDSHELL", "SYS_EXEC", "SYS_EVAL"} {
		if strings.Contains(u, k) {
			return "runs code, a procedure or a program, or moves files on the server's host"
		}
	}
	return ""
}

// sqlSecretRead reports whether a query names what holds credentials:
// servers' user tables and password columns, tokens, keys.
func sqlSecretRead(code string) bool {
	l := strings.ToLower(code)
	for _, k := range []string{"mysql.user", "authentication_string", "pg_shadow", "pg_authid", "rolpassword",
		"password", "passwd", "secret", "token", "api_key", "apikey", "private_key", "credential"} {
		if strings.Contains(l, k) {
			return true
		}
	}
	return false
}

// sqlLines splits code into statements and client commands: lines, and
// statements at semicolons outside quotes.
func sqlLines(code string) []string {
	var out []string
	var quote byte
	start := 0
	for i := 0; i < len(code); i++ {
		c := code[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case c == ';' || c == '\n':
			out = append(out, strings.TrimSpace(code[start:i]))
			start = i + 1
		}
	}
	return append(out, strings.TrimSpace(code[start:]))
}

// sqlCommand judges one statement or client command.
func (w *walker) sqlCommand(chain, name, line string) {
	lower := strings.ToLower(line)
	on := "`" + name + " " + line + "`"
	rest := func(prefixes ...string) (string, bool) {
		for _, p := range prefixes {
			if r, ok := strings.CutPrefix(lower, p); ok && (r == "" || r[0] == ' ' || r[0] == '\t' ||
				strings.HasSuffix(p, " ") || p == "\\!") {
				return strings.TrimSpace(line[len(line)-len(r):]), true
			}
		}
		return "", false
	}
	if cmd, ok := rest("\\!", "system ", ".shell", ".system"); ok {
		w.res.add(Dangerous, on+": runs a shell command")
		w.nested(cmd, input{})
		return
	}
	if f, ok := rest("\\o", "\\g", "\\w", ".output", ".once", ".log", "tee ", "\\t ", ".save", ".backup"); ok {
		if strings.HasPrefix(f, "|") {
			w.res.add(Dangerous, on+": pipes output to a shell command")
			w.nested(f[1:], input{})
			return
		}
		fields := strings.Fields(f)
		switch {
		case len(fields) == 0 || fields[0] == "stdout" || fields[0] == "off":
		case fields[0] == "-x" || fields[0] == "-e" || fields[0] == "--bom" && len(fields) == 1:
			w.res.add(Dangerous, on+": opens the output in another program")
		default:
			w.sqlOut(chain, fields[len(fields)-1])
		}
		return
	}
	if f, ok := rest("\\i", "\\ir", "\\.", "source ", ".read", ".import"); ok {
		if strings.HasPrefix(f, "|") {
			w.res.add(Dangerous, on+": runs a shell command")
			w.nested(f[1:], input{})
			return
		}
		if fields := strings.Fields(f); len(fields) > 0 {
			file := fields[0]
			if strings.HasPrefix(lower, ".import") {
				for _, x := range fields {
					if !strings.HasPrefix(x, "-") {
						file = x
						break
					}
				}
				p, ok := w.abs(strings.Trim(file, `'"`))
				w.readFile(p, ok, on)
				return
			}
			w.sqlFile(chain, strings.Trim(file, `'"`))
		}
		return
	}
	if _, ok := rest(".load", ".excel", ".edit", ".www", "pager ", "\\p ", ".cd"); ok {
		w.res.add(Dangerous, on+": loads native code, opens a program or changes directory")
		return
	}
	switch {
	case strings.Contains(lower, " program "):
		// COPY … FROM/TO PROGRAM 'cmd', \copy … program 'cmd'.
		i := strings.Index(lower, " program ")
		w.res.add(Dangerous, on+": runs a shell command")
		if m := strLit.Get().FindStringSubmatch(line[i:]); m != nil {
			w.nested(m[1]+m[2], input{})
		}
	case strings.Contains(lower, "into outfile") || strings.Contains(lower, "into dumpfile"):
		// The server writes the file, on its own host and relative to its
		// data directory: never the workspace of this shell.
		w.res.add(Dangerous, on+": the database server writes a file on its host")
	case strings.Contains(lower, "vacuum into") || strings.HasPrefix(lower, "attach"):
		i := strings.Index(lower, "vacuum into")
		if m := strLit.Get().FindStringSubmatch(line[max(i, 0):]); m != nil {
			w.sqlOut(chain, m[1]+m[2])
		} else {
			w.res.add(Dangerous, on+": writes a file")
		}
	case strings.Contains(lower, "load_file(") || strings.Contains(lower, "load data") ||
		strings.Contains(lower, "pg_read_file(") || strings.Contains(lower, "readfile("):
		if m := strLit.Get().FindStringSubmatch(line[strings.IndexAny(lower, "(l"):]); m != nil {
			p, ok := w.abs(m[1] + m[2])
			w.readFile(p, ok, on)
		}
		w.res.add(Dangerous, on+": reads a file on the database host")
	case strings.Contains(lower, "load_extension("):
		w.res.add(Dangerous, on+": loads native code")
	}
}

// sqlOut judges a file a client writes.
func (w *walker) sqlOut(chain, f string) {
	w.writeTo(strings.Trim(f, `'"`), chain+" output", f)
}

// sqlFile judges statements a client reads from a file.
func (w *walker) sqlFile(chain, f string) {
	p, ok := w.abs(f)
	switch {
	case ok && w.shared.scripts[p] != "" && !hasHole(w.shared.scripts[p]):
		w.sqlCode(chain, firstWord(chain), w.shared.scripts[p])
	case f == "-" || f == "/dev/stdin":
		w.res.add(Dangerous, "`"+chain+"`: runs statements from its input")
	case !ok || !w.inside(p):
		w.res.add(Dangerous, "`"+chain+" "+f+"`: runs statements from a file outside the workspace")
	case dumpName(strings.TrimPrefix(p, w.ws.Dir)):
		w.res.add(Dangerous, "`"+chain+" "+f+"`: restores a dump, which drops and replaces what it holds")
	default:
		w.res.add(Dev, "`"+chain+" "+f+"`: runs the project's statements")
	}
}

// dumpName reports a file whose path in the workspace says it is a dump
// or a backup of a database: restoring it replaces the tables it holds.
func dumpName(rel string) bool {
	b := strings.ToLower(rel)
	for _, w := range []string{"dump", "backup", "restore", "snapshot", ".bak"} {
		if strings.Contains(b, w) {
			return true
		}
	}
	return false
}

// sqlLocal reports a database client that talks to this machine: no host
// (-h, --host, a connection URL or a DSN with host=) other than loopback
// or a socket, and no operand not known before running ("$DATABASE_URL").
func sqlLocal(args []arg) bool {
	for i := 1; i < len(args); i++ {
		a := args[i].s
		name, v, hasV := strings.Cut(a, "=")
		switch {
		case hasHole(a):
			return false
		case name == "-h" || name == "--host" || name == "-H":
			if !hasV && i+1 < len(args) {
				i++
				v = args[i].s
			}
			if !localHost(v) && !strings.HasPrefix(v, "/") {
				return false
			}
		case strings.HasPrefix(a, "-h") && len(a) > 2 && !strings.HasPrefix(a, "--"):
			if !localHost(a[2:]) {
				return false
			}
		case strings.Contains(a, "://"):
			if host, ok := urlHost(a); !ok || !localHost(host) {
				return false
			}
		case strings.Contains(a, "host="):
			h := a[strings.Index(a, "host=")+5:]
			if j := strings.IndexAny(h, " ;"); j >= 0 {
				h = h[:j]
			}
			if !localHost(h) {
				return false
			}
		}
	}
	return true
}
