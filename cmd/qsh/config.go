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

// withoutSecrets is environ without the API keys: qsh reads them once, and
// the commands it runs never see them.
func withoutSecrets(environ []string) []string {
	var out []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "QSH_AI_API_KEY":
			continue
		}
		out = append(out, kv)
	}
	return out
}
