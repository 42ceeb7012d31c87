package danger

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFindOrdinaryNames: a find over the workspace whose name filter also
// matches everyday files (-name '*.json') is judged by what it finds on
// the disk, as a glob is; one aimed at secrets' names, or over the home
// directory, stays a read of secrets.
func TestFindOrdinaryNames(t *testing.T) {
	clean := t.TempDir()
	leaky := t.TempDir()
	if err := os.MkdirAll(filepath.Join(leaky, "config"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"package.json", "config/credentials.json"} {
		if err := os.WriteFile(filepath.Join(leaky, f), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		dir  string
		cmd  string
		want Class
	}{
		{clean, "find . -name '*.json' -print0 | xargs -0 jq -c .", Safe},
		{clean, "find . -name '*.json' | xargs jq -c .", Safe},
		{clean, "find . -name '*.yaml' -exec cat {} +", Safe},
		{clean, "find src -iname '*.JSON' | xargs head -1", Safe},
		{leaky, "find . -name '*.json' | xargs cat", Dangerous},
		{leaky, "find . -name '*.json' -exec cat {} +", Dangerous},
		{clean, "find . -name '*.pem' | xargs cat", Dangerous},
		{clean, "find . -name '.env*' -exec cat {} +", Dangerous},
		{clean, "find ~ -name '*.json' | xargs cat", Dangerous},
		{clean, "find / -name '*.json' -exec cat {} +", Dangerous},
		{clean, "jq . .env", Dangerous},
		{clean, "jq -r env", Dangerous},
		{clean, "find . -name '*.json' | xargs jq env", Dangerous},
		{clean, "jq -f filter.jq .env", Dangerous},
	}
	for _, tt := range tests {
		v := Classify(tt.cmd, Workspace{Dir: tt.dir, Home: "/home/alice"})
		if v.Class != tt.want {
			t.Errorf("%s (in %s): %v, want %v\n\t%q", tt.cmd, filepath.Base(tt.dir), v.Class, tt.want, v.Reasons)
		}
	}
}
