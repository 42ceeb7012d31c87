package ai

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/qsh-shell/qsh/assistant/ai/chat"
)

// redactor keeps from the model the secret values of environ (the
// session's exported variables; nil means os.Environ) and the API keys.
func (a *Agent) redactor(environ []string) *Redactor {
	if environ == nil {
		environ = os.Environ()
	}
	return NewRedactor(environ, map[string]string{a.ep.KeyVar: a.ep.APIKey,
		"OPENAI_API_KEY": a.cfg.OpenAIKey, "ANTHROPIC_API_KEY": a.cfg.AnthropicKey})
}

// showContext is `? /context`: what the next question would send — the
// context block as the model would get it, redacted, and the size of the
// rest — without asking the model.
func (a *Agent) showContext(req Request) {
	w := req.Stdout
	block := a.redactor(req.Environ).Redact(contextBlock(a.osname, req.Dir, a.now(), req.Record, a.since))
	fmt.Fprintln(w, "The next question goes with this context:")
	io.WriteString(w, block)
	switch {
	case req.NoContext:
		fmt.Fprintln(w, "(no commands: QSH_AI_CONTEXT is off)")
	case !strings.Contains(block, "\n$ "):
		fmt.Fprintln(w, "(no commands since the last question)")
	}
	var specs []chat.Tool
	if a.tools != nil {
		for _, tl := range a.tools.Tools() {
			specs = append(specs, chat.Tool{Name: tl.Name(), Description: tl.Description(), Schema: tl.Schema()})
		}
	}
	fenced := a.fenced()
	sys := chat.Request{System: system(fenced, specs)}
	if !fenced {
		sys.Tools = specs
	}
	kept := trim(a.msgs, maxHistory)
	prompt, convo, ctx := requestTokens(sys), messagesTokens(kept), estimate(len(block))
	fmt.Fprintf(w, "and, in estimated tokens: the system prompt and %d tools ≈%s, the conversation so far (%d messages) ≈%s, this context ≈%s; ≈%s in all before the question.\n",
		len(specs), thousands(prompt), len(kept), thousands(convo), thousands(ctx), thousands(prompt+convo+ctx))
	if a.window.model == a.ep.Model && a.window.tokens > 0 {
		fmt.Fprintf(w, "%s's window is %s tokens: what does not fit, with room for the answer, is left out (older command output first, then older questions).\n",
			a.ep.Model, thousands(a.window.tokens))
	}
}
