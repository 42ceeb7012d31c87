package danger

import "testing"

// TestTwelfthFamilies pins the families the twelfth blind set found,
// with variants of its lines rather than the lines themselves.
func TestTwelfthFamilies(t *testing.T) {
	checkRules(t, []ruleCase{
		// npm's --script-shell, before or after the subcommand.
		{"npm run lint --script-shell ./x.sh", Dangerous},
		{"npm --script-shell=/bin/zsh install", Dangerous},
		{"npm run lint", Dev},
		// A secret's file name under a directory known only when it runs.
		{`cat "$HOME_DIR/.env.production"`, Dangerous},
		{`head -5 "$(pwd)/server.key"`, Dangerous},
		{`cat "$DIR/README.md"`, Safe},
		// PATH set through printf -v, read, or a nameref.
		{"printf -v PATH /tmp/x:%s \"$PATH\"", Dangerous},
		{"read -r PATH < newpath.txt", Dangerous},
		{"declare -n p=PATH; p=./bin", Dangerous},
		{"declare -n p=COUNT; p=3", Safe},
		{"printf -v msg 'hi %s' x", Safe},
		// Read-only looks the set expected to stay safe.
		{"rustfmt --version", Safe},
		{"fly version", Safe},
		{"helm template web ./chart -f values.yaml", Safe},
		{"helm template web ./chart --output-dir out", Dev},
		{"gcloud config get-value project", Safe},
		{"gcloud config set project x", Dangerous}, // outside the workspace
		{"csrutil disable", Dangerous},
		{"spctl --assess -v MyApp.app", Safe},
		{"spctl --master-disable", Dangerous},
		{"ip6tables-save", Safe},
		{"7z x -so backup.7z db.sql | head", Safe},
		{"7z x backup.7z", Dev},
	})
}
