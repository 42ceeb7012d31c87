package danger

import "testing"

func TestFileRules(t *testing.T) {
	checkRules(t, []ruleCase{
		{"touch a.txt", Dev},
		{"mkdir -p build/out", Dev},
		{"cp a.txt b.txt", Dev},
		{"cp a.txt /etc/hosts", Dangerous},
		{"mv a b", Dev},
		{"mv ~ /tmp/x", Blocked},
		{"rm a.txt", Dev},
		{"rm -rf node_modules", Dev},
		{"rm -rf src", Dangerous},
		{"rm -rf ~", Blocked},
		{"chmod +x run.sh", Dev},
		{"chmod -R 777 /", Blocked},
		{"truncate -s 0 log.txt", Dangerous},
		{"dd if=x.iso of=/dev/sdb", Blocked},
		{"tar -tzf a.tgz", Safe},
		{"tar -xzf a.tgz", Dev},
		{"unzip -l a.zip", Safe},
		{"tee out.txt", Dev},
		{"tee ~/.bashrc", Dangerous},
		{"gofmt -l .", Safe},
		{"gofmt -w main.go", Dev},
		{"vim -c '!rm -rf ~' x", Blocked},
		{"gzip -c notes.txt", Safe},
		{"gzip notes.txt", Dev},
	})
}
