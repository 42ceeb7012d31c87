package danger

import "testing"

func TestPackageRules(t *testing.T) {
	checkRules(t, []ruleCase{
		{"npm ci", Dev},
		{"npm install -g typescript", Dangerous},
		{"npm run build", Dev},
		{"npm run deploy", Dangerous},
		{"npm publish", Dangerous},
		{"npm ls", Safe},
		{"npx tsc --noEmit", Dev},
		{"yarn add lodash", Dev},
		{"pnpm install", Dev},
		{"pip install -r requirements.txt", Dev},
		{"pip install --user black", Dangerous},
		{"pip list", Safe},
		{"uv sync", Dev},
		{"poetry run pytest", Dev},
		{"poetry publish", Dangerous},
		{"gem install rails", Dangerous},
		{"apt list --installed", Safe},
		{"apt install jq", Dangerous},
		{"apt-get -s upgrade", Safe},
		{"brew info jq", Safe},
		{"brew install jq", Dangerous},
		{"dpkg -l", Safe},
		{"npm install jsonwebtoken", Dev},
		{"pip install keyring secret-storage", Dev},
	})
}
