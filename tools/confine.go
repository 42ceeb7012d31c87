package tools

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/qsh-shell/qsh/tools/danger"
	"github.com/qsh-shell/qsh/tools/sandbox"
)

// SandboxSupport sets what tells whether programs can be confined here
// (sandbox.Support by default); tests pretend either way.
func SandboxSupport(f func() (string, error)) Option {
	return func(r *Registry) { r.support = f }
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

// policy is the sandbox's policy for a call made in env.
func (r *Registry) policy(env Env) sandbox.Policy {
	p, _ := sandbox.Compute(r.cfg.Sandbox, bool(r.cfg.SandboxNet), r.place(env))
	return p
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
	return sandbox.Place{Dir: dir, Home: home, Environ: env.Environ}
}

// Confine is how to start the program at path with args for calls made
// in env, such as an MCP stdio server: the program and arguments to
// execute, the files to hand it from fd 3 on, and what to call once it
// started. It starts as it is when the sandbox is off or impossible here;
// it fails when the sandbox cannot be prepared.
func (r *Registry) Confine(env Env, path string, args []string) (string, []string, []*os.File, func(), error) {
	if !r.confining() {
		return path, args, nil, func() {}, nil
	}
	c, err := sandbox.Prepare(r.policy(env), "") // qsh-assistant, whose start confines

	if err != nil {
		return "", nil, nil, nil, err
	}
	prog, argv, files := c.Wrap(path, args)
	return prog, argv, files, func() { c.Close() }, nil
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
// `qsh-assistant --config`: the mode, what enforces it, and what it
// grants.
func (r *Registry) Status(env Env) []string {
	mode := r.cfg.Sandbox
	if mode == sandbox.Off {
		return []string{"sandbox   off (QSH_AI_SANDBOX=off): commands run unconfined"}
	}
	how, err := r.support()
	if err != nil {
		return []string{fmt.Sprintf("sandbox   %s, but %v: commands run unconfined", mode, err)}
	}
	p, notes := sandbox.Compute(mode, bool(r.cfg.SandboxNet), r.place(env))
	net := "network on"
	if !p.Net {
		net = "network off (TCP connect and bind denied)"
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
	writes := show(p.Write)
	if writes != "" {
		writes += ", "
	}
	lines := []string{
		fmt.Sprintf("sandbox   %s (%s), %s", mode, how, net),
		"  writes  " + writes + "/dev/null and terminals",
		"  secrets " + show(p.Deny) + " (unreadable; everything else is readable)",
		"  mcp     stdio servers start in the same sandbox",
	}
	for _, n := range append(notes, sandbox.Limits(p)...) {
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
