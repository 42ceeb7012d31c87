package eval

import (
	crand "crypto/rand"
	"encoding/binary"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// BashVersion is the bash qsh answers as: the version whose behaviour it
// follows, with qsh named in the release status.
const (
	BashVersion = "5.2.15(1)-release"
	bashMajor   = "5"
	bashMinor   = "2"
	bashPatch   = "15"
)

// importEnv makes the environment's entries exported variables, and the
// functions bash exports (BASH_FUNC_name%%) functions.
func (r *Runner) importEnv(env []string) {
	g := r.vars.global()
	for _, kv := range env {
		name, value, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		if fname, ok := strings.CutPrefix(name, "BASH_FUNC_"); ok && strings.HasSuffix(fname, "%%") {
			r.importFunc(strings.TrimSuffix(fname, "%%"), value)
			continue
		}
		if !validName(name) {
			continue
		}
		g.writable()[name] = &Var{Attr: AttrExport, set: true, str: value}
	}
	r.vars.gen++
}

// importFunc defines a function exported by a parent bash (or qsh).
func (r *Runner) importFunc(name, body string) {
	if !validName(name) && strings.ContainsAny(name, " \t\n$`'\"/") {
		return
	}
	p, err := Parse(name+" "+body, "environment")
	if err != nil || len(p.File.Stmts) != 1 {
		return
	}
	if _, ok := p.File.Stmts[0].Cmd.(*syntax.FuncDecl); !ok {
		return
	}
	restore := r.withCode(p.src, p.lenient)
	r.stmt(p.File.Stmts[0])
	restore()
	if fn := r.funcs.get(name); fn != nil {
		nf := *fn
		nf.export = true
		r.funcs.set(name, &nf)
	}
}

// initVars sets the variables bash sets at start.
func (r *Runner) initVars() {
	g := r.vars.global().writable()
	setIf := func(name, value string, attr Attr) {
		if v, ok := g[name]; ok && v.set {
			return
		}
		g[name] = &Var{Attr: attr, set: true, str: value}
	}
	force := func(name, value string, attr Attr) {
		g[name] = &Var{Attr: attr, set: true, str: value}
	}
	dyn := func(name string, get func(r *Runner) *Var, set func(r *Runner, v string)) {
		g[name] = &Var{set: true, dyn: &dynamic{get: get, set: set}}
	}
	if exe, err := os.Executable(); err == nil {
		force("BASH", exe, 0)
	}
	force("BASH_VERSION", BashVersion, 0)
	force("PPID", itoa(int64(r.sess.ppid)), AttrReadonly|AttrInteger)
	force("UID", itoa(int64(os.Getuid())), AttrReadonly|AttrInteger)
	force("EUID", itoa(int64(os.Geteuid())), AttrReadonly|AttrInteger)
	if h, err := os.Hostname(); err == nil {
		setIf("HOSTNAME", h, 0)
	}
	arch := map[string]string{"amd64": "x86_64", "arm64": "aarch64", "386": "i686"}[runtime.GOARCH]
	if arch == "" {
		arch = runtime.GOARCH
	}
	setIf("HOSTTYPE", arch, 0)
	ostype := "linux-gnu"
	if runtime.GOOS == "darwin" {
		ostype = "darwin"
	}
	setIf("OSTYPE", ostype, 0)
	setIf("MACHTYPE", arch+"-pc-"+ostype, 0)
	// The machine type as bash was built for, uname's names (x86_64), not Go's.
	vi := arrVar([]string{bashMajor, bashMinor, bashPatch, "1", "release", arch + "-pc-" + ostype})
	vi.Attr |= AttrReadonly
	g["BASH_VERSINFO"] = vi
	setIf("IFS", " \t\n", 0)
	setIf("OPTIND", "1", 0)
	setIf("OPTERR", "1", 0)
	setIf("PS4", "+ ", 0)
	setIf("COMP_WORDBREAKS", " \t\n\"'><=;|&(:", 0)
	if _, ok := g["SHELL"]; !ok {
		// bash names the user's login shell when the environment does
		// not, unexported (neofetch's "Shell:" line runs "$SHELL").
		force("SHELL", loginShell(os.Getuid()), 0)
	}
	if _, ok := g["PATH"]; !ok {
		force("PATH", "/usr/local/bin:/usr/local/sbin:/usr/bin:/usr/sbin:/bin:/sbin:.", 0)
	}
	// PWD is the directory if it names it, else the directory's path.
	if v, ok := g["PWD"]; !ok || !samePath(v.str, r.dir) {
		force("PWD", r.dir, AttrExport)
	} else {
		v.Attr |= AttrExport
	}
	if v, ok := g["OLDPWD"]; ok {
		if fi, err := os.Stat(v.str); err != nil || !fi.IsDir() {
			g["OLDPWD"] = &Var{Attr: AttrExport}
		}
	} else {
		g["OLDPWD"] = &Var{Attr: AttrExport}
	}
	dyn("RANDOM", func(r *Runner) *Var { return strVar(itoa(int64(r.random.next()))) },
		func(r *Runner, v string) {
			n, _ := r.arithString(v)
			r.random.seed(uint32(n))
		})
	dyn("SRANDOM", func(*Runner) *Var {
		var b [4]byte
		crand.Read(b[:])
		return strVar(itoa(int64(binary.LittleEndian.Uint32(b[:]))))
	}, func(*Runner, string) {})
	dyn("SECONDS", func(r *Runner) *Var {
		return strVar(itoa(int64(time.Since(r.sess.start) / time.Second)))
	}, func(r *Runner, v string) {
		n, _ := r.arithString(v)
		r.sess.start = time.Now().Add(-time.Duration(n) * time.Second)
	})
	dyn("EPOCHSECONDS", func(*Runner) *Var { return strVar(itoa(time.Now().Unix())) }, func(*Runner, string) {})
	dyn("EPOCHREALTIME", func(*Runner) *Var {
		now := time.Now()
		return strVar(fmt.Sprintf("%d.%06d", now.Unix(), now.Nanosecond()/1000))
	}, func(*Runner, string) {})
	dyn("LINENO", func(r *Runner) *Var { return strVar(itoa(int64(r.line))) }, func(*Runner, string) {})
	dyn("BASHPID", func(r *Runner) *Var { return strVar(itoa(int64(r.pid))) }, func(*Runner, string) {})
	dyn("BASH_SUBSHELL", func(r *Runner) *Var { return strVar(itoa(int64(r.subshell))) }, func(*Runner, string) {})
	dyn("BASH_COMMAND", func(r *Runner) *Var { return strVar(r.bashCommand()) }, func(*Runner, string) {})
	// BASH_ARGV and BASH_ARGC: with extdebug on, each call pushes its
	// arguments on the positional parameters of when they were first
	// needed (last first).
	dyn("BASH_ARGV", func(r *Runner) *Var { return r.argStack(false) }, nil)
	dyn("BASH_ARGC", func(r *Runner) *Var { return r.argStack(true) }, nil)
	// HISTCMD is 0 where no history is kept.
	dyn("HISTCMD", func(*Runner) *Var { return &Var{Attr: AttrInteger, set: true, str: "0"} }, func(*Runner, string) {})
	dyn("BASH_ARGV0", func(r *Runner) *Var { return strVar(r.arg0) }, func(r *Runner, v string) { r.arg0 = v })
	dyn("FUNCNAME", func(r *Runner) *Var { return r.frameArray(func(f frame) string { return f.name }, true) }, nil)
	dyn("BASH_SOURCE", func(r *Runner) *Var { return r.frameArray(func(f frame) string { return f.source }, false) }, nil)
	dyn("BASH_LINENO", func(r *Runner) *Var {
		return r.frameArray(func(f frame) string { return itoa(int64(f.callLine)) }, false)
	}, nil)
	dyn("PIPESTATUS", func(r *Runner) *Var {
		ps := r.pipestatus
		if ps == nil {
			ps = []int{r.status}
		}
		vals := make([]string, len(ps))
		for i, s := range ps {
			vals[i] = itoa(int64(s))
		}
		return arrVar(vals)
	}, nil)
	dyn("DIRSTACK", func(r *Runner) *Var { return arrVar(append([]string{r.pwdVar()}, r.dirstack...)) }, nil)
	dyn("GROUPS", func(*Runner) *Var {
		gs, _ := os.Getgroups()
		vals := []string{itoa(int64(os.Getgid()))}
		for _, g := range gs {
			if g != os.Getgid() {
				vals = append(vals, itoa(int64(g)))
			}
		}
		return arrVar(vals)
	}, nil)
	dyn("SHELLOPTS", func(r *Runner) *Var {
		var on []string
		for i, o := range setOpts {
			if r.opts.set[i] {
				on = append(on, o.name)
			}
		}
		v := strVar(strings.Join(on, ":"))
		v.Attr = AttrReadonly
		return v
	}, nil)
	g["SHELLOPTS"].Attr = AttrReadonly
	dyn("BASHOPTS", func(r *Runner) *Var {
		var on []string
		for i, n := range shoptNames {
			if r.opts.shopt[i] {
				on = append(on, n)
			}
		}
		v := strVar(strings.Join(on, ":"))
		v.Attr = AttrReadonly
		return v
	}, nil)
	g["BASHOPTS"].Attr = AttrReadonly
	// SHLVL counts nested shells.
	lvl := int64(0)
	if v, ok := g["SHLVL"]; ok {
		if n, ok := fastNumber(strings.TrimSpace(v.str)); ok {
			lvl = n
		}
	}
	force("SHLVL", itoa(lvl+1), AttrExport)
	r.vars.gen++
}

// argStack is BASH_ARGV (or BASH_ARGC when counts): the arguments the
// calls running pushed, innermost first, above the shell's own.
func (r *Runner) argStack(counts bool) *Var {
	if !r.argInit && !r.opts.shopt[optExtdebug] && !r.inFunctionFrame() {
		r.initArgStack() // as bash does when they are read there
	}
	var vals []string
	for i := len(r.frames) - 1; i >= 0; i-- {
		fr := r.frames[i]
		if !fr.pushed {
			continue
		}
		if counts {
			vals = append(vals, itoa(int64(len(fr.args))))
			continue
		}
		for j := len(fr.args) - 1; j >= 0; j-- {
			vals = append(vals, fr.args[j])
		}
	}
	if !r.argInit {
		return arrVar(vals)
	}
	if counts {
		return arrVar(append(vals, itoa(int64(len(r.argBase)))))
	}
	for j := len(r.argBase) - 1; j >= 0; j-- {
		vals = append(vals, r.argBase[j])
	}
	return arrVar(vals)
}

// initArgStack puts the positional parameters at the bottom of
// BASH_ARGV, once.
func (r *Runner) initArgStack() {
	if !r.argInit {
		r.argInit = true
		r.argBase = append([]string(nil), r.params...)
	}
}

// inFunctionFrame reports whether a function is running.
func (r *Runner) inFunctionFrame() bool {
	for _, fr := range r.frames {
		if fr.fn != nil {
			return true
		}
	}
	return false
}

// frameArray is FUNCNAME, BASH_SOURCE or BASH_LINENO: innermost first.
// FUNCNAME is empty while no function runs, as in bash.
func (r *Runner) frameArray(f func(frame) string, funcname bool) *Var {
	var vals []string
	inFunc := false
	for i := len(r.frames) - 1; i >= 0; i-- {
		fr := r.frames[i]
		if fr.fn != nil {
			inFunc = true
		}
		vals = append(vals, f(fr))
	}
	if funcname && !inFunc {
		return &Var{Attr: AttrIndexed, arr: &indexed{}}
	}
	// A script's own code is a frame of its own, "main"; a -c string's
	// is not.
	if r.sess.scriptName != "" {
		vals = append(vals, f(frame{name: "main", source: r.sess.scriptName, callLine: 0}))
	}
	return arrVar(vals)
}

// randomState is RANDOM's generator: bash's, a linear congruential one,
// so that a seed gives the same numbers.
type randomState struct {
	state uint32
}

func (s *randomState) seed(n uint32) { s.state = n }

func (s *randomState) reseed(n uint32) { s.state ^= n * 2654435761 }

// next is bash 5.2's random: Park–Miller "minimal standard" with
// Schrage's method, folded to 15 bits.
func (s *randomState) next() int {
	h := int64(s.state)
	if h == 0 {
		h = 123459876
	}
	hi := h / 127773
	lo := h % 127773
	h = 16807*lo - 2836*hi
	if h < 0 {
		h += 0x7fffffff
	}
	s.state = uint32(h)
	return int((uint32(h)>>16 ^ uint32(h)) & 0x7fff)
}

func samePath(a, b string) bool {
	if a == "" || a[0] != '/' {
		return false
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

func (r *Runner) pwdVar() string {
	if v, ok := r.Get("PWD"); ok && v != "" {
		return v
	}
	return r.dir
}

// loginShell is the login shell of the user uid as bash finds it: the
// password file's entry, /bin/sh when it has none. (Go's os/user tells no
// shell; a user known only to LDAP or sssd gets /bin/sh here.)
func loginShell(uid int) string {
	data, err := os.ReadFile("/etc/passwd")
	if err == nil {
		id := itoa(int64(uid))
		for _, line := range strings.Split(string(data), "\n") {
			f := strings.Split(line, ":")
			if len(f) >= 7 && f[2] == id {
				return f[6]
			}
		}
	}
	return "/bin/sh"
}
