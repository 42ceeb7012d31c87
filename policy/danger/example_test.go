package danger_test

import (
	"fmt"
	"strings"

	"github.com/qsh-shell/qsh/policy/danger"
)

func ExampleClassify() {
	ws := danger.Workspace{Dir: "/home/alice/proj", Home: "/home/alice"}
	for _, cmd := range []string{
		"git status",
		"go test ./...",
		"git push --force",
		"X=rm; $X -rf ~",
	} {
		v := danger.Classify(cmd, ws)
		fmt.Printf("%s: %s\n", v.Class, strings.Join(v.Reasons, "; "))
	}
	// Output:
	// safe: `git status`: shows the working tree state
	// dev: `go test`: builds or tests the project
	// dangerous: `git push --force`: rewrites the remote branch's history
	// blocked: `rm -r` on `~`: deletes the home directory
}

func ExampleScope() {
	ws := danger.Workspace{Dir: "/home/alice/proj", Home: "/home/alice"}
	v := danger.Classify("git diff --stat", ws)
	rule, _ := danger.Scope("git diff --stat", v)
	fmt.Println(rule)
	fmt.Println(rule.Match("git diff HEAD~1"), rule.Match("git push"), rule.Match("git diff && rm -rf src"))
	// Output:
	// `git diff …` (up to safe)
	// true false false
}
