package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/qsh-shell/qsh/internal/ansi"
	"github.com/qsh-shell/qsh/policy/danger"
)

// ask is one call that may need the user's consent.
type ask struct {
	kind    string // kindRun, kindRead, kindWrite, kindCall: a rule covers only its own kind
	verdict danger.Verdict
	subject string // what is shown: the command, "edit path", …
	id      string // what an exact rule is matched against; subject when empty
	path    string // the file a read or write is about, absolute
	tool    string // the added tool called
	body    string // shown under the line: the diff of a write or edit
	verb    string // the question: "run", "write", "edit", "read"
	// rule is what an "a" answer approves for the rest of the session,
	// and "A" always in the project; nil when neither is offered.
	rule *Rule
	// edit, when set, is what "e" does: the user takes the call over
	// (the command onto their prompt line, the content into their
	// editor). Its result goes to the model.
	edit func(ctx context.Context) Result
	// sandboxed marks a call the sandbox applies to: the line says
	// whether it would run sandboxed or unconfined.
	sandboxed bool
}

// Keys with a meaning at the prompt.
const (
	keyCtrlC = 0x03
	keyCtrlD = 0x04
	keyEsc   = 0x1b
)

// approve applies the policy to q and asks the user when it must. It
// returns true to go ahead; otherwise the Result tells the model why not
// (or, after "e", what the user did instead). A call let go ahead to
// run, write or call something is in the audit log before it acts (see
// [call.started]); a read only when it ends.
func (r *Registry) approve(ctx context.Context, env Env, q ask, c *call) (bool, Result) {
	ok, res := r.decide(ctx, env, q, c)
	if ok && q.kind != kindRead && c.started != nil {
		c.started()
	}
	return ok, res
}

// decide is [Registry.approve]'s policy and question.
func (r *Registry) decide(ctx context.Context, env Env, q ask, c *call) (bool, Result) {
	v := q.verdict
	c.class = v.Class.String()
	why := reasons(v)
	if no := readOnlyRefusal(env, q); no != "" {
		c.decision = decRefused
		return false, failf("%s", no)
	}
	switch Decide(r.cfg.Confirm, v.Class, r.cfg.AllowedOnly) {
	case Run:
		c.decision = decRun
		return true, Result{}
	case Refuse:
		c.decision = decRefused
		if v.Class >= danger.Blocked {
			res := failf("refused: %s is blocked (%s). qsh never runs this, even when the user agrees; do not try another way to do the same thing. If it is really needed, tell the user to do it themselves.", q.subject, why)
			res.Shown = "blocked: " + why
			return false, res
		}
		res := failf("refused without asking: %s is %s (%s) and QSH_AI_EXEC_ALLOWED_ONLY is set, so only calls that need no confirmation run.", q.subject, v.Class, why)
		res.Shown = fmt.Sprintf("not run: %s (%s), and QSH_AI_EXEC_ALLOWED_ONLY", v.Class, why)
		return false, res
	}
	out := env.Out
	if out == nil {
		out = io.Discard
	}
	if line := r.perms.problem(); line != "" {
		fmt.Fprintln(out, line)
	}
	if r.approved(q, env.Dir) {
		c.decision = decAlways
		return true, Result{}
	}
	if env.ReadKey == nil {
		c.decision = decRefused
		res := failf("not run: there is no terminal to ask on, and %s is %s (%s), which needs the user's confirmation. Tell the user what you wanted to do instead.", q.subject, v.Class, why)
		res.Shown = fmt.Sprintf("not run: %s (%s) needs your confirmation, and there is no terminal to ask on", v.Class, why)
		return false, res
	}
	keys := r.keys(q)
	effect := ""
	if q.kind == kindRun && env.Preview != nil {
		effect = env.Preview(ctx, q.subject)
	}
	if env.Quiet != nil {
		defer env.Quiet()() // the key is shown once, by the question
	}
	if env.Discard != nil {
		env.Discard() // a y typed twice must not answer this question
	}
	where := r.where(v.Class, q.rule != nil && q.sandboxed)
	r.prompt(out, env, q, keys, effect, where, r.undoable(env, q, where != "" && where != "sandboxed" || !r.confining() && q.kind == kindRun))
	// The call's time is its work's, not the user's thinking.
	asked := r.now()
	defer func() { c.waited = r.now().Sub(asked) }()
	wrong := false // a key that is not an answer came already
	for {
		k, err := env.ReadKey(ctx)
		if err != nil && !errors.Is(err, io.EOF) || k == keyCtrlC {
			fmt.Fprintln(out, "^C")
			c.decision = decCanceled
			c.canceled = true
			return false, Result{Error: ErrCanceled.Error(), Canceled: true}
		}
		if err != nil || k == '\r' || k == '\n' || k == keyEsc || k == keyCtrlD {
			k = 'n'
		}
		if k == 'Y' || k == 'N' {
			k += 'a' - 'A'
		}
		if !strings.ContainsRune(keys, k) {
			// Asked again once, with the keys that are answers; a
			// second wrong key is no, so that a stray paste or a
			// hung-up terminal never waits for ever, nor says yes.
			if wrong {
				fmt.Fprintf(out, "%s is not an answer either: ", keyName(k))
				k = 'n'
			} else {
				wrong = true
				if env.Discard != nil {
					// The rest of a paste ("xy") must not answer the
					// question asked again; what comes after it shows does.
					env.Discard()
				}
				cols := env.columns()
				fmt.Fprint(out, "\n"+ansi.Layout([]ansi.Span{{Style: "2", Text: r.hint(q, env, keys, k)}}, cols, 2, env.Terminal)+
					"\n"+ansi.Layout(r.question(q, keys), cols, 2, env.Terminal))
				continue
			}
		}
		switch k {
		case 'n':
			fmt.Fprintln(out, "n")
			c.decision = decDeclined
			res := failf("the user declined: %s was not done. Do not retry the same call; ask the user what they want or try another way.", q.subject)
			res.Shown = "declined"
			return false, res
		case 'y':
			fmt.Fprintln(out, "y")
			c.decision = decApproved
			return true, Result{}
		case 'a':
			fmt.Fprintln(out, "a")
			r.allow(*q.rule, env)
			c.decision = decAlways
			return true, Result{}
		case 'A':
			rule := *q.rule
			rule.Project, rule.Made, rule.From = projectOf(env.Dir), madeNow(r.now), clip(oneLine(env.Question), 200)
			if err := r.perms.add(rule); err != nil {
				fmt.Fprintf(out, "A: not saved (%v); allowed for this session\n", err)
				r.allow(*q.rule, env)
			} else {
				fmt.Fprintf(out, "A: always in %s\n", tildePath(rule.Project))
			}
			c.decision = decAlways
			return true, Result{}
		case 'e':
			fmt.Fprintln(out, "e")
			c.decision = decEdited
			return false, q.edit(ctx)
		}
	}
}

// keys are the answers q may get, as the prompt lists them.
func (r *Registry) keys(q ask) string {
	k := "yn"
	if q.rule != nil {
		k += "a"
		if q.rule.savable() && r.perms != nil {
			k += "A"
		}
	}
	if q.edit != nil {
		k += "e"
	}
	return k
}

// allow keeps rule for the rest of the session.
func (r *Registry) allow(rule Rule, env Env) {
	rule.Made, rule.From = madeNow(r.now), clip(oneLine(env.Question), 200)
	r.mu.Lock()
	r.approvals = append(r.approvals, rule)
	r.mu.Unlock()
}

func (q ask) key() string {
	if q.id != "" {
		return q.id
	}
	return q.subject
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// prompt writes the confirmation line DESIGN.md shows, with where the
// call would run and whether `? /undo` could take it back:
//
//	⚠ dev  go build ./...   (runs the Go toolchain in this project)  sandboxed  undo: yes  run? [y/n/a/A/e]
//
// effect, when known, is what the command would change (see package effect).
func (r *Registry) prompt(w io.Writer, env Env, q ask, keys, effect, where, undo string) {
	colour := "33" // dev: yellow
	switch {
	case q.verdict.Class >= danger.Dangerous:
		colour = "1;31"
	case q.verdict.Class == danger.Safe:
		colour = "32"
	}
	// The command, the reasons quoting it and the files it would touch
	// are shown, never acted on (see package ansi); the line is fitted to
	// the terminal, broken between words, its continuations indented, so
	// that the terminal never wraps it.
	head := []ansi.Span{{Style: colour, Text: "⚠ " + q.verdict.Class.String()}, {Text: "  " + ansi.Escape(q.subject)}}
	if why := reasons(q.verdict); why != "" {
		head = append(head, ansi.Span{Text: "   "}, ansi.Span{Style: "2", Text: "(" + ansi.Escape(why) + ")"})
	}
	if effect != "" {
		head = append(head, ansi.Span{Text: "  "}, ansi.Span{Style: "1", Text: "→ " + ansi.Escape(effect)})
	}
	if q.sandboxed && where != "" {
		style := "2"
		if where != "sandboxed" {
			style = "1"
		}
		head = append(head, ansi.Span{Text: "  "}, ansi.Span{Style: style, Text: where, Keep: true})
	}
	if undo != "" {
		style := "2"
		if !strings.HasPrefix(undo, "undo: yes") {
			style = "1"
		}
		head = append(head, ansi.Span{Text: "  "}, ansi.Span{Style: style, Text: ansi.Escape(undo), Keep: true})
	}
	cols := env.columns()
	if q.body == "" {
		head = append(head, ansi.Span{Text: "  "})
		fmt.Fprint(w, ansi.Layout(append(head, r.question(q, keys)...), cols, 2, env.Terminal))
		return
	}
	fmt.Fprintln(w, ansi.Layout(head, cols, 2, env.Terminal))
	paint := func(code, s string) string { return paint(env.Terminal, code, s) }
	for _, line := range strings.SplitAfter(strings.TrimSuffix(q.body, "\n"), "\n") {
		line = ansi.Escape(strings.TrimSuffix(line, "\n"))
		switch {
		case strings.HasPrefix(line, "+++"), strings.HasPrefix(line, "---"):
			line = paint("1", line)
		case strings.HasPrefix(line, "+"):
			line = paint("32", line)
		case strings.HasPrefix(line, "-"):
			line = paint("31", line)
		case strings.HasPrefix(line, "@@"):
			line = paint("36", line)
		}
		fmt.Fprintln(w, line)
	}
	fmt.Fprint(w, ansi.Layout(r.question(q, keys), cols, 2, env.Terminal))
}

// question is the end of a confirmation: "run? [y/n/a/A/e] ", kept on one
// line.
func (r *Registry) question(q ask, keys string) []ansi.Span {
	return []ansi.Span{{Style: "1", Text: q.verb + "?", Keep: true}, {Text: " [" + strings.Join(strings.Split(keys, ""), "/") + "] ", Keep: true}}
}

// paint wraps s in an SGR code on a terminal.
func paint(term bool, code, s string) string {
	if !term {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

// hint is the line after a key that is not an answer: why, when it is an
// answer elsewhere, and the keys that are.
func (r *Registry) hint(q ask, env Env, keys string, k rune) string {
	var b strings.Builder
	if why := r.notOffered(q, env, k); why != "" {
		fmt.Fprintf(&b, "%c is not offered here: %s. ", k, why)
	} else {
		fmt.Fprintf(&b, "%s is not an answer: ", keyName(k))
	}
	for _, key := range keys {
		b.WriteString(keyMeaning(q, key) + " · ")
	}
	b.WriteString("Enter/Esc/Ctrl-D no · Ctrl-C stop")
	return b.String()
}

// keyMeaning says what key does at q's prompt.
func keyMeaning(q ask, key rune) string {
	switch key {
	case 'y':
		return "y " + q.verb
	case 'n':
		return "n don't"
	case 'a':
		return "a allow alike this session"
	case 'A':
		return "A always in this project"
	case 'e':
		if q.kind == kindRun {
			return "e edit on your prompt"
		}
		return "e edit in your editor"
	}
	return string(key)
}

// notOffered says why k, an answer at some prompts, is not one at q's;
// "" when k is no answer anywhere.
func (r *Registry) notOffered(q ask, env Env, k rune) string {
	switch k {
	case 'e':
		switch {
		case q.kind == kindCall:
			return "an MCP tool's call is not a command you could run yourself"
		case q.kind == kindRun:
			return "there is no prompt to come to put the command on"
		case q.kind == kindWrite:
			return "no editor: set VISUAL or EDITOR"
		}
		return "there is nothing to edit"
	case 'a', 'A':
		switch {
		case q.rule == nil:
			return "this call is approved one at a time"
		case q.rule.savable() && r.perms == nil:
			return "there is no permissions file"
		}
		return "this call may be allowed for this session only"
	}
	return ""
}

// keyName shows a key pressed: control keys as ^X.
func keyName(k rune) string {
	switch {
	case k == utf8.RuneError: // keys.Unknown: an arrow, a function key
		return "that key"
	case k < 0x20:
		return "^" + string(k+'@')
	case k == 0x7f:
		return "^?"
	}
	return string(k)
}

func reasons(v danger.Verdict) string {
	return strings.Join(v.Reasons, "; ")
}
