// Package pattern is a temporary stand-in (replaced by the full package).
package pattern

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

type Mode uint

const (
	ExtGlob Mode = 1 << iota
	NoCase
	Filename
)

type Pattern struct {
	re   *regexp.Regexp
	full *regexp.Regexp
}

func toRegexp(pat string, mode Mode) string {
	var sb strings.Builder
	for i := 0; i < len(pat); i++ {
		c := pat[i]
		switch c {
		case '\\':
			if i+1 < len(pat) {
				i++
				sb.WriteString(regexp.QuoteMeta(pat[i : i+1]))
			} else {
				sb.WriteString(`\\`)
			}
		case '*':
			if mode&Filename != 0 {
				sb.WriteString("[^/]*")
			} else {
				sb.WriteString("(?s:.*)")
			}
		case '?':
			sb.WriteString("(?s:.)")
		case '[':
			j := i + 1
			if j < len(pat) && (pat[j] == '!' || pat[j] == '^') {
				j++
			}
			if j < len(pat) && pat[j] == ']' {
				j++
			}
			for j < len(pat) && pat[j] != ']' {
				if pat[j] == '[' && j+1 < len(pat) && pat[j+1] == ':' {
					k := strings.Index(pat[j+2:], ":]")
					if k >= 0 {
						j += k + 4
						continue
					}
				}
				j++
			}
			if j >= len(pat) {
				sb.WriteString(`\[`)
				continue
			}
			body := pat[i+1 : j]
			if strings.HasPrefix(body, "!") {
				body = "^" + body[1:]
			}
			body = strings.ReplaceAll(body, `\`, `\\`)
			sb.WriteString("[" + body + "]")
			i = j
		default:
			sb.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return sb.String()
}

func Compile(pat string, mode Mode) (*Pattern, error) {
	r := toRegexp(pat, mode)
	if mode&NoCase != 0 {
		r = "(?i)" + r
	}
	re, err := regexp.Compile(r)
	if err != nil {
		return nil, err
	}
	full := regexp.MustCompile("^(?:" + r + ")$")
	return &Pattern{re: re, full: full}, nil
}

func (p *Pattern) Match(s string) bool { return p.full.MatchString(s) }

func (p *Pattern) Prefix(s string, longest bool) int {
	if longest {
		for n := len(s); n >= 0; n-- {
			if p.full.MatchString(s[:n]) {
				return n
			}
		}
		return -1
	}
	for n := 0; n <= len(s); n++ {
		if p.full.MatchString(s[:n]) {
			return n
		}
	}
	return -1
}

func (p *Pattern) Suffix(s string, longest bool) int {
	if longest {
		for n := 0; n <= len(s); n++ {
			if p.full.MatchString(s[n:]) {
				return n
			}
		}
		return -1
	}
	for n := len(s); n >= 0; n-- {
		if p.full.MatchString(s[n:]) {
			return n
		}
	}
	return -1
}

func (p *Pattern) Find(s string, from int) (int, int) {
	for i := from; i <= len(s); i++ {
		for j := len(s); j >= i; j-- {
			if p.full.MatchString(s[i:j]) {
				return i, j
			}
		}
	}
	return -1, -1
}

func HasMeta(pat string, mode Mode) bool {
	for i := 0; i < len(pat); i++ {
		switch pat[i] {
		case '\\':
			i++
		case '*', '?', '[':
			return true
		}
	}
	return false
}

func QuoteMeta(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(`\*?[]()|!@+`, s[i]) >= 0 {
			sb.WriteByte('\\')
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

func Unquote(pat string) string {
	var sb strings.Builder
	for i := 0; i < len(pat); i++ {
		if pat[i] == '\\' && i+1 < len(pat) {
			i++
		}
		sb.WriteByte(pat[i])
	}
	return sb.String()
}

type GlobOptions struct {
	Dot, GlobStar, NoCase, ExtGlob, NullGlob bool
	Ignore                                   []string
	SkipDots                                 bool
}

func Glob(ctx context.Context, dir, pat string, opt GlobOptions) ([]string, error) {
	mode := Filename
	if opt.NoCase {
		mode |= NoCase
	}
	abs := pat
	if !filepath.IsAbs(pat) {
		abs = filepath.Join(dir, pat)
	}
	_ = abs
	parts := strings.Split(pat, "/")
	var cur []string
	if strings.HasPrefix(pat, "/") {
		cur = []string{"/"}
		parts = parts[1:]
	} else {
		cur = []string{""}
	}
	for i, part := range parts {
		last := i == len(parts)-1
		var next []string
		for _, c := range cur {
			if !HasMeta(part, mode) {
				p := c + Unquote(part)
				if !last {
					p += "/"
				}
				full := p
				if !filepath.IsAbs(full) {
					full = filepath.Join(dir, full)
				}
				if _, err := os.Lstat(full); err == nil || part == "" {
					next = append(next, p)
				}
				continue
			}
			d := c
			if d == "" {
				d = "."
			}
			if !filepath.IsAbs(d) {
				d = filepath.Join(dir, d)
			}
			ents, err := os.ReadDir(d)
			if err != nil {
				continue
			}
			cp, err := Compile(part, mode)
			if err != nil {
				continue
			}
			for _, e := range ents {
				n := e.Name()
				if strings.HasPrefix(n, ".") && !opt.Dot && !strings.HasPrefix(part, ".") && !strings.HasPrefix(part, `\.`) {
					continue
				}
				if cp.Match(n) {
					p := c + n
					if !last {
						p += "/"
					}
					next = append(next, p)
				}
			}
		}
		cur = next
	}
	var out []string
	for _, c := range cur {
		if c != "" {
			out = append(out, strings.TrimSuffix(c, "/"))
		}
	}
	sort.Strings(out)
	return out, nil
}
