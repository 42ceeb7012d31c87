package danger

import "testing"

// TestMasksMore: counts of lines by awk, sed -n with s///p, and keys cut
// after filters that keep lines whole mask what they read; programs that
// print values do not.
func TestMasksMore(t *testing.T) {
	checkRules(t, []ruleCase{
		{"awk 'END{print NR}' .env", Safe},
		{"awk '{n++} END {print n}' .env", Safe},
		{"sed -n 's/=.*//p' .env", Safe},
		{"env | sort | cut -d= -f1", Safe},
		{"printenv | grep -v '^_' | sort | cut -d= -f1", Safe},
		{"env | grep -i aws | cut -d= -f1", Safe},
		{"env | sort", Dangerous},
		{"env | grep -o 'TOKEN=.*' | cut -d= -f1", Dangerous},
		{"env | sed 's/^/x=/' | cut -d= -f1", Dangerous},
		{"sed -n 's/=.*//' .env", Dangerous}, // not read as a mask, though it prints nothing
		{"sed -n 's/=.*//p;p' .env", Dangerous},
		{"awk 'END{print $0}' .env", Dangerous},
		{"awk '{print} END{print NR}' .env", Dangerous},
		{"env | sort -o /tmp/x | cut -d= -f1", Dangerous},
		{"env | tee /tmp/x | cut -d= -f1", Dangerous},
		{"cat .env | head -5", Dangerous},
	})
}
