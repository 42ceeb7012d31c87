package prompt

import (
	"path"
	"strconv"
	"strings"
)

// Expand renders a PS1-style template with bash's common escapes:
//
//	\u user        \h host to the first dot   \H full host
//	\w cwd with ~  \W its last element       \$ # for root, else $
//	\n newline     \r carriage return        \a bell      \e escape
//	\t 24h HH:MM:SS  \T 12h HH:MM:SS  \@ 12h HH:MM AM/PM  \A 24h HH:MM
//	\d "Tue May 26"  \j jobs  \s shell name  \v \V version
//	\nnn octal byte  \\ backslash  \[ \] bracket non-printing text
//
// and $NAME, ${NAME} and the special parameters ($?, $$, $1 …) through
// expandVar, which may be nil. Expansion happens in one pass, so the text an
// escape produces (a directory named '$(rm)', say) is never expanded again.
// Unknown escapes are kept as they are, as bash does.
//
// Between \[ and \] only SGR colour sequences (ESC [ … m) are kept: readline
// v0.1.3 strips those when it measures the prompt and counts every other
// rune, so anything else there (an xterm title sequence, typically) would
// throw the cursor off; it is dropped.
func Expand(ps1 string, d Data, expandVar func(string) string) string {
	var b strings.Builder
	var hidden strings.Builder // text between \[ and \]
	inHidden := false
	out := &b
	for i := 0; i < len(ps1); i++ {
		c := ps1[i]
		switch {
		case c == '$':
			val, n := expandDollar(ps1[i:], expandVar)
			out.WriteString(val)
			i += n - 1
			continue
		case c != '\\' || i+1 == len(ps1):
			out.WriteByte(c)
			continue
		}
		i++
		switch e := ps1[i]; e {
		case '[':
			if !inHidden {
				inHidden = true
				hidden.Reset()
				out = &hidden
			}
		case ']':
			if inHidden {
				inHidden = false
				out = &b
				b.WriteString(sgrOnly(hidden.String()))
			}
		default:
			val, n := escape(ps1[i:], d)
			out.WriteString(val)
			i += n - 1
		}
	}
	if inHidden { // an unclosed \[ hides the rest, as in bash
		b.WriteString(sgrOnly(hidden.String()))
	}
	return b.String()
}

// Hidden text, between \[ and \], comes out of [Decode] between these
// two bytes, as bash's own readline marks it; [Visible] takes them out.
const (
	hideStart = '\x01'
	hideEnd   = '\x02'
)

// Decode is the first half of bash's prompt expansion with promptvars
// set: the backslash escapes of [Expand] are replaced, and what they
// produce is quoted with backslashes (before $, ` and \) so that the
// shell's expansion, the second half, takes it literally (a directory
// named '$(rm)', say); the rest of ps is left for that expansion. \[ and
// \] become the bytes [Visible] reads.
func Decode(ps string, d Data) string {
	var b strings.Builder
	for i := 0; i < len(ps); i++ {
		c := ps[i]
		if c != '\\' || i+1 == len(ps) {
			b.WriteByte(c)
			continue
		}
		i++
		switch ps[i] {
		case '[':
			b.WriteByte(hideStart)
		case ']':
			b.WriteByte(hideEnd)
		default:
			val, n := escape(ps[i:], d)
			quoteInto(&b, val)
			i += n - 1
		}
	}
	return b.String()
}

// Unquote takes out the quoting [Decode] adds, for a prompt shown
// without the shell's expansions.
func Unquote(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\\", s[i+1]) >= 0 {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func quoteInto(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '$' || c == '`' || c == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
}

// Visible is a decoded and expanded prompt as the line editor draws it:
// of the text between the markers of \[ and \] only SGR colour sequences
// are kept (see [Expand]).
func Visible(s string) string {
	if !strings.ContainsAny(s, string(hideStart)+string(hideEnd)) {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, hideStart)
		if i < 0 {
			b.WriteString(strings.ReplaceAll(s, string(hideEnd), ""))
			return b.String()
		}
		b.WriteString(strings.ReplaceAll(s[:i], string(hideEnd), ""))
		s = s[i+1:]
		j := strings.IndexByte(s, hideEnd)
		if j < 0 { // an unclosed \[ hides the rest, as in bash
			b.WriteString(sgrOnly(s))
			return b.String()
		}
		b.WriteString(sgrOnly(s[:j]))
		s = s[j+1:]
	}
}

// escape is what the backslash escape at the start of s (the byte after
// the backslash) produces, and how many bytes of s it takes. Unknown
// escapes are kept as they are, as bash does.
func escape(s string, d Data) (string, int) {
	switch e := s[0]; e {
	case 'u':
		return d.User, 1
	case 'h':
		return shortHost(d.Host), 1
	case 'H':
		return d.Host, 1
	case 'w':
		return TildeDir(d.Dir, d.Home), 1
	case 'W':
		return baseDir(d.Dir, d.Home), 1
	case '$':
		if d.Root {
			return "#", 1
		}
		return "$", 1
	case 'n':
		return "\n", 1
	case 'r':
		return "\r", 1
	case 'a':
		return "\a", 1
	case 'e':
		return "\033", 1
	case '\\':
		return "\\", 1
	case 't':
		return d.Now.Format("15:04:05"), 1
	case 'T':
		return d.Now.Format("03:04:05"), 1
	case '@':
		return d.Now.Format("03:04 PM"), 1
	case 'A':
		return d.Now.Format("15:04"), 1
	case 'd':
		return d.Now.Format("Mon Jan 02"), 1
	case 'j':
		return strconv.Itoa(d.Jobs), 1
	case 's':
		if d.Shell == "" {
			return "qsh", 1
		}
		return d.Shell, 1
	case 'v':
		return majorMinor(d.Version), 1
	case 'V':
		return d.Version, 1
	case '0', '1', '2', '3', '4', '5', '6', '7':
		j := 0
		for j < len(s) && j < 3 && s[j] >= '0' && s[j] <= '7' {
			j++
		}
		n, _ := strconv.ParseUint(s[:j], 8, 16)
		return string([]byte{byte(n)}), j
	default:
		return "\\" + string(e), 1
	}
}

// expandDollar expands the parameter at the start of s (which begins with
// '$') and reports how many bytes it consumed. A '$' that starts no
// parameter is literal.
func expandDollar(s string, expandVar func(string) string) (string, int) {
	lookup := func(name string) string {
		if expandVar == nil {
			return ""
		}
		return expandVar(name)
	}
	if len(s) < 2 {
		return "$", 1
	}
	c := s[1]
	switch {
	case c == '{':
		end := strings.IndexByte(s, '}')
		if end < 0 || !validParam(s[2:end]) {
			return "$", 1
		}
		return lookup(s[2:end]), end + 1
	case isNameStart(c):
		j := 2
		for j < len(s) && isNameByte(s[j]) {
			j++
		}
		return lookup(s[1:j]), j
	case strings.IndexByte("?$!#@*-0123456789", c) >= 0:
		return lookup(s[1:2]), 2
	}
	return "$", 1
}

func validParam(s string) bool {
	if len(s) == 1 && strings.IndexByte("?$!#@*-", s[0]) >= 0 {
		return true
	}
	if s == "" {
		return false
	}
	if s[0] >= '0' && s[0] <= '9' {
		for i := 0; i < len(s); i++ {
			if s[i] < '0' || s[i] > '9' {
				return false
			}
		}
		return true
	}
	if !isNameStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isNameByte(s[i]) {
			return false
		}
	}
	return true
}

func isNameStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isNameByte(c byte) bool { return isNameStart(c) || (c >= '0' && c <= '9') }

// sgrOnly keeps the SGR sequences of s and drops everything else.
func sgrOnly(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\033' || i+1 >= len(s) || s[i+1] != '[' {
			continue
		}
		j := i + 2
		for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';' || s[j] == ':') {
			j++
		}
		if j < len(s) && s[j] == 'm' {
			b.WriteString(s[i : j+1])
			i = j
		}
	}
	return b.String()
}

func baseDir(dir, home string) string {
	switch t := TildeDir(dir, home); {
	case t == "~", t == "/", t == "":
		return t
	default:
		return path.Base(t)
	}
}

func majorMinor(v string) string {
	v = strings.TrimPrefix(v, "v")
	if i := strings.IndexByte(v, '.'); i >= 0 {
		if j := strings.IndexByte(v[i+1:], '.'); j >= 0 {
			return v[:i+1+j]
		}
	}
	return v
}
