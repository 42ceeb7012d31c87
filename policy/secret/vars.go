package secret

import (
	"strings"
	"unicode"

	"github.com/qsh-shell/qsh/internal/lazy"
)

// Var reports whether an environment variable's name says its value is a
// secret: DB_PASS, MYSQL_PWD, GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY, apiKey,
// SENTRY_DSN, DATABASE_URL. The name is split into words (at `_`, `-`, `.`
// and lower-to-upper case changes) so that GIT_AUTHOR_NAME or PATH, which
// merely contain AUTH or PAT, stay readable.
func Var(name string) bool {
	up := strings.ToUpper(name)
	if notSecretVars.Get()[up] {
		return false
	}
	if up == "DATABASE_URL" || strings.HasSuffix(up, "_DATABASE_URL") || strings.Contains(up, "CONN_STR") ||
		strings.Contains(up, "CONNECTION_STRING") {
		return true // URLs and strings that carry a password
	}
	for _, w := range words(name) {
		if secretWord(w) {
			return true
		}
	}
	return false
}

// secretWord reports whether one upper-case word of a name marks a secret.
func secretWord(w string) bool {
	switch w {
	case "KEY", "PASS", "PWD", "PAT", "AUTH", "DSN", "COOKIE", "PRIVATE", "CREDS", "SECRETS":
		return true
	}
	for _, s := range []string{"PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL"} {
		if strings.Contains(w, s) {
			return true
		}
	}
	// GITHUBTOKEN, APIKEY, CLIENTSECRET: a word that ends in one; MAX_TOKENS
	// and TOKENIZERS are counts and settings.
	for _, s := range []string{"TOKEN", "SECRET", "APIKEY", "ACCESSKEY", "PRIVATEKEY", "AUTHKEY"} {
		if strings.HasSuffix(w, s) {
			return true
		}
	}
	return false
}

// notSecretVars are names whose words look secret but whose values are not.
var notSecretVars = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{
		"PWD": true, "OLDPWD": true, "SSH_AUTH_SOCK": true, "SSH_AGENT_PID": true, "GPG_AGENT_INFO": true,
		"KEYMAP": true, "XDG_SESSION_TYPE": true, "XDG_SESSION_ID": true, "XDG_SESSION_CLASS": true,
		"XDG_SESSION_DESKTOP": true, "DBUS_SESSION_BUS_ADDRESS": true, "SESSION_MANAGER": true,
		"DESKTOP_SESSION": true, "PASSWORD_STORE_DIR": true, "GIT_ASKPASS": true, "SSH_ASKPASS": true,
		"SUDO_ASKPASS": true, "SSH_ASKPASS_REQUIRE": true,
	}
}}

// words splits a variable name into upper-case words.
func words(name string) []string {
	var out []string
	start := 0
	rs := []rune(name)
	for i := 0; i <= len(rs); i++ {
		boundary := i == len(rs) || rs[i] == '_' || rs[i] == '-' || rs[i] == '.'
		camel := i > start && i < len(rs) && unicode.IsUpper(rs[i]) && unicode.IsLower(rs[i-1])
		if boundary || camel {
			if i > start {
				out = append(out, strings.ToUpper(string(rs[start:i])))
			}
			start = i
			if boundary {
				start = i + 1
			}
		}
	}
	return out
}
