package histexpand

// gap is a gap buffer: the text is left, then right read backwards. Moving
// the gap costs the distance moved, so edits that move forward through the
// text cost their own size.
type gap struct{ left, right []byte }

func (g *gap) size() int { return len(g.left) + len(g.right) }

func (g *gap) at(i int) byte {
	switch {
	case i < 0 || i >= g.size():
		return 0
	case i < len(g.left):
		return g.left[i]
	default:
		return g.right[len(g.right)-1-(i-len(g.left))]
	}
}

// hasAt tells whether s is at index i.
func (g *gap) hasAt(i int, s string) bool {
	if i < 0 || i+len(s) > g.size() {
		return false
	}
	for k := 0; k < len(s); k++ {
		if g.at(i+k) != s[k] {
			return false
		}
	}
	return true
}

func (g *gap) moveTo(i int) {
	for len(g.left) > i {
		g.right = append(g.right, g.left[len(g.left)-1])
		g.left = g.left[:len(g.left)-1]
	}
	for len(g.left) < i {
		g.left = append(g.left, g.right[len(g.right)-1])
		g.right = g.right[:len(g.right)-1]
	}
}

// replace puts s in place of the n bytes at index i.
func (g *gap) replace(i, n int, s string) {
	g.moveTo(i)
	g.right = g.right[:len(g.right)-n]
	g.left = append(g.left, s...)
}

func (g *gap) String() string {
	b := make([]byte, 0, g.size())
	b = append(b, g.left...)
	for k := len(g.right) - 1; k >= 0; k-- {
		b = append(b, g.right[k])
	}
	return string(b)
}
