package ai

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
	"github.com/qsh-shell/qsh/assistant/tools"
)

func TestProposed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"```sh\nfind . -size +100M -mtime -7\n```\n", "find . -size +100M -mtime -7"},
		{"Here it is:\n```bash\n$ ls -la\n```\nThat lists.", "ls -la"},
		{"`du -sh *`", "du -sh *"},
		{"ls -la\n", "ls -la"},
		{"```sh\n# list them\nls\n```", "ls"},
		{"```sh\ncd /tmp\nls\n```", "cd /tmp; ls"},
		{"```sh\nfind . \\\n  -name x\n```", "find . -name x"},
		{"```sh\nps aux |\n  grep x\n```", "ps aux | grep x"},
		{"# no command can do that", ""},
		{"```sh\n```", ""},
		{"", ""},
	} {
		if got := proposed(tc.in); got != tc.want {
			t.Errorf("proposed(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestSuggest: a `??` request goes without tools, with the context block;
// the command goes to Env.Edit with the classifier's verdict above it, and
// the exchange joins the conversation.
func TestSuggest(t *testing.T) {
	t.Parallel()
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			srv := p.start(t, aitest.Say("```sh\nrm -r src\n```\n", 3), aitest.Say("It removes src.", 2))
			a := New(p.cfg(srv.URL), newSet(echo()), noWait)
			var out bytes.Buffer
			var edited []string
			req := Request{Text: "remove the src dir", Dir: t.TempDir(), Stdout: &out, Environ: []string{}, Suggest: true,
				Record: []Command{{Line: "make", Status: 2, Start: time.Now(), Output: "make: *** [all] Error 2"}},
				Env:    tools.Env{Edit: func(c string) error { edited = append(edited, c); return nil }}}
			if err := a.Ask(context.Background(), req); err != nil {
				t.Fatal(err)
			}
			if len(edited) != 1 || edited[0] != "rm -r src" {
				t.Errorf("edited %q", edited)
			}
			if s := out.String(); !strings.Contains(s, "⚠ dangerous: ") || strings.Contains(s, "```") {
				t.Errorf("output %q", s)
			}
			r := srv.Requests()[0]
			if _, ok := r.Body["tools"]; ok {
				t.Error("a suggestion's request offered tools")
			}
			body := sent(r)
			if !strings.Contains(body, "remove the src dir") || !strings.Contains(body, "Error 2") || !strings.Contains(body, "one bash command") {
				t.Errorf("request: %s", body)
			}
			req.Text, req.Suggest, req.Record = "what does that do?", false, nil
			if err := a.Ask(context.Background(), req); err != nil {
				t.Fatal(err)
			}
			if body := sent(srv.Requests()[1]); !strings.Contains(body, "remove the src dir") || !strings.Contains(body, "rm -r src") {
				t.Errorf("the follow-up lacks the suggestion: %s", body)
			}
		})
	}
}

// TestSuggestPrints: without a prompt to come (qsh -c), the command is
// printed; a safe one says so.
func TestSuggestPrints(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t, aitest.Say("```sh\nls -la\n```", 1))
	a := New(providers[0].cfg(srv.URL), nil, noWait)
	var out bytes.Buffer
	err := a.Ask(context.Background(), Request{Text: "list", Dir: t.TempDir(), Stdout: &out, Environ: []string{}, Suggest: true})
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != "✓ safe: `ls`: lists files\nls -la\n" {
		t.Errorf("output %q", out.String())
	}
}

func TestSuggestNoCommand(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t, aitest.Say("# nothing can do that", 1))
	a := New(providers[0].cfg(srv.URL), nil, noWait)
	var out bytes.Buffer
	err := a.Ask(context.Background(), Request{Text: "make coffee", Dir: t.TempDir(), Stdout: &out, Environ: []string{}, Suggest: true,
		Env: tools.Env{Edit: func(string) error { t.Error("edited"); return nil }}})
	if err == nil || !strings.Contains(out.String(), "# nothing can do that") {
		t.Errorf("err %v, output %q", err, out.String())
	}
}
