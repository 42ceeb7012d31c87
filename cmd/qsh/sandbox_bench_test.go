package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/qsh-shell/qsh/tools/sandbox"
)

// BenchmarkConfinedStart is what the sandbox costs a command: starting
// `true` plainly (unconfined); in a jail opened for it, as the first
// command of a question pays (jail: namespaces, mounts, the Landlock
// ruleset, the seccomp filter, and the program); in a jail already open,
// as the question's next commands pay (jailed). The jail's process is
// this test binary, which starts as qsh does (cmd/qsh/early).
func BenchmarkConfinedStart(b *testing.B) {
	if sandbox.ABI() < 1 {
		b.Skip("Landlock is not available on this kernel")
	}
	prog, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true program")
	}
	root := b.TempDir()
	home, ws := filepath.Join(root, "home"), filepath.Join(root, "ws")
	for _, d := range []string{".ssh", ".aws", ".cache", ".config/gh", "go/pkg/mod", "notes", ".local/bin"} {
		os.MkdirAll(filepath.Join(home, d), 0o755)
	}
	os.MkdirAll(filepath.Join(ws, ".git"), 0o755)
	pl := sandbox.Place{Dir: ws, Home: home, Environ: []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}}
	p, _ := sandbox.Compute(sandbox.Settings{Mode: sandbox.Workspace, Net: sandbox.AllowList}, pl)
	run := func(b *testing.B, j *sandbox.Jail) {
		proc, err := j.Start(sandbox.Spec{Path: prog, Args: []string{"true"}, Dir: ws})
		if err != nil {
			b.Fatal(err)
		}
		if ws, err := proc.Wait(); err != nil || ws.ExitStatus() != 0 {
			b.Fatalf("true: %v %v", ws, err)
		}
	}
	b.Run("unconfined", func(b *testing.B) {
		for b.Loop() {
			if out, err := exec.Command(prog).CombinedOutput(); err != nil {
				b.Fatalf("%v\n%s", err, out)
			}
		}
	})
	b.Run("jail", func(b *testing.B) {
		h := sandbox.NewHost()
		defer h.Close()
		for b.Loop() {
			j, err := h.Jail(p)
			if err != nil {
				b.Fatal(err)
			}
			run(b, j)
			h.Close()
		}
	})
	b.Run("jailed", func(b *testing.B) {
		h := sandbox.NewHost()
		defer h.Close()
		j, err := h.Jail(p)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			run(b, j)
			j.Reset(0)
		}
	})
}
