package danger

import "strings"

// Checks for the tools of rules_platform.go.

// optValue returns the value of option a (given as -x V, --long V or
// --long=V) among names, and the index past it; ok is false when a is not
// one of them.
func optValue(args []arg, i int, names ...string) (string, int, bool) {
	a := args[i].s
	for _, n := range names {
		if a == n && i+1 < len(args) {
			return args[i+1].s, i + 1, true
		}
		if len(n) > 2 && strings.HasPrefix(a, n+"=") {
			return a[len(n)+1:], i, true
		}
		if len(n) == 2 && strings.HasPrefix(a, n) && len(a) > 2 && !strings.HasPrefix(a, "--") {
			return a[2:], i, true
		}
	}
	return "", i, false
}

// avrdude judges -U MEM:OP:FILE operations: r reads the chip into FILE,
// v compares, w writes the chip; -e erases it and -t opens a terminal on
// it.
func (w *walker) avrdude(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		a := args[i].s
		if a == "-e" || a == "-t" || a == "-T" {
			w.res.add(Dangerous, "`"+chain+" "+a+"`: erases or changes the chip")
			continue
		}
		v, j, ok := optValue(args, i, "-U")
		if !ok {
			continue
		}
		i = j
		parts := strings.SplitN(v, ":", 4)
		if len(parts) < 3 {
			// -U FILE: writes FILE to the flash.
			w.res.add(Dangerous, "`"+chain+" -U "+v+"`: writes the chip's memory")
			continue
		}
		switch parts[1] {
		case "r":
			w.writeTo(parts[2], chain+" -U", v)
		case "v":
		default:
			w.res.add(Dangerous, "`"+chain+" -U "+v+"`: writes the chip's memory")
		}
	}
}

// duckdb judges its statements (-c SQL, or an operand after the database
// file); without any it opens an interactive session, which can run
// programs (.shell).
func (w *walker) duckdb(chain string, args []arg, io ioInfo) {
	var sql []string
	ops := 0
	for i := 1; i < len(args); i++ {
		a := args[i].s
		if v, j, ok := optValue(args, i, "-c", "-s", "-cmd"); ok {
			sql, i = append(sql, v), j
			continue
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		if ops++; ops == 1 {
			if p, ok := w.abs(a); ok && !w.inside(p) && a != ":memory:" {
				w.res.add(Dangerous, "`"+chain+" "+args[i].text+"`: opens a database outside the workspace")
			}
			continue
		}
		sql = append(sql, a)
	}
	if len(sql) == 0 {
		if io.in.kind == inData {
			sql = append(sql, io.in.data)
		} else {
			w.res.add(Dangerous, "`"+chain+"`: opens an interactive session that can run programs")
			return
		}
	}
	for _, s := range sql {
		u := strings.ToLower(s)
		switch {
		case strings.Contains(u, "://") || strings.Contains(u, "install") || strings.Contains(u, "load ") ||
			strings.Contains(u, "secret"):
			w.res.add(Dangerous, "`"+chain+"`: the statements reach the network, extensions or secrets")
		case strings.Contains(u, "copy") || strings.Contains(u, "export") || strings.Contains(u, "attach") ||
			strings.Contains(u, ".shell") || strings.Contains(u, ".system") || strings.Contains(u, "'/") ||
			strings.Contains(u, "'~"):
			w.res.add(Dangerous, "`"+chain+"`: the statements read or write files outside the database")
		case sqlWrites(s):
			w.res.add(Dev, "`"+chain+"`: changes the project's database file")
		}
	}
}

// kaggleDir judges where a download goes (-p DIR, else the cwd).
func (w *walker) kaggleDir(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		if v, j, ok := optValue(args, i, "-p", "--path"); ok {
			w.writeTo(v, chain+" -p", v)
			i = j
		}
	}
}

// gitleaksReport judges the report file it writes.
func (w *walker) gitleaksReport(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		if v, j, ok := optValue(args, i, "-r", "--report-path"); ok {
			w.writeTo(v, chain+" --report-path", v)
			i = j
		}
	}
}

// ageFiles: age encrypts to -o; decrypting without -o prints the secret.
func (w *walker) ageFiles(chain string, args []arg, io ioInfo) {
	decrypt, out := false, false
	for i := 1; i < len(args); i++ {
		a := args[i].s
		if a == "-d" || a == "--decrypt" {
			decrypt = true
		}
		if v, j, ok := optValue(args, i, "-o", "--output"); ok {
			w.writeTo(v, chain+" -o", v)
			out, i = true, j
			continue
		}
		if _, j, ok := optValue(args, i, "-r", "--recipient", "-R", "--recipients-file", "-i", "--identity"); ok {
			i = j
		}
	}
	if decrypt && !out {
		w.discloses("`" + chain + " -d`: prints what it decrypts")
	}
}

// pioTarget judges -t/--target: upload, program and erase write the
// board.
func (w *walker) pioTarget(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		v, j, ok := optValue(args, i, "-t", "--target")
		if !ok {
			continue
		}
		i = j
		switch {
		case strings.HasPrefix(v, "upload"), v == "program", v == "erase", v == "fuses", v == "bootloader",
			hasHole(v):
			w.res.add(Dangerous, "`"+chain+" -t "+v+"`: writes the board's firmware")
		}
	}
}

// osascript judges the shell code an AppleScript's `do shell script`
// runs, as sh -c's: AppleScript itself stays dangerous.
func (w *walker) osascript(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		v, j, ok := optValue(args, i, "-e")
		if !ok {
			continue
		}
		i = j
		for rest := v; ; {
			k := strings.Index(rest, "do shell script")
			if k < 0 {
				break
			}
			rest = strings.TrimLeft(rest[k+len("do shell script"):], " ")
			if !strings.HasPrefix(rest, `"`) {
				w.res.add(Dangerous, "`"+chain+"`: runs shell code not known before running")
				break
			}
			var b strings.Builder
			n := 1
			for ; n < len(rest) && rest[n] != '"'; n++ {
				if rest[n] == '\\' && n+1 < len(rest) {
					n++
				}
				b.WriteByte(rest[n])
			}
			w.nested(b.String(), input{})
			if n >= len(rest) {
				break
			}
			rest = rest[n+1:]
		}
	}
}

// codesign judges signing (or unsigning) by what it rewrites: a bundle
// the build made in the workspace is dev, an installed application is
// not the project's.
func (w *walker) codesign(chain string, args []arg, io ioInfo) {
	signs := false
	for _, a := range args[1:] {
		signs = signs || matchFlag("-s --sign --remove-signature", a.s)
	}
	if !signs {
		return
	}
	w.res.add(Dev, "`"+chain+" --sign`: signs code")
	for _, i := range scan(lookup("codesign"), args) {
		w.writeTo(args[i].s, chain+" --sign", args[i].text)
	}
}

// xattr judges changing extended attributes by the files changed, and
// stripping quarantine (-c, -d com.apple.quarantine, recursively) as
// turning Gatekeeper off for what was downloaded.
func (w *walker) xattr(chain string, args []arg, io ioInfo) {
	mode, ops := "", []arg{}
	for _, a := range args[1:] {
		if strings.HasPrefix(a.s, "-") && len(a.s) > 1 {
			for _, c := range a.s[1:] {
				switch c {
				case 'w', 'd', 'c':
					mode = string(c)
				}
			}
			continue
		}
		ops = append(ops, a)
	}
	switch mode {
	case "":
		return
	case "c":
		w.res.add(Dangerous, "`"+chain+" -c`: clears every attribute, Gatekeeper's quarantine among them")
		return
	case "d":
		if len(ops) > 0 && (ops[0].s == "com.apple.quarantine" || hasHole(ops[0].s)) {
			w.res.add(Dangerous, "`"+chain+" -d com.apple.quarantine`: turns Gatekeeper off for the file")
			return
		}
		ops = ops[min(1, len(ops)):]
	case "w":
		if len(ops) > 0 && ops[0].s == "com.apple.quarantine" {
			w.res.add(Dangerous, "`"+chain+" -w com.apple.quarantine`: changes Gatekeeper's quarantine")
			return
		}
		ops = ops[min(2, len(ops)):]
	}
	for _, a := range ops {
		w.writeTo(a.s, chain+" -"+mode, a.text)
	}
}
