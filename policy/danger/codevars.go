package danger

import (
	"path"
	"slices"
	"strings"

	"github.com/qsh-shell/qsh/internal/lazy"
)

// Environment variables that make programs load code or send traffic
// elsewhere, judged by their value: PYTHONPATH=src is the project's own
// code, PYTHONPATH=/tmp/evil is not.

// codePathVars hold lists of directories (or files) that interpreters
// load code from.
var codePathVars = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{
		"PYTHONPATH": true, "PYTHONHOME": true, "PYTHONSTARTUP": true, "PYTHONUSERBASE": true,
		"NODE_PATH": true, "RUBYLIB": true, "PERL5LIB": true, "PERLLIB": true, "LUA_PATH": true,
		"LUA_CPATH": true, "CLASSPATH": true, "GEM_PATH": true, "GEM_HOME": true, "BUNDLE_GEMFILE": true,
		"R_PROFILE_USER": true, "PHPRC": true, "PHP_INI_SCAN_DIR": true,
	}
}}

// proxyVars send a program's traffic through another machine.
var proxyVars = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{
		"http_proxy": true, "https_proxy": true, "HTTP_PROXY": true, "HTTPS_PROXY": true, "ALL_PROXY": true,
		"all_proxy": true, "ftp_proxy": true, "FTP_PROXY": true, "npm_config_proxy": true,
		"npm_config_https_proxy": true, "PIP_PROXY": true, "PIP_INDEX_URL": true, "PIP_EXTRA_INDEX_URL": true,
		"npm_config_registry": true, "NPM_CONFIG_REGISTRY": true, "UV_INDEX_URL": true, "GOPROXY": true,
		"CARGO_REGISTRIES_CRATES_IO_INDEX": true, "UV_EXTRA_INDEX_URL": true, "UV_INDEX": true,
		"UV_DEFAULT_INDEX": true, "PIP_FIND_LINKS": true, "YARN_NPM_REGISTRY_SERVER": true, "YARN_REGISTRY": true,
		"BUN_CONFIG_REGISTRY": true, "RUBYGEMS_HOST": true, "DOCKER_HOST": true, "CONTAINER_HOST": true,
	}
}}

// trustVars make programs trust what they would check: a value in the
// set given turns the check off (GOSUMDB=off, NODE_TLS_REJECT_UNAUTHORIZED=0),
// "*" means any value does (GOINSECURE=example.com), "ca" names
// certificates to trust, judged by where the file is.
var trustVars = lazy.Value[map[string]string]{Build: func() map[string]string {
	return map[string]string{
		"GOSUMDB": "off", "GONOSUMDB": "*", "GONOSUMCHECK": "*", "GOINSECURE": "*", "GONOVERIFY": "*",
		"GIT_SSL_NO_VERIFY": "*", "NODE_TLS_REJECT_UNAUTHORIZED": "0", "PYTHONHTTPSVERIFY": "0",
		"npm_config_strict_ssl": "false", "NPM_CONFIG_STRICT_SSL": "false", "PIP_TRUSTED_HOST": "*",
		"UV_INSECURE_HOST": "*", "YARN_ENABLE_STRICT_SSL": "false", "CURL_INSECURE": "*",
		"NODE_EXTRA_CA_CERTS": "ca", "SSL_CERT_FILE": "ca", "SSL_CERT_DIR": "ca", "REQUESTS_CA_BUNDLE": "ca",
		"CURL_CA_BUNDLE": "ca", "GIT_SSL_CAINFO": "ca", "GIT_SSL_CAPATH": "ca", "PIP_CERT": "ca",
		"AWS_CA_BUNDLE": "ca", "NPM_CONFIG_CAFILE": "ca", "npm_config_cafile": "ca",
	}
}}

// installVars make package managers install outside the project: a value
// in the set given does (npm_config_global=true), "path" is a prefix
// judged by where it is.
var installVars = lazy.Value[map[string]string]{Build: func() map[string]string {
	return map[string]string{
		"npm_config_global": "true 1", "NPM_CONFIG_GLOBAL": "true 1", "npm_config_location": "global user",
		"NPM_CONFIG_LOCATION": "global user", "npm_config_prefix": "path", "NPM_CONFIG_PREFIX": "path",
		"PIP_USER": "1 true yes on", "PIP_BREAK_SYSTEM_PACKAGES": "1 true yes on", "PIP_TARGET": "path",
		"PIP_PREFIX": "path", "PIP_ROOT": "path", "UV_SYSTEM_PYTHON": "1 true yes on",
		"UV_BREAK_SYSTEM_PACKAGES": "1 true yes on",
	}
}}

// trustVar judges a variable of trustVars or installVars; it reports
// whether name is one.
func (w *walker) trustVar(name, val, on string) bool {
	if off, ok := trustVars.Get()[name]; ok {
		switch {
		case off == "ca":
			if systemCerts(val) {
				return true
			}
			w.res.add(Dangerous, on+": trusts certificates from `"+val+"`, which can vouch for any server")
		case off == "*" && val != "" && val != "0" && val != "false" || slices.Contains(strings.Fields(off), val):
			w.res.add(Dangerous, on+": turns off the checks that tell a download from a forgery")
		}
		return true
	}
	if how, ok := installVars.Get()[name]; ok {
		if how == "path" {
			if p, ok := w.abs(val); val != "" && (!ok || !(w.inside(p) || p == w.ws.Dir)) {
				w.res.add(Dangerous, on+": installs packages outside the workspace")
			}
		} else if slices.Contains(strings.Fields(how), strings.ToLower(val)) {
			w.res.add(Dangerous, on+": installs packages outside the project, for the user or the system")
		}
		return true
	}
	return false
}

// systemCerts reports a certificate file or directory of the system's
// trust store.
func systemCerts(p string) bool {
	for _, d := range []string{"/etc/ssl/", "/etc/pki/", "/etc/ca-certificates", "/usr/share/ca-certificates/",
		"/usr/local/share/ca-certificates/", "/usr/lib/ssl/", "/opt/homebrew/etc/"} {
		if strings.HasPrefix(p, d) {
			return true
		}
	}
	return false
}

// codeVar judges a variable that makes programs load code or send traffic
// elsewhere; it reports whether name is one.
func (w *walker) codeVar(name, val, text string) bool {
	on := "`" + text + "`"
	switch {
	case codePathVars.Get()[name]:
		for _, p := range strings.Split(val, ":") {
			if p == "" {
				continue
			}
			if q, ok := w.abs(p); !ok || !(w.inside(q) || q == w.ws.Dir) {
				w.res.add(Dangerous, on+": makes programs load code from outside the workspace")
				return true
			}
		}
		w.res.add(Dev, on+": loads the project's own code")
		return true
	case w.trustVar(name, val, on):
		return true
	case proxyVars.Get()[name]:
		if host, ok := urlHost(val); ok && localHost(host) || val == "" || val == "direct" || val == "off" ||
			strings.HasPrefix(val, "unix://") ||
			name == "GOPROXY" && (val == "https://proxy.golang.org,direct" || val == "https://proxy.golang.org") {
			return true
		}
		w.res.add(Dangerous, on+": sends traffic through another server, or fetches packages from one")
		return true
	case buildProgramVar(name):
		w.buildProgram(val, on)
		return true
	case name == "GOFLAGS":
		// Space-separated -flag=value entries (go help environment).
		for _, f := range strings.Fields(val) {
			opt, v, _ := strings.Cut(strings.TrimPrefix(f, "-"), "=")
			if opt == "-toolexec" || opt == "toolexec" || opt == "-exec" || opt == "exec" || opt == "vettool" ||
				opt == "-vettool" {
				w.buildProgram(v, on)
				return true
			}
		}
		w.res.add(Dev, on+": changes options of the go command")
		return true
	case name == "NODE_OPTIONS" || name == "JAVA_TOOL_OPTIONS" || name == "_JAVA_OPTIONS" ||
		name == "JDK_JAVA_OPTIONS" || name == "RUBYOPT" || name == "PERL5OPT":
		w.codeOptions(name, val, on)
		return true
	}
	return false
}

// codeOptions judges options an interpreter takes from the environment:
// only those that load code count (--require, -javaagent, -r, -M).
func (w *walker) codeOptions(name, val, on string) {
	if hasHole(val) {
		w.res.add(Dangerous, on+": options not known before running")
		return
	}
	fields := strings.Fields(val)
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		file := ""
		switch {
		case name == "NODE_OPTIONS":
			opt, v, hasV := strings.Cut(f, "=")
			switch opt {
			case "-r", "--require", "--import", "--loader", "--experimental-loader", "--env-file",
				"--experimental-default-type", "--inspect", "--inspect-brk":
				if strings.HasPrefix(opt, "--inspect") {
					// [host:]port: a port alone listens on loopback.
					if host, _, _ := strings.Cut(v, ":"); v != "" && !isNumber(v) && !localHost(host) ||
						host == "0.0.0.0" {
						w.res.add(Dangerous, on+": opens a debugger to the network")
					}
					continue
				}
				if !hasV && i+1 < len(fields) {
					i++
					v = fields[i]
				}
				file = v
			}
		case name == "RUBYOPT":
			if lib, ok := strings.CutPrefix(f, "-r"); ok {
				file = lib
			}
		case name == "PERL5OPT":
			if strings.HasPrefix(f, "-M") || strings.HasPrefix(f, "-m") || strings.HasPrefix(f, "-d") {
				w.res.add(Dangerous, on+": makes perl load a module")
				return
			}
		default: // Java
			for _, p := range []string{"-javaagent:", "-agentpath:", "-agentlib:", "-Xbootclasspath"} {
				if rest, ok := strings.CutPrefix(f, p); ok {
					file, _, _ = strings.Cut(strings.TrimPrefix(rest, "/a:"), "=")
					if p == "-agentlib:" {
						file = "/" // a library by name, from anywhere
					}
				}
			}
		}
		if file == "" {
			continue
		}
		if strings.HasPrefix(file, "data:") || strings.Contains(file, "://") {
			w.res.add(Dangerous, on+": makes programs run code given inline or fetched")
			return
		}
		if p, ok := w.abs(file); !ok || !w.inside(p) {
			if !strings.Contains(file, "/") && !strings.HasPrefix(file, ".") && name != "JAVA_TOOL_OPTIONS" {
				// A package by name (--require ts-node/register): the
				// project's dependencies.
				w.res.add(Dev, on+": loads a package")
				continue
			}
			w.res.add(Dangerous, on+": makes programs load code from outside the workspace")
			return
		}
	}
	w.res.add(Dev, on+": changes options of the programs it runs")
}

// buildProgramVar reports whether name is an environment variable naming
// a program a build runs: make takes CC and the like from the environment,
// cargo its rustc wrapper and each target's runner and linker.
func buildProgramVar(name string) bool {
	switch name {
	case "CC", "CXX", "CPP", "LD", "AR", "AS", "FC", "RUSTC", "RUSTDOC", "RUSTC_WRAPPER",
		"RUSTC_WORKSPACE_WRAPPER", "CARGO_BUILD_RUSTC", "CARGO_BUILD_RUSTC_WRAPPER":
		return true
	}
	return strings.HasPrefix(name, "CARGO_TARGET_") &&
		(strings.HasSuffix(name, "_RUNNER") || strings.HasSuffix(name, "_LINKER"))
}

// buildProgram judges a program a build is told to run, from the
// environment (CC=clang-17 make) or make's command line (make RM="rm -f").
// A known compiler or tool, by name or at a system path, with its version
// suffix dropped (gcc-12, ld.bfd), or a program of the project, is
// development; a program elsewhere (/tmp/x) is dangerous; a value with
// arguments is a command line, judged as the command it is, run on a file
// of the project (rm -f is harmless there, rm -rf ~ is not).
func (w *walker) buildProgram(val, on string) {
	words := strings.Fields(val)
	if len(words) > 1 && (words[0] == "ccache" || words[0] == "sccache" || words[0] == "distcc") {
		words = words[1:]
	}
	if len(words) == 0 {
		return
	}
	if hasHole(val) || strings.ContainsAny(val, ";|&$`<>()\\'\"") {
		w.res.add(Dangerous, on+": sets a program the build runs, as a command line")
		w.nested(val+" x.c", input{})
		return
	}
	first := words[0]
	if strings.Contains(first, "/") {
		p, ok := w.abs(first)
		switch {
		case ok && w.inside(p):
			w.res.add(Dev, on+": runs a program of the project in the build")
			return
		case !ok || !systemProgram(p):
			w.res.add(Dangerous, on+": sets a program from outside the workspace and the system's directories")
			return
		}
		first = path.Base(p)
	}
	name := versionSuffix.Get().ReplaceAllString(first, "")
	switch strings.TrimRight(name, "0123456789.") {
	case "sh", "bash", "dash", "zsh", "ksh", "fish", "env", "python", "perl", "ruby", "node", "php", "lua", "tclsh":
		// GOFLAGS=-toolexec=sh …: a shell or an interpreter runs whatever
		// it is handed, and GOFLAGS's fields split its script apart.
		w.res.add(Dangerous, on+": has the build run a shell or an interpreter (`"+name+"`)")
		return
	}
	if len(words) == 1 && (compilers.Get()[name] || crossTool.Get().MatchString(name)) {
		w.res.add(Dev, on+": chooses the compiler or build tool")
		return
	}
	w.res.add(Dev, on+": sets a program the build runs, judged as a command")
	w.nested(strings.Join(append([]string{name}, words[1:]...), " ")+" x.c", input{})
}

// systemProgram reports whether p lies in a directory the system's
// programs are installed in.
func systemProgram(p string) bool {
	for _, dir := range []string{"/usr/bin/", "/bin/", "/usr/local/bin/", "/usr/sbin/", "/usr/lib/", "/usr/libexec/",
		"/opt/"} {
		if strings.HasPrefix(p, dir) {
			return true
		}
	}
	return false
}

// versionSuffix is the version part of a program's name: gcc-12, clang-17.0,
// python3.12, ld.bfd and ld.gold (ld by another linker).
var versionSuffix = lazy.Regexp{Expr: `(-[0-9]+(\.[0-9]+)*|(\.[0-9]+)+|\.bfd|\.gold)$`}

// crossTool matches cross compilers and tools: aarch64-linux-gnu-gcc.
var crossTool = lazy.Regexp{Expr: `^[a-z0-9_]+(-[a-z0-9_]+)+-` +
	`(gcc|g\+\+|c\+\+|cpp|clang|clang\+\+|ld|ar|as|ranlib|strip|nm|objcopy)$`}

// compilers are programs CC, RUSTC_WRAPPER, make's RM and the like
// commonly name (make(1), "Variables Used by Implicit Rules").
var compilers = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	m := map[string]bool{}
	for _, c := range strings.Fields("cc c++ gcc g++ clang clang++ cpp ld ar as ld.lld lld mold gold ld.gold " +
		"llvm-ar gcc-ar gcc-nm gcc-ranlib llvm-nm llvm-ranlib llvm-strip llvm-objcopy tcc zig musl-gcc gfortran " +
		"rustc rustdoc sccache ccache distcc icecc f77 f95 m2c pc lex flex yacc bison byacc lint makeinfo tex " +
		"texi2dvi weave cweave tangle ctangle ranlib strip objcopy nm make gmake go cargo python python3 perl " +
		"install ginstall true :") {
		m[c] = true
	}
	return m
}}
