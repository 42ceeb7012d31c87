package tools

import (
	"strings"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/policy/danger"
)

func TestParsePermissions(t *testing.T) {
	made := time.Date(2026, 11, 25, 14, 3, 5, 0, time.UTC)
	good := permissionsHeader + `
project=/w kind=run command="go vet" class=dev made=2026-11-25T14:03:05Z from="vet it"
  project="/my projects/app"   kind=run exact="git push --force origin main" class=dangerous
project=/w kind=write under=/w/src class=dev
project=/w kind=read under=/usr/share class=dev
project=/w kind=call tool=github.create_issue class=dev
`
	rules, err := parsePermissions(good)
	if err != nil {
		t.Fatal(err)
	}
	want := []Rule{
		{Kind: kindRun, Command: "go vet", Class: danger.Dev, Project: "/w", Made: made, From: "vet it"},
		{Kind: kindRun, Exact: "git push --force origin main", Class: danger.Dangerous, Project: "/my projects/app"},
		{Kind: kindWrite, Under: "/w/src", Class: danger.Dev, Project: "/w"},
		{Kind: kindRead, Under: "/usr/share", Class: danger.Dev, Project: "/w"},
		{Kind: kindCall, Tool: "github.create_issue", Class: danger.Dev, Project: "/w"},
	}
	if len(rules) != len(want) {
		t.Fatalf("got %d rules, want %d: %+v", len(rules), len(want), rules)
	}
	for i := range want {
		if rules[i].Rule != want[i] {
			t.Errorf("rule %d: got %+v, want %+v", i, rules[i].Rule, want[i])
		}
	}
	if rules[0].line != strings.Count(permissionsHeader, "\n")+2 {
		t.Errorf("rule 0 on line %d", rules[0].line)
	}

	// Each of these makes the whole file fail: never a wider rule, never
	// half a file.
	for _, tc := range []struct{ line, why string }{
		{`project=/w kind=run command="bash" class=dev`, "not a command and its subcommand"},
		{`project=/w kind=run command="git" class=dev`, "not a command and its subcommand"},
		{`project=/w kind=run command="sh -c" class=dev`, "not a command and its subcommand"},
		{`project=/w kind=run command="sudo ls" class=dev`, "not a command and its subcommand"},
		{`project=/w kind=run command="go" class=dev`, "not a command and its subcommand"},
		{`project=/w kind=run command="go vet" class=dangerous`, "saved only as its exact text"},
		{`project=/w kind=run command="go vet" class=blocked`, "class=blocked"},
		{`project=/w kind=run exact="rm -rf ~" class=blocked`, "class=blocked"},
		{`project=/w kind=run command="go vet"`, "no class="},
		{`project=/w command="go vet" class=dev`, "no kind="},
		{`kind=run command="go vet" class=dev`, "project="},
		{`project=w kind=run command="go vet" class=dev`, "absolute"},
		{`project=/w/../x kind=run command="go vet" class=dev`, "clean"},
		{`project=/w kind=run comand="go vet" class=dev`, `unknown key "comand"`},
		{`project=/w kind=run command="go vet" exact="ls" class=dev`, "exactly one of"},
		{`project=/w kind=run class=dev`, "exactly one of"},
		{`project=/w kind=run under=/w class=dev`, "cannot have"},
		{`project=/w kind=write under=/ class=dev`, "in the project"},
		{`project=/w kind=write under=/w class=dangerous`, "only class=dev"},
		{`project=/w kind=write exact="write /etc/x 0" class=dangerous`, "cannot have"},
		{`project=/w kind=read under=/x class=dangerous`, "only class=safe or dev"},
		{`project=/w kind=call tool="a b" class=dev`, "not a tool's name"},
		{`project=/w kind=call tool=x class=dangerous`, "only class=safe or dev"},
		{`project=/w kind=exec command="go vet" class=dev`, "kind=exec"},
		{`project=/w kind=run command="go vet class=dev`, "does not end"},
		{`project=/w kind=run command="go vet"x class=dev`, "after the closing quote"},
		{`project=/w kind=run command=go" class=dev`, "quote inside"},
		{`project=/w kind=run kind=run command="go vet" class=dev`, "kind= twice"},
		{`project=/w kind=run command="go vet" class=dev made=yesterday`, "not a time"},
		{`allow go vet`, "not key=value"},
		{`=x`, "not key=value"},
		{`project=/w kind=run command="\q" class=dev`, "bad quoted value"},
	} {
		_, err := parsePermissions(good + tc.line + "\n")
		if err == nil || !strings.Contains(err.Error(), tc.why) {
			t.Errorf("%s: error %v, want one saying %q", tc.line, err, tc.why)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "line ") {
			t.Errorf("%s: error %v does not name the line", tc.line, err)
		}
	}
}

func TestFormatRuleRoundTrip(t *testing.T) {
	for _, r := range []Rule{
		{Kind: kindRun, Command: "go vet", Class: danger.Dev, Project: "/w", Made: time.Unix(1e9, 0).UTC(), From: `say "hi" = \ # there`},
		{Kind: kindRun, Exact: "printf '%s\\n' \"a b\"\n echo x", Class: danger.Dangerous, Project: "/a b/c"},
		{Kind: kindWrite, Under: "/w/x y", Class: danger.Dev, Project: "/w"},
		{Kind: kindCall, Tool: "t", Class: danger.Dev, Project: "/"},
	} {
		line := formatRule(r)
		if strings.Contains(line, "\n") {
			t.Errorf("%+v: the line has a newline: %q", r, line)
		}
		got, err := parseRule(line)
		if err != nil || got != r {
			t.Errorf("%q read back as %+v, %v; want %+v", line, got, err, r)
		}
	}
}

// FuzzPermissions checks that no file makes the parser panic, that every
// rule it accepts is one an `a` answer could have made, and that a rule
// written back reads the same.
func FuzzPermissions(f *testing.F) {
	f.Add(permissionsHeader + "project=/w kind=run command=\"go vet\" class=dev made=2026-11-25T14:03:05Z from=\"vet it\"\n")
	f.Add("project=/w kind=run exact=\"git push -f\" class=dangerous\n")
	f.Add("project=/w kind=write under=/w class=dev\nproject=/ kind=call tool=x class=safe\n")
	f.Add("project=/w kind=read under=/ class=dev\n# comment\n\n")
	f.Add("project=\"/\\x00\" kind=run command=\"npm run build\" class=dev\n")
	f.Add("project=/w kind=run command=\"go vet\" class=dev from=\"\\u00e9\\\"\"\n")
	f.Fuzz(func(t *testing.T, text string) {
		rules, err := parsePermissions(text)
		if err != nil {
			if rules != nil {
				t.Fatalf("a failing file gave rules: %+v", rules)
			}
			return
		}
		for _, r := range rules {
			if err := r.check(); err != nil {
				t.Fatalf("accepted %+v: %v", r.Rule, err)
			}
			if r.Class >= danger.Blocked {
				t.Fatalf("accepted a blocked rule %+v", r.Rule)
			}
			if r.Command != "" && r.Class > danger.Dev {
				t.Fatalf("accepted a dangerous command rule %+v", r.Rule)
			}
			back, err := parseRule(formatRule(r.Rule))
			if err != nil || back != r.Rule {
				t.Fatalf("%+v written as %q read back as %+v, %v", r.Rule, formatRule(r.Rule), back, err)
			}
		}
	})
}
