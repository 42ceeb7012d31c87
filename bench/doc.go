// Package bench holds qsh's speed benchmarks: start-up against gosh and
// bash, time to the first prompt with a large history, and memory at an
// idle prompt. They are measurements, not pass/fail tests: run.sh prints
// them as a table, and `go test -bench . ./bench/` runs them directly.
package bench
