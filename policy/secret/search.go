package secret

import "strings"

// SearchPattern reports whether a search pattern (grep's, rg's, a regular
// expression or a fixed string) looks for secrets: the words that name
// them (password, api_key, token, secret, private key …) or the prefixes
// of well-known tokens (AKIA, ghp_, sk_live_). A search that prints what
// such a pattern matches prints the secrets themselves.
func SearchPattern(p string) bool {
	l := strings.ToLower(p)
	for _, k := range TokenPrefixes {
		if len(k) > 3 && strings.Contains(l, k) {
			return true
		}
	}
	// api[_-]?key, API_KEY, "PRIVATE KEY": the words without the regular
	// expression's punctuation between them.
	var b strings.Builder
	for _, r := range l {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	s := b.String()
	for _, k := range []string{"password", "passwd", "passphrase", "secret", "token", "apikey", "privatekey",
		"accesskey", "credential", "bearer", "authorization"} {
		if strings.Contains(s, k) {
			return true
		}
	}
	return false
}

// TokenPrefixes begin the values of well-known credentials, in lower case:
// Stripe, AWS access keys, GitHub, GitLab, Slack, Google, npm, PyPI, Hugging
// Face, OpenAI and Anthropic keys.
var TokenPrefixes = []string{"sk_live_", "sk_test_", "rk_live_", "pk_live_", "akia", "asia", "ghp_", "gho_",
	"ghs_", "ghu_", "github_pat_", "glpat-", "xoxb-", "xoxp-", "xoxa-", "aiza", "npm_", "pypi-", "hf_",
	"sk-ant-", "sk-proj-", "sk-"}
