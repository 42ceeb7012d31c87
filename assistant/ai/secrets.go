package ai

import (
	"sort"
	"strings"

	"github.com/qsh-shell/qsh/policy/secret"
)

// Redactor replaces secrets by placeholders in text sent to the model.
type Redactor struct {
	values []secretValue
}

type secretValue struct{ name, value string }

// NewRedactor learns the secret values in environ (NAME=value entries),
// plus extra values named by the map's keys.
func NewRedactor(environ []string, extra map[string]string) *Redactor {
	r := &Redactor{}
	seen := map[string]bool{}
	add := func(name, value string) {
		// Short values would match everywhere and hide little.
		if len(value) < 6 || seen[value] {
			return
		}
		seen[value] = true
		r.values = append(r.values, secretValue{name, value})
	}
	for name, value := range extra {
		add(name, value)
	}
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		if ok && secret.Var(name) {
			add(name, value)
		}
	}
	// Longest first, so a value containing another is replaced whole.
	sort.Slice(r.values, func(i, j int) bool { return len(r.values[i].value) > len(r.values[j].value) })
	return r
}

// Redact returns s with every known secret replaced by a placeholder.
func (r *Redactor) Redact(s string) string {
	if s == "" {
		return s
	}
	if r != nil {
		for _, v := range r.values {
			if strings.Contains(s, v.value) {
				s = strings.ReplaceAll(s, v.value, "[REDACTED:"+v.name+"]")
			}
		}
	}
	// Then what looks like a credential wherever it came from.
	return secret.Redact(s)
}
