package danger

import "testing"

func TestBuildRules(t *testing.T) {
	checkRules(t, []ruleCase{
		{"go build ./...", Dev},
		{"go test -exec sudo ./...", Dangerous},
		{"go list ./...", Safe},
		{"go install ./cmd/x", Dangerous},
		{"go env -w GOFLAGS=-mod=mod", Dangerous},
		{"make", Dev},
		{"make -n", Safe},
		{"make install", Dangerous},
		{"cargo build --release", Dev},
		{"cargo publish", Dangerous},
		{"cargo tree", Safe},
		{"gcc -o app main.c", Dev},
		{"gcc -o /usr/local/bin/app main.c", Dangerous},
		{"pytest -q", Dev},
		{"prettier --check .", Safe},
		{"ruff format --check", Safe},
		{"rails db:drop", Dangerous},
		{"python manage.py migrate", Dev},
		{"python manage.py flush", Dangerous},
		{"prisma migrate reset", Dangerous},
		{"mvn deploy", Dangerous},
	})
}
