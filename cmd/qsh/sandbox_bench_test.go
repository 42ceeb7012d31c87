package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/qsh-shell/qsh/tools/sandbox"
)

// BenchmarkConfinedStart is what the sandbox costs: starting a program
// confined (qsh applies the ruleset in its first initialiser, then
// executes the program) against starting it directly, and making the
// ruleset, once per command line the assistant runs.
func BenchmarkConfinedStart(b *testing.B) {
	if sandbox.ABI() < 1 {
		b.Skip("Landlock is not available on this kernel")
	}
	qsh, err := buildQsh()
	if err != nil {
		b.Fatal(err)
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
	pl := sandbox.Place{Dir: ws, Home: home, Environ: []string{"HOME=" + home, "TMPDIR=" + root}}
	p, _ := sandbox.Compute(sandbox.Workspace, true, pl)
	run := func(b *testing.B, path string, args []string, files []*os.File) {
		for b.Loop() {
			cmd := &exec.Cmd{Path: path, Args: args, ExtraFiles: files}
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("%v: %v\n%s", args, err, out)
			}
		}
	}
	b.Run("unconfined", func(b *testing.B) {
		run(b, prog, []string{"true"}, nil)
	})
	b.Run("confined", func(b *testing.B) {
		c, err := sandbox.Prepare(p, qsh)
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		path, args, files := c.Wrap(prog, []string{"true"})
		run(b, path, args, files)
	})
	b.Run("ruleset", func(b *testing.B) {
		for b.Loop() {
			p, _ := sandbox.Compute(sandbox.Workspace, true, pl)
			c, err := sandbox.Prepare(p, qsh)
			if err != nil {
				b.Fatal(err)
			}
			c.Close()
		}
	})
}
