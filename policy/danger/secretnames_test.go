package danger

import "testing"

// TestSecretLookAlikes: templates of secret files, fingerprints and
// public halves of keys, and the names of KEY = VALUE credential files
// show no secret; the secrets themselves stay dangerous.
func TestSecretLookAlikes(t *testing.T) {
	checkRules(t, []ruleCase{
		{"cat config/secrets.example.yml", Safe},
		{"cat credentials.sample.json", Safe},
		{"cat config/secrets.yml", Dangerous},
		{"ssh-keygen -lf ~/.ssh/id_rsa", Safe},
		{"ssh-keygen -y -f ~/.ssh/id_ed25519", Dangerous}, // the labelled table
		{"ssh-keygen -p -f ~/.ssh/id_rsa", Dangerous},
		{"awk -F= '{print $1}' ~/.aws/credentials", Safe},
		{"cut -d= -f1 ~/.aws/credentials", Safe},
		{"cut -d= -f2 ~/.aws/credentials", Dangerous},
		{"awk -F= '{print $2}' ~/.aws/credentials", Dangerous},
		{"cut -d= -f1 ~/.git-credentials", Dangerous},
		{"cat ~/.aws/credentials", Dangerous},
	})
}
