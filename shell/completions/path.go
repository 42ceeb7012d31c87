package completions

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// fileKind filters the entries path completion offers.
type fileKind int

const (
	anyFile    fileKind = iota
	dirsOnly            // cd's argument
	executable          // a command given by path: directories and executables
)

// completePath completes w as a file name relative to env.Dir, with ~
// standing for env.Home. The replaced text is what follows the word's last
// '/' (or its '=' in NAME=value and --opt=value), so a listing shows names,
// not whole paths.
func completePath(w word, env Env, kind fileKind) ([]Match, int) {
	rawStart, valStart := 0, 0
	if w.afterEq {
		rawStart, valStart = w.eqRaw, w.eqVal
	}
	typed := w.value[valStart:]
	if typed == "~" && w.raw[rawStart:] == "~" {
		return []Match{{Text: "~/", Name: "~/", Path: env.Home}}, 1
	}
	dir, base := "", typed
	if w.slashVal > valStart {
		rawStart = w.slashRaw
		dir, base = typed[:w.slashVal-valStart], typed[w.slashVal-valStart:]
	}
	lookup := dir
	switch {
	case strings.HasPrefix(dir, "~/") && tildeUnquoted(w.raw, w.eqRaw, w.afterEq):
		if env.Home == "" {
			return nil, 0
		}
		lookup = filepath.Join(env.Home, dir[2:])
	case lookup == "":
		lookup = env.Dir
	case !filepath.IsAbs(lookup) && env.Dir != "":
		lookup = filepath.Join(env.Dir, lookup)
	}
	if lookup == "" {
		lookup = "."
	}
	entries, err := os.ReadDir(lookup)
	if err != nil {
		return nil, 0
	}
	raw := w.raw[rawStart:]
	// Matching in another case rewrites the typed name, which is done only
	// where it is typed plainly (no quotes or escapes in it).
	plain := strings.HasSuffix(raw, base) && !strings.ContainsAny(base, `"'\$`)
	if base == "." || base == ".." {
		// readline offers . and .. to a word that starts them.
		entries = append([]fs.DirEntry{dotEntry("."), dotEntry("..")}, entries...)
	}
	var cands []Match
	for _, e := range entries {
		name := e.Name()
		exact := strings.HasPrefix(name, base)
		if !exact && !(env.IgnoreCase && plain && env.hasPrefix(name, base)) {
			continue
		}
		if name[0] == '.' && base == "" && (env.HideDotFiles || name == "." || name == "..") {
			continue // match-hidden-files off, or . and .. for an empty word
		}
		isDir, isExec := kindOf(lookup, e)
		switch {
		case kind == dirsOnly && !isDir, kind == executable && !isDir && !isExec:
			continue
		}
		c := raw + quote(name[len(base):], w.quote, w.escape, raw == "" && rawStart == 0)
		if !exact {
			// The name as it is, in place of what was typed in another case.
			c = raw[:len(raw)-len(base)] + quote(name, w.quote, w.escape, rawStart == 0 && len(raw) == len(base))
		}
		switch {
		case isDir && e.Type()&fs.ModeSymlink != 0 && !env.MarkSymlinkedDirs && base != name:
			// A link to a directory completed: nothing after it, and the
			// next Tab adds the / (readline's mark-symlinked-directories
			// off).
		case isDir:
			if !env.NoMarkDirs {
				c += "/"
			}
		default:
			if w.quote != 0 {
				c += string(w.quote)
			}
			c += " "
		}
		cands = append(cands, Match{Text: c, Name: name, Path: filepath.Join(lookup, name)})
	}
	return cands, len(raw) // in name order, as os.ReadDir sorts
}

// dotEntry is . or .. as a directory entry.
type dotEntry string

func (d dotEntry) Name() string               { return string(d) }
func (d dotEntry) IsDir() bool                { return true }
func (d dotEntry) Type() fs.FileMode          { return fs.ModeDir }
func (d dotEntry) Info() (fs.FileInfo, error) { return nil, fs.ErrNotExist }

// tildeUnquoted reports whether the path in raw starts with a bare ~.
func tildeUnquoted(raw string, eqRaw int, afterEq bool) bool {
	if afterEq {
		raw = raw[eqRaw:]
	}
	return strings.HasPrefix(raw, "~")
}

// kindOf reports whether the entry is a directory and whether it is an
// executable file, following symbolic links.
func kindOf(dir string, e fs.DirEntry) (isDir, isExec bool) {
	mode := e.Type()
	if mode&fs.ModeSymlink != 0 {
		fi, err := os.Stat(filepath.Join(dir, e.Name()))
		if err != nil {
			return false, false
		}
		mode = fi.Mode()
	} else if mode.IsRegular() {
		fi, err := e.Info()
		if err != nil {
			return false, false
		}
		mode = fi.Mode()
	}
	return mode.IsDir(), mode.IsRegular() && mode.Perm()&0o111 != 0
}

// specials are the bytes that need a backslash outside quotes.
const specials = " \t\\'\"$&|;()<>*?[]{}`!#^"

// quote writes s so that it reads back as itself after the text typed so
// far: inside the open quote q, and with the first byte already escaped when
// escaped is set. atStart says s begins the word, where ~ is special too.
func quote(s string, q byte, escaped, atStart bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if i == 0 && escaped {
			b.WriteByte(c) // the typed backslash already escapes it
			continue
		}
		switch q {
		case '\'':
			if c == '\'' {
				b.WriteString(`'\''`)
				continue
			}
		case '"':
			if c == '"' || c == '\\' || c == '$' || c == '`' {
				b.WriteByte('\\')
			}
		default:
			switch {
			case c == '\n':
				b.WriteString(`$'\n'`)
				continue
			case strings.IndexByte(specials, c) >= 0, c == '~' && i == 0 && atStart:
				b.WriteByte('\\')
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}
