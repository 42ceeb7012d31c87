package danger

import (
	"os"
	"strings"
	"testing"
)

// TestRulesReviewable keeps the table readable: no line of rules.go over
// 120 columns (a tab counts 4), and every rule and flag says why. Checks
// are method expressions, so a misspelled one does not compile.
func TestRulesReviewable(t *testing.T) {
	b, err := os.ReadFile("rules.go")
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(b), "\n") {
		if n := len(strings.ReplaceAll(line, "\t", "    ")); n > 120 {
			t.Errorf("rules.go:%d: %d columns, want at most 120", i+1, n)
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
