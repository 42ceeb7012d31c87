package tools

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// redacted replaces a secret value wherever one is removed.
const redacted = "[REDACTED]"

// secretPatterns match values that are secrets whatever their context: API
// keys with well-known prefixes, private keys, bearer tokens, and
// NAME=value assignments whose name says it holds a secret.
var secretPatterns = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`-----BEGIN [A-Z ]*PRIVATE KEY( BLOCK)?-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY( BLOCK)?-----|$)`),
		regexp.MustCompile(`\b(sk|pk|rk)-(ant-|proj-|live-|test-)?[A-Za-z0-9_\-]{16,}`),
		regexp.MustCompile(`\bgh[pousr]_[A-Za-z0-9]{20,}`),
		regexp.MustCompile(`\bgithub_pat_[A-Za-z0-9_]{20,}`),
		regexp.MustCompile(`\bglpat-[A-Za-z0-9_\-]{16,}`),
		regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9\-]{10,}`),
		regexp.MustCompile(`\b(AKIA|ASIA)[A-Z0-9]{16}\b`),
		regexp.MustCompile(`\bAIza[0-9A-Za-z_\-]{30,}`),
		regexp.MustCompile(`\bhf_[A-Za-z0-9]{30,}`),
		regexp.MustCompile(`(?i)\b(bearer|token)\s+[A-Za-z0-9._~+/\-]{16,}=*`),
		regexp.MustCompile(`\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`),
	}
})

// secretAssign matches NAME=value where NAME says it is a secret; the name
// is kept so the reader still knows what was there.
var secretAssign = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b([A-Z0-9_]*(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)[A-Z0-9_]*|(?i:api[_-]?key|access[_-]?token|auth[_-]?token|secret[_-]?key|client[_-]?secret|password|passwd))(\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s"';&|,}]+)`)
})

// secretURL matches the password in scheme://user:password@host.
var secretURL = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(://[^/\s:@]+:)[^/\s@]+@`) })

// Redact removes secret values from s.
func Redact(s string) string {
	for _, re := range secretPatterns() {
		s = re.ReplaceAllString(s, redacted)
	}
	s = secretAssign().ReplaceAllString(s, "${1}${3}"+redacted)
	s = secretURL().ReplaceAllString(s, "${1}"+redacted+"@")
	return s
}

// secretName reports whether a JSON key names a secret value.
func secretName(k string) bool {
	k = strings.ToLower(k)
	for _, w := range []string{"key", "token", "secret", "password", "passwd", "credential", "auth"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

// redactJSON returns args with secret values removed and long strings cut,
// for the audit log. Invalid JSON is logged as a redacted string.
func redactJSON(args json.RawMessage, maxString int) json.RawMessage {
	var v any
	if err := json.Unmarshal(args, &v); err != nil {
		b, _ := json.Marshal(clip(Redact(string(args)), maxString))
		return b
	}
	v = redactValue(v, "", maxString)
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage(`null`)
	}
	return b
}

func redactValue(v any, key string, maxString int) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			v[k] = redactValue(x, k, maxString)
		}
		return v
	case []any:
		for i, x := range v {
			v[i] = redactValue(x, key, maxString)
		}
		return v
	case string:
		if key != "" && secretName(key) {
			return redacted
		}
		return clip(Redact(v), maxString)
	}
	return v
}

// clip cuts s to at most n bytes on a rune boundary, saying how much went.
func clip(s string, n int) string {
	if n <= 0 || len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return s[:cut] + "…[" + strconv.Itoa(len(s)-cut) + " bytes cut]"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
