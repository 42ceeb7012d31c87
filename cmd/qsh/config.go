package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/qsh-shell/qsh/config"
	"github.com/qsh-shell/qsh/shell"
)

// printConfig is `qsh --config`: the shell's variables, then the
// assistant's, which only qsh-assistant knows (qsh does not link it).
func printConfig(stdout, stderr io.Writer, cfg shell.Config, problems config.Problems) int {
	config.Print(stdout, problems, cfg)
	path, err := findAssistant()
	if err != nil {
		fmt.Fprintf(stderr, "qsh: --config: %v\n", err)
		return 1
	}
	cmd := exec.Command(path, "--config")
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.Env = os.Environ()
	if err := cmd.Run(); err != nil {
		fmt.Fprintf(stderr, "qsh: --config: %s: %v\n", path, err)
		return 1
	}
	return 0
}

// withKeys is the session's environment for the assistant: the API keys
// that qsh read at start are put back when the session unset them, unless
// it set its own. A nil session means qsh's own
// environment.
func withKeys(session, own []string) []string {
	if session == nil {
		return own
	}
	out := append([]string(nil), session...)
	set := map[string]bool{}
	for _, kv := range session {
		name, _, _ := strings.Cut(kv, "=")
		set[name] = true
	}
	for _, kv := range own {
		name, _, _ := strings.Cut(kv, "=")
		if secretKey(name) && !set[name] {
			out = append(out, kv)
		}
	}
	return out
}

// secretKey reports whether name is a variable qsh reads an API key from.
// (A switch, not a map: a map would be made by an init at every start.)
func secretKey(name string) bool {
	switch name {
	case "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "QSH_AI_API_KEY":
		return true
	}
	return false
}
