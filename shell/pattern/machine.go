package pattern

import (
	"slices"
	"unicode/utf8"
)

// The machine runs a program over a subject once, left to right, holding the
// set of instructions it may be at (Pike's simulation, without captures).
// Each thread carries the position it started at: when several threads reach
// the same instruction at the same position only the earliest start is kept
// (they can only go on alike), which is how one pass finds the leftmost
// match. Suffixes are the prefixes of the reversed pattern over the subject
// read backwards. A run costs O(len(subject) × len(program)); a !(…) group
// adds a run of its own program from each position it is reached at,
// remembered for nested groups.

// subject is the string being matched, as characters; reversed, it reads
// them from the end (for suffixes).
type subject struct {
	s     string
	wide  bool    // characters are UTF-8 sequences, not bytes
	rev   bool    // character i is the i-th from the end
	runes []rune  // when wide: the characters
	offs  []int32 // when wide: the byte offset of each character, and of the end
	n     int     // number of characters
}

// reset makes t the subject s, reusing its buffers.
func (t *subject) reset(s string, cs charset, rev bool) {
	t.s, t.n, t.rev, t.wide = s, len(s), rev, false
	if cs.bytes {
		return
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			t.wide = true
			break
		}
	}
	if !t.wide {
		return
	}
	t.runes, t.offs = t.runes[:0], t.offs[:0]
	for i, r := range s {
		t.runes = append(t.runes, r)
		t.offs = append(t.offs, int32(i))
	}
	t.offs = append(t.offs, int32(len(s)))
	t.n = len(t.runes)
}

func (t *subject) at(i int) rune {
	if t.rev {
		i = t.n - 1 - i
	}
	if !t.wide {
		return rune(t.s[i])
	}
	return t.runes[i]
}

// off returns the byte offset of the boundary before character i (reversed:
// after it).
func (t *subject) off(i int) int {
	if t.rev {
		i = t.n - i
	}
	if !t.wide {
		return i
	}
	return int(t.offs[i])
}

// index returns the first character that starts at or after byte offset b.
func (t *subject) index(b int) int {
	if !t.wide {
		return b
	}
	lo, hi := 0, t.n
	for lo < hi {
		m := (lo + hi) / 2
		if int(t.offs[m]) < b {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// flags are how a run reads its subject.
type flags struct {
	fold     bool // NoCase
	filename bool // only a literal '/' consumes '/'
	period   bool // a '.' that starts the subject (or follows '/' when filename) needs a literal '.'
	// classSlash lets […] match '/' when filename, as in GLOBIGNORE.
	classSlash bool
}

type machine struct {
	prog *prog
	t    subject
	cs   charset
	flags
	folded    []rune  // the subject folded, when fold
	slashes   []int32 // filename: index of the first '/' at or after each position
	memo      map[int64][]int32
	memoSize  int
	scratches []*scratch // one per depth of !(…) runs
	steps     int        // instructions visited, for the tests that bound the work
}

// memoBudget bounds how many end positions of !(…) runs are remembered:
// past it they are computed again, slower but in bounded memory.
const memoBudget = 1 << 22

// reset prepares m to run p over s, reusing what it allocated before.
func (m *machine) reset(p *prog, s string, cs charset, f flags, rev bool) {
	if m.prog != p {
		m.scratches = m.scratches[:0]
	}
	m.prog, m.cs, m.flags, m.steps = p, cs, f, 0
	m.t.reset(s, cs, rev)
	clear(m.memo)
	m.memoSize = 0
	m.folded = m.folded[:0]
	if f.fold {
		for i := range m.t.n {
			m.folded = append(m.folded, cs.fold(m.t.at(i)))
		}
	}
	m.slashes = m.slashes[:0]
	if f.filename && len(p.negs) > 0 {
		m.slashes = slices.Grow(m.slashes, m.t.n+1)[:m.t.n+1]
		next := int32(m.t.n)
		for i := m.t.n; i >= 0; i-- {
			if i < m.t.n && m.t.at(i) == '/' {
				next = int32(i)
			}
			m.slashes[i] = next
		}
	}
}

type thread struct{ pc, start int32 }

type scratch struct {
	list, stepped, cands, stack []thread
	seen                        []uint32 // closure generation that last visited each instruction
	gen                         uint32
	pend                        []pending // one per !(…)
	pendUntil                   int       // no pending thread past this position
}

func (m *machine) scratchAt(depth int) *scratch {
	for len(m.scratches) <= depth {
		m.scratches = append(m.scratches, &scratch{
			seen: make([]uint32, len(m.prog.insts)),
			pend: make([]pending, len(m.prog.negs)),
		})
	}
	sc := m.scratches[depth]
	for i := range sc.pend {
		sc.pend[i].reset()
	}
	sc.pendUntil = -1
	return sc
}

// goal is what a run looks for.
type goal uint8

const (
	goalEnds  goal = iota // one start: every end it matches to (sorted)
	goalFull              // one start: whether it matches up to limit
	goalFirst             // one start: the shortest match
	goalLast              // one start: the longest match
	goalFind              // every start: the leftmost, then longest, match
)

type result struct {
	ends       []int32
	start, end int
}

// run runs the program from entry over characters [from, limit].
func (m *machine) run(depth int, entry int32, from, limit int, g goal) result {
	res := result{start: -1, end: -1}
	sc := m.scratchAt(depth)
	multi := g == goalFind
	insts := m.prog.insts
	sc.stepped = sc.stepped[:0]
	for j := from; ; j++ {
		// Threads at j: those that read character j-1, those a !(…) lets go
		// on here, and a new one starting here; preferred starts first.
		cands := append(sc.cands[:0], sc.stepped...)
		if j <= sc.pendUntil {
			for k := range sc.pend {
				st, ok := sc.pend[k].at(int32(j))
				if !ok || (g == goalFind && res.start >= 0 && int(st) > res.start) {
					continue
				}
				th := thread{insts[m.prog.negAt[k]].x, st}
				cands = insertThread(cands, th)
			}
		}
		if j == from || multi && res.start < 0 {
			cands = append(cands, thread{entry, int32(j)})
		}
		sc.cands = cands
		list := m.closure(depth, sc, cands, j)
		sc.list = list

		alive := false
		for _, th := range list {
			op := insts[th.pc].op
			if op != opMatch {
				alive = alive || op != opNone
				continue
			}
			switch g {
			case goalEnds:
				res.ends = append(res.ends, int32(j))
			case goalFull:
				if j == limit {
					res.end = j
				}
			case goalFirst:
				res.end = j
				return res
			case goalLast:
				res.end = j
			case goalFind:
				if res.start < 0 || int(th.start) < res.start {
					res.start = int(th.start)
				}
				if int(th.start) == res.start {
					res.end = j
				}
			}
		}
		if j >= limit {
			return res
		}
		if !alive && j >= sc.pendUntil && !(multi && res.start < 0) {
			return res
		}

		// Read character j.
		c := m.t.at(j)
		fc := c
		if m.fold {
			fc = m.folded[j]
		}
		stepped := sc.stepped[:0]
		for _, th := range list {
			if g == goalFind && res.start >= 0 && int(th.start) > res.start {
				continue
			}
			in := &insts[th.pc]
			if !in.op.consumes() || !m.reads(in, c, fc, j) {
				continue
			}
			if in.op == opStar || in.op == opStarAll {
				stepped = append(stepped, th)
			} else {
				stepped = append(stepped, thread{in.x, th.start})
			}
		}
		sc.stepped = stepped
	}
}

// reads reports whether the instruction consumes character c (folded fc)
// at position j.
func (m *machine) reads(in *inst, c, fc rune, j int) bool {
	if c == '/' && m.filename && in.op != opStarAll && !(in.op == opClass && m.classSlash) {
		return (in.op == opChar || in.op == opCharRaw) && in.r == '/'
	}
	if c == '.' && m.period && in.op != opStarAll && m.segmentStart(j) {
		return (in.op == opChar || in.op == opCharRaw) && in.r == '.'
	}
	switch in.op {
	case opChar:
		return in.r == fc
	case opCharRaw:
		return in.r == c
	case opClass:
		return in.cls.has(c, fc)
	case opNone:
		return false
	}
	return true // opAny, opStar, opStarAll
}

// dotBlocks reports whether a *, a !(…) or the end of a group's
// alternative reached at j fails there: before a leading '.' that needs a
// '.', bash fails them even where they would match the empty string ("*.c"
// does not match ".c").
func (m *machine) dotBlocks(j int) bool {
	return m.period && j < m.t.n && m.t.at(j) == '.' && m.segmentStart(j)
}

// segmentStart reports whether position j starts the subject or, matching
// file names, a component of the path.
func (m *machine) segmentStart(j int) bool {
	return j == 0 || m.filename && m.t.at(j-1) == '/'
}

// closure follows the jumps from cands at position j and returns the
// threads that read a character or match, in the order of cands.
func (m *machine) closure(depth int, sc *scratch, cands []thread, j int) []thread {
	sc.gen++
	if sc.gen == 0 { // wrapped: forget the old marks
		clear(sc.seen)
		sc.gen = 1
	}
	list := sc.list[:0]
	insts := m.prog.insts
	for _, c := range cands {
		stack := append(sc.stack[:0], c)
		for len(stack) > 0 {
			th := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if sc.seen[th.pc] == sc.gen {
				continue
			}
			sc.seen[th.pc] = sc.gen
			m.steps++
			in := &insts[th.pc]
			switch in.op {
			case opSplit:
				stack = append(stack, thread{in.y, th.start}, thread{in.x, th.start})
			case opJmp:
				stack = append(stack, thread{in.x, th.start})
			case opAltEnd:
				// An alternative that read nothing of a leading '.' cannot
				// match it away: "@(x|).a" does not match ".a".
				if !m.dotBlocks(j) {
					stack = append(stack, thread{in.x, th.start})
				}
			case opNeg:
				if !m.dotBlocks(j) && m.negate(depth, sc, in, th.start, j) {
					stack = append(stack, thread{in.x, th.start})
				}
			case opStar:
				if !m.dotBlocks(j) {
					list = append(list, th)
					stack = append(stack, thread{in.x, th.start})
				}
			case opStarAll:
				list = append(list, th)
				stack = append(stack, thread{in.x, th.start})
			default:
				list = append(list, th)
			}
		}
		sc.stack = stack
	}
	return list
}

// negate handles a thread that reaches a !(…) at j: it runs the group's
// alternatives from j, lets the thread go on at every later end they do not
// reach (pending, until the run gets there), and reports whether it goes on
// at j itself (they do not match the empty string).
func (m *machine) negate(depth int, sc *scratch, in *inst, start int32, j int) bool {
	k := int(in.neg)
	lim := m.t.n
	if m.filename {
		lim = int(m.slashes[j])
	}
	ends := m.negEnds(depth, k, j, lim)
	if lim > j {
		sc.pend[k].add(int32(j), int32(lim), ends, start)
		if lim > sc.pendUntil {
			sc.pendUntil = lim
		}
	}
	return len(ends) == 0 || ends[0] != int32(j)
}

// negEnds returns the ends of the matches of !(…) number k's alternatives
// from j, up to lim.
func (m *machine) negEnds(depth, k, j, lim int) []int32 {
	key := int64(k)<<32 | int64(j)
	if ends, ok := m.memo[key]; ok {
		return ends
	}
	ends := m.run(depth+1, m.prog.negs[k], j, lim, goalEnds).ends
	if m.memoSize+len(ends)+1 <= memoBudget {
		if m.memo == nil {
			m.memo = make(map[int64][]int32)
		}
		m.memo[key] = ends
		m.memoSize += len(ends) + 1
	}
	return ends
}

// insertThread inserts th among ts, which are in the order of their starts.
func insertThread(ts []thread, th thread) []thread {
	i := len(ts)
	for i > 0 && th.start < ts[i-1].start {
		i--
	}
	ts = append(ts, thread{})
	copy(ts[i+1:], ts[i:])
	ts[i] = th
	return ts
}

// pending is where the threads that passed a !(…) go on: at every position
// up to lim except the ends its alternatives matched. It keeps one range
// (the earliest start's) and the exceptions to it, so that a !(…) reached at
// every position costs what its exceptions cost, not the length of the rest
// of the subject.
type pending struct {
	active bool
	start  int32
	lim    int32
	excl   []int32 // sorted positions the range leaves out
	ei     int     // excl[:ei] are behind the run
	extra  map[int32]int32
}

func (p *pending) reset() {
	p.active = false
	p.excl, p.ei = nil, 0
	clear(p.extra)
}

// at returns the earliest start of the threads pending at j.
func (p *pending) at(j int32) (int32, bool) {
	var start int32
	ok := false
	if p.active && j <= p.lim {
		for p.ei < len(p.excl) && p.excl[p.ei] < j {
			p.ei++
		}
		if p.ei >= len(p.excl) || p.excl[p.ei] != j {
			start, ok = p.start, true
		}
	}
	if e, has := p.extra[j]; has {
		delete(p.extra, j)
		if !ok || e < start {
			start, ok = e, true
		}
	}
	return start, ok
}

// add records a thread of the given start that passed the !(…) at j and goes
// on at (j, lim] except at ends.
func (p *pending) add(j, lim int32, ends []int32, start int32) {
	for len(ends) > 0 && ends[0] <= j {
		ends = ends[1:]
	}
	if !p.active || p.lim <= j {
		p.active, p.start, p.lim, p.excl, p.ei = true, start, lim, ends, 0
		return
	}
	for p.ei < len(p.excl) && p.excl[p.ei] <= j {
		p.ei++
	}
	old := p.excl[p.ei:]
	if start < p.start {
		// The new range wins where both reach; the old one stays where only
		// it does.
		for _, e := range difference(ends, old) {
			if e <= p.lim {
				p.setExtra(e, p.start)
			}
		}
		p.start, p.lim, p.excl, p.ei = start, lim, ends, 0
		return
	}
	for _, e := range difference(old, ends) {
		if e <= lim {
			p.setExtra(e, start)
		}
	}
}

func (p *pending) setExtra(pos, start int32) {
	if p.extra == nil {
		p.extra = make(map[int32]int32)
	}
	if e, ok := p.extra[pos]; !ok || start < e {
		p.extra[pos] = start
	}
}

// difference returns the elements of sorted a that are not in sorted b.
func difference(a, b []int32) []int32 {
	var d []int32
	i := 0
	for _, x := range a {
		for i < len(b) && b[i] < x {
			i++
		}
		if i >= len(b) || b[i] != x {
			d = append(d, x)
		}
	}
	return d
}
