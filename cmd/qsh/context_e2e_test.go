package main

// End-to-end tests of what the assistant sees and remembers: the tokens a
// server reports, the context a question sends, private lines, saved
// conversations and the assistant's commands in the history.

import (
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/ai/aitest"
)

func TestUsageShown(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t, aitest.Reply{Text: "Hi.", Chunks: 1, Usage: aitest.Usage{Input: 4321, Output: 87}})
	tm := startAI(t, qshBinary(t), aiEnv(t, srv, "QSH_AI_PRICE_IN=1", "QSH_AI_PRICE_OUT=10"))
	tm.Mark()
	tm.Line("? hi")
	if out := tm.WaitFor(ps1); !strings.Contains(out, "4,321 in · 87 out tokens · $0.0052") {
		t.Errorf("no usage line after the turn:\n%s", out)
	}
	tm.Line("? /status")
	if out := tm.WaitFor(ps1); !strings.Contains(out, "tokens    4,321 in · 87 out tokens · $0.0052 this session") {
		t.Errorf("/status:\n%s", out)
	}
}
