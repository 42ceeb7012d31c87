package tools

import (
	"encoding/json"
	"strconv"

	"github.com/qsh-shell/qsh/policy/secret"
)

// redactJSON returns args with secret values removed (as package secret
// says: by a key that names a secret, or by their shape) and long strings cut,
// for the audit log. Invalid JSON is logged as a redacted string.
func redactJSON(args json.RawMessage, maxString int) json.RawMessage {
	var v any
	if err := json.Unmarshal(args, &v); err != nil {
		b, _ := json.Marshal(clip(secret.Redact(string(args)), maxString))
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
		if key != "" && secret.Var(key) {
			return secret.Redacted
		}
		return clip(secret.Redact(v), maxString)
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
