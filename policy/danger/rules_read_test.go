package danger

import "testing"

func TestReadRules(t *testing.T) {
	checkRules(t, []ruleCase{
		{"ls -la", Safe},
		{"cat README.md", Safe},
		{"cat .env", Dangerous},
		{"cat ~/.ssh/id_rsa", Dangerous},
		{"head -n 5 go.mod", Safe},
		{"grep -rn TODO .", Safe},
		{"grep -r key ~", Dangerous},
		{"rg --pre ./x TODO", Dangerous},
		{"sort -o out.txt in.txt", Dev},
		{"jq .name package.json", Safe},
		{"jq -n env", Dangerous},
		{"yq -i '.a=1' x.yaml", Dev},
		{"man -P 'rm -rf ~' ls", Blocked},
		{"find . -name '*.go'", Safe},
		{"find . -delete", Dangerous},
		{"find / -delete", Blocked},
		{"find . -exec rm -rf {} +", Dangerous},
		{"fd -e go -x gofmt -l", Safe},
		{"which go", Safe},
		{"grep -rn password src/", Safe},
		{"grep -e token -e secret src", Safe},
		{"grep -c KEY .env", Safe},
		{"grep KEY .env", Dangerous},
		{"rg -l PRIVATE ~", Safe},
		{"rg PRIVATE ~", Dangerous},
		{"wc -l .env", Safe},
		{"sha256sum id_rsa", Safe},
		{"diff -q .env .env.example", Safe},
		{"cmp -l .env x", Dangerous},
	})
}
