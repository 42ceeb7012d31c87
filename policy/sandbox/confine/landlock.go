package confine

// Ruleset is a Landlock ruleset as the jail makes it, once its mounts
// are made (see package sandbox): the rights it handles, and the rights
// it grants beneath paths and on TCP ports.
type Ruleset struct {
	HandledFS, HandledNet, Scoped uint64
	Paths                         []PathRule
	Ports                         []PortRule
}

// PathRule grants Access beneath Path (on it alone for a file: the
// rights that apply to files).
type PathRule struct {
	Path   string
	Access uint64
}

// PortRule grants Access on a TCP port.
type PortRule struct {
	Port   uint16
	Access uint64
}

// Fields writes the ruleset in a message's fields.
func (r Ruleset) Fields() []string {
	f := []string{utoa(r.HandledFS), utoa(r.HandledNet), utoa(r.Scoped), Itoa(len(r.Paths))}
	for _, p := range r.Paths {
		f = append(f, p.Path, utoa(p.Access))
	}
	f = append(f, Itoa(len(r.Ports)))
	for _, p := range r.Ports {
		f = append(f, Itoa(int(p.Port)), utoa(p.Access))
	}
	return f
}

// parseRuleset reads a ruleset from the start of f, and returns the
// fields after it.
func parseRuleset(f []string) (r Ruleset, rest []string, ok bool) {
	if len(f) < 4 {
		return r, nil, false
	}
	var good [3]bool
	r.HandledFS, good[0] = atou64(f[0])
	r.HandledNet, good[1] = atou64(f[1])
	r.Scoped, good[2] = atou64(f[2])
	n, okN := Atoi(f[3])
	if !good[0] || !good[1] || !good[2] || !okN || n < 0 || len(f) < 4+2*n+1 {
		return r, nil, false
	}
	f = f[4:]
	for i := 0; i < n; i++ {
		a, ok := atou64(f[1])
		if !ok {
			return r, nil, false
		}
		r.Paths = append(r.Paths, PathRule{f[0], a})
		f = f[2:]
	}
	m, okM := Atoi(f[0])
	if !okM || m < 0 || len(f) < 1+2*m {
		return r, nil, false
	}
	f = f[1:]
	for i := 0; i < m; i++ {
		port, okP := Atoi(f[0])
		a, okA := atou64(f[1])
		if !okP || !okA || port < 0 || port > 65535 {
			return r, nil, false
		}
		r.Ports = append(r.Ports, PortRule{uint16(port), a})
		f = f[2:]
	}
	return r, f, true
}

func utoa(n uint64) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

func atou64(s string) (uint64, bool) {
	if s == "" || len(s) > 19 {
		return 0, false
	}
	var n uint64
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	return n, true
}
