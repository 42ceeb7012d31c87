package secret

import (
	"strings"

	"github.com/qsh-shell/qsh/internal/lazy"
)

// handles are variables whose value hands a program the use of one of the
// user's daemons, unconfined: a terminal multiplexer or editor that runs
// commands it is sent, an agent that signs with the user's keys, a message
// bus, a container engine, a display, a Kerberos ticket. They are not
// secrets to show (Var says no), but a confined program must not have them.
var handles = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	m := map[string]bool{}
	for _, n := range []string{
		"TMUX", "TMUX_PANE", "STY", "ZELLIJ", "ZELLIJ_SESSION_NAME",
		"SSH_AUTH_SOCK", "SSH_AGENT_PID", "GPG_AGENT_INFO",
		"DBUS_SESSION_BUS_ADDRESS", "DBUS_SYSTEM_BUS_ADDRESS",
		"DOCKER_HOST", "CONTAINER_HOST", "PODMAN_HOST",
		"DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET", "XAUTHORITY", "SWAYSOCK", "I3SOCK",
		"HYPRLAND_INSTANCE_SIGNATURE", "KITTY_LISTEN_ON", "WEZTERM_UNIX_SOCKET",
		"NVIM", "NVIM_LISTEN_ADDRESS", "VSCODE_IPC_HOOK_CLI", "VSCODE_GIT_IPC_HANDLE",
		"KRB5CCNAME",
	} {
		m[n] = true
	}
	return m
}}

// Handle reports whether the variable name hands a program one of the
// user's daemons (see handles): TMUX, SSH_AUTH_SOCK, DOCKER_HOST…
func Handle(name string) bool {
	return handles.Get()[name]
}

// Confined reports whether the variable NAME=value may reach a program the
// sandbox confines: not when its name says it is a secret ([Var]), its
// value has a secret's shape (a token, a private key, a URL with a
// password), or it is a [Handle].
func Confined(name, value string) bool {
	return !Var(name) && !Handle(name) && !Shaped(value)
}

// Shaped reports whether a value has the shape of a secret whatever it is
// called: a token of a known kind, a private key, a URL that carries a
// password. Unlike [Redact] it does not judge NAME=value inside the text.
func Shaped(value string) bool {
	if len(value) < 8 {
		return false
	}
	for i := range tokenPatterns {
		if tokenPatterns[i].Get().MatchString(value) {
			return true
		}
	}
	return strings.Contains(value, "@") && credentialURL.Get().MatchString(value)
}

// ConfinedEnviron is environ (NAME=value entries) without what [Confined]
// keeps from a confined program, and the names it left out.
func ConfinedEnviron(environ []string) (kept, withheld []string) {
	kept = make([]string, 0, len(environ))
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		if Confined(name, value) {
			kept = append(kept, kv)
		} else {
			withheld = append(withheld, name)
		}
	}
	return kept, withheld
}
