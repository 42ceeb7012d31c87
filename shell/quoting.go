package shell

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"

	"github.com/qsh-shell/qsh/shell/marks"
)

// How bash shows values again as shell input: `set` and `alias` quote a
// value only when it needs it, in single quotes, or as $'…' when it holds
// characters that do not print; array elements are in double quotes.

// shellMetas are the characters that make bash quote a value.
const shellMetas = " \t\n'\"\\|&;()<>!{}*[?]^$`"

// valueQuote quotes s as bash's `set` shows a value: as is when nothing in
// it is special, else in single quotes, or $'…' for what does not print.
func valueQuote(s string) string {
	if s == "" {
		return s
	}
	if needsANSI(s) {
		return ansiQuote(s)
	}
	if !strings.ContainsAny(s, shellMetas) && s[0] != '~' && s[0] != '#' && !strings.Contains(s, "=~") && !strings.Contains(s, ":~") {
		return s
	}
	return singleQuoteAlways(s)
}

// singleQuoteAlways is s in single quotes, a quote in it as '\”.
func singleQuoteAlways(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// doubleQuote is s in double quotes, as declare -p and `set` show array
// elements.
func doubleQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\', '$', '`':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// arrayValue is an array variable's value as bash shows it: ([0]="a" …).
func arrayValue(vr expand.Variable) string {
	var b strings.Builder
	b.WriteByte('(')
	switch vr.Kind {
	case expand.Indexed:
		for i, v := range vr.List {
			idx := i
			if vr.Indexes != nil {
				idx = vr.Indexes[i]
			}
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString("[" + strconv.Itoa(idx) + "]=" + doubleQuote(v))
		}
	case expand.Associative:
		for _, k := range slices.Sorted(maps.Keys(vr.Map)) {
			key := k
			if strings.ContainsAny(k, shellMetas) || k == "" {
				key = doubleQuote(k)
			}
			b.WriteString("[" + key + "]=" + doubleQuote(vr.Map[k]) + " ")
		}
	}
	b.WriteByte(')')
	return b.String()
}

// listVars is `set` with no arguments: every variable of the shell, sorted,
// as input that sets it again (qsh's own are left out).
func (s *Shell) listVars(hc interp.HandlerContext, b builtinIO) int {
	vars := map[string]expand.Variable{}
	for name, vr := range hc.Env.Each {
		// interp leaves an array made element by element unset.
		set := vr.IsSet() || len(vr.List) > 0 || len(vr.Map) > 0
		if set && !strings.HasPrefix(name, marks.Prefix) {
			vars[name] = vr
		}
	}
	var sb strings.Builder
	for _, name := range slices.Sorted(maps.Keys(vars)) {
		vr := vars[name]
		sb.WriteString(name + "=")
		switch vr.Kind {
		case expand.Indexed, expand.Associative:
			sb.WriteString(arrayValue(vr))
		default:
			sb.WriteString(valueQuote(vr.String()))
		}
		sb.WriteByte('\n')
	}
	b.out.Write([]byte(sb.String()))
	return 0
}
