package secret

import (
	"strings"

	"github.com/qsh-shell/qsh/internal/lazy"
)

// Redacted replaces a secret value wherever one is removed.
const Redacted = "[REDACTED]"

// tokenPatterns match values that are secrets whatever their context: API
// keys with well-known prefixes, private keys, bearer tokens, JWTs.
var tokenPatterns = [...]lazy.Regexp{
	{Expr: `-----BEGIN [A-Z ]*PRIVATE KEY( BLOCK)?-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY( BLOCK)?-----|$)`},
	{Expr: `\b(sk|pk|rk)-(ant-|proj-|live-|test-)?[A-Za-z0-9_\-]{16,}`},
	{Expr: `\b(sk|rk|pk)_(live|test)_[A-Za-z0-9]{16,}`},
	{Expr: `\bgh[pousr]_[A-Za-z0-9]{20,}`},
	{Expr: `\bgithub_pat_[A-Za-z0-9_]{20,}`},
	{Expr: `\bglpat-[A-Za-z0-9_\-]{16,}`},
	{Expr: `\bxox[abposr]-[A-Za-z0-9\-]{10,}`},
	{Expr: `\b(AKIA|ASIA)[A-Z0-9]{16}\b`},
	{Expr: `\bAIza[0-9A-Za-z_\-]{30,}`},
	{Expr: `\bya29\.[0-9A-Za-z_\-]{20,}`},
	{Expr: `\bhf_[A-Za-z0-9]{30,}`},
	{Expr: `\bnpm_[A-Za-z0-9]{30,}`},
	{Expr: `\bpypi-[A-Za-z0-9_\-]{40,}`},
	{Expr: `\bdop_v1_[a-f0-9]{40,}`},
	{Expr: `\bhvs\.[A-Za-z0-9_\-]{20,}`},
	{Expr: `https://hooks\.slack\.com/services/[A-Za-z0-9/]+`},
	{Expr: `(?i)\b(bearer|token)\s+[A-Za-z0-9._~+/\-]{16,}=*`},
	{Expr: `\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`},
}

// assignment matches NAME=value and NAME: value; Var decides whether the
// name says the value is secret.
var assignment = lazy.Regexp{Expr: `\b([A-Za-z_][A-Za-z0-9_.\-]*)(\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s"';&|,}]+)`}

// credentialURL matches the password in scheme://user:password@host.
var credentialURL = lazy.Regexp{Expr: `(://[^/\s:@]+:)[^/\s@]+@`}

// Redact returns s with every value that looks like a secret replaced by
// [Redacted]: tokens of known shapes, private keys, the values of
// NAME=value where the name is a secret one (as [Var] says), passwords in
// URLs.
func Redact(s string) string {
	if s == "" {
		return s
	}
	for i := range tokenPatterns {
		s = tokenPatterns[i].Get().ReplaceAllString(s, Redacted)
	}
	re := assignment.Get()
	s = re.ReplaceAllStringFunc(s, func(m string) string {
		sub := re.FindStringSubmatch(m)
		if !assignedSecret(sub[1], strings.TrimSpace(sub[2]) == ":") || sub[3] == Redacted {
			return m
		}
		return sub[1] + sub[2] + Redacted
	})
	return credentialURL.Get().ReplaceAllString(s, "${1}"+Redacted+"@")
}

// assignedSecret reports whether the name of NAME=value or NAME: value in
// free text says the value is secret. Upper-case names with = are
// environment variables; a lone generic word is not enough in lower-case
// prose (`key: not found`), nor before a colon in any case: `--- PASS:
// TestX` is a test report and `credentials: permission denied` an error.
func assignedSecret(name string, colon bool) bool {
	if !Var(name) {
		return false
	}
	if strings.ToUpper(name) == name && !colon {
		return true
	}
	ws := words(name)
	if len(ws) > 1 {
		return true
	}
	switch ws[0] {
	case "KEY", "AUTH", "PAT", "PRIVATE", "COOKIE", "DSN", "PWD", "PASS", "CREDS", "SECRETS":
		return false
	}
	return !colon || !strings.Contains(ws[0], "CREDENTIAL")
}
