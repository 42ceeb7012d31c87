package conversation

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/qsh-shell/qsh/assistant/ai/chat"
)

// maxResult bounds a tool result in Markdown; the rest is left out.
const maxResult = 4000

// Markdown writes a conversation for people to read: each question a
// heading, its context block folded, the answers as the model wrote them
// (Markdown already), each tool call with its result in a code block.
func Markdown(w io.Writer, h Header, msgs []chat.Message) error {
	var b strings.Builder
	b.WriteString("# qsh conversation\n\n")
	var meta []string
	if !h.Started.IsZero() {
		meta = append(meta, "started "+h.Started.Format("2006-01-02 15:04"))
	}
	if h.Dir != "" {
		meta = append(meta, "in "+inlineCode(h.Dir))
	}
	if h.Model != "" {
		meta = append(meta, strings.TrimSpace(h.Provider+" "+h.Model))
	}
	if len(meta) > 0 {
		b.WriteString(strings.ToUpper(meta[0][:1]) + strings.Join(meta, " · ")[1:] + "\n\n")
	}
	for _, m := range msgs {
		switch m.Role {
		case chat.RoleUser:
			ctx, q := SplitQuestion(m.Text)
			fmt.Fprintf(&b, "## ? %s\n\n", oneLine(q))
			if strings.Contains(strings.TrimSpace(q), "\n") {
				b.WriteString(q + "\n\n")
			}
			if ctx != "" {
				b.WriteString("<details><summary>context</summary>\n\n")
				codeBlock(&b, "", ctx)
				b.WriteString("</details>\n\n")
			}
		case chat.RoleAssistant:
			if t := strings.TrimSpace(m.Text); t != "" {
				b.WriteString(t + "\n\n")
			}
			for _, c := range m.Calls {
				fmt.Fprintf(&b, "**→ %s** %s\n\n", c.Name, inlineCode(summary(c.Args)))
			}
		case chat.RoleTool:
			text := m.Text
			if len(text) > maxResult {
				text = text[:maxResult] + "\n[…]"
			}
			if m.IsError {
				b.WriteString("(failed)\n\n")
			}
			codeBlock(&b, "", text)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// summary is what a call's arguments say, in a line: the values of its
// string arguments.
func summary(args string) string {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil {
		return oneLine(args)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		if s, ok := m[k].(string); ok && s != "" {
			parts = append(parts, s)
		}
	}
	return oneLine(strings.Join(parts, " "))
}

// fence is a run of backticks longer than any in s.
func fence(s string, least int) string {
	n, run := least-1, 0
	for _, r := range s {
		if r == '`' {
			run++
			n = max(n, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", n+1)
}

func codeBlock(b *strings.Builder, lang, text string) {
	f := fence(text, 3)
	fmt.Fprintf(b, "%s%s\n%s\n%s\n\n", f, lang, strings.TrimRight(text, "\n"), f)
}

func inlineCode(s string) string {
	if s == "" {
		return ""
	}
	f := fence(s, 1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return f + s + f
}
