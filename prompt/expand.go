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
		e := ps1[i]
		switch e {
		case 'u':
			out.WriteString(d.User)
		case 'h':
			out.WriteString(shortHost(d.Host))
		case 'H':
			out.WriteString(d.Host)
		case 'w':
			out.WriteString(TildeDir(d.Dir, d.Home))
		case 'W':
			out.WriteString(baseDir(d.Dir, d.Home))
		case '$':
			if d.Root {
				out.WriteByte('#')
			} else {
				out.WriteByte('$')
			}
		case 'n':
			out.WriteByte('\n')
		case 'r':
			out.WriteByte('\r')
		case 'a':
			out.WriteByte('\a')
		case 'e':
			out.WriteByte('\033')
		case '\\':
			out.WriteByte('\\')
		case 't':
			out.WriteString(d.Now.Format("15:04:05"))
		case 'T':
			out.WriteString(d.Now.Format("03:04:05"))
		case '@':
			out.WriteString(d.Now.Format("03:04 PM"))
		case 'A':
			out.WriteString(d.Now.Format("15:04"))
		case 'd':
			out.WriteString(d.Now.Format("Mon Jan 02"))
		case 'j':
			out.WriteString(strconv.Itoa(d.Jobs))
		case 's':
			if d.Shell == "" {
				out.WriteString("qsh")
			} else {
				out.WriteString(d.Shell)
			}
		case 'v':
			out.WriteString(majorMinor(d.Version))
		case 'V':
			out.WriteString(d.Version)
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
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(ps1) && j < i+3 && ps1[j] >= '0' && ps1[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(ps1[i:j], 8, 16)
			out.WriteByte(byte(n))
			i = j - 1
		default:
			out.WriteByte('\\')
			out.WriteByte(e)
		}
	}
	if inHidden { // an unclosed \[ hides the rest, as in bash
		b.WriteString(sgrOnly(hidden.String()))
	}
	return b.String()
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
