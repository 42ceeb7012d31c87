package ai

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/qsh-shell/qsh/assistant/ai/chat"
	"github.com/qsh-shell/qsh/assistant/tools"
	"github.com/qsh-shell/qsh/internal/ansi"
)

// suggestPrompt is the system prompt of a `??` line: one command, no tools,
// one round trip, so that it works on models without tool support and
// costs a few hundred tokens rather than an agent's turn.
const suggestPrompt = `You are the assistant in qsh, a bash-compatible shell. The user describes a task on a "??" line. Answer with exactly one bash command line that does it, in one fenced block (` + "```sh" + `), and nothing else: no explanation, no alternatives. It goes onto the user's prompt line, for them to read, edit and run themselves. Prefer one line and the standard tools of the user's system; no sudo unless the task needs it. If no command can do it, answer with one line starting with # that says why.
The request comes with a <context> block: system, cwd, date, and the commands run since the last question, with exit status, duration and output tail. Secrets show as [REDACTED].`

// suggestMaxTokens bounds a suggestion's answer: one command line.
const suggestMaxTokens = 1024

// suggest answers a `??` line: one request without tools for one command,
// shown with the classifier's verdict and put on the user's prompt line
// (req.Env.Edit), or printed when no prompt follows. Nothing runs. The
// question and the command join the conversation, so that a follow-up `?`
// knows what was proposed.
func (a *Agent) suggest(ctx context.Context, req Request, text string, ev *events, o *outcome) error {
	if text == "" {
		if req.NoContext || len(req.Record) == 0 {
			return errors.New("?? wants a description of the command (?? find files over 100 MB), or a command before it to fix")
		}
		last := req.Record[len(req.Record)-1]
		text = fmt.Sprintf("The command that fixes my last command, `%s` (exit status %d).", last.Line, last.Status)
	}
	if err := a.cfg.overBudget(a.usage); err != nil {
		o.stopped = true
		return err
	}
	red, since, question := a.question(req, text)
	scr := a.screen(req, ev)
	defer scr.End()
	a.learnWindow(ctx)
	// Alone, without the conversation: its tool calls would need the
	// tools declared, which this request goes without.
	t := &turn{a: a, ctx: ctx, scr: scr, red: red, msgs: []chat.Message{question}, quiet: true}
	creq := chat.Request{Model: a.ep.Model, System: suggestPrompt, Messages: t.msgs, MaxTokens: min(a.cfg.MaxOutput, suggestMaxTokens)}
	a.window.fit(&creq, 0)
	reply, err := t.request(creq)
	if err == nil || reply.Usage != (chat.Usage{}) {
		u := counted(creq, reply)
		t.usage.add(u)
		a.usage.add(u)
		o.usage = t.usage
	}
	if err != nil {
		a.since = since
		return err
	}
	command := proposed(reply.Text)
	answer := chat.Message{Role: chat.RoleAssistant, Text: reply.Text}
	if req.Private {
		question.Private, answer.Private = true, true
	} else if save := a.saver(question, req.Dir, red, scr); save != nil {
		save(answer)
	}
	kept := trim(a.msgs, maxHistory)
	a.msgs = append(kept[:len(kept):len(kept)], question, answer)
	if command == "" {
		ev.emit(Event{Type: "text", Text: reply.Text})
		scr.Text(reply.Text)
		scr.End()
		return errors.New("?? got no command from the model (its answer is above)")
	}
	class, why := tools.Judge(req.Dir, command)
	if ev != nil {
		ev.emit(Event{Type: "suggestion", Command: command, Class: class, Reasons: why})
		return nil
	}
	scr.Write([]byte(verdictLine(class, why, scr.color) + "\n"))
	if req.Env.Edit != nil {
		if err := req.Env.Edit(command); err != nil {
			return err
		}
	} else {
		// No prompt follows (qsh -c): the command is the output.
		scr.Write([]byte(ansi.Escape(command) + "\n"))
	}
	if t.usage != (tally{}) && scr.term {
		scr.Line(a.cfg.describe(t.usage))
	}
	return nil
}

// verdictLine shows the classifier's verdict on a suggested command:
// `⚠ dangerous: deletes files`, `✓ safe`.
func verdictLine(class, why string, color bool) string {
	mark, style := "⚠ ", "33"
	switch class {
	case "safe":
		mark, style = "✓ ", "32"
	case "dangerous":
		style = "1;31"
	case "blocked":
		mark, style = "✗ ", "1;31"
		why = strings.TrimSpace(why + "; qsh never runs it for the assistant: it is yours to run or not")
	}
	s := []ansi.Span{{Style: style, Text: mark + class}}
	if why != "" {
		s = append(s, ansi.Span{Text: ": " + ansi.Escape(why)})
	}
	return ansi.Layout(s, 0, 2, color)
}

// proposed is the command in a suggestion's answer: the first fenced
// block's, else the text's; one line, as the prompt takes it. Lines are
// joined as the shell would read them; a text of comments alone is no
// command.
func proposed(text string) string {
	body := text
	if i := strings.Index(text, "```"); i >= 0 {
		rest := text[i+3:]
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
			rest = rest[nl+1:] // the info string: sh, bash
		} else {
			rest = ""
		}
		if j := strings.Index(rest, "```"); j >= 0 {
			rest = rest[:j]
		}
		body = rest
	}
	var b strings.Builder
	for line := range strings.SplitSeq(body, "\n") {
		line = strings.TrimSpace(line)
		line = strings.TrimPrefix(line, "$ ")
		if len(line) > 1 && line[0] == '`' && line[len(line)-1] == '`' && strings.Count(line, "`") == 2 {
			line = line[1 : len(line)-1]
		}
		// A comment line would swallow what is joined after it.
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if b.Len() > 0 {
			prev := b.String()
			switch {
			case strings.HasSuffix(prev, "\\"):
				b.Reset()
				b.WriteString(strings.TrimRight(strings.TrimSuffix(prev, "\\"), " ") + " ")
			case strings.HasSuffix(prev, "|"), strings.HasSuffix(prev, "&&"), strings.HasSuffix(prev, "||"):
				b.WriteString(" ")
			default:
				b.WriteString("; ")
			}
		}
		b.WriteString(line)
	}
	return b.String()
}
