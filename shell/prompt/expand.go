package prompt

import (
	"path"
	"strconv"
	"strings"

	"github.com/qsh-shell/qsh/internal/strftime"
)

// Hidden text, between \[ and \], comes out of [Decode] between these
// two bytes, as bash's own readline marks it; [Visible] takes them out.
const (
	hideStart = '\x01'
	hideEnd   = '\x02'
)

// Decode is the first half of bash's prompt expansion with promptvars
// set. bash's common backslash escapes are replaced:
//
//	\u user        \h host to the first dot   \H full host
//	\w cwd with ~  \W its last element       \$ # for root, else $
//	\n newline     \r carriage return        \a bell      \e escape
//	\t 24h HH:MM:SS  \T 12h HH:MM:SS  \@ 12h HH:MM AM/PM  \A 24h HH:MM
//	\d "Tue May 26"  \j jobs  \s shell name  \v \V version
//	\nnn octal byte  \\ backslash  \[ \] bracket non-printing text
//
// (unknown escapes are kept as they are, as bash does), and what they
// produce is quoted with backslashes (before $, ` and \) so that the
// shell's expansion, the second half, takes it literally (a directory
// named '$(rm)', say); the rest of ps is left for that expansion. \[ and
// \] become the bytes [Visible] reads, or nothing with NoLineEditing.
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
			if !d.NoLineEditing {
				b.WriteByte(hideStart)
			}
		case ']':
			if !d.NoLineEditing {
				b.WriteByte(hideEnd)
			}
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
// are kept: readline v0.1.3 strips those when it measures the prompt and
// counts every other rune, so anything else there (an xterm title, say)
// would throw the cursor off.
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

// Titles is the OSC sequences (ESC ] … BEL or ESC \) between the markers
// of \[ and \] in a decoded and expanded prompt: a terminal title, most
// often, which [Visible] leaves out and the shell prints before the prompt,
// where it moves no cursor.
func Titles(s string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, hideStart)
		if i < 0 {
			return b.String()
		}
		s = s[i+1:]
		hidden := s
		if j := strings.IndexByte(s, hideEnd); j >= 0 {
			hidden, s = s[:j], s[j+1:]
		} else {
			s = ""
		}
		for {
			k := strings.Index(hidden, "\x1b]")
			if k < 0 {
				break
			}
			hidden = hidden[k:]
			end, n := strings.IndexByte(hidden, '\a'), 1
			if st := strings.Index(hidden, "\x1b\\"); st >= 0 && (end < 0 || st < end) {
				end, n = st, 2
			}
			if end < 0 {
				break
			}
			b.WriteString(hidden[:end+n])
			hidden = hidden[end+n:]
		}
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
		return trimDir(TildeDir(d.Dir, d.Home), d.DirTrim), 1
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
	case 'D':
		// \D{format}: the time as strftime formats it; an empty format
		// is the locale's time.
		if len(s) > 1 && s[1] == '{' {
			if end := strings.IndexByte(s, '}'); end > 0 {
				format := s[2:end]
				if format == "" {
					format = "%X"
				}
				return strftime.Format(format, d.Now), end + 1
			}
		}
		return "\\D", 1
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

// trimDir keeps the last n directories of dir (~ stays), as bash's \w
// does with PROMPT_DIRTRIM: /usr/share/doc/x with 2 is .../doc/x.
func trimDir(dir string, n int) string {
	prefix, rest := "", dir
	if strings.HasPrefix(dir, "~/") {
		prefix, rest = "~/", dir[2:]
	}
	if n <= 0 || strings.Count(rest, "/") <= n {
		return dir
	}
	i := len(rest)
	for range n {
		i = strings.LastIndexByte(rest[:i], '/')
	}
	return prefix + "..." + rest[i:]
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
