package eval

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/internal/needs"
)

// The evaluator's own cost on the two scripts issue 21 measures against
// bash (bench/ runs them through the binaries): in-process, so that
// -cpuprofile sees the evaluator alone.
func BenchmarkEvalScript(b *testing.B) {
	const completion = "/usr/share/bash-completion/bash_completion"
	for _, sc := range []struct{ name, code, needs string }{
		{"arith-50k", `for ((i = 0; i < 50000; i++)); do ((s += i % 7)); done; echo $s`, ""},
		{"bash-completion", `. ` + completion + ` && echo ok`, completion},
	} {
		b.Run(sc.name, func(b *testing.B) {
			if sc.needs != "" {
				if _, err := os.Stat(sc.needs); err != nil {
					needs.Missing(b, "no %s", sc.needs)
				}
			}
			dir := b.TempDir()
			// The session adds complete and its kin; without them each of
			// bash-completion's calls would search PATH and fail.
			var progcomp []*Builtin
			for _, name := range []string{"complete", "compgen", "compopt"} {
				progcomp = append(progcomp, &Builtin{Name: name, Run: func(*B) int { return 0 }})
			}
			for b.Loop() {
				r, err := New(Stdio(strings.NewReader(""), io.Discard, io.Discard), Params("bash"), ShellName("bash"),
					CommandString(), Dir(dir), Env(testEnv(dir)), ProcessLimits(false), Builtins(progcomp...))
				if err != nil {
					b.Fatal(err)
				}
				r.RunString(context.Background(), sc.code, "bash")
				if st := r.Status(); st != 0 {
					b.Fatalf("status %d", st)
				}
			}
		})
	}
}
