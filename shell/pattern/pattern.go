package pattern

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// Mode selects how a pattern is read and matched.
type Mode uint

const (
	// ExtGlob reads ?(…) *(…) +(…) @(…) !(…) as groups (shopt -s extglob;
	// [[ == ]] reads them always).
	ExtGlob Mode = 1 << iota
	// NoCase matches letters in either case (nocasematch, nocaseglob).
	NoCase
	// Filename matches a path: * ? […] and !(…) never match '/', which only
	// a '/' in the pattern matches.
	Filename

	// starAll makes a * that ends the pattern, and […], match '/' too in a
	// Filename pattern, as in bash's GLOBIGNORE patterns.
	starAll Mode = 1 << 8
)

// Pattern is a compiled bash pattern. It is safe for concurrent use.
type Pattern struct {
	src   string
	mode  Mode
	valid bool // src is valid UTF-8
	lit   string
	isLit bool // no wildcard, no group, case matters: lit is the whole pattern
	// simple holds the pattern when it has no group: Match walks it
	// without a machine.
	simple []node
	progs  [4]atomic.Pointer[prog] // by charset (characters, bytes), then the same reversed
	mu     sync.Mutex              // compiles the programs not compiled yet
	pool   sync.Pool               // of *machine
}

// Compile parses a bash pattern. A backslash quotes the next character (the
// evaluator passes the quoted parts of a word backslash-escaped), and one at
// the end stands for itself. As in bash, a [ that opens no bracket
// expression is a literal [, and a group that does not close makes the rest
// of the pattern literal text. The pattern is read as UTF-8; when it, or the
// string it is matched against, is not valid UTF-8 both are read byte by
// byte, as bash does. The only error is [ErrTooDeep].
func Compile(pat string, mode Mode) (*Pattern, error) {
	p := &Pattern{src: pat, mode: mode, valid: utf8.ValidString(pat)}
	cs := charset{bytes: !p.valid}
	nodes, err := p.parse(cs)
	if err != nil {
		return nil, err
	}
	if mode&NoCase == 0 && p.valid {
		var b strings.Builder
		p.isLit = true
		for _, n := range nodes {
			if n.kind != nChar {
				p.isLit = false
				break
			}
			b.WriteRune(n.r)
		}
		p.lit = b.String()
	}
	p.progs[p.index(cs)].Store(compile(nodes, mode&starAll != 0))
	if !slices.ContainsFunc(nodes, func(n node) bool { return n.kind == nGroup }) {
		p.simple = nodes
	}
	return p, nil
}

func (p *Pattern) parse(cs charset) ([]node, error) {
	ps := newParser(p.src, cs, p.mode&NoCase != 0, p.mode&ExtGlob != 0)
	return ps.seq(0, len(p.src), 0)
}

func (p *Pattern) index(cs charset) int {
	if cs.bytes {
		return 1
	}
	return 0
}

// String returns the pattern as it was written.
func (p *Pattern) String() string { return p.src }

// machine prepares a run over s; put gives it back.
func (p *Pattern) machine(s string) *machine { return p.machineFlags(s, false, false) }

// machineFlags prepares a run over s: dotFirst, a leading '.' needs a '.';
// rev, the reversed pattern over s read from its end.
func (p *Pattern) machineFlags(s string, dotFirst, rev bool) *machine {
	cs := charset{bytes: !p.valid || !utf8.ValidString(s)}
	prog := p.prog(cs, rev)
	f := flags{fold: p.mode&NoCase != 0, filename: p.mode&Filename != 0, period: dotFirst,
		classSlash: p.mode&starAll != 0}
	m, _ := p.pool.Get().(*machine)
	if m == nil {
		m = new(machine)
	}
	m.reset(prog, s, cs, f, rev)
	return m
}

// prog returns the program for reading in cs, or for reading backwards.
func (p *Pattern) prog(cs charset, rev bool) *prog {
	i := p.index(cs)
	if rev {
		i += 2
	}
	if q := p.progs[i].Load(); q != nil {
		return q
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if q := p.progs[i].Load(); q != nil {
		return q
	}
	nodes, _ := p.parse(cs) // it parsed once already: no error
	if rev {
		nodes = reverse(nodes)
	}
	q := compile(nodes, p.mode&starAll != 0 && !rev)
	p.progs[i].Store(q)
	return q
}

// reverse returns the pattern that matches the reverse of what nodes
// match: !(…) included, as s is not in a set exactly when its reverse is not
// in the reversed set.
func reverse(nodes []node) []node {
	r := make([]node, len(nodes))
	for i, n := range nodes {
		if n.kind == nGroup {
			alts := make([][]node, len(n.alts))
			for j, alt := range n.alts {
				alts[j] = reverse(alt)
			}
			n.alts = alts
		}
		r[len(nodes)-1-i] = n
	}
	return r
}

// put keeps m for the next run, unless it grew large on a long subject.
func (p *Pattern) put(m *machine) {
	if cap(m.t.runes) <= 1<<12 && m.memoSize <= 1<<12 {
		m.t.s = ""
		p.pool.Put(m)
	}
}

// Match reports whether the pattern matches the whole of s.
func (p *Pattern) Match(s string) bool { return p.matchName(s, false) }

// matchName is Match; dotFirst: a '.' that starts s (or, with Filename, a
// component of it) is matched only by a '.' in the pattern, Glob's rule for
// hidden files.
func (p *Pattern) matchName(s string, dotFirst bool) bool {
	if p.isLit {
		return s == p.lit
	}
	if matched, ok := p.simpleMatch(s, dotFirst); ok {
		return matched
	}
	m := p.machineFlags(s, dotFirst, false)
	defer p.put(m)
	return m.run(0, m.prog.start, 0, m.t.n, goalFull).end == m.t.n
}

// simpleMatch matches s against a pattern without groups the classic way:
// characters in step, and on a mismatch back to the last * to let it take
// one character more. ok is false when the machine must decide: a subject
// read otherwise than the pattern was parsed, a '/' in a Filename pattern,
// a leading '.' that needs a '.'.
func (p *Pattern) simpleMatch(s string, dotFirst bool) (matched, ok bool) {
	if p.simple == nil || p.valid && !utf8.ValidString(s) ||
		p.mode&Filename != 0 && strings.IndexByte(s, '/') >= 0 ||
		dotFirst && strings.HasPrefix(s, ".") {
		return false, false
	}
	cs, fold := charset{bytes: !p.valid}, p.mode&NoCase != 0
	nodes := p.simple
	pi, si := 0, 0
	starPi, starSi := -1, 0
	for {
		if pi < len(nodes) {
			n := &nodes[pi]
			if n.kind == nStar {
				starPi, starSi = pi, si
				pi++
				continue
			}
			if si < len(s) {
				c, size := cs.decode(s, si)
				fc := c
				if fold {
					fc = cs.fold(c)
				}
				if n.kind == nAny || n.kind == nChar && (n.r == fc && !n.raw || n.r == c) ||
					n.kind == nClass && n.cls.has(c, fc) {
					pi, si = pi+1, si+size
					continue
				}
			}
		} else if si == len(s) {
			return true, true
		}
		if starPi < 0 || starSi >= len(s) {
			return false, true
		}
		_, size := cs.decode(s, starSi)
		starSi += size
		pi, si = starPi+1, starSi
	}
}

// Prefix returns the length of the shortest (or, longest, the longest)
// prefix of s that the pattern matches, as ${s#p} and ${s##p} remove it, or
// -1 if none does.
func (p *Pattern) Prefix(s string, longest bool) int {
	if p.isLit {
		if strings.HasPrefix(s, p.lit) {
			return len(p.lit)
		}
		return -1
	}
	m := p.machine(s)
	defer p.put(m)
	g := goalFirst
	if longest {
		g = goalLast
	}
	end := m.run(0, m.prog.start, 0, m.t.n, g).end
	if end < 0 {
		return -1
	}
	return m.t.off(end)
}

// Suffix returns where the shortest (or, longest, the longest) suffix of s
// that the pattern matches starts, as ${s%p} and ${s%%p} remove it, or -1 if
// none does.
func (p *Pattern) Suffix(s string, longest bool) int {
	if p.isLit {
		if strings.HasSuffix(s, p.lit) {
			return len(s) - len(p.lit)
		}
		return -1
	}
	// The reversed pattern over s read backwards: its prefixes are the
	// suffixes, found in one run from one start.
	m := p.machineFlags(s, false, true)
	defer p.put(m)
	g := goalFirst
	if longest {
		g = goalLast
	}
	end := m.run(0, m.prog.start, 0, m.t.n, g).end
	if end < 0 {
		return -1
	}
	return m.t.off(end)
}

// Find returns the leftmost match of the pattern in s that starts at or
// after byte offset from, the longest of those that start there, as
// ${s/p/r} replaces it; (-1, -1) if there is none. A pattern that matches
// the empty string finds it at from, and at len(s): see [Pattern.Replace]
// for what bash makes of those.
func (p *Pattern) Find(s string, from int) (start, end int) {
	if from < 0 {
		from = 0
	}
	if from > len(s) {
		return -1, -1
	}
	if p.isLit && p.lit != "" {
		i := strings.Index(s[from:], p.lit)
		if i < 0 {
			return -1, -1
		}
		return from + i, from + i + len(p.lit)
	}
	m := p.machine(s)
	defer p.put(m)
	return m.find(m.t.index(from))
}

// find returns the byte offsets of the leftmost-longest match that starts at
// or after character from.
func (m *machine) find(from int) (start, end int) {
	r := m.run(0, m.prog.start, from, m.t.n, goalFind)
	if r.start < 0 {
		return -1, -1
	}
	return m.t.off(r.start), m.t.off(r.end)
}

// Replace returns s with the first match of the pattern (every match, if
// all) replaced by repl(match), as ${s/p/r} and ${s//p/r} do. Matches are
// leftmost-longest and do not overlap. An empty match is replaced too, and
// the character after it is kept before the search goes on. Two rules of
// bash's about empty matches hold: in a string that is not empty, no empty
// match at its very end is replaced ("abc" with ${s//*(x)/-} is "-a-b-c");
// and in the empty string, only a pattern that begins with * is tried (""
// with ${s/*(x)/-} is "-", with ${s/?(x)/-} it stays ""). The empty pattern
// replaces nothing.
func (p *Pattern) Replace(s string, all bool, repl func(match string) string) string {
	find := func(from int) (int, int) { return p.Find(s, from) }
	if !p.isLit || p.lit == "" {
		m := p.machine(s) // one machine for every search: s is decoded once
		defer p.put(m)
		find = func(from int) (int, int) { return m.find(m.t.index(from)) }
	}
	if p.src == "" || s == "" && !strings.HasPrefix(p.src, "*") {
		return s
	}
	bytes := !p.valid || !utf8.ValidString(s)
	var b strings.Builder
	pos := 0
	for pos <= len(s) {
		start, end := find(pos)
		if start < 0 || start == end && start == len(s) && len(s) > 0 {
			break
		}
		b.WriteString(s[pos:start])
		b.WriteString(repl(s[start:end]))
		pos = end
		if start == end {
			if end == len(s) {
				break
			}
			size := 1
			if !bytes {
				_, size = utf8.DecodeRuneInString(s[end:])
			}
			b.WriteString(s[end : end+size])
			pos = end + size
		}
		if !all {
			break
		}
	}
	b.WriteString(s[pos:])
	return b.String()
}

// HasMeta reports whether pat holds an unquoted *, ?, a [ with a ] after it
// (and no / between), or with ExtGlob a +( @( !( — what makes bash treat a
// word as a pattern.
func HasMeta(pat string, mode Mode) bool {
	open := false
	for i := 0; i < len(pat); i++ {
		switch c := pat[i]; c {
		case '\\':
			i++
		case '*', '?':
			return true
		case '[':
			open = true
		case ']':
			if open {
				return true
			}
		case '/':
			open = false
		case '+', '@', '!':
			if mode&ExtGlob != 0 && i+1 < len(pat) && pat[i+1] == '(' {
				return true
			}
		}
	}
	return false
}

// QuoteMeta returns s with a backslash before every character a pattern
// treats specially, so that it matches s and nothing else.
func QuoteMeta(s string) string {
	const special = `\*?[]!^-()|@+`
	if !strings.ContainsAny(s, special) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(special, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// Unquote drops the backslashes that quote characters in pat, for a word
// that turned out not to be a pattern. A backslash at the end stays.
func Unquote(pat string) string {
	if strings.IndexByte(pat, '\\') < 0 {
		return pat
	}
	var b strings.Builder
	for i := 0; i < len(pat); i++ {
		if pat[i] == '\\' && i+1 < len(pat) {
			i++
		}
		b.WriteByte(pat[i])
	}
	return b.String()
}
