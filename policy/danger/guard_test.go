package danger

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/internal/needs"
)

// TestGuardExec judges real argvs, as a shell hands them over once it has
// expanded them: what is worse than approved is refused. (The scripts
// that expand to them, run by the evaluator, are shell/guarded's tests.)
func TestGuardExec(t *testing.T) {
	tests := []struct {
		args     []string
		sub      string // the directory it runs in, under the workspace
		env      map[string]string
		piped    bool
		approved Class
		refused  bool
	}{
		{args: []string{"rm", "-rf", "./src"}, approved: Dev, refused: true},
		{args: []string{"rm", "-rf", "src"}, approved: Dangerous},
		{args: []string{"rm", "-rf", "./build"}, approved: Dev},
		{args: []string{"rm", "-r", "src"}, approved: Dev, refused: true},
		{args: []string{"rm", "-rf", "../src"}, sub: "src", approved: Dev, refused: true},
		{args: []string{"touch", "src/new.txt"}, approved: Dev},
		{args: []string{"touch", "src/new.txt"}, approved: Safe, refused: true},
		{args: []string{"ls", "src"}, approved: Safe},
		{args: []string{"bash", "-c", "rm -rf src"}, approved: Dev, refused: true},
		{args: []string{"rm", "-rf", "/"}, approved: Dangerous, refused: true},
		{args: []string{"xargs", "touch"}, approved: Dev},
		{args: []string{"xargs", "rm"}, approved: Dev, refused: true},
		// Judged with its pipeline before it ran: `env | grep '^GO'`.
		{args: []string{"env"}, piped: true, approved: Safe},
		{args: []string{"env"}, approved: Safe, refused: true},
		// The environment tells where secrets are kept.
		{args: []string{"cat", "/srv/kube/config"}, approved: Safe},
		{args: []string{"cat", "/srv/kube/config"}, env: map[string]string{"KUBECONFIG": "/srv/kube/config"},
			approved: Safe, refused: true},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
				t.Fatal(err)
			}
			exec, _ := Guard(Workspace{Dir: dir, Home: filepath.Join(dir, "home")}, tt.approved)
			getenv := func(name string) string { return tt.env[name] }
			err := exec(tt.args, filepath.Join(dir, tt.sub), getenv, tt.piped)
			if refused := err != nil; refused != tt.refused {
				t.Fatalf("refused = %v (%v), want %v", refused, err, tt.refused)
			}
			if err != nil && !strings.HasPrefix(err.Error(), "qsh refused to run `") {
				t.Errorf("refusal %q", err)
			}
		})
	}
}

// TestGuardOpen judges the files a shell opens, as the evaluator hands
// them over (joined to its directory, .. kept) or relative to dir.
func TestGuardOpen(t *testing.T) {
	ws := t.TempDir()
	outside := t.TempDir()
	home := filepath.Join(outside, "home")
	for _, d := range []string{filepath.Join(ws, "src"), filepath.Join(outside, "etc"), home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "victim.txt"), []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		filepath.Join(ws, "link"):    filepath.Join(outside, "victim.txt"),
		filepath.Join(ws, "out"):     filepath.Join(outside, "etc"),
		filepath.Join(outside, "ws"): ws,
	}
	for l, target := range links {
		if err := os.Symlink(target, l); err != nil {
			needs.Missing(t, "%v", err)
		}
	}
	tests := []struct {
		path, dir string
		flag      int
		approved  Class
		refused   bool
	}{
		{path: "out.txt", dir: ws, flag: os.O_WRONLY | os.O_CREATE | os.O_TRUNC, approved: Dev},
		{path: ws + "/out.txt", flag: os.O_WRONLY | os.O_CREATE | os.O_TRUNC, approved: Dev},
		{path: ws + "/out.txt", flag: os.O_WRONLY | os.O_CREATE | os.O_TRUNC, approved: Safe, refused: true},
		{path: ws + "/src/keep.go", flag: os.O_RDONLY, approved: Safe},
		{path: "/dev/null", flag: os.O_WRONLY | os.O_CREATE | os.O_TRUNC, approved: Safe},
		{path: home + "/.bashrc", flag: os.O_WRONLY | os.O_CREATE | os.O_APPEND, approved: Dev, refused: true},
		{path: "/etc/qsh-guard-test", flag: os.O_WRONLY | os.O_CREATE | os.O_TRUNC, approved: Dangerous},
		{path: "/dev/sda", flag: os.O_WRONLY | os.O_CREATE | os.O_TRUNC, approved: Dangerous, refused: true},
		// A link in the workspace that points outside does not make the
		// write a workspace write: a file, a directory, or .. after it.
		{path: ws + "/link", flag: os.O_WRONLY | os.O_CREATE | os.O_TRUNC, approved: Dev, refused: true},
		{path: ws + "/out/new.txt", flag: os.O_WRONLY | os.O_CREATE | os.O_TRUNC, approved: Dev, refused: true},
		{path: ws + "/out/../new.txt", flag: os.O_WRONLY | os.O_CREATE | os.O_TRUNC, approved: Dev, refused: true},
		{path: "out/../new.txt", dir: ws, flag: os.O_WRONLY | os.O_CREATE | os.O_TRUNC, approved: Dev, refused: true},
		// The shell's cwd may keep a link the workspace's path resolved.
		{path: outside + "/ws/made.txt", flag: os.O_WRONLY | os.O_CREATE | os.O_TRUNC, approved: Dev},
		{path: "made.txt", dir: outside + "/ws", flag: os.O_WRONLY | os.O_CREATE | os.O_TRUNC, approved: Dev},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			_, open := Guard(Workspace{Dir: ws, Home: home}, tt.approved)
			err := open(tt.path, tt.dir, tt.flag)
			if refused := err != nil; refused != tt.refused {
				t.Fatalf("refused = %v (%v), want %v", refused, err, tt.refused)
			}
			if err != nil && !strings.HasPrefix(err.Error(), "qsh refused to run `> "+tt.path+"`: ") {
				t.Errorf("refusal %q", err)
			}
		})
	}
}
