package ai

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/qsh-shell/qsh/assistant/ai/chat"
)

// tally counts tokens: a turn's or a session's.
type tally struct {
	in, out int
	// estimated is set when a server reported no counts for some request
	// and they were estimated from its size.
	estimated bool
}

func (t *tally) add(u tally) {
	t.in += u.in
	t.out += u.out
	t.estimated = t.estimated || u.estimated
}

func (t tally) total() int { return t.in + t.out }

// counted is what one request cost: the counts the server reported, or,
// from a server that reports none, an estimate from the sizes.
func counted(req chat.Request, reply chat.Reply) tally {
	if reply.Usage.Input > 0 || reply.Usage.Output > 0 {
		return tally{in: reply.Usage.Input, out: reply.Usage.Output}
	}
	out := len(reply.Text)
	for _, c := range reply.Calls {
		out += len(c.Name) + len(c.Args)
	}
	return tally{in: requestTokens(req), out: estimate(out), estimated: true}
}

// estimate turns bytes of text into tokens by the usual rule of thumb:
// about four bytes a token for English and code.
func estimate(bytes int) int { return (bytes + 3) / 4 }

// requestTokens estimates the tokens of a request: the system prompt, the
// tools' descriptions and the messages.
func requestTokens(req chat.Request) int {
	n := len(req.System)
	for _, t := range req.Tools {
		n += len(t.Name) + len(t.Description) + len(t.Schema)
	}
	return estimate(n) + messagesTokens(req.Messages)
}

// messagesTokens estimates the tokens of a conversation.
func messagesTokens(msgs []chat.Message) int {
	n := 0
	for _, m := range msgs {
		n += len(m.Text)
		for _, c := range m.Calls {
			n += len(c.Name) + len(c.Args)
		}
	}
	return estimate(n)
}

// describe says what t cost in a few words: "1,234 in · 56 out tokens ·
// $0.0042"; "≈" marks estimated counts.
func (c Config) describe(t tally) string {
	approx := ""
	if t.estimated {
		approx = "≈"
	}
	s := fmt.Sprintf("%s%s in · %s%s out tokens", approx, thousands(t.in), approx, thousands(t.out))
	if c.PriceIn > 0 || c.PriceOut > 0 {
		s += " · " + money(float64(t.in)*c.PriceIn/1e6+float64(t.out)*c.PriceOut/1e6)
	}
	return s
}

// overBudget is the error that stops a turn once the session has used
// its QSH_AI_BUDGET_TOKENS; nil while there is budget left.
func (c Config) overBudget(used tally) error {
	if c.BudgetTokens <= 0 || used.total() < c.BudgetTokens {
		return nil
	}
	return fmt.Errorf("token budget spent: %s of %s tokens used this session (QSH_AI_BUDGET_TOKENS) — raise it, or go on in a new shell",
		thousands(used.total()), thousands(c.BudgetTokens))
}

// budgetStatus is the budget's part of `? /status`.
func (c Config) budgetStatus(used tally) string {
	if c.BudgetTokens <= 0 {
		return ""
	}
	return fmt.Sprintf(" · budget %s, %s left", thousands(c.BudgetTokens), thousands(max(0, c.BudgetTokens-used.total())))
}

// money formats a cost: dollars, with the cents' fractions that a single
// question's cost needs.
func money(v float64) string {
	if v >= 1 {
		return fmt.Sprintf("$%.2f", v)
	}
	return fmt.Sprintf("$%.4f", v)
}

// thousands writes n with commas between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
