package danger

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRulesReviewable keeps the table readable: no line of the rules
// files over 120 columns (a tab counts 4), and every rule and flag says
// why. Checks are method expressions, so a misspelled one does not
// compile.
func TestRulesReviewable(t *testing.T) {
	files, err := filepath.Glob("rules*.go")
	if err != nil || len(files) < 2 {
		t.Fatalf("rules files: %v %v", files, err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if n := len(strings.ReplaceAll(line, "\t", "    ")); n > 120 {
				t.Errorf("%s:%d: %d columns, want at most 120", name, i+1, n)
			}
		}
	}
	var walk func(name string, r *rule)
	walk = func(name string, r *rule) {
		if r.why == "" || r.class < Safe || r.class > Blocked {
			t.Errorf("rule %q: class %v, why %q", name, r.class, r.why)
		}
		for _, f := range append(append([]flag{}, r.flags...), r.ops...) {
			if f.why == "" || strings.TrimSpace(f.match) == "" {
				t.Errorf("rule %q: flag %q says no why", name, f.match)
			}
		}
		for k, s := range r.sub {
			walk(name+" "+k, s)
		}
		if r.bare != nil {
			walk(name+" (bare)", r.bare)
		}
	}
	for name, r := range commands.Get() {
		walk(name, r)
	}
}

// TestDomainsDisjoint checks that no command is in two parts of the
// table: the later one would silently replace the earlier.
func TestDomainsDisjoint(t *testing.T) {
	seen := map[string]int{}
	for i, d := range domains() {
		for name := range d() {
			if j, ok := seen[name]; ok {
				t.Errorf("%q is in domain %d and %d", name, j, i)
			}
			seen[name] = i
		}
	}
	if len(seen) != len(commands.Get()) {
		t.Errorf("the table has %d commands, the domains %d", len(commands.Get()), len(seen))
	}
}

// ruleCase is a command and the class its domain's rules give it in
// testWS.
type ruleCase struct {
	cmd  string
	want Class
}

// checkRules classifies each case in testWS.
func checkRules(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, c := range cases {
		if v := Classify(c.cmd, testWS); v.Class != c.want {
			t.Errorf("%s: %v, want %v\n\t%q", c.cmd, v.Class, c.want, v.Reasons)
		}
	}
}
