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

// TestThirteenthFamilies pins what the thirteenth blind set found.
func TestThirteenthFamilies(t *testing.T) {
	checkRules(t, []ruleCase{
		// A shell or an interpreter as the program a build runs.
		{"GOFLAGS='-toolexec=bash' go test ./...", Dangerous},
		{"CC=sh make", Dangerous},
		{"CC=clang-17 make", Dev},
		// swift -e is inline code.
		{"swift -e 'print(1)'", Dangerous},
		{"swift build", Dev},
		// Read-only looks the set expected to stay safe.
		{"strace --version", Safe},
		{"security find-internet-password -s example.com", Safe},
		{"security find-internet-password -s example.com -g", Dangerous},
		{"tar -czf - docs | wc -c", Safe},
		{"tar -czf docs.tgz docs", Dev},
	})
}
