package secret

import (
	"slices"
	"strings"
	"testing"
)

// TestSecret is the one table of what is secret: variable names (var),
// paths (path, for a user whose home is /home/al and whose KUBECONFIG is
// /srv/kube.yaml), base names (name) and text to redact (redact). want is
// "yes"/"no", or for redact the text after redaction.
func TestSecret(t *testing.T) {
	env := map[string]string{"KUBECONFIG": "/srv/kube.yaml:/srv/other.yaml", "DOCKER_CONFIG": "/srv/docker"}
	pl := Places{Home: "/home/al", Getenv: func(k string) string { return env[k] }}
	tests := []struct{ kind, in, want string }{
		// Variables: the lists of the classifier and the assistant disagreed
		// on DB_PASS and MYSQL_PWD; both are secret.
		{"var", "DB_PASS", "yes"},
		{"var", "MYSQL_PWD", "yes"},
		{"var", "DB_PASSWORD", "yes"},
		{"var", "PGPASSWORD", "yes"},
		{"var", "PGPASSWD", "yes"},
		{"var", "GITHUB_TOKEN", "yes"},
		{"var", "github_token", "yes"},
		{"var", "githubToken", "yes"},
		{"var", "GH_PAT", "yes"},
		{"var", "OPENAI_API_KEY", "yes"},
		{"var", "apiKey", "yes"},
		{"var", "AWS_SECRET_ACCESS_KEY", "yes"},
		{"var", "AWS_SESSION_TOKEN", "yes"},
		{"var", "NPM_AUTH", "yes"},
		{"var", "CREDENTIALS_FILE", "yes"},
		{"var", "GOOGLE_APPLICATION_CREDENTIALS", "yes"},
		{"var", "SENTRY_DSN", "yes"},
		{"var", "DATABASE_URL", "yes"},
		{"var", "REDIS_CONNECTION_STRING", "yes"},
		{"var", "GPG_PASSPHRASE", "yes"},
		{"var", "SESSION_COOKIE", "yes"},
		{"var", "PRIVATE_KEY", "yes"},
		{"var", "CLIENTSECRET", "yes"},
		{"var", "KEY", "yes"},
		{"var", "PASS", "yes"},
		{"var", "PWD", "no"},
		{"var", "OLDPWD", "no"},
		{"var", "PATH", "no"},
		{"var", "HOME", "no"},
		{"var", "EDITOR", "no"},
		{"var", "KEYMAP", "no"},
		{"var", "SSH_AUTH_SOCK", "no"},
		{"var", "GIT_AUTHOR_NAME", "no"},
		{"var", "XDG_SESSION_TYPE", "no"},
		{"var", "MAX_TOKENS", "no"},
		{"var", "TOKENIZERS_PARALLELISM", "no"},
		{"var", "PASSWORD_STORE_DIR", "no"},
		{"var", "GIT_ASKPASS", "no"},
		{"var", "BYPASS_CACHE", "no"},

		// Paths.
		// Services' configs: containers' environment, CI runners' tokens,
		// Wi-Fi passwords; the directories that hold them are not.
		{"path", "/var/lib/docker/containers/abc/config.v2.json", "yes"},
		{"path", "/etc/gitlab-runner/config.toml", "yes"},
		{"path", "/etc/netplan/01-wifi.yaml", "yes"},
		{"path", "/var/lib/docker", "no"},
		{"path", "/etc/gitlab", "no"},
		// Search patterns that look for secrets, and ones that do not.
		{"search", "api_key", "yes"},
		{"search", "api[_-]?key", "yes"},
		{"search", "BEGIN RSA PRIVATE KEY", "yes"},
		{"search", "AKIA[0-9A-Z]{16}", "yes"},
		{"search", "ghp_", "yes"},
		{"search", "Password", "yes"},
		{"search", "TODO", "no"},
		{"search", "func main", "no"},
		{"search", "keyboard", "no"},
		{"path", "/home/al/.ssh", "yes"},
		{"path", "/home/al/.ssh/id_ed25519", "yes"},
		{"path", "/home/al/.gnupg/private-keys-v1.d/x.key", "yes"},
		{"path", "/home/al/.aws/credentials", "yes"},
		{"path", "/home/al/.azure/accessTokens.json", "yes"},
		{"path", "/home/al/.config/gcloud/application_default_credentials.json", "yes"},
		{"path", "/home/al/.kube/config", "yes"},
		{"path", "/home/al/.docker/config.json", "yes"},
		{"path", "/home/al/.netrc", "yes"},
		{"path", "/home/al/.git-credentials", "yes"},
		{"path", "/home/al/.config/gh/hosts.yml", "yes"},
		{"path", "/home/al/.npmrc", "yes"},
		{"path", "/home/al/.pypirc", "yes"},
		{"path", "/home/al/.password-store/bank.gpg", "yes"},
		{"path", "/etc/shadow", "yes"},
		{"path", "/etc/gshadow", "yes"},
		{"path", "/etc/sudoers.d/admins", "yes"},
		{"path", "/run/secrets/db_password", "yes"},
		{"path", "/var/run/secrets/kubernetes.io/serviceaccount/token", "yes"},
		{"path", "/proc/1/environ", "yes"},
		{"path", "/proc/self/environ", "yes"},
		{"path", "/proc/42/task/43/environ", "yes"},
		{"path", "/srv/kube.yaml", "yes"},
		{"path", "/srv/other.yaml", "yes"},
		{"path", "/srv/docker/config.json", "yes"},
		{"path", "/home/bob/.ssh/id_rsa", "yes"},
		{"path", "/root/.aws/config", "yes"},
		{"path", "/work/app/.env", "yes"},
		{"path", "/work/app/.env.production", "yes"},
		{"path", "/work/app/config/prod.env", "yes"},
		{"path", "/work/app/certs/server.key", "yes"},
		{"path", "/work/app/certs/server.pem", "yes"},
		{"path", "/work/app/aws-credentials.json", "yes"},
		{"path", "/work/app/config/secrets.yml", "yes"},
		{"path", "/work/app/config/master.key", "yes"},
		{"path", "/tmp/x/.kube/config", "yes"},
		{"path", "/home/al/.bash_history", "yes"},
		{"path", "/home/al/.config/google-chrome/Default/Login Data", "yes"},
		{"path", "/work/app/secrets/prod.yaml", "yes"},
		{"path", "/work/app/docs/secrets.md", "no"},
		{"path", "/home/al/.docker/daemon.json", "no"},
		{"path", "/home/al/.ssh/id_ed25519.pub", "no"},
		{"path", "/home/al/.ssh.bak", "no"},
		{"path", "/home/al/.bashrc", "no"},
		{"path", "/home/al/.config/git/config", "no"},
		{"path", "/etc/passwd", "no"},
		{"path", "/etc/hosts", "no"},
		{"path", "/proc/cpuinfo", "no"},
		{"path", "/proc/1/status", "no"},
		{"path", "/work/app/.env.example", "no"},
		{"path", "/work/app/.env.sample", "no"},
		{"path", "/work/app/main.go", "no"},
		{"path", "/work/app/auth/credentials.go", "no"},
		{"path", "/work/app/docs/credentials.md", "no"},
		{"path", "/home/al/.ssh-config-notes", "no"},
		{"path", "/srv/kube.yaml.bak", "no"},
		// Public keys, host names and users, even in ~/.ssh; gh's
		// preferences, not its token.
		{"path", "/home/al/.ssh/known_hosts", "no"},
		{"path", "/home/al/.ssh/authorized_keys", "no"},
		{"path", "/home/al/.ssh/config", "no"},
		{"path", "/srv/x/.ssh/config", "no"},
		{"path", "/home/al/.kube/config", "yes"},
		{"path", "/home/al/.config/gh/config.yml", "no"},
		{"path", "/home/al/.config/gh/hosts.yml", "yes"},
		{"path", "/home/al/app/.dev.vars", "yes"},
		// Passwords services generate, credentials of clusters, VPNs and
		// tools; state files that keep every value in plain text.
		{"path", "/etc/gitlab/initial_root_password", "yes"},
		{"path", "/etc/gitlab/gitlab-secrets.json", "yes"},
		{"path", "/var/lib/jenkins/secrets/initialAdminPassword", "yes"},
		{"path", "/var/jenkins_home/initialAdminPassword", "yes"},
		{"path", "/var/lib/rancher/k3s/server/token", "yes"},
		{"path", "/etc/kubernetes/admin.conf", "yes"},
		{"path", "/etc/rancher/k3s/k3s.yaml", "yes"},
		{"path", "/etc/wireguard/wg0.conf", "yes"},
		{"path", "/etc/mysql/debian.cnf", "yes"},
		{"path", "/etc/ppp/chap-secrets", "yes"},
		{"path", "/etc/security/opasswd", "yes"},
		{"path", "/home/al/.m2/settings.xml", "yes"},
		{"path", "/home/al/.gradle/gradle.properties", "yes"},
		{"path", "/home/al/.config/sops/age/keys.txt", "yes"},
		{"path", "/home/al/.local/share/fish/fish_history", "yes"},
		{"path", "/work/app/terraform.tfstate", "yes"},
		{"path", "/work/app/terraform.tfstate.backup", "yes"},
		{"path", "/work/app/prod.tfvars", "yes"},
		{"path", "/work/app/env/secrets.auto.tfvars", "yes"},
		{"path", "/work/app/Pulumi.prod.yaml", "yes"},
		{"path", "/work/app/Pulumi.yaml", "no"},
		{"path", "/work/app/variables.tf", "no"},
		{"path", "/work/app/terraform.tfvars.example", "no"},
		// Templates meant to be committed, wherever the mark stands.
		{"path", "/work/app/config/secrets.example.yml", "no"},
		{"path", "/work/app/credentials.sample.json", "no"},
		{"path", "/work/app/example.env", "no"},
		{"path", "/work/app/.env.dist", "no"},
		{"path", "/work/app/config/secrets.yml", "yes"},
		{"path", "/work/app/.env.production", "yes"},
		{"path", "/etc/kubernetes/manifests/etcd.yaml", "no"},
		{"path", "/home/al/.m2/repository/x.jar", "no"},

		{"name", "id_rsa", "yes"},
		{"name", "id_rsa.pub", "no"},
		{"name", ".ENV", "yes"},
		{"name", ".envrc", "yes"},
		{"name", "environment.ts", "no"},
		{"name", "keys.txt", "no"},
		// Names whose words say password, token or secret, unless code,
		// documents or images that talk about them.
		{"name", "initialAdminPassword", "yes"},
		{"name", "initial_root_password", "yes"},
		{"name", "password.txt", "yes"},
		{"name", "passwords.csv", "yes"},
		{"name", ".vault_pass", "yes"},
		{"name", "client_secret.json", "yes"},
		{"name", "github-token", "yes"},
		{"name", "token.json", "yes"},
		{"name", "api_key.txt", "yes"},
		{"name", "signing-key.txt", "yes"},
		{"name", "deploy.ppk", "yes"},
		{"name", "krb5.keytab", "yes"},
		{"name", "kubeconfig", "yes"},
		{"name", "prod.kubeconfig", "yes"},
		{"name", "wp-config.php", "yes"},
		{"name", "passwd", "no"},
		{"name", "reset_password.go", "no"},
		{"name", "password-reset.html", "no"},
		{"name", "token.svg", "no"},
		{"name", "secrets.md", "no"},
		{"name", "tokens.json", "no"},
		{"name", "tokenizer.json", "no"},
		{"name", "max_tokens.txt", "no"},
		{"name", "key_bindings.json", "no"},
		{"name", "keymap.json", "no"},
		{"name", "compass.json", "no"},
		{"name", "Pulumi.yaml", "no"},
		{"name", "jsonwebtoken", "no"},
		{"name", "refresh_token.json", "yes"},

		// Redaction of text on its way to the model.
		{"redact", "nothing here", "nothing here"},
		{"redact", "OPENAI_API_KEY=sk-abcdefghijklmnopqrstuvwxyz0123", "OPENAI_API_KEY=[REDACTED]"},
		{"redact", "DB_PASS=hunter2 ok", "DB_PASS=[REDACTED] ok"},
		{"redact", "MYSQL_PWD=hunter2 ok", "MYSQL_PWD=[REDACTED] ok"},
		{"redact", "token ghp_abcdefghijklmnopqrstuvwxyz0123456789", "token [REDACTED]"},
		{"redact", "curl -H 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz'", "curl -H 'Authorization: [REDACTED]'"},
		{"redact", "postgres://bob:hunter2@db.example/x", "postgres://bob:[REDACTED]@db.example/x"},
		{"redact", "password=hunter2 and more", "password=[REDACTED] and more"},
		{"redact", "AKIAABCDEFGHIJKLMNOP", "[REDACTED]"},
		{"redact", "npm_abcdefghijklmnopqrstuvwxyz0123456789", "[REDACTED]"},
		{"redact", "sk_live_abcdefghijklmnopqrstuv", "[REDACTED]"},
		{"redact", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl\n-----END OPENSSH PRIVATE KEY-----\nx", "[REDACTED]\nx"},
		{"redact", "echo $HOME; PWD=/tmp", "echo $HOME; PWD=/tmp"},
		{"redact", "GIT_AUTHOR_NAME=Al", "GIT_AUTHOR_NAME=Al"},
		{"redact", "error: key: not found", "error: key: not found"},
		{"redact", "max_tokens: 4096", "max_tokens: 4096"},
		{"redact", "public key -----BEGIN PUBLIC KEY-----", "public key -----BEGIN PUBLIC KEY-----"},
		{"redact", "sk-is-a-word", "sk-is-a-word"},
		{"redact", "--- PASS: TestProject (0.00s)", "--- PASS: TestProject (0.00s)"},
		{"redact", "open credentials: permission denied", "open credentials: permission denied"},
		{"redact", "KEY: value", "KEY: value"},
		{"redact", "PASS=hunter2", "PASS=[REDACTED]"},
		{"redact", "password: hunter2", "password: [REDACTED]"},
		{"redact", "PASSWORD: hunter2", "PASSWORD: [REDACTED]"},
		{"redact", "api_key: abc123", "api_key: [REDACTED]"},
		{"redact", "aws_secret_access_key = abc123", "aws_secret_access_key = [REDACTED]"},
		{"redact", "credentials=abc123", "credentials=[REDACTED]"},

		// What reaches a program the sandbox confines: not secrets by name
		// or by shape, nor the handles of the user's daemons.
		{"confined", "PATH=/usr/bin:/bin", "yes"},
		{"confined", "GOFLAGS=-mod=mod", "yes"},
		{"confined", "LS_COLORS=rs=0:di=01;34:ln=01;36", "yes"},
		{"confined", "GIT_AUTHOR_EMAIL=al@example.com", "yes"},
		{"confined", "GOPROXY=https://proxy.golang.org,direct", "yes"},
		{"confined", "XDG_RUNTIME_DIR=/run/user/1000", "yes"},
		{"confined", "GITHUB_TOKEN=anything", "no"},
		{"confined", "AWS_SECRET_ACCESS_KEY=anything", "no"},
		{"confined", "AWS_SESSION_TOKEN=anything", "no"},
		{"confined", "NPM_TOKEN=anything", "no"},
		{"confined", "HF_TOKEN=anything", "no"},
		{"confined", "DATABASE_URL=postgres://db/x", "no"},
		{"confined", "MY_UPSTREAM=https://bob:hunter2@git.example/x", "no"},
		{"confined", "SOMETHING=ghp_abcdefghijklmnopqrstuvwxyz0123456789", "no"},
		{"confined", "TMUX=/tmp/tmux-1000/default,1234,0", "no"},
		{"confined", "SSH_AUTH_SOCK=/tmp/ssh-x/agent.1", "no"},
		{"confined", "DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus", "no"},
		{"confined", "DOCKER_HOST=unix:///var/run/docker.sock", "no"},
		{"confined", "DISPLAY=:0", "no"},
		{"confined", "WAYLAND_DISPLAY=wayland-0", "no"},
	}
	yes := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	for _, tt := range tests {
		var got string
		switch tt.kind {
		case "var":
			got = yes(Var(tt.in))
		case "path":
			got = yes(pl.Why(tt.in) != "")
		case "name":
			got = yes(Name(tt.in))
		case "search":
			got = yes(SearchPattern(tt.in))
		case "redact":
			got = Redact(tt.in)
		case "confined":
			name, value, _ := strings.Cut(tt.in, "=")
			got = yes(Confined(name, value))
		default:
			t.Fatalf("unknown kind %q", tt.kind)
		}
		if got != tt.want {
			t.Errorf("%s %q = %q, want %q", tt.kind, tt.in, got, tt.want)
		}
	}

	// Fixed lists what Why reports, as the sandbox needs it: concrete paths.
	fixed := pl.Fixed()
	for _, want := range []string{"/home/al/.ssh", "/home/al/.docker/config.json", "/etc/shadow", "/srv/kube.yaml",
		"/srv/docker/config.json", "/var/run/secrets"} {
		if !slices.Contains(fixed, want) {
			t.Errorf("Fixed() lacks %s", want)
		}
	}
	for _, f := range fixed {
		if pl.Why(f) == "" {
			t.Errorf("Fixed() lists %s but Why says it is not secret", f)
		}
	}
	for _, n := range NameExamples() {
		if !Name(n) {
			t.Errorf("NameExamples lists %s but Name says it is not secret", n)
		}
	}
	for n, want := range map[string]bool{"password": true, "token": true, "id_rsa": false, ".env": false,
		"secrets.yml": false, "main.go": false} {
		if WordsOnly(n) != want {
			t.Errorf("WordsOnly(%q) = %v, want %v", n, !want, want)
		}
	}
	if VarFile("KUBECONFIG") != ".kube/config" || VarFile("HOME") != "" {
		t.Errorf("VarFile(KUBECONFIG) = %q, VarFile(HOME) = %q", VarFile("KUBECONFIG"), VarFile("HOME"))
	}
	kept, withheld := ConfinedEnviron([]string{"HOME=/home/al", "GITHUB_TOKEN=x", "TMUX=/tmp/t,1,0"})
	if !slices.Equal(kept, []string{"HOME=/home/al"}) || !slices.Equal(withheld, []string{"GITHUB_TOKEN", "TMUX"}) {
		t.Errorf("ConfinedEnviron: kept %q, withheld %q", kept, withheld)
	}
	if strings.Contains(Redact("x AWS_SECRET_ACCESS_KEY='a b c' y"), "a b c") {
		t.Errorf("a quoted secret value survives")
	}
}
