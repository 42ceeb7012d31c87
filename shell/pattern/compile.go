package pattern

// The parsed pattern becomes a program for a nondeterministic automaton
// (Thompson's construction): instructions that consume one character, and
// jumps between them that consume nothing. Extglob's ?(…) *(…) +(…) @(…)
// are jumps around and back into their alternatives; !(…) cannot be one (the
// complement of an automaton is not an automaton of the same size), so it is
// an instruction of its own that runs its alternatives as a separate program
// from where it stands and continues at every end they do not reach.

type opcode uint8

const (
	opChar    opcode = iota // consume r
	opCharRaw               // consume r, never folded
	opAny                   // consume any character
	opClass                 // consume a character in cls
	opNone                  // consume nothing, ever
	opStar                  // consume any character and stay; or go on to x
	opStarAll               // opStar that crosses '/' too (GLOBIGNORE's trailing *)
	opSplit                 // go on to x and to y
	opJmp                   // go on to x
	opAltEnd                // the end of a group's alternative: go on to x
	opNeg                   // !(…): go on to x at every end negs[neg] does not match
	opMatch                 // the (sub)program has matched
)

type inst struct {
	op  opcode
	r   rune
	cls *class
	x   int32
	y   int32
	neg int32
}

type prog struct {
	insts []inst
	start int32
	negs  []int32 // entry of each !(…)'s program; its alternatives end in their own opMatch
	negAt []int32 // the opNeg instruction of each !(…)
}

// consumes reports whether the instruction reads a character.
func (op opcode) consumes() bool { return op <= opStarAll }

type compiler struct {
	prog *prog
	// starAll makes a * that ends the pattern cross '/' (GLOBIGNORE's
	// patterns, matched as bash's FNM_PATHNAME matches them).
	starAll bool
}

func compile(nodes []node, starAll bool) *prog {
	c := &compiler{prog: &prog{}, starAll: starAll}
	match := c.emit(inst{op: opMatch})
	c.prog.start = c.seq(nodes, match, true)
	return c.prog
}

func (c *compiler) emit(in inst) int32 {
	c.prog.insts = append(c.prog.insts, in)
	return int32(len(c.prog.insts) - 1)
}

// seq compiles nodes so that they continue at next, and returns their entry.
func (c *compiler) seq(nodes []node, next int32, top bool) int32 {
	for i := len(nodes) - 1; i >= 0; i-- {
		next = c.node(nodes[i], next, top && i == len(nodes)-1)
	}
	return next
}

func (c *compiler) node(n node, next int32, last bool) int32 {
	switch n.kind {
	case nChar:
		if n.raw {
			return c.emit(inst{op: opCharRaw, r: n.r, x: next})
		}
		return c.emit(inst{op: opChar, r: n.r, x: next})
	case nAny:
		return c.emit(inst{op: opAny, x: next})
	case nStar:
		if last && c.starAll {
			return c.emit(inst{op: opStarAll, x: next})
		}
		return c.emit(inst{op: opStar, x: next})
	case nClass:
		return c.emit(inst{op: opClass, cls: n.cls, x: next})
	case nNone:
		return c.emit(inst{op: opNone})
	}
	switch n.op {
	case '@':
		return c.alternatives(n.alts, c.emit(inst{op: opAltEnd, x: next}), -1)
	case '?':
		return c.alternatives(n.alts, c.emit(inst{op: opAltEnd, x: next}), next)
	case '*', '+':
		// loop: each alternative comes back to it, and it goes on to the
		// alternatives again or to next. * enters at loop, + at the
		// alternatives.
		loop := c.emit(inst{op: opSplit})
		entry := c.alternatives(n.alts, c.emit(inst{op: opAltEnd, x: loop}), -1)
		c.prog.insts[loop].x, c.prog.insts[loop].y = entry, next
		if n.op == '*' {
			return loop
		}
		return entry
	}
	// '!'
	match := c.emit(inst{op: opMatch})
	entry := c.alternatives(n.alts, match, -1)
	c.prog.negs = append(c.prog.negs, entry)
	pc := c.emit(inst{op: opNeg, neg: int32(len(c.prog.negs) - 1), x: next})
	c.prog.negAt = append(c.prog.negAt, pc)
	return pc
}

// alternatives compiles a choice between alts that all continue at next,
// and also, when other >= 0, the choice of going to other directly.
func (c *compiler) alternatives(alts [][]node, next, other int32) int32 {
	entries := make([]int32, 0, len(alts)+1)
	for _, alt := range alts {
		entries = append(entries, c.seq(alt, next, false))
	}
	if other >= 0 {
		entries = append(entries, other)
	}
	e := entries[len(entries)-1]
	for i := len(entries) - 2; i >= 0; i-- {
		e = c.emit(inst{op: opSplit, x: entries[i], y: e})
	}
	return e
}
