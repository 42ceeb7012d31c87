package danger

import "testing"

// typical are one-line commands of the kind the assistant runs.
var typical = []string{
	"go test ./...",
	"git status --short",
	"ls -la src/",
	"grep -rn 'TODO' --include='*.go' .",
	"rm -rf node_modules && npm ci",
	"git log --oneline -20 | head",
	"docker compose up -d",
	"curl -s http://localhost:8080/health | jq .",
	"find . -name '*.go' -exec gofmt -l {} +",
	"sed -i 's/old/new/g' main.go",
}

// BenchmarkClassify reports the time to classify one typical command.
func BenchmarkClassify(b *testing.B) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Classify(typical[i%len(typical)], testWS)
	}
}

// BenchmarkClassifyTable classifies the whole labelled table, one command
// per iteration, tricks included.
func BenchmarkClassifyTable(b *testing.B) {
	table := readTable(b)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Classify(table[i%len(table)].cmd, testWS)
	}
}
