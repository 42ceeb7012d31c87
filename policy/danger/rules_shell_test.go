package danger

import "testing"

func TestShellRules(t *testing.T) {
	checkRules(t, []ruleCase{
		{"echo hello", Safe},
		{"cd src && ls", Safe},
		{"export GOFLAGS=-v", Dev},
		{"export PATH=/tmp/evil:$PATH", Dangerous},
		{"sudo ls", Dangerous},
		{"sudo rm -rf /", Blocked},
		{"env", Dangerous},
		{"env | grep '^GO'", Safe},
		{"timeout 5 go test ./...", Dev},
		{"nohup rm -rf ~ &", Blocked},
		{"bash -c 'rm -rf ~'", Blocked},
		{"sh -c 'ls'", Safe},
		{"python3 -c 'print(1)'", Safe},
		{"python3 script.py", Dev},
		{"awk 'BEGIN{system(\"id\")}'", Dangerous},
		{"sed -n 1,5p main.go", Safe},
		{"eval 'rm -rf /'", Blocked},
		{"strace -f ./main", Dev}, // the labelled table: a typical dev session,
		{"watch -n1 'rm -rf ~'", Blocked},
		{"xargs -a list.txt echo", Safe},
	})
}
