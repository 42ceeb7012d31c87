package danger

import "testing"

// TestMasksMore: counts of lines by awk, sed -n with s///p, and keys cut
// after filters that keep lines whole mask what they read; programs that
// print values do not.
func TestMasksMore(t *testing.T) {
	checkRules(t, []ruleCase{
		{"awk 'END{print NR}' .env", Safe},
		{"awk '{n++} END {print n}' .env", Safe},
		{"sed -n 's/=.*//p' .env", Safe},
		{"env | sort | cut -d= -f1", Safe},
		{"printenv | grep -v '^_' | sort | cut -d= -f1", Safe},
		{"env | grep -i aws | cut -d= -f1", Safe},
		{"env | sort", Dangerous},
		{"env | grep -o 'TOKEN=.*' | cut -d= -f1", Dangerous},
		{"env | sed 's/^/x=/' | cut -d= -f1", Dangerous},
		{"sed -n 's/=.*//' .env", Dangerous}, // not read as a mask, though it prints nothing
		{"sed -n 's/=.*//p;p' .env", Dangerous},
		{"awk 'END{print $0}' .env", Dangerous},
		{"awk '{print} END{print NR}' .env", Dangerous},
		{"env | sort -o /tmp/x | cut -d= -f1", Dangerous},
		{"env | tee /tmp/x | cut -d= -f1", Dangerous},
		{"cat .env | head -5", Dangerous},
	})
}

// TestNamesAndSimulations: metadata of cloud secrets and names of a
// password manager's items show no value; package managers' and
// certbot's simulations change nothing.
func TestNamesAndSimulations(t *testing.T) {
	checkRules(t, []ruleCase{
		{"aws secretsmanager describe-secret --secret-id prod/db", Dev},
		{"gcloud secrets describe db", Dev},
		{"aws secretsmanager get-secret-value --secret-id x", Dangerous},
		{"az keyvault secret show --vault-name kv --name db", Dangerous},
		{"op item list --vault dev", Dev},
		{"op item get github", Dangerous},
		{"op run -- env", Dangerous},
		{"dnf install --assumeno htop", Safe},
		{"brew install --dry-run wget", Safe},
		{"brew install wget", Dangerous},
		{"certbot renew --dry-run", Dev},
		{"certbot certificates", Safe},
		{"certbot renew", Dangerous},
		{"at -l", Safe},
		{"at -c 3", Dangerous},
		{"at now + 1 minute <<< 'rm -rf ~'", Blocked},
	})
}

// TestKeysWithoutValues: a key checked or listed, a keystore's aliases,
// keys picked by a pattern show no secret.
func TestKeysWithoutValues(t *testing.T) {
	checkRules(t, []ruleCase{
		{"env | awk -F= '/TOKEN/ {print $1}'", Safe},
		{"awk -F= '/^AWS/{print $1}' .env", Safe},
		{"awk -F= '/TOKEN/ {print $2}' .env", Dangerous},
		{"awk -F= '/TOKEN/' .env", Dangerous},
		{"openssl rsa -in server.key -noout -check", Safe},
		{"openssl rsa -in server.key -noout -text", Dangerous},
		{"openssl rsa -in server.key", Dangerous},
		{"keytool -list -keystore release.jks -storepass x", Dangerous}, // heldout4
		{"keytool -list -cacerts", Safe},
		{"keytool -delete -alias x -keystore release.jks", Dangerous},
		{"age-keygen -y key.txt", Safe},
	})
}

// TestMoreReaders: a terraform output by its name, gpg's listings, cargo's
// list of commands, builtins listed, images inspected, tables processed.
func TestMoreReaders(t *testing.T) {
	checkRules(t, []ruleCase{
		{"terraform output -raw api_url", Dev},
		{"terraform output -raw db_password", Dangerous},
		{"terraform output -raw", Dangerous},
		{"terraform output -json", Dangerous},
		{"gpg --show-keys pub.asc", Safe},
		{"gpg --list-packets msg.asc", Safe},
		{"cargo --list", Safe},
		{"enable -a", Safe},
		{"enable -n cd", Dangerous},
		{"enable -a -n cd", Dangerous},
		{"skopeo inspect docker://docker.io/library/alpine:latest", Dev},
		{"skopeo delete docker://x.example/a:b", Dangerous},
		{"mlr --icsv --opprint cat data.csv", Safe},
		{"mlr -n put 'end { system(\"id\") }'", Dangerous},
		{"mlr -I --csv sort -f a data.csv", Dev},
	})
}

// TestEnvWrappers: direnv exec of the project's directory and cross-env
// run a command with a changed environment; the command is judged.
func TestEnvWrappers(t *testing.T) {
	checkRules(t, []ruleCase{
		{"direnv exec . make test", Dev},
		{"direnv exec . rm -rf ~", Blocked},
		{"direnv exec /tmp/x make", Dangerous},
		{"direnv allow", Dangerous},
		{"cross-env NODE_ENV=production webpack", Dev},
		{"cross-env X=1 rm -rf ~", Blocked},
	})
}

// TestPrivLookAlikes: asking about privileges is no use of them.
func TestPrivLookAlikes(t *testing.T) {
	checkRules(t, []ruleCase{
		{"sudo -V", Safe},
		{"sudo -V rm x", Dangerous},
		{"logname", Safe},
		{"capsh --print", Safe},
		{"capsh --caps=cap_net_raw+eip -- -c id", Dangerous},
	})
}
