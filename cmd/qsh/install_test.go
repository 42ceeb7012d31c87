package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestUninstallKeepsLoginShells: install.sh --uninstall refuses to remove
// a qsh that an account has as its login shell (su - and ssh would fail to
// start it), naming the accounts and the chsh line, unless --force. The
// accounts come from a passwd file of the test's (PASSWD_FILE), the
// install from a manifest of its own: no real account or binary is
// touched.
func TestUninstallKeepsLoginShells(t *testing.T) {
	t.Parallel()
	script, err := filepath.Abs("../../install.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		shells []string // the login shells of the accounts u1, u2…
		force  bool
		refuse string // what the refusal says; "" when it uninstalls
	}{
		{name: "no account database", shells: nil, refuse: "cannot read the accounts"},
		{name: "nobody has it", shells: []string{"/bin/bash", "/bin/sh"}},
		{name: "two accounts", shells: []string{"QSH", "/bin/bash", "QSH"}, refuse: "is the login shell of: u1 u3"},
		{name: "through a link", shells: []string{"LINK"}, refuse: "is the login shell of: u1"},
		{name: "forced", shells: []string{"QSH"}, force: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prefix := t.TempDir()
			bin := filepath.Join(prefix, "bin")
			qsh := filepath.Join(bin, "qsh")
			os.MkdirAll(bin, 0o755)
			os.MkdirAll(filepath.Join(prefix, "share", "qsh"), 0o755)
			for _, name := range []string{"qsh", "qsh-assistant"} {
				os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"), 0o755)
			}
			link := filepath.Join(prefix, "qsh-link")
			os.Symlink(qsh, link)
			os.WriteFile(filepath.Join(prefix, "share", "qsh", "installed"),
				[]byte("file "+filepath.Join(bin, "qsh-assistant")+"\nfile "+qsh+"\n"), 0o644)
			var passwd strings.Builder
			for i, sh := range tc.shells {
				sh = strings.NewReplacer("QSH", qsh, "LINK", link).Replace(sh)
				passwd.WriteString("u" + string(rune('1'+i)) + ":x:100" + string(rune('0'+i)) + ":100::/home/u:" + sh + "\n")
			}
			pw := filepath.Join(prefix, "passwd")
			if tc.shells != nil {
				os.WriteFile(pw, []byte(passwd.String()), 0o644)
			}

			args := []string{script, "--uninstall", "--prefix", prefix}
			if tc.force {
				args = append(args, "--force")
			}
			cmd := exec.Command("sh", args...)
			cmd.Env = append(os.Environ(), "PASSWD_FILE="+pw)
			out, err := cmd.CombinedOutput()
			_, stat := os.Stat(qsh)
			if tc.refuse == "" {
				if err != nil || stat == nil || !strings.Contains(string(out), "qsh is uninstalled") {
					t.Errorf("not uninstalled (%v, qsh left: %v):\n%s", err, stat == nil, out)
				}
				return
			}
			if err == nil || stat != nil || !exists(filepath.Join(bin, "qsh-assistant")) {
				t.Errorf("uninstalled while a login shell (%v):\n%s", err, out)
			}
			want := []string{qsh + " " + tc.refuse, "sudo chsh -s /bin/bash u1", "--uninstall --prefix " + prefix + " --force"}
			if tc.shells == nil {
				want = []string{tc.refuse, "--force"}
			}
			for _, want := range want {
				if !strings.Contains(string(out), want) {
					t.Errorf("the refusal lacks %q:\n%s", want, out)
				}
			}
		})
	}
}
