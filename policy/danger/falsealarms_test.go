package danger

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFalseAlarms holds the false alarms of issue 24, each one a command
// that people saw judged worse than it is; the same families' harmful
// forms stay caught. notIn is text no reason may contain.
func TestFalseAlarms(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"vault.kdbx", "version.txt"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ws := Workspace{Dir: dir, Home: "/home/alice"}
	tests := []struct {
		cmd   string
		want  Class
		notIn string
	}{
		// Quoted text is data: 'v*' matches nothing, it names a file v*.
		{"echo 'v*'", Safe, "vault"},
		{`echo "v*"`, Safe, "vault"},
		{"cat 'v*'", Safe, "vault"},
		{`cat v\*`, Safe, "vault"},
		{`grep -n 'id_*' notes.txt`, Safe, ""},
		{"cat v*", Dangerous, ""}, // bash expands it to vault.kdbx
		{`X="v*"; cat $X`, Dangerous, ""},
		{`cat "$HOME"/.ssh/*`, Dangerous, ""},
		// A pattern that also names everyday files is judged by what it
		// matches; one that names only secrets' names is judged by them.
		{"cat *.json", Safe, ""},
		{"cat *.txt", Safe, ""},
		{"cat *.env", Dangerous, ""},
		{"cat .[e]nv", Dangerous, ""},
		{"head -n 3 id_*", Dangerous, ""},
		// Naming a secret without showing it.
		{"wc -l .env", Safe, ""},
		{"sha256sum .env", Safe, ""},
		{"git check-ignore -v .env", Safe, ""},
		{"git status .env", Safe, ""},
		{"git log --oneline -- .env", Safe, ""},
		{"git log -p -- .env", Dangerous, ""},
		{"git diff --stat .env", Safe, ""},
		{"git diff .env", Dangerous, ""},
		{"git rm --cached .env", Dev, ""},
		{"git add .env", Dangerous, ""}, // a push publishes it
		{"cat ~/.ssh/known_hosts", Safe, ""},
		// Public keys, host names and users: no secret in ~/.ssh's
		// authorized_keys and config (the seventh blind set's reading).
		{"cat ~/.ssh/authorized_keys", Safe, ""},
		// Bare words that say password or token are no files unless one
		// exists: test filters, branches, targets.
		{"pytest -k password", Dev, ""},
		{"jest -t token", Dev, ""},
		{"git switch feature/token", Dev, ""},
		{"git branch token-refresh", Dev, ""},
		{"git grep password", Safe, ""},
		{"cat password.txt", Dangerous, ""},
		{"cat /etc/gitlab/initial_root_password", Dangerous, ""},
		{"cat ~/.ssh/config", Safe, ""},
		{"cat ~/.ssh/id_ecdsa", Dangerous, ""},
		{"echo $KUBECONFIG", Safe, ""},
		{`echo "$KUBECONFIG"`, Safe, ""},
		{"cat $KUBECONFIG", Dangerous, ""},
		{"echo ~/.ssh/id_rsa", Safe, ""},
		{"echo $AWS_SECRET_ACCESS_KEY", Dangerous, ""},
		{"gpg --list-secret-keys", Safe, ""},
		{"gpg -K --with-colons", Safe, ""},
		{"gpg --armor --export-secret-keys me", Dangerous, ""},
		{"kubectl get secrets", Dev, ""},
		{"kubectl get secret db -n prod", Dev, ""},
		{"kubectl get secret x -o jsonpath={.metadata.name}", Dev, ""},
		{"kubectl get secrets -o yaml", Dangerous, ""},
		{"kubectl get secret db -o jsonpath='{.data.password}'", Dangerous, ""},
		{"kubectl get secret -A -ojson", Dangerous, ""},
		{"kubectl describe secret db", Dangerous, ""},
		{"grep -c API_KEY .env", Safe, ""},
		{"grep -l PRIVATE -r ~", Safe, ""},
		{"grep -r PRIVATE ~", Dangerous, ""},
		{"grep API_KEY .env", Dangerous, ""},
		{"diff -q .env .env.example", Safe, ""},
		{"which passwd", Safe, ""},
		{"man passwd", Safe, ""},
		{"terraform plan -var-file=prod.tfvars", Dev, ""},
		{"cat prod.tfvars", Dangerous, ""},
		{"gzip -c notes.txt", Safe, ""},
		{"gzip -l a.gz", Safe, ""},
		{"gzip notes.txt", Dev, ""},
		// The reasons show ~, not the home directory's path.
		{"cat /home/alice/.aws/credentials", Dangerous, "/home/alice"},
	}
	for _, tt := range tests {
		v := Classify(tt.cmd, ws)
		if v.Class != tt.want {
			t.Errorf("%s: %v, want %v\n\t%q", tt.cmd, v.Class, tt.want, v.Reasons)
			continue
		}
		if tt.notIn != "" && strings.Contains(strings.Join(v.Reasons, "\n"), tt.notIn) {
			t.Errorf("%s: reasons %q mention %q", tt.cmd, v.Reasons, tt.notIn)
		}
	}
}
