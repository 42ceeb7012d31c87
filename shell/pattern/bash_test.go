package pattern

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/qsh-shell/qsh/internal/needs"
)

// The differential tests run the same cases through bash 5.2 and through
// the package, and compare.

var bashCheck struct {
	once sync.Once
	path string
	why  string
}

// needBash returns the path of a bash 5.2 or later that reads UTF-8, or
// skips the test saying why there is none.
func needBash(t testing.TB) string {
	t.Helper()
	bashCheck.once.Do(func() {
		path, err := exec.LookPath("bash")
		if err != nil {
			bashCheck.why = "no bash on PATH: the differential tests compare with bash 5.2"
			return
		}
		out, err := bashCmd(path, `printf '%s.%s\n' "${BASH_VERSINFO[0]}" "${BASH_VERSINFO[1]}"; [[ é == ? ]] && echo utf8`, "").Output()
		if err != nil {
			bashCheck.why = fmt.Sprintf("bash did not run: %v", err)
			return
		}
		var major, minor int
		fmt.Sscanf(string(out), "%d.%d", &major, &minor)
		switch {
		case major < 5 || major == 5 && minor < 2:
			bashCheck.why = fmt.Sprintf("bash is %d.%d: the differential tests need 5.2 or later", major, minor)
		case !strings.Contains(string(out), "utf8"):
			bashCheck.why = "bash has no C.UTF-8 locale: the differential tests need one"
		default:
			bashCheck.path = path
		}
	})
	if bashCheck.path == "" {
		needs.Missing(t, "%s", bashCheck.why)
	}
	return bashCheck.path
}

func bashCmd(path, script, dir string) *exec.Cmd {
	cmd := exec.Command(path, "--norc", "--noprofile", "-c", script)
	cmd.Dir = dir
	cmd.Env = []string{"LC_ALL=C.UTF-8", "PATH=" + os.Getenv("PATH")}
	return cmd
}

// matchCase is a pattern and a string, and the options to match them with.
type matchCase struct {
	pat, s string
	mode   Mode // ExtGlob, NoCase
}

// matchResults are what bash says of a matchCase.
type matchResults struct {
	match                   bool
	prefix, prefixLongest   string // ${s#p} ${s##p}
	suffix, suffixLongest   string // ${s%p} ${s%%p}
	replaceOne, replaceEach string // ${s/p/<&>} ${s//p/<&>}, the match between \x01 and \x02
	// wrapped: bash's ${s/p/r} first matches s against p with * added at
	// both ends, and replaces nothing if that fails. The wrapping makes
	// patterns bash 5.2 gets wrong (a group after *, a trailing \* read as
	// *), so when it fails, bash's "nothing replaced" is not compared.
	wrapped bool
}

// bashWrapped returns the pattern bash's ${s/p/r} tries first: p with a *
// before it (unless it starts with one that opens no group) and after it
// (unless it ends with an unquoted one).
func bashWrapped(pat string, mode Mode) string {
	startsStar := strings.HasPrefix(pat, "*") && !(mode&ExtGlob != 0 && strings.HasPrefix(pat, "*("))
	endsStar := false
	if strings.HasSuffix(pat, "*") {
		// bash looks at the backslashes only when there are at least two
		// characters; an odd number of them quote the *.
		n := 0
		for i := len(pat) - 2; i >= 0 && pat[i] == '\\'; i-- {
			n++
		}
		endsStar = n%2 == 0
	}
	if startsStar && strings.HasSuffix(pat, "*") {
		return pat // bash leaves such a pattern alone, \* at the end or not
	}
	if !startsStar {
		pat = "*" + pat
	}
	if !endsStar {
		pat += "*"
	}
	return pat
}

// The script reads the cases four lines each, every byte but letters and
// digits as \xHH (bash's read loses a NUL that follows a byte that is not
// UTF-8), and writes the results as NUL-terminated fields. nocasematch
// applies to case and ${s/p/r}, not to ${s#p}.
const matchScript = `
field() { IFS= read -r line && printf -v "$1" '%b' "$line"; }
while field flags && field pat && field s && field wrapped; do
	if [[ $flags == *e* ]]; then shopt -s extglob; else shopt -u extglob; fi
	if [[ $flags == *i* ]]; then shopt -s nocasematch; else shopt -u nocasematch; fi
	case $s in $pat) m=1;; *) m=0;; esac
	case $s in $wrapped) w=1;; *) w=0;; esac
	printf '%s\0' "$m" "${s#$pat}" "${s##$pat}" "${s%$pat}" "${s%%$pat}" \
		"${s/$pat/$'\001'&$'\002'}" "${s//$pat/$'\001'&$'\002'}" "$w"
done
`

// bashField encodes s for the scripts' field function.
func bashField(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, `\x%02x`, c)
		}
	}
	return b.String() + "\n"
}

func bashMatch(t *testing.T, cases []matchCase) []matchResults {
	bash := needBash(t)
	var in bytes.Buffer
	for _, c := range cases {
		flags := "-"
		if c.mode&ExtGlob != 0 {
			flags += "e"
		}
		if c.mode&NoCase != 0 {
			flags += "i"
		}
		for _, f := range []string{flags, c.pat, c.s, bashWrapped(c.pat, c.mode)} {
			in.WriteString(bashField(f))
		}
	}
	cmd := bashCmd(bash, matchScript, "")
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bash: %v: %s", err, tail(stderr.String()))
	}
	fields := strings.Split(string(out), "\x00")
	if len(fields) != 8*len(cases)+1 {
		t.Fatalf("bash gave %d fields for %d cases", len(fields), len(cases))
	}
	res := make([]matchResults, len(cases))
	for i := range res {
		f := fields[8*i:]
		res[i] = matchResults{f[0] == "1", f[1], f[2], f[3], f[4], f[5], f[6], f[7] == "1"}
	}
	return res
}

// ours computes what the package says of c, in bash's terms.
func ours(t *testing.T, c matchCase) matchResults {
	p, err := Compile(c.pat, c.mode)
	if err != nil {
		t.Fatalf("Compile(%q): %v", c.pat, err)
	}
	// ${s#p} and ${s%p} ignore nocasematch.
	pc := p
	if c.mode&NoCase != 0 {
		pc, _ = Compile(c.pat, c.mode&^NoCase)
	}
	cut := func(i int, prefix bool) string {
		switch {
		case i < 0:
			return c.s
		case prefix:
			return c.s[i:]
		}
		return c.s[:i]
	}
	mark := func(m string) string { return "\x01" + m + "\x02" }
	return matchResults{
		match:         p.Match(c.s),
		prefix:        cut(pc.Prefix(c.s, false), true),
		prefixLongest: cut(pc.Prefix(c.s, true), true),
		suffix:        cut(pc.Suffix(c.s, false), false),
		suffixLongest: cut(pc.Suffix(c.s, true), false),
		replaceOne:    p.Replace(c.s, false, mark),
		replaceEach:   p.Replace(c.s, true, mark),
	}
}

// compareMatch runs cases through bash and the package and reports the
// first differences.
func compareMatch(t *testing.T, cases []matchCase) {
	t.Helper()
	want := bashMatch(t, cases)
	bad := 0
	for i, c := range cases {
		got := ours(t, c)
		got.wrapped = want[i].wrapped
		if !want[i].wrapped && want[i].replaceOne == c.s && want[i].replaceEach == c.s || bashMismeasures(c.pat) {
			got.replaceOne, got.replaceEach = want[i].replaceOne, want[i].replaceEach
		}
		if !utf8.ValidString(c.s) || !utf8.ValidString(c.pat) {
			// Only case and [[ read a string that is not UTF-8 byte by
			// byte throughout; bash's ${s#p} ${s/p/r} switch between bytes
			// and characters for each piece of it they try.
			got = matchResults{match: got.match}
			want[i] = matchResults{match: want[i].match}
		}
		if got == want[i] {
			continue
		}
		if bad++; bad > 20 {
			t.Fatalf("more differences left out")
		}
		t.Errorf("s=%q pat=%q mode=%v\n got %+q\nbash %+q", c.s, c.pat, c.mode, got, want[i])
	}
}

func (r matchResults) String() string {
	return fmt.Sprintf("match=%v # %q ## %q %% %q %%%% %q / %q // %q", r.match, r.prefix, r.prefixLongest,
		r.suffix, r.suffixLongest, r.replaceOne, r.replaceEach)
}

func (m Mode) String() string {
	var s []string
	for _, f := range []struct {
		m    Mode
		name string
	}{{ExtGlob, "ExtGlob"}, {NoCase, "NoCase"}, {Filename, "Filename"}, {starAll, "starAll"}} {
		if m&f.m != 0 {
			s = append(s, f.name)
		}
	}
	if len(s) == 0 {
		return "0"
	}
	return strings.Join(s, "|")
}

func tail(s string) string {
	if len(s) > 2000 {
		return "…" + s[len(s)-2000:]
	}
	return s
}

func TestMatchAgainstBash(t *testing.T) {
	t.Parallel()
	var cases []matchCase
	for _, c := range matchTable {
		cases = append(cases, matchCase{c.pat, c.s, c.mode})
	}
	compareMatch(t, cases)
}

// TestRandomAgainstBash compares thousands of generated patterns and
// strings, from a fixed seed so that a failure repeats.
func TestRandomAgainstBash(t *testing.T) {
	t.Parallel()
	n, seed := 4000, uint64(21)
	if testing.Short() {
		n = 500
	}
	// QSH_PATTERN_RANDOM=N,SEED runs more, or other, cases.
	if v := os.Getenv("QSH_PATTERN_RANDOM"); v != "" {
		fmt.Sscanf(v, "%d,%d", &n, &seed)
	}
	compareMatch(t, randomCases(rand.New(rand.NewPCG(seed, 5)), n))
}

// randomCases makes patterns from pieces that bash reads specially and
// strings from the characters those pieces match. Its groups always close,
// and never follow a *: bash 5.2 gets both wrong in ways no one relies on
// (see TestBashBugs).
func randomCases(rng *rand.Rand, n int) []matchCase {
	pieces := []string{"a", "b", "a", "b", ".", "é", "A", "*", "*", "?", "[ab]", "[!a]", "[a-c]",
		"[[:alpha:]]", "[^b]", `\*`, `\a`, "[", "]", "-", "|", "(", ")", "[]a]", "[!]b]", "[A-Z]",
		"[[:upper:]]", "[[=a=]b]", "[[.a.]-c]", "[é-ú]", "[a-c-e]", "[[:punct:]]", "[[:space:]]", " "}
	groups := []string{"@(", "*(", "+(", "?(", "!("}
	chars := []string{"a", "b", "a", "b", ".", "é", "A", "B", "*", "-", "(", "|", "[", "]", "É", " ", "\xff"}
	var gen func(depth int) string
	gen = func(depth int) string {
		var b strings.Builder
		for k := rng.IntN(5); k >= 0; k-- {
			if depth < 3 && rng.IntN(4) == 0 {
				if s := b.String(); strings.HasSuffix(s, "*") && !strings.HasSuffix(s, `\*`) {
					b.WriteByte('a')
				}
				b.WriteString(groups[rng.IntN(len(groups))])
				for alts := rng.IntN(3); alts >= 0; alts-- {
					b.WriteString(gen(depth + 1))
					if alts > 0 {
						b.WriteByte('|')
					}
				}
				b.WriteByte(')')
				continue
			}
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return b.String()
	}
	cases := make([]matchCase, n)
	for i := range cases {
		pat := gen(0)
		for !wellFormed(pat) {
			pat = gen(0)
		}
		var s strings.Builder
		for k := rng.IntN(9); k > 0; k-- {
			s.WriteString(chars[rng.IntN(len(chars))])
		}
		mode := ExtGlob
		switch rng.IntN(6) {
		case 0:
			mode = 0
		case 1:
			mode |= NoCase
		}
		cases[i] = matchCase{pat, s.String(), mode}
	}
	return cases
}

// wellFormed reports whether pat has no group that fails to close and no
// group right after a run of * and ? that holds a *: bash 5.2 matches those
// wrongly.
func wellFormed(pat string) bool {
	nodes, err := newParser(pat, charset{}, false, true).seq(0, len(pat), 0)
	if err != nil {
		return false
	}
	var ok func(nodes []node) bool
	ok = func(nodes []node) bool {
		for i, n := range nodes {
			switch {
			case n.raw:
				return false
			case n.kind == nGroup && afterStar(nodes[:i]):
				return false
			case n.kind == nGroup:
				for _, alt := range n.alts {
					if !ok(alt) {
						return false
					}
				}
			}
		}
		return true
	}
	return ok(nodes)
}

// bashMismeasures reports whether bash's ${s/p/r}, which first measures
// how long a match of pat can be and tries matches of that length only, gets
// the length wrong: it runs an unclosed [ to the end of the pattern, and
// takes the ] of [] [!] [^] [=]] [.]] as the end of the bracket.
func bashMismeasures(pat string) bool {
	for _, s := range []string{"[]", "[!]", "[^]", "[=", "[."} {
		if strings.Contains(pat, s) {
			return true
		}
	}
	b := brackets{p: pat}
	for i := 0; i < len(pat); i++ {
		switch pat[i] {
		case '\\':
			i++
		case '[':
			if _, _, res := b.parse(i, len(pat), false); res == bracketUnclosed {
				return true
			}
		}
	}
	return false
}

// afterStar reports whether nodes end in a run of * and ? that holds a *.
func afterStar(nodes []node) bool {
	for i := len(nodes) - 1; i >= 0 && (nodes[i].kind == nStar || nodes[i].kind == nAny); i-- {
		if nodes[i].kind == nStar {
			return true
		}
	}
	return false
}
