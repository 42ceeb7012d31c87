package ai

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/qsh-shell/qsh/assistant/ai/chat"
	"github.com/qsh-shell/qsh/assistant/ai/ollama"
)

// window is what the agent knows of the model's context window. A server
// given a longer prompt cuts it, Ollama from its start, the system prompt
// and the tools' instructions first, and says nothing; so prompts are made
// to fit, and a server that reports a prompt as long as the window was
// given too much.
type window struct {
	model  string // the model it was learned for
	tokens int    // 0: unknown
	from   string // where tokens comes from, for /status
	// sure is false for a guess, checked again once the model has
	// answered (Ollama then says the num_ctx it runs with).
	sure bool
	// ratio is the bytes per token of the prompts, a cautious 3 to start
	// with and lowered when a server counts more tokens than that.
	ratio float64
}

// Bounds of what fitting a prompt does.
const (
	// msgTokens is what a message costs beyond its text: role markers.
	msgTokens = 8
	// minRatio is the fewest bytes a token is taken to hold.
	minRatio = 1.5
	// clipTo is what a tool result keeps when the window is too small
	// for all of it.
	clipTo = 600
)

// learnWindow finds the context window of the current model, once per
// model: QSH_AI_CONTEXT_TOKENS if set, else Ollama's answer. Other servers
// do not say.
func (a *Agent) learnWindow(ctx context.Context) {
	w := &a.window
	if w.ratio == 0 {
		w.ratio = 3
	}
	if w.model == a.ep.Model && w.from != "" {
		return
	}
	w.model, w.tokens, w.from, w.sure = a.ep.Model, 0, "unknown", true
	switch {
	case a.cfg.ContextTokens > 0:
		w.tokens, w.from = a.cfg.ContextTokens, "QSH_AI_CONTEXT_TOKENS"
	case a.ep.Provider == Ollama:
		if !a.askOllama(ctx, ollama.ContextWindow) {
			// Not running yet, perhaps: ask again with the next question.
			w.from = ""
		}
	}
}

// recheckWindow asks Ollama again about a window that was a guess, now
// that the model has answered and runs.
func (a *Agent) recheckWindow(ctx context.Context) {
	if !a.window.sure && a.ep.Provider == Ollama {
		a.askOllama(ctx, ollama.Running)
		a.window.sure = true // ask once: a server without /api/ps keeps the guess
	}
}

// askOllama asks Ollama about the model's window with ask, and reports
// whether it answered.
func (a *Agent) askOllama(ctx context.Context, ask func(context.Context, *http.Client, string, string) (ollama.Window, error)) bool {
	ctx, cancel := context.WithTimeout(ctx, min(a.cfg.Timeout, 5*time.Second))
	defer cancel()
	got, err := ask(ctx, a.hc, ollama.Root(a.ep.BaseURL), a.ep.Model)
	if err != nil {
		return false
	}
	if got.Tokens > 0 {
		a.window.tokens, a.window.sure = got.Tokens, got.Sure
		a.window.from = "from Ollama: " + got.From
	}
	return true
}

// windowStatus is the window's line of /status.
func (a *Agent) windowStatus() string {
	w := a.window
	if w.model != a.ep.Model || w.from == "" {
		return "not known yet (asked with the first question)"
	}
	if w.tokens == 0 {
		return "unknown (QSH_AI_CONTEXT_TOKENS sets it)"
	}
	return fmt.Sprintf("%s tokens (%s)", thousands(w.tokens), w.from)
}

// estimate is the tokens of n bytes of prompt, by the cautious ratio.
func (w window) estimate(n int) int { return int(float64(n)/w.ratio) + 1 }

// cuts counts what fitting a prompt left out.
type cuts struct {
	outputs, turns, results int
}

func (c cuts) String() string {
	var parts []string
	plural := func(n int, one, many string) string {
		if n == 1 {
			return one
		}
		return fmt.Sprintf(many, n)
	}
	if c.outputs > 0 {
		parts = append(parts, plural(c.outputs, "a command's output", "the output of %d commands"))
	}
	if c.turns > 0 {
		parts = append(parts, plural(c.turns, "the oldest question", "the %d oldest questions"))
	}
	if c.results > 0 {
		parts = append(parts, plural(c.results, "part of a tool's result", "part of %d tools' results"))
	}
	return strings.Join(parts, ", ")
}

// fit makes the request fit the window, leaving room for the answer, and
// bounds the answer by what is left. What goes, in order: the command
// output of earlier questions, oldest first; the oldest questions with
// their answers; the output of this question's commands, oldest first,
// the newest keeping its end; then the middle of this turn's tool results,
// oldest first. The system prompt and the tools' instructions always stay
// whole. first is the index of this turn's question in req.Messages.
func (w window) fit(req *chat.Request, first int) cuts {
	var c cuts
	if w.tokens <= 0 {
		return c
	}
	fixed := len(req.System)
	if len(req.Tools) > 0 {
		b, _ := json.Marshal(req.Tools)
		fixed += len(b)
	}
	// The answer keeps a quarter of the window, or all of its limit when
	// that is less; it gets whatever else the prompt leaves.
	budget := w.tokens - min(req.MaxTokens, w.tokens/4) - w.estimate(fixed)
	msgs := append([]chat.Message(nil), req.Messages...)
	size := func(m chat.Message) int {
		n := len(m.Text)
		for _, c := range m.Calls {
			n += len(c.Name) + len(c.Args)
		}
		return w.estimate(n) + msgTokens
	}
	total := 0
	for _, m := range msgs {
		total += size(m)
	}
	over := func() bool { return total > budget }
	// replace puts a shorter text in message i.
	replace := func(i int, text string) {
		total -= size(msgs[i])
		msgs[i].Text = text
		total += size(msgs[i])
	}
	for i := 0; i < first && over(); i++ {
		for over() {
			text, ok := dropOutput(msgs[i].Text, len(msgs[i].Text))
			if !ok {
				break
			}
			replace(i, text)
			c.outputs++
		}
	}
	for first > 0 && over() {
		next := first
		for j := 1; j < first; j++ {
			if msgs[j].Role == chat.RoleUser {
				next = j
				break
			}
		}
		for _, m := range msgs[:next] {
			total -= size(m)
		}
		msgs, first = msgs[next:], first-next
		c.turns++
	}
	for over() {
		// All but the newest command's output go whole; the newest
		// keeps what fits of its end.
		text, ok := dropOutput(msgs[first].Text, int(float64(total-budget)*w.ratio)+1)
		if !ok {
			break
		}
		replace(first, text)
		c.outputs++
	}
	for i := first + 1; i < len(msgs) && over(); i++ {
		m := msgs[i]
		if m.Role != chat.RoleTool || len(m.Text) <= clipTo {
			continue
		}
		keep := max(clipTo, len(m.Text)-int(float64(total-budget)*w.ratio)-len(clipMark))
		replace(i, clipMiddle(m.Text, keep))
		c.results++
	}
	req.Messages = msgs
	if left := w.tokens - w.estimate(fixed) - total; left < req.MaxTokens {
		req.MaxTokens = max(left, min(req.MaxTokens, w.tokens/4))
	}
	return c
}

// Markers of the context block's command output (see describeCommand).
const (
	outputHead = "  output (end):\n"
	outputLine = "  | "
	outputGone = "  output: left out to fit the model's context window\n"
	clipMark   = "\n[… cut to fit the model's context window …]\n"
)

// dropOutput removes the output of the first command in text's context
// block that still has some. When it is the last and longer than excess,
// the bytes to lose, it keeps its end instead. ok is false when there is
// nothing left to remove.
func dropOutput(text string, excess int) (string, bool) {
	end := strings.Index(text, "</context>")
	if !strings.HasPrefix(text, "<context>") || end < 0 {
		return text, false
	}
	start := strings.Index(text[:end], outputHead)
	if start < 0 {
		return text, false
	}
	body := start + len(outputHead)
	stop := body
	for strings.HasPrefix(text[stop:end], outputLine) {
		nl := strings.IndexByte(text[stop:end], '\n')
		if nl < 0 {
			break
		}
		stop += nl + 1
	}
	last := !strings.Contains(text[stop:end], outputHead)
	if last && stop-body > excess+len(outputLine+"[…]\n") {
		// Keep whole lines from the end.
		from := body + excess + len(outputLine+"[…]\n")
		if nl := strings.IndexByte(text[from:stop], '\n'); nl >= 0 && from+nl+1 < stop {
			return text[:body] + outputLine + "[…]\n" + text[from+nl+1:], true
		}
	}
	return text[:start] + outputGone + text[stop:], true
}

// clipMiddle keeps about n bytes of s, its beginning and its end.
func clipMiddle(s string, n int) string {
	if len(s) <= n {
		return s
	}
	head, end := n/3, len(s)-(n-n/3)
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	for end < len(s) && !utf8.RuneStart(s[end]) {
		end++
	}
	return s[:head] + clipMark + s[end:]
}
