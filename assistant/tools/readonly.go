package tools

import (
	"fmt"

	"github.com/qsh-shell/qsh/policy/danger"
)

// ReadOnly is what a read-only turn (a bare `?`, which diagnoses) offers
// the model of list: the filesystem tool without write and edit,
// execute_command (which then runs only safe commands), web_search; the
// added tools (MCP), which may change anything, are left out. The
// registry enforces the same (see [Env.ReadOnly]); this only keeps the
// model from being offered what would be refused.
func ReadOnly(list []Tool) []Tool {
	var out []Tool
	for _, t := range list {
		switch t := t.(type) {
		case *filesystem:
			ro := *t
			ro.schema = fsSchema(false)
			out = append(out, &ro)
		case *execTool, *web, *jobTool:
			out = append(out, t)
		}
	}
	return out
}

// readOnlyRefusal is why a read-only turn does not make q, or "": only
// safe calls go ahead, and reads, which change nothing whatever their
// class (a dangerous read is still asked about).
func readOnlyRefusal(env Env, q ask) string {
	if !env.ReadOnly || q.kind == kindRead || q.verdict.Class <= danger.Safe || q.verdict.Class >= danger.Blocked {
		return ""
	}
	return fmt.Sprintf("not run: this turn only diagnoses (a bare ?), so only read-only calls run, and %s is %s (%s). Do not try another way: explain the cause, give the fix as commands the user can run, and tell them to ask (for example `? fix it`) if they want you to do it.",
		q.subject, q.verdict.Class, reasons(q.verdict))
}
