package danger

import (
	"path"
	"slices"
	"strings"
)

// Checks for builtins that change the shell's own state or run code later.

func (w *walker) cd(chain string, args []arg, io ioInfo) {
	var target string
	ops := scan(&rule{}, args)
	switch {
	case len(ops) == 0:
		target = w.ws.Home
	case args[ops[0]].s == "-":
		w.cwd = ""
		return
	default:
		target = args[ops[0]].s
	}
	p, ok := w.abs(target)
	if !ok {
		w.cwd = ""
		return
	}
	w.cwd = p
}

func (w *walker) alias(chain string, args []arg, io ioInfo) {
	for _, a := range args[1:] {
		if name, val, ok := strings.Cut(a.s, "="); ok {
			if lookup(name) != nil || w.funcs[name] != nil {
				w.res.add(Dangerous, "`alias "+name+"`: changes what the command `"+name+"` runs")
			} else {
				w.res.add(Dev, "`alias "+name+"`: defines an alias for this session")
			}
			w.nested(val, input{})
			if w.aliases == nil {
				w.aliases = map[string]string{}
			}
			w.aliases[name] = val
		}
	}
}

func (w *walker) trap(chain string, args []arg, io ioInfo) {
	ops := scan(&rule{}, args)
	if len(ops) < 2 {
		return // lists traps or resets one
	}
	action := args[ops[0]].s
	if action == "-" || action == "" {
		return
	}
	w.nested(action, input{})
}

func (w *walker) source(chain string, args []arg, io ioInfo) {
	if len(args) < 2 {
		w.res.add(Dangerous, "`"+chain+"` without a file")
		return
	}
	switch args[1].s {
	case "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0":
		w.stdinCode(commands.Get()["bash"], chain, "bash", io)
		return
	}
	if p, ok := w.abs(args[1].s); ok && w.setupScript(p) {
		w.res.add(Dev, "`"+chain+" "+args[1].text+"`: runs the setup code of the user's shell or an installed tool")
		return
	}
	w.runFile(args[1].s, args[1].text, "source")
}

// setupScript reports a file sourced to set the shell up, not to do work:
// the system's profile and completion scripts, and the environment scripts installed tools keep in their own
// directory of the home (~/.cargo/env, ~/.nvm/nvm.sh,
// ~/miniconda3/etc/profile.d/conda.sh). Not one this string writes or
// downloads, nor one in a place that holds secrets.
func (w *walker) setupScript(p string) bool {
	if _, wrote := w.shared.scripts[p]; wrote || w.downloaded(p) || w.secretFile(p) != "" {
		return false
	}
	home := w.ws.Home
	switch {
	case home != "" && path.Dir(p) == home:
		// The user's own startup files run whatever was added to them:
		// the labelled table says dangerous (source ~/.bashrc).
		return false
	case under(p, "/usr/share") || under(p, "/etc/profile.d") || under(p, "/etc/bash_completion.d") ||
		p == "/etc/profile" || p == "/etc/bashrc" || p == "/etc/bash.bashrc" || p == "/etc/os-release" ||
		under(p, "/opt/homebrew/etc") || under(p, "/usr/local/etc"):
		return true
	case home != "" && under(p, home) && !w.inside(p) && p != w.ws.Dir:
		rel := strings.TrimPrefix(p, home+"/")
		top, _, _ := strings.Cut(rel, "/")
		toolDir := strings.HasPrefix(top, ".") && !slices.Contains([]string{".ssh", ".gnupg", ".aws", ".kube",
			".docker", ".config", ".local", ".cache", ".password-store", ".azure", ".gcloud"}, top) ||
			strings.HasPrefix(top, "miniconda") || strings.HasPrefix(top, "anaconda") ||
			strings.HasPrefix(top, "miniforge") || strings.HasPrefix(top, "mambaforge")
		base := path.Base(p)
		setupName := base == "env" || strings.HasSuffix(base, ".sh") || strings.HasSuffix(base, ".bash") ||
			strings.HasSuffix(base, ".zsh") || strings.HasSuffix(base, "rc") || strings.HasSuffix(base, "_completion")
		return toolDir && setupName
	}
	return false
}

func (w *walker) su(chain string, args []arg, io ioInfo) {
	w.res.add(Dangerous, "`su`: runs as another user")
	for i := 1; i < len(args); i++ {
		a := args[i].s
		if (a == "-c" || a == "--command") && i+1 < len(args) {
			w.nested(args[i+1].s, input{})
			return
		}
		if v, ok := strings.CutPrefix(a, "--command="); ok {
			w.nested(v, input{})
			return
		}
	}
	if io.in.kind != inNone {
		w.stdinCode(commands.Get()["bash"], "su", "bash", io)
	}
}

func (w *walker) env(chain string, args []arg, io ioInfo) {
	ss := make([]string, len(args))
	for i, a := range args {
		ss[i] = a.s
	}
	for j, a := range ss {
		if (a == "-S" || a == "--split-string") && j+1 < len(ss) {
			w.nested(strings.Join(ss[j+1:], " "), input{})
			return
		}
	}
	i := unwrapIndex(commands.Get()["env"], ss)
	for _, a := range args[1:] {
		if name, val, ok := strings.Cut(a.s, "="); ok && !strings.HasPrefix(a.s, "-") {
			w.hijack(name, val, a.text)
		}
		if v, ok := strings.CutPrefix(a.s, "--split-string="); ok {
			w.nested(v, input{})
		}
	}
	if i < 0 {
		if w.envFiltered || w.shared.piped {
			w.res.add(Safe, "`env | grep`: shows only matching variables")
			return
		}
		w.discloses("`env`: prints all variables, which may include secrets")
	}
}
