package danger

import "testing"

func TestGitRules(t *testing.T) {
	checkRules(t, []ruleCase{
		{"git status", Safe},
		{"git log --oneline -5", Safe},
		{"git diff --ext-diff", Dangerous},
		{"git branch", Safe},
		{"git branch -D old", Dangerous},
		{"git add -A", Dev},
		{"git commit -m wip", Dev},
		{"git checkout -b feature", Dev},
		{"git checkout -- .", Dangerous},
		{"git restore --staged a.go", Dev},
		{"git reset --hard HEAD~1", Dangerous},
		{"git clean -n", Safe},
		{"git clean -fdx", Dangerous},
		{"git push origin feature", Dev},
		{"git push --force origin feature", Dangerous},
		{"git push origin :old", Dangerous},
		{"git stash drop", Dangerous},
		{"git clone ext::sh -c id", Dangerous},
		{"git frobnicate", Dangerous},
		{"gh pr list", Dev},
		{"gh pr merge 12", Dangerous},
		{"gh auth token", Dangerous},
		{"glab mr list", Dev},
		{"git check-ignore -v .env", Safe},
		{"git log --stat -- .env", Safe},
		{"git log -p -- .env", Dangerous},
		{"git show --name-only HEAD", Safe},
		{"git show HEAD:.env", Dangerous},
		{"git add .env", Dangerous},
		{"git commit -m 'rotate the password' src/", Dev},
	})
}
