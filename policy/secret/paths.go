package secret

import (
	"path"
	"strings"

	"github.com/qsh-shell/qsh/internal/lazy"
)

// Places is where one user keeps secrets: the home directory, the system's
// password and key files, and the files the environment moves elsewhere
// ($KUBECONFIG, $AWS_SHARED_CREDENTIALS_FILE …).
type Places struct {
	Home string // the user's home directory, absolute; "" when unknown
	// Getenv reads the environment for files it moves; nil reads nothing.
	Getenv func(string) string
}

// homePaths hold secrets under the home directory; a directory counts
// with everything under it.
var homePaths = lazy.Value[[]string]{Build: func() []string {
	return []string{
		".ssh", ".gnupg", ".aws", ".azure", ".config/gcloud", ".kube", ".docker/config.json",
		".netrc", "_netrc", ".git-credentials", ".config/git/credentials", ".config/gh", ".config/hub",
		".npmrc", ".yarnrc.yml", ".pypirc", ".pgpass", ".my.cnf", ".password-store", ".vault-token",
		".terraformrc", ".terraform.d/credentials.tfrc.json", ".s3cfg", ".boto", ".cargo/credentials",
		".cargo/credentials.toml", ".gem/credentials", ".composer/auth.json", ".config/composer/auth.json",
		".m2/settings-security.xml", ".pulumi/credentials.json", ".config/rclone/rclone.conf",
		".local/share/keyrings", ".config/op", ".fly/config.yml", ".config/helm/repositories.yaml",
		// Cloud, forge and service CLIs' tokens; age keys for sops.
		".config/sops", ".config/doctl", ".config/hcloud", ".oci", ".config/openstack/clouds.yaml",
		".config/glab-cli", ".config/ngrok", ".ngrok2", ".mc/config.json", ".config/github-copilot",
		".codex/auth.json", ".wakatime.cfg", ".config/stripe", ".wrangler", ".config/containers/auth.json",
		// Browsers' and mail clients' saved passwords and cookies.
		".config/google-chrome", ".config/chromium", ".config/BraveSoftware", ".mozilla/firefox",
		".thunderbird", "Library/Application Support/Google/Chrome", "Library/Keychains",
		".local/share/fish/fish_history",
		// Data and deploy CLIs' tokens (Kaggle, Vercel, Netlify, Railway,
		// Firebase, Supabase), by where each keeps them on Linux and macOS.
		".kaggle/kaggle.json", ".config/kaggle/kaggle.json", ".local/share/com.vercel.cli",
		"Library/Application Support/com.vercel.cli", ".config/netlify/config.json",
		"Library/Preferences/netlify/config.json", ".railway/config.json",
		".config/configstore/firebase-tools.json", ".supabase/access-token",
		// macOS's and other browsers' cookies, saved passwords and sessions.
		"Library/Cookies", "Library/Application Support/Firefox", "Library/Application Support/BraveSoftware",
		"Library/Application Support/Microsoft Edge", "Library/Application Support/Chromium",
		"Library/Application Support/Arc", "Library/Safari", ".config/microsoft-edge", ".config/vivaldi",
		".config/opera",
	}
}}

// toolConfigs are files under the home directory that hold credentials
// but that tools read on every run (Maven its settings.xml, Gradle its
// gradle.properties, dbt its profiles.yml): showing one discloses them
// ([Places.Why]), but a sandbox that hid them would break the builds, so
// [Places.Fixed] leaves them out.
var toolConfigs = lazy.Value[[]string]{Build: func() []string {
	return []string{
		".m2/settings.xml", ".gradle/gradle.properties", ".ivy2/.credentials", ".sbt/credentials",
		".nuget/NuGet/NuGet.Config", ".bundle/config", ".config/pip/pip.conf", ".pip/pip.conf",
		".dbt/profiles.yml", ".databrickscfg", ".pulumi/stacks", ".yarnrc",
	}
}}

// systemPaths hold secrets of the machine, for any user.
var systemPaths = lazy.Value[[]string]{Build: func() []string {
	return []string{
		"/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/master.passwd",
		"/etc/sudoers", "/etc/sudoers.d", "/etc/ssl/private", "/etc/ssh/ssh_host_rsa_key",
		"/etc/ssh/ssh_host_ecdsa_key", "/etc/ssh/ssh_host_ed25519_key", "/etc/ssh/ssh_host_dsa_key",
		// Docker and Kubernetes secrets, the service account's token among them.
		"/run/secrets", "/var/run/secrets",
		// Cluster admins' kubeconfigs and keys, VPN and Wi-Fi keys, service
		// passwords the packages generate.
		"/etc/kubernetes/admin.conf", "/etc/kubernetes/super-admin.conf", "/etc/kubernetes/pki",
		"/etc/rancher/k3s/k3s.yaml", "/etc/wireguard", "/etc/NetworkManager/system-connections",
		"/etc/mysql/debian.cnf", "/etc/krb5.keytab", "/etc/pki/tls/private",
		// Containers' configs hold the environment they were started with;
		// CI runners' configs their registration tokens; the machine's own
		// Wi-Fi, VPN and mail relay passwords, TLS and configuration
		// management keys.
		"/var/lib/docker/containers", "/var/lib/docker/swarm", "/var/lib/containers/storage/overlay-containers",
		"/etc/gitlab-runner", "/etc/gitlab/gitlab-secrets.json", "/etc/buildkite-agent", "/var/lib/jenkins/secrets",
		"/var/lib/rancher/k3s/server/token", "/var/lib/rancher/k3s/server/cred", "/var/lib/kubelet/pods",
		"/etc/netplan", "/etc/wpa_supplicant", "/etc/openvpn", "/etc/ipsec.secrets", "/etc/ppp/chap-secrets",
		"/etc/ppp/pap-secrets", "/etc/letsencrypt/live", "/etc/letsencrypt/archive", "/etc/letsencrypt/keys",
		"/var/lib/tailscale", "/etc/salt/pki", "/etc/puppetlabs/puppet/ssl", "/var/lib/cloud/instance/user-data.txt",
	}
}}

// systemByTop is systemPaths by their first component ("etc", "var").
var systemByTop = lazy.Value[map[string][]string]{Build: func() map[string][]string {
	m := map[string][]string{}
	for _, f := range systemPaths.Get() {
		top, _, _ := strings.Cut(strings.TrimPrefix(f, "/"), "/")
		m[top] = append(m[top], f)
	}
	return m
}}

// envPaths are the variables that move a secret file or directory, each
// with the home-relative place it has when the variable is unset.
var envPaths = lazy.Value[map[string]string]{Build: func() map[string]string {
	return map[string]string{
		"KUBECONFIG": ".kube/config", "AWS_SHARED_CREDENTIALS_FILE": ".aws/credentials",
		"AWS_CONFIG_FILE": ".aws/config", "GOOGLE_APPLICATION_CREDENTIALS": ".config/gcloud",
		"CLOUDSDK_CONFIG": ".config/gcloud", "AZURE_CONFIG_DIR": ".azure", "DOCKER_CONFIG": ".docker/config.json",
		"GNUPGHOME": ".gnupg", "NETRC": ".netrc", "PASSWORD_STORE_DIR": ".password-store",
		"NPM_CONFIG_USERCONFIG": ".npmrc", "GH_CONFIG_DIR": ".config/gh", "PGPASSFILE": ".pgpass",
		"VAULT_CONFIG_PATH": ".vault-token",
	}
}}

// VarFile is the home-relative path of the secret file or directory the
// variable name points at by default (KUBECONFIG → .kube/config), or "".
// A command that reads "$KUBECONFIG" reads a secret whatever its value.
func VarFile(name string) string {
	return envPaths.Get()[name]
}

// Fixed lists the absolute paths of files and directories that hold
// secrets (a directory with everything under it): those under Home, the
// system's, and the ones the environment names. They need not exist.
// Files found by name anywhere ([Name]) and /proc/*/environ come on top.
func (pl Places) Fixed() []string {
	var out []string
	if pl.Home != "" {
		for _, p := range homePaths.Get() {
			out = append(out, path.Join(pl.Home, p))
		}
	}
	out = append(out, systemPaths.Get()...)
	if pl.Getenv != nil {
		for name := range envPaths.Get() {
			v := pl.Getenv(name)
			if v == "" {
				continue
			}
			for f := range strings.SplitSeq(v, ":") { // KUBECONFIG is a list
				if strings.HasPrefix(f, "/") {
					if name == "DOCKER_CONFIG" {
						f += "/config.json"
					}
					out = append(out, path.Clean(f))
				}
			}
		}
	}
	return out
}

// fixedUnder returns the fixed secret path p is or lies under, or "".
// It tests the home-relative ones without building Fixed's list: the
// classifier asks for every path a command names.
func (pl Places) fixedUnder(p string) string {
	h := pl.Home
	if h != "" && h != "/" && len(p) > len(h)+1 && p[len(h)] == '/' && p[:len(h)] == h {
		rel := p[len(h)+1:]
		for _, h := range homePaths.Get() {
			if within(rel, h) {
				return path.Join(pl.Home, h)
			}
		}
		for _, h := range toolConfigs.Get() {
			if within(rel, h) {
				return path.Join(pl.Home, h)
			}
		}
	}
	// The system's places by their top directory (/etc, /var …): the
	// classifier asks for every path a command names.
	if top, _, _ := strings.Cut(strings.TrimPrefix(p, "/"), "/"); len(p) > 0 && p[0] == '/' {
		for _, f := range systemByTop.Get()[top] {
			if within(p, f) {
				return f
			}
		}
	}
	if pl.Getenv != nil {
		for _, f := range pl.Fixed() {
			if within(p, f) {
				return f
			}
		}
	}
	return ""
}

// within reports whether p is f or lies below it.
func within(p, f string) bool {
	return p == f || len(p) > len(f) && p[len(f)] == '/' && p[:len(f)] == f
}

// anywhereDirs are directory names whose whole content is secret wherever
// they are: another user's ~/.ssh is as secret as one's own.
var anywhereDirs = lazy.Value[map[string]string]{Build: func() map[string]string {
	return map[string]string{
		".ssh": ".ssh/", ".gnupg": ".gnupg/", ".aws": ".aws/", ".azure": ".azure/",
		".password-store": ".password-store/", "secrets": "a secrets directory", ".secrets": "a secrets directory",
	}
}}

// Why says why the file at p (absolute) may hold secrets, or "" when
// nothing says so. Public keys (*.pub) are not secret, even inside a
// directory that [Places.Fixed] lists whole. It reads only the path: call it again on where a
// symbolic link leads.
func (pl Places) Why(p string) string {
	if p == "" {
		return ""
	}
	p = path.Clean(p)
	if strings.HasSuffix(p, ".pub") || publicFile(p) {
		return "" // public keys and host names, even in ~/.ssh
	}
	if f := pl.fixedUnder(p); f != "" {
		switch f {
		case "/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/master.passwd":
			return "a system password file"
		}
		return "`" + f + "` holds keys or credentials"
	}
	dir, base := path.Split(p)
	for rest := dir; rest != ""; {
		var d string
		d, rest, _ = strings.Cut(rest, "/")
		if what, ok := anywhereDirs.Get()[d]; ok {
			return "inside " + what + ", which holds keys or credentials"
		}
	}
	dir = path.Clean(dir)
	switch {
	case procEnviron(p):
		return "a process's environment, which holds its secrets"
	case anywhereDirs.Get()[base] != "":
		return base + "/ holds keys or credentials"
	case base == "config" && path.Base(dir) == ".kube", base == "config.json" && path.Base(dir) == ".docker",
		base == "hosts.yml" && strings.HasSuffix(dir, "/gh"), base == "credentials" && path.Base(dir) == ".aws":
		return "a tool's credentials file"
	case Name(base):
		return "its name (" + base + ") says it may hold secrets"
	}
	return ""
}

// publicFile reports the files among secret ones that hold no secret:
// ~/.ssh's host names and public keys (known_hosts, authorized_keys, the
// client's config of hosts and users), and gh's preferences (its token
// is in hosts.yml).
func publicFile(p string) bool {
	dir, base := path.Split(p)
	switch base {
	case "known_hosts", "known_hosts.old":
		return true
	case "authorized_keys", "authorized_keys2", "config":
		return strings.HasSuffix(dir, "/.ssh/")
	case "config.yml":
		return strings.HasSuffix(dir, "/.config/gh/")
	}
	return false
}

// procEnviron reports /proc/PID/environ and /proc/PID/task/TID/environ:
// another process's environment variables, secrets included.
func procEnviron(p string) bool {
	rest, ok := strings.CutPrefix(p, "/proc/")
	if !ok || path.Base(p) != "environ" {
		return false
	}
	n := strings.Count(rest, "/")
	return n == 1 || n == 3 && strings.Contains(rest, "/task/")
}

// namePatterns are base names (path.Match patterns, lower case) of files
// that hold secrets wherever they are.
var namePatterns = lazy.Value[[]string]{Build: func() []string {
	return []string{
		".env", ".env.*", "*.env", ".envrc", ".flaskenv", ".dev.vars", ".dev.vars.*",
		"*.pem", "*.key", "*.p12", "*.pfx", "*.jks", "*.keystore", "*.kdbx", "*.ovpn",
		"*credentials*", "secrets.json", "secrets.yaml", "secrets.yml", "secrets.toml", "secret.yaml",
		"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk", "*_rsa", "*_ed25519",
		".netrc", "_netrc", ".pgpass", ".git-credentials", ".npmrc", ".pypirc", ".my.cnf", ".vault-token",
		"master.key", ".htpasswd", "service-account*.json", "*serviceaccount*.json",
		// Shell and client histories: commands typed with tokens in them.
		".bash_history", ".zsh_history", ".python_history", ".psql_history", ".mysql_history",
		".node_repl_history", ".sqlite_history", ".rediscli_history",
		// Infrastructure state and variables: Terraform keeps every value,
		// passwords among them, in plain text; Pulumi's stack configs.
		"*.tfstate", "*.tfstate.backup", "*.tfvars", "*.tfvars.json", "pulumi.*.yaml",
		// Keys by other formats: PuTTY, Kerberos, Java, GnuPG's secret ring,
		// Firebase's service accounts; kubeconfigs; WordPress's database login.
		"*.ppk", "*.keytab", "*.jceks", "secring.*", "*adminsdk*.json", "kubeconfig*", "*.kubeconfig",
		"wp-config.php",
	}
}}

// notSecretNames end a name pattern's match: templates meant to be
// committed, public keys, and source code about credentials.
func notSecretName(lower string) bool {
	switch strings.TrimPrefix(lower, ".env.") {
	case "example", "sample", "template", "dist", "defaults", "schema", "test.example", "local.example":
		return strings.HasPrefix(lower, ".env.")
	}
	if lower == "passwd" || lower == "passwd-" {
		return true // the user database: names and shells, the hashes are in shadow
	}
	if strings.HasSuffix(lower, ".example") || strings.HasSuffix(lower, ".sample") ||
		strings.HasSuffix(lower, ".template") || strings.HasSuffix(lower, ".pub") {
		return true
	}
	// A template's mark may stand anywhere among the name's parts:
	// secrets.example.yml, credentials.sample.json, example.env.
	for part := range strings.FieldsFuncSeq(lower, func(r rune) bool { return r == '.' || r == '-' || r == '_' }) {
		switch part {
		case "example", "examples", "sample", "template", "tmpl", "tpl", "dist", "placeholder":
			return true
		}
	}
	if strings.Contains(lower, "credential") {
		switch path.Ext(lower) {
		case ".go", ".py", ".js", ".ts", ".tsx", ".jsx", ".rs", ".java", ".kt", ".rb", ".php", ".c", ".h",
			".cc", ".cpp", ".cs", ".swift", ".md", ".rst", ".html", ".css", ".sh", ".scala", ".ex", ".exs":
			return true
		}
	}
	return false
}

// Name reports whether a file's base name says it holds secrets wherever
// it is: .env, .env.production, prod.env, server.key, cert.pem, id_rsa,
// aws-credentials.json, .netrc. Templates (.env.example) and public keys
// (id_rsa.pub) do not.
func Name(base string) bool {
	lower := strings.ToLower(base)
	if notSecretName(lower) {
		return false
	}
	return namePattern(lower) || secretWords(base, lower)
}

// WordsOnly reports a name that [Name] says is secret only because of its
// words (password, token), not by a pattern (.env, id_rsa): as a bare word
// it may well be no file at all (pytest -k password, git switch token),
// which a caller that knows whether the file exists can tell.
func WordsOnly(base string) bool {
	lower := strings.ToLower(base)
	return secretWords(base, lower) && !notSecretName(lower) && !namePattern(lower)
}

// namePattern reports a lower-case name that one of namePatterns matches.
func namePattern(lower string) bool {
	m := nameMatcher.Get()
	if m.exact[lower] {
		return true
	}
	for _, p := range m.prefixes {
		if strings.HasPrefix(lower, p) {
			return true
		}
	}
	for _, s := range m.suffixes {
		if strings.HasSuffix(lower, s) {
			return true
		}
	}
	for _, c := range m.contains {
		if strings.Contains(lower, c) {
			return true
		}
	}
	for _, pat := range m.others {
		if starMatch(pat, lower) {
			return true
		}
	}
	return false
}

// secretWords reports a name whose words say it holds a password, a token
// or a secret (initialAdminPassword, initial_root_password, client_secret.json,
// .vault_pass, github-token), unless it is code, a document or an image,
// which only talk about them (reset_password.go, token.svg). The words are
// split as [Var] splits a variable's name; a plural such as tokens (design
// tokens) or keys says nothing, nor does a word that merely ends in one
// (jsonwebtoken, a package).
func secretWords(base, lower string) bool {
	// Most names hold none of the words: tell them without splitting.
	if !strings.Contains(lower, "pass") && !strings.Contains(lower, "secret") && !strings.Contains(lower, "token") &&
		!strings.Contains(lower, "key") {
		return false
	}
	name, ext := strings.TrimPrefix(base, "."), ""
	if i := strings.IndexByte(name, '.'); i > 0 {
		name, ext = name[:i], strings.ToLower(name[i:])
	}
	ws := words(name)
	if len(ws) == 0 || !secretFileWords(ws) {
		return false
	}
	for e := range strings.SplitSeq(strings.TrimPrefix(ext, "."), ".") {
		if talkExts.Get()[e] {
			return false
		}
	}
	return true
}

// secretFileWords reports words of a file name that mark a secret.
func secretFileWords(ws []string) bool {
	for i, w := range ws {
		switch w {
		case "PASS", "SECRET", "SECRETS", "TOKEN", "APIKEY", "ACCESSKEY", "PRIVATEKEY", "AUTHTOKEN", "KEYTAB",
			"HTPASSWD", "ACCESSTOKEN", "APITOKEN", "REFRESHTOKEN", "IDTOKEN", "BEARERTOKEN", "CLIENTSECRET",
			"APPSECRET", "JWTSECRET":
			return true
		case "KEY", "KEYS":
			if i > 0 {
				switch ws[i-1] {
				case "API", "ACCESS", "PRIVATE", "SECRET", "SIGNING", "MASTER", "AUTH", "ENCRYPTION":
					return true
				}
			}
		}
		for _, s := range []string{"PASSWORD", "PASSWD", "PASSPHRASE"} {
			if strings.Contains(w, s) {
				return true
			}
		}
	}
	return false
}

// talkExts are extensions of files that talk about secrets rather than
// hold them: source code, documents, styles, images, tests' snapshots.
var talkExts = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	m := map[string]bool{}
	for _, e := range strings.Fields("go py js mjs cjs ts tsx jsx rs java kt kts rb php c h cc cpp hpp cs swift " +
		"scala ex exs erl hs ml clj lua pl r dart zig nim vue svelte sql proto graphql gql tf hcl sh bash zsh " +
		"fish ps1 md rst adoc txt-template html htm css scss sass less svg png jpg jpeg gif webp ico pdf snap " +
		"test spec d mdx ipynb") {
		m[e] = true
	}
	return m
}}

// starMatch matches s against a pattern whose only special character is
// *, which matches any text.
func starMatch(pattern, s string) bool {
	// Without strings.Split: Name runs for every path a command names.
	first, rest, more := strings.Cut(pattern, "*")
	if !strings.HasPrefix(s, first) {
		return false
	}
	if !more {
		return s == first
	}
	s = s[len(first):]
	for {
		part, after, more := strings.Cut(rest, "*")
		if !more {
			return strings.HasSuffix(s, part)
		}
		j := strings.Index(s, part)
		if j < 0 {
			return false
		}
		s, rest = s[j+len(part):], after
	}
}

// matcher is namePatterns sorted by shape, so that Name, which the
// classifier asks for every path a command names, needs no path.Match for
// most of them.
type matcher struct {
	exact                        map[string]bool
	prefixes, suffixes, contains []string
	others                       []string
}

var nameMatcher = lazy.Value[matcher]{Build: func() matcher {
	m := matcher{exact: map[string]bool{}}
	for _, p := range namePatterns.Get() {
		star := strings.Count(p, "*")
		body := strings.Trim(p, "*")
		switch {
		case !strings.ContainsAny(p, "*?["):
			m.exact[p] = true
		case strings.ContainsAny(p, "?["):
			panic("secret: name patterns use only *: " + p)
		case strings.Contains(body, "*"):
			m.others = append(m.others, p)
		case star == 2 && strings.HasPrefix(p, "*") && strings.HasSuffix(p, "*"):
			m.contains = append(m.contains, body)
		case star == 1 && strings.HasSuffix(p, "*"):
			m.prefixes = append(m.prefixes, body)
		case star == 1 && strings.HasPrefix(p, "*"):
			m.suffixes = append(m.suffixes, body)
		default:
			m.others = append(m.others, p)
		}
	}
	return m
}}

// NameExamples are names that [Name] reports, one or more per pattern,
// for matching a glob such as `.[e]nv` or `*.pem` against what it could
// name without reading a directory.
func NameExamples() []string {
	return nameExamples.Get()
}

var nameExamples = lazy.Value[[]string]{Build: func() []string {
	return []string{
		".env", ".env.local", ".env.production", "prod.env", ".envrc", ".flaskenv", "server.pem", "server.key",
		"cert.p12", "cert.pfx", "release.jks", "release.keystore", "vault.kdbx", "client.ovpn",
		"credentials", "credentials.json", "aws-credentials", "secrets.json", "secrets.yaml", "secrets.yml",
		"secrets.toml", "secret.yaml", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", ".netrc", "_netrc",
		".pgpass", ".git-credentials", ".npmrc", ".pypirc", ".my.cnf", ".vault-token", "master.key",
		".htpasswd", "service-account.json", ".bash_history", ".zsh_history",
	}
}}
