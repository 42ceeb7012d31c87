package sandbox

import (
	"fmt"
	"slices"
	"strings"
	"syscall"
	"testing"
)

func TestDenials(t *testing.T) {
	p := Policy{Mode: Workspace, Home: "/home/al", Write: []string{"/home/al/proj", "/tmp"},
		Deny: []string{"/home/al/.ssh", "/home/al/.aws", "/home/al/.npmrc"}, Own: []string{"/home/al/.local/state/qsh"}}
	// The user may not touch /root either: a denial there is not the
	// sandbox's.
	access := func(path string, mode uint32) error {
		if strings.HasPrefix(path, "/root") && mode != 0 {
			return syscall.EACCES
		}
		return nil
	}
	for _, tc := range []struct {
		out  string
		dir  string
		net  Net
		want []string
	}{
		{out: "sh: 1: cannot create /home/al/.bashrc: Permission denied", want: []string{"sandbox: write to ~/.bashrc denied"}},
		{out: "touch: cannot touch '/home/al/pwned': Permission denied", want: []string{"sandbox: write to ~/pwned denied"}},
		{out: "touch: cannot touch 'pwned': Permission denied", dir: "/home/al", want: []string{"sandbox: write to ~/pwned denied"}},
		{out: "cat: /home/al/.ssh/id_rsa: Permission denied", want: []string{"sandbox: access to ~/.ssh/id_rsa denied (it holds secrets)"}},
		{out: "open /home/al/.aws/credentials: permission denied", want: []string{"sandbox: access to ~/.aws/credentials denied (it holds secrets)"}},
		{out: "PermissionError: [Errno 13] Permission denied: '/home/al/.profile'", want: []string{"sandbox: write to ~/.profile denied"}},
		{out: "Error: EACCES: permission denied, open '/home/al/.npmrc'", want: []string{"sandbox: access to ~/.npmrc denied (it holds secrets)"}},
		{out: "bash: ~/.bash_history: Permission denied", want: []string{"sandbox: write to ~/.bash_history denied"}},
		{out: "cat: /home/al/proj/x.txt: Permission denied"},              // the policy allows it
		{out: "ls: cannot open directory '/root': Permission denied"},     // nor could the user
		{out: "make: *** [Makefile:2: all] Error 1\nok /home/al/.bashrc"}, // no denial said
		{out: "dial tcp 127.0.0.1:8080: connect: permission denied", want: []string{"sandbox: network connection denied (QSH_AI_SANDBOX_NET=off)"}},
		{out: "dial tcp 127.0.0.1:8080: connect: permission denied", net: NetOn},
		{out: "curl: (7) Failed to connect to 1.2.3.4 port 80: Network is unreachable", net: AllowList,
			want: []string{"sandbox: network connection denied (programs reach the allowed domains only, through the proxy HTTP_PROXY names)"}},
		{out: "socket: Address family not supported by protocol", want: []string{"sandbox: network connection denied (QSH_AI_SANDBOX_NET=off)"}},
		{out: "error: could not lock config file .git/config: Read-only file system", dir: "/home/al/proj",
			want: []string{"sandbox: write to ~/proj/.git/config denied (the repository's configuration and hooks are read-only in the sandbox)"}},
		{out: "cannot create /home/al/proj/.git/hooks/pre-commit: Read-only file system",
			want: []string{"sandbox: write to ~/proj/.git/hooks/pre-commit denied (the repository's configuration and hooks are read-only in the sandbox)"}},
		{out: "error: could not write config file .git/config: Device or resource busy",
			want: []string{"sandbox: write to ~/proj/.git/config denied (the repository's configuration and hooks are read-only in the sandbox)"}},
		{out: "mv: cannot move '.git' to '.g': Device or resource busy", want: []string{"sandbox: ~/proj/.git cannot be moved or replaced in the sandbox"}},
		{out: "cat: /home/al/.local/state/qsh/history: Permission denied", want: []string{"sandbox: access to ~/.local/state/qsh/history denied (qsh's own files)"}},
		{out: "sh: cannot create /home/al/a: Permission denied\nsh: cannot create /home/al/a: Permission denied", want: []string{"sandbox: write to ~/a denied"}},
		{out: "sh: 1: cannot create /etc/x: Permission denied", want: []string{"sandbox: write to /etc/x denied"}},
	} {
		q := p
		q.Net = tc.net
		if q.Net == "" {
			q.Net = NetOff
		}
		dir := tc.dir
		if dir == "" {
			dir = "/home/al/proj"
		}
		d := NewDenials(q, dir)
		d.access = access
		d.git = []string{"/home/al/proj/.git/config", "/home/al/proj/.git/hooks"}
		// In pieces, as output comes: lines are found across writes, the
		// last one without its newline too.
		for i := 0; i < len(tc.out); i += 7 {
			d.Write([]byte(tc.out[i:min(i+7, len(tc.out))]))
		}
		if got := d.Lines(); !slices.Equal(got, tc.want) {
			t.Errorf("%q:\n got %q\nwant %q", tc.out, got, tc.want)
		}
	}
	d := NewDenials(p, "/home/al/proj")
	d.access = access
	d.Add("sandbox: write to ~/.bashrc denied")
	for i := range 8 {
		fmt.Fprintf(d, "touch: cannot touch '/home/al/f%d': Permission denied\n", i)
	}
	got := d.Lines()
	if len(got) != maxDenials+1 || got[0] != "sandbox: write to ~/.bashrc denied" || got[maxDenials] != "sandbox: … and 4 more denied" {
		t.Errorf("many denials: %q", got)
	}
}
