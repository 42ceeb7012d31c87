package danger

import "testing"

// The families the eighteenth blind set found, with spellings the set did
// not hold and look-alikes that must keep their class.

func TestEighteenthMercurialDiscards(t *testing.T) {
	checkRules(t, []ruleCase{
		{"hg update -C default", Dangerous},
		{"hg up --clean .", Dangerous},
		{"hg revert -a --no-backup", Dangerous},
		{"hg update stable", Dev},
		{"hg status -m", Safe},
	})
}

func TestEighteenthServiceProtocolThroughNetcat(t *testing.T) {
	checkRules(t, []ruleCase{
		{"printf 'FLUSHDB\\r\\n' | nc -q1 127.0.0.1 6379", Dangerous},
		{"echo 'SHUTDOWN NOSAVE' | nc localhost 6379", Dangerous},
		{"echo 'DELETE FROM users;' | nc localhost 9000", Dangerous},
		{"printf 'DELETE /api/items HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n' | nc localhost 8080", Dangerous},
		{"echo PING | nc -q1 localhost 6379", Dev},
		{"printf 'GET /health HTTP/1.0\\r\\n\\r\\n' | nc localhost 8080", Dev},
		{"nc -zv localhost 5432", Dev},
	})
}
