package pattern

import (
	"math/rand/v2"
	"slices"
	"testing"
	"unicode/utf8"
)

// reference matches as the manual defines the operators, by sets of end
// positions computed straight from the parsed pattern: slow, and simple
// enough to trust. The automaton is checked against it.
type reference struct {
	s    []rune
	cs   charset
	fold bool
	file bool // Filename
}

func newReference(pat, s string, mode Mode) (*reference, []node) {
	cs := charset{bytes: !utf8.ValidString(pat) || !utf8.ValidString(s)}
	nodes, err := newParser(pat, cs, mode&NoCase != 0, mode&ExtGlob != 0).seq(0, len(pat), 0)
	if err != nil {
		return nil, nil
	}
	r := &reference{cs: cs, fold: mode&NoCase != 0, file: mode&Filename != 0}
	for i := 0; i < len(s); {
		c, size := cs.decode(s, i)
		r.s = append(r.s, c)
		i += size
	}
	return r, nodes
}

// limit is where a wildcard starting at i must stop.
func (r *reference) limit(i int) int {
	for j := i; j < len(r.s); j++ {
		if r.file && r.s[j] == '/' {
			return j
		}
	}
	return len(r.s)
}

func (r *reference) seq(nodes []node, from map[int]bool) map[int]bool {
	cur := from
	for _, n := range nodes {
		next := map[int]bool{}
		for p := range cur {
			for e := range r.node(n, p) {
				next[e] = true
			}
		}
		cur = next
	}
	return cur
}

func (r *reference) node(n node, p int) map[int]bool {
	ends := map[int]bool{}
	one := func(ok func(c, fc rune) bool) map[int]bool {
		if p < len(r.s) {
			c, fc := r.s[p], r.s[p]
			if r.fold {
				fc = r.cs.fold(c)
			}
			if ok(c, fc) {
				ends[p+1] = true
			}
		}
		return ends
	}
	slash := func(c rune) bool { return r.file && c == '/' }
	switch n.kind {
	case nChar:
		return one(func(c, fc rune) bool {
			if n.raw {
				return c == n.r
			}
			return fc == n.r
		})
	case nAny:
		return one(func(c, fc rune) bool { return !slash(c) })
	case nClass:
		return one(func(c, fc rune) bool { return !slash(c) && n.cls.has(c, fc) })
	case nStar:
		for j := p; j <= r.limit(p); j++ {
			ends[j] = true
		}
		return ends
	case nNone:
		return ends
	}
	once := func(from map[int]bool) map[int]bool {
		out := map[int]bool{}
		for _, alt := range n.alts {
			for e := range r.seq(alt, from) {
				out[e] = true
			}
		}
		return out
	}
	start := map[int]bool{p: true}
	switch n.op {
	case '@':
		return once(start)
	case '?':
		ends = once(start)
		ends[p] = true
		return ends
	case '*', '+':
		reach := once(start)
		if n.op == '*' {
			reach[p] = true
		}
		for frontier := reach; len(frontier) > 0; {
			next := map[int]bool{}
			for e := range once(frontier) {
				if !reach[e] {
					reach[e], next[e] = true, true
				}
			}
			frontier = next
		}
		return reach
	}
	matched := once(start)
	for j := p; j <= r.limit(p); j++ {
		if !matched[j] {
			ends[j] = true
		}
	}
	return ends
}

// refResults are Match, Prefix, Suffix and Find(s, 0) by the reference, in
// characters.
type refResults struct {
	match                  bool
	prefix, prefixLongest  int
	suffix, suffixLongest  int
	findStart, findEnd     int
	endsFrom0, matchStarts []int
}

func (r *reference) results(nodes []node) refResults {
	n := len(r.s)
	res := refResults{prefix: -1, prefixLongest: -1, suffix: -1, suffixLongest: -1, findStart: -1, findEnd: -1}
	for i := 0; i <= n; i++ {
		ends := r.seq(nodes, map[int]bool{i: true})
		sorted := make([]int, 0, len(ends))
		for e := range ends {
			sorted = append(sorted, e)
		}
		slices.Sort(sorted)
		if i == 0 {
			res.endsFrom0 = sorted
			if len(sorted) > 0 {
				res.prefix, res.prefixLongest = sorted[0], sorted[len(sorted)-1]
			}
			res.match = ends[n]
		}
		if len(sorted) > 0 && res.findStart < 0 {
			res.findStart, res.findEnd = i, sorted[len(sorted)-1]
		}
		if ends[n] {
			if res.suffixLongest < 0 {
				res.suffixLongest = i
			}
			res.suffix = i
		}
	}
	return res
}

// checkReference compares the package with the reference on one case, and
// reports what differs.
func checkReference(t *testing.T, pat, s string, mode Mode) {
	t.Helper()
	p, err := Compile(pat, mode)
	if err != nil {
		return
	}
	ref, nodes := newReference(pat, s, mode)
	want := ref.results(nodes)
	m := p.machine(s)
	chars := func(off int) int {
		if off < 0 {
			return -1
		}
		return m.t.index(off)
	}
	findStart, findEnd := p.Find(s, 0)
	got := refResults{
		match:         p.Match(s),
		prefix:        chars(p.Prefix(s, false)),
		prefixLongest: chars(p.Prefix(s, true)),
		suffix:        chars(p.Suffix(s, false)),
		suffixLongest: chars(p.Suffix(s, true)),
		findStart:     chars(findStart),
		findEnd:       chars(findEnd),
	}
	want.endsFrom0, want.matchStarts = nil, nil
	if got.findStart < 0 {
		got.findEnd = -1
	}
	if !equalResults(got, want) {
		t.Errorf("pat=%q s=%q mode=%v\n got %+v\nwant %+v", pat, s, mode, got, want)
	}
}

func equalResults(a, b refResults) bool {
	return a.match == b.match && a.prefix == b.prefix && a.prefixLongest == b.prefixLongest &&
		a.suffix == b.suffix && a.suffixLongest == b.suffixLongest &&
		a.findStart == b.findStart && a.findEnd == b.findEnd
}

// TestAgainstReference runs generated patterns (groups that do not close and
// groups after * included: the reference has no bash bugs) against the
// reference, in every mode.
func TestAgainstReference(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 11))
	pieces := []string{"a", "b", "/", ".", "é", "A", "*", "?", "[ab]", "[!a]", "[/a]", "[[:alpha:]]",
		`\*`, "[", "|", ")", "(", "@(", "*(", "+(", "?(", "!(", "!(", "*(", ")", ")", ")"}
	chars := []string{"a", "b", "/", ".", "é", "A", "(", "|", "\xff"}
	n := 5000
	if testing.Short() {
		n = 300
	}
	for range n {
		var pb, sb []byte
		for k := rng.IntN(10); k > 0; k-- {
			pb = append(pb, pieces[rng.IntN(len(pieces))]...)
		}
		for k := rng.IntN(12); k > 0; k-- {
			sb = append(sb, chars[rng.IntN(len(chars))]...)
		}
		mode := Mode(rng.IntN(8)) // ExtGlob, NoCase, Filename in every combination
		checkReference(t, string(pb), string(sb), mode)
		if t.Failed() {
			return
		}
	}
}
