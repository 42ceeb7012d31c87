package tools

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/qsh-shell/qsh/policy/danger"
	"github.com/qsh-shell/qsh/policy/sandbox"
	"github.com/qsh-shell/qsh/policy/sandbox/proxy"
)

// SandboxSupport sets what tells whether programs can be confined here
// (sandbox.Support by default); tests pretend either way.
func SandboxSupport(f func() (string, error)) Option {
	return func(r *Registry) { r.support = f }
}

// SandboxProbe sets what tells the layers a jail gets here
// (sandbox.Probe by default, which starts one once a process).
func SandboxProbe(f func() (sandbox.Layers, error)) Option {
	return func(r *Registry) { r.probe = f }
}

// confining reports whether this session confines what it runs: the
// sandbox is not turned off and the system can confine.
func (r *Registry) confining() bool {
	if r.cfg.Sandbox == sandbox.Off {
		return false
	}
	_, err := r.support()
	return err == nil
}

// confined reports whether a call of class runs confined once decided:
// always where the sandbox works, except a dangerous call the user
// approved with y after seeing why it is dangerous, or made their own
// with e. Neither yolo nor an "a" answer lifts the sandbox.
func (r *Registry) confined(class danger.Class, decision string) bool {
	return r.confining() && !(class >= danger.Dangerous && (decision == decApproved || decision == decEdited))
}

// where is what the confirmation line says of how a call of class runs if
// the user agrees: "" with the sandbox off, as before there was one.
func (r *Registry) where(class danger.Class, offersA bool) string {
	switch {
	case r.cfg.Sandbox == sandbox.Off:
		return ""
	case !r.confining():
		return "unconfined"
	case class >= danger.Dangerous && offersA:
		return "unconfined (a/A: sandboxed)"
	case class >= danger.Dangerous:
		return "unconfined"
	}
	return "sandboxed"
}

// policy is the sandbox's policy for a call made in env, and the notes
// for people about it. With the network's allow list, rules are the
// proxy's (see withProxy).
func (r *Registry) policy(env Env) (p sandbox.Policy, rules proxy.Rules, notes []string) {
	pl := r.place(env)
	s := sandbox.Settings{Mode: r.cfg.Sandbox, Net: r.cfg.SandboxNet, Strict: bool(r.cfg.SandboxStrict)}
	// The workspace is where the session first found the directory to
	// lead: a link a command made since must not re-root the sandbox
	// somewhere else (at ~/go, where the user's tools are).
	resolved := sandbox.Resolve("/", pl.Dir)
	r.mu.Lock()
	if r.roots == nil {
		r.roots = map[string]string{}
	}
	first, seen := r.roots[pl.Dir]
	if !seen {
		r.roots[pl.Dir] = resolved
	}
	r.mu.Unlock()
	if seen && first != resolved && s.Mode == sandbox.Workspace {
		s.Mode = sandbox.ReadOnly
		notes = append(notes, fmt.Sprintf("the workspace is read-only: %s now leads to %s, not %s as when the session began there",
			pl.Dir, resolved, first))
	}
	getenv := func(k string) string { return envValue(pl.Environ, k) }
	c, err := sandbox.LoadConfig(sandbox.ConfigPath(pl.Home, getenv))
	if err != nil {
		// Its deny list cannot be read: no network rather than more, and
		// no daemon's socket.
		s.Net = sandbox.NetOff
		notes = append(notes, fmt.Sprintf("network off: %v", err))
	}
	s.Sockets = c.Sockets
	if s.Net == sandbox.AllowList {
		allow, deny := c.For(sandbox.Root(resolved, sandbox.Resolve("/", pl.Home)))
		rules = proxy.Rules{Allow: slices.Concat(proxy.DefaultAllow, r.cfg.SandboxAllow, allow), Deny: deny, Hosts: c.Hosts}
	}
	p, more := sandbox.Compute(s, pl)
	return p, rules, append(notes, more...)
}

// withProxy names in p the proxy of rules, started on first use, through
// which confined programs reach the allowed domains. Without one, they
// reach nothing.
func (r *Registry) withProxy(p *sandbox.Policy, rules proxy.Rules) []string {
	if p.Net != sandbox.AllowList {
		return nil
	}
	key := fmt.Sprintf("%q", rules)
	r.mu.Lock()
	defer r.mu.Unlock()
	l := r.proxies[key]
	if l == nil {
		var err error
		if r.proxyDir == "" {
			r.proxyDir, err = sandbox.SessionDir("qsh-proxy")
		}
		if err == nil {
			// A jail without a network namespace of its own reaches it
			// on the loopback.
			layers, _ := r.probe()
			l, err = proxy.Listen(r.proxyDir, rules, !layers.Namespaces)
		}
		if err != nil {
			p.Net = sandbox.NetOff
			return []string{fmt.Sprintf("network off: the proxy: %v", err)}
		}
		if r.proxies == nil {
			r.proxies = map[string]*proxy.Listener{}
		}
		r.proxies[key] = l
	}
	p.Proxy, p.ProxyPort = l.Socket, l.Port
	return nil
}

// refusals are what the proxy of p refused since it was last asked.
func (r *Registry) refusals(p sandbox.Policy) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, l := range r.proxies {
		if l.Socket == p.Proxy {
			return l.Refusals()
		}
	}
	return nil
}

// Close stops the proxies the session started.
func (r *Registry) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, l := range r.proxies {
		l.Close()
	}
	r.proxies = nil
	if r.proxyDir != "" {
		os.RemoveAll(r.proxyDir)
		r.proxyDir = ""
	}
	return nil
}

// place is where env's calls run, for the sandbox.
func (r *Registry) place(env Env) sandbox.Place {
	dir := env.Dir
	if dir == "" {
		dir, _ = os.Getwd()
	}
	home := ""
	for _, kv := range env.Environ {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			home = v
		}
	}
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	var own []string
	for _, f := range []string{r.auditPath, r.backupDir, r.cpBase, r.cfg.Permissions, r.cfg.MCPConfig} {
		if f != "" {
			own = append(own, f)
		}
	}
	if r.perms != nil {
		own = append(own, r.perms.path)
	}
	return sandbox.Place{Dir: dir, Home: home, Environ: env.Environ, Own: own}
}

// envValue is the last value of key in environ.
func envValue(environ []string, key string) string {
	v := ""
	for _, kv := range environ {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}

// Expected is the sandbox's policy a confined call made in env would
// have, for a jail opened ahead; false when commands do not run confined.
func (r *Registry) Expected(env Env) (sandbox.Policy, bool) {
	if !r.confining() {
		return sandbox.Policy{}, false
	}
	p, rules, _ := r.policy(env)
	r.withProxy(&p, rules)
	return p, true
}

// Confine is how to start the program at path with args for calls made
// in env, such as an MCP stdio server: the program and arguments to
// execute, the files to hand it from fd 3 on, and what to call once it
// started. It starts as it is when the sandbox is off or impossible here;
// otherwise it starts through this program, which runs it in a jail of
// its own (sandbox.RunJailed) and ends with it.
func (r *Registry) Confine(env Env, path string, args []string) (string, []string, []*os.File, func(), error) {
	if !r.confining() {
		return path, args, nil, func() {}, nil
	}
	p, rules, _ := r.policy(env)
	r.withProxy(&p, rules)
	prog, argv, err := sandbox.JailedCommand(p, path, args)
	if err != nil {
		return "", nil, nil, nil, err
	}
	return prog, argv, nil, func() {}, nil
}

// noteUnconfined says once a session, on the first command, that commands
// run unconfined because nothing here can confine them.
func (r *Registry) noteUnconfined(w io.Writer) {
	if r.cfg.Sandbox == sandbox.Off || w == nil {
		return
	}
	_, err := r.support()
	r.mu.Lock()
	defer r.mu.Unlock()
	if err == nil || r.noted {
		return
	}
	r.noted = true
	fmt.Fprintf(w, "qsh: %v: the assistant's commands run unconfined (QSH_AI_SANDBOX=off says so quietly)\n", err)
}

// sandboxName is how the audit log records where a call ran: the mode it
// was confined in, "unconfined", or "" with the sandbox off.
func (r *Registry) sandboxName(confined bool) string {
	switch {
	case r.cfg.Sandbox == sandbox.Off:
		return ""
	case confined:
		return string(r.cfg.Sandbox)
	}
	return "unconfined"
}

// Status describes the sandbox of calls made in env, for `? /status` and
// `qsh-assistant --config`: the mode, the layers that enforce it here, the
// network, and what it grants.
func (r *Registry) Status(env Env) []string {
	mode := r.cfg.Sandbox
	if mode == sandbox.Off {
		return []string{"sandbox   off (QSH_AI_SANDBOX=off): commands run unconfined"}
	}
	if _, err := r.support(); err != nil {
		return []string{fmt.Sprintf("sandbox   %s, but %v: commands run unconfined", mode, err)}
	}
	p, rules, notes := r.policy(env)
	layers, err := r.probe()
	how := layers.String()
	if err != nil {
		how = "cannot start here: " + err.Error()
	}
	var net string
	switch p.Net {
	case sandbox.NetOn:
		net = "network on (anywhere)"
	case sandbox.NetOff:
		net = "network off (its own loopback only)"
	default:
		net = fmt.Sprintf("network allowlist (%d domains through qsh's proxy", len(rules.Allow))
		if len(rules.Deny) > 0 {
			net += fmt.Sprintf(", %d denied", len(rules.Deny))
		}
		net += ")"
	}
	show := func(paths []string) string {
		var s []string
		for _, x := range paths {
			if !strings.HasPrefix(x, "/dev/") {
				s = append(s, p.Show(x))
			}
		}
		return strings.Join(s, ", ")
	}
	written := p.Write
	if layers.Namespaces {
		// Its own /tmp stands for the temp dirs; its caches are said below.
		written = slices.DeleteFunc(slices.Clone(p.Write), func(w string) bool {
			return slices.Contains(p.Temps, w) || slices.Contains(p.Caches, w)
		})
	}
	writes := show(written)
	if writes != "" {
		writes += ", "
	}
	if layers.Namespaces {
		writes += "its own /tmp, "
	}
	lines := []string{
		fmt.Sprintf("sandbox   %s (%s), %s", mode, how, net),
		"  writes  " + writes + "/dev/null and terminals",
		"  secrets " + show(p.Deny) + " (unreadable; everything else is readable)",
	}
	if layers.Namespaces {
		lines = append(lines,
			"  jail    its own /tmp, /run and /proc; no sockets of your daemons; .git/config and hooks read-only")
		var caches []string
		if len(p.Caches) > 0 {
			caches = append(caches, show(p.Caches)+" (its own layer over yours)")
		}
		if len(p.Fresh) > 0 {
			var vars []string
			for _, f := range p.Fresh {
				vars = append(vars, f.Var)
			}
			caches = append(caches, "its own where you have none ("+strings.Join(vars, ", ")+")")
		}
		if len(caches) > 0 {
			lines = append(lines, "  caches  "+strings.Join(caches, "; "))
		}
		if len(p.Sockets) > 0 {
			var vars []string
			for _, sock := range p.Sockets {
				vars = append(vars, sock.Var)
			}
			lines = append(lines, "  sockets "+strings.Join(vars, ", ")+" (sandbox.json)")
		}
	}
	lines = append(lines, "  mcp     stdio servers start in the same sandbox")
	for _, n := range layers.Reduced {
		lines = append(lines, "  reduced "+n)
	}
	if len(layers.Reduced) > 0 && !p.Strict {
		lines = append(lines, "  note    QSH_AI_SANDBOX_STRICT=1 refuses to run commands with less than every layer")
	}
	for _, n := range notes {
		lines = append(lines, "  note    "+n)
	}
	return lines
}

// refusal is why the sandbox (pol, nil when off) refuses a call of class
// on path once the user decided, or "": the filesystem tool runs in the
// assistant's own process, which the kernel does not confine. It records
// in c where the call ran.
func (r *Registry) refusal(pol *sandbox.Policy, class danger.Class, c *call, path string, write bool) string {
	confined := pol != nil && r.confined(class, c.decision)
	c.sandbox = r.sandboxName(confined)
	if !confined {
		return ""
	}
	why := pol.Refusal(path, write)
	if why != "" {
		c.denied = []string{why}
	}
	return why
}
