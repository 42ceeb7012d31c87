package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/qsh-shell/qsh/internal/needs"
	"github.com/qsh-shell/qsh/tools/sandbox"
	"github.com/qsh-shell/qsh/tools/sandbox/proxy"
)

// BenchmarkConfinedStart is what the sandbox costs a command: starting
// `true` plainly (unconfined); in a jail opened for it, as the first
// sandboxed command of a session pays (jail: namespaces, mounts, the
// Landlock ruleset, the seccomp filter, the proxy's bridge, and the
// program); in a jail whose process the session started ahead, when the
// question was asked (prepared: the same but the fork and the jail's Go
// start); in the jail already open, as the next commands pay (jailed:
// the program, and the end of the run that kills what it left). The
// jail's process is this test binary, which starts as qsh does
// (cmd/qsh/early).
func BenchmarkConfinedStart(b *testing.B) {
	if sandbox.ABI() < 1 {
		needs.Missing(b, "Landlock is not available on this kernel")
	}
	prog := needs.Tool(b, "true")
	root := b.TempDir()
	home, ws := filepath.Join(root, "home"), filepath.Join(root, "ws")
	for _, d := range []string{".ssh", ".aws", ".cache", ".config/gh", "go/pkg/mod", "notes", ".local/bin"} {
		os.MkdirAll(filepath.Join(home, d), 0o755)
	}
	os.MkdirAll(filepath.Join(ws, ".git"), 0o755)
	pl := sandbox.Place{Dir: ws, Home: home, Environ: []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}}
	p, _ := sandbox.Compute(sandbox.Settings{Mode: sandbox.Workspace, Net: sandbox.AllowList}, pl)
	// The default network, the allow list, goes through the assistant's
	// proxy.
	l, err := proxy.Listen(b.TempDir(), proxy.Rules{Allow: proxy.DefaultAllow}, false)
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	p.Proxy = l.Socket
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
		for b.Loop() {
			h := sandbox.NewHost()
			j, err := h.Jail(p)
			if err != nil {
				b.Fatal(err)
			}
			run(b, j)
			b.StopTimer() // its end is not the command's
			h.Close()
			b.StartTimer()
		}
	})
	b.Run("prepared", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer() // while the model thinks
			h := sandbox.NewHost()
			h.Prepare()
			b.StartTimer()
			j, err := h.Jail(p)
			if err != nil {
				b.Fatal(err)
			}
			run(b, j)
			b.StopTimer()
			h.Close()
			b.StartTimer()
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
