package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/qsh-shell/qsh/tools/danger"
)

// ask is one call that may need the user's consent.
type ask struct {
	kind    string // "exec", "fs", "tool": an "always" covers only its own kind
	verdict danger.Verdict
	subject string // what is shown: the command, "edit path", …
	id      string // what an "always" is matched against; subject when empty
	body    string // shown under the line: the diff of a write or edit
	verb    string // the question: "run", "write", "edit", "read"
	// match is what an "a" answer approves for the rest of the session;
	// nil when "a" is not offered.
	match func(subject string) bool
	// sandboxed marks a call the sandbox applies to: the line says
	// whether it would run sandboxed or unconfined.
	sandboxed bool
}

// approval is one "a" answer: calls of kind whose subject matches and whose
// class is no worse than class run without asking.
type approval struct {
	kind  string
	class danger.Class
	match func(subject string) bool
}

// Keys with a meaning at the prompt.
const (
	keyCtrlC = 0x03
	keyEsc   = 0x1b
)

// approve applies the policy to q and asks the user when it must. It
// returns true to go ahead; otherwise the Result tells the model why not.
func (r *Registry) approve(ctx context.Context, env Env, q ask, c *call) (bool, Result) {
	v := q.verdict
	c.class = v.Class.String()
	why := reasons(v)
	switch Decide(r.cfg.Confirm, v.Class, r.cfg.AllowedOnly) {
	case Run:
		c.decision = decRun
		return true, Result{}
	case Refuse:
		c.decision = decRefused
		if v.Class >= danger.Blocked {
			return false, failf("refused: %s is blocked (%s). qsh never runs this, even when the user agrees; do not try another way to do the same thing. If it is really needed, tell the user to do it themselves.", q.subject, why)
		}
		return false, failf("refused without asking: %s is %s (%s) and QSH_AI_EXEC_ALLOWED_ONLY is set, so only calls that need no confirmation run.", q.subject, v.Class, why)
	}
	if r.approved(q) {
		c.decision = decAlways
		return true, Result{}
	}
	if env.ReadKey == nil {
		c.decision = decRefused
		return false, failf("not run: %s is %s (%s) and needs the user's confirmation, but there is no terminal to ask on. Tell the user what you wanted to do instead.", q.subject, v.Class, why)
	}
	out := env.Out
	if out == nil {
		out = io.Discard
	}
	r.prompt(out, env.Terminal, q, r.where(v.Class, q.match != nil && q.sandboxed))
	for {
		k, err := env.ReadKey(ctx)
		if err != nil && !errors.Is(err, io.EOF) || k == keyCtrlC {
			fmt.Fprintln(out, "^C")
			c.decision = decCanceled
			c.canceled = true
			return false, Result{Error: ErrCanceled.Error(), Canceled: true}
		}
		switch {
		case err != nil, k == 'n', k == 'N', k == '\r', k == '\n', k == keyEsc:
			fmt.Fprintln(out, "n")
			c.decision = decDeclined
			return false, failf("the user declined: %s was not done. Do not retry the same call; ask the user what they want or try another way.", q.subject)
		case k == 'y', k == 'Y':
			fmt.Fprintln(out, "y")
			c.decision = decApproved
			return true, Result{}
		case (k == 'a' || k == 'A') && q.match != nil:
			fmt.Fprintln(out, "a")
			r.mu.Lock()
			r.approvals = append(r.approvals, approval{kind: q.kind, class: v.Class, match: q.match})
			r.mu.Unlock()
			c.decision = decAlways
			return true, Result{}
		}
		// Any other key: keep waiting for an answer.
	}
}

func (q ask) key() string {
	if q.id != "" {
		return q.id
	}
	return q.subject
}

// approved reports whether an earlier "a" covers q.
func (r *Registry) approved(q ask) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, a := range r.approvals {
		if a.kind == q.kind && q.verdict.Class <= a.class && a.match(q.key()) {
			return true
		}
	}
	return false
}

// prompt writes the confirmation line DESIGN.md shows, with where the
// call would run:
//
//	⚠ dev  go build ./...   (runs the Go toolchain in this project)  sandboxed  run? [y/n/a]
func (r *Registry) prompt(w io.Writer, term bool, q ask, where string) {
	paint := func(code, s string) string {
		if !term {
			return s
		}
		return "\x1b[" + code + "m" + s + "\x1b[0m"
	}
	colour := "33" // dev: yellow
	switch {
	case q.verdict.Class >= danger.Dangerous:
		colour = "1;31"
	case q.verdict.Class == danger.Safe:
		colour = "32"
	}
	keys := "[y/n]"
	if q.match != nil {
		keys = "[y/n/a]"
	}
	head := paint(colour, "⚠ "+q.verdict.Class.String()) + "  " + q.subject
	if why := reasons(q.verdict); why != "" {
		head += "   " + paint("2", "("+why+")")
	}
	if q.sandboxed && where != "" {
		style := "2"
		if where != "sandboxed" {
			style = "1"
		}
		head += "  " + paint(style, where)
	}
	question := paint("1", q.verb+"?") + " " + keys + " "
	if q.body == "" {
		fmt.Fprintf(w, "%s  %s", head, question)
		return
	}
	fmt.Fprintln(w, head)
	for _, line := range strings.SplitAfter(strings.TrimSuffix(q.body, "\n"), "\n") {
		line = strings.TrimSuffix(line, "\n")
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
	fmt.Fprint(w, question)
}

func reasons(v danger.Verdict) string {
	return strings.Join(v.Reasons, "; ")
}
