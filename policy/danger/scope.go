package danger

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Rule is what an `a` ("always") answer allows for the rest of the
// session: either one exact command text, or a command and its
// subcommands (`go test`) up to a class.
type Rule struct {
	// Words are the command and subcommand words the rule covers, as in
	// ["git", "diff"]; empty when Exact is set.
	Words []string
	// Exact is the only command text the rule covers, when set.
	Exact string
	// Class is the worst class a covered command may have.
	Class Class
}

// neutral is the workspace rules judge commands in: relative paths are
// inside it, absolute ones outside, so a rule never widens by accident.
var neutral = Workspace{Dir: "/qsh/workspace", Home: "/qsh/home"}

// Scope returns the narrowest sensible rule for approving command for the
// rest of the session. Blocked commands get none; dangerous ones, and
// anything that is not a single recognised command (interpreters,
// wrappers, bare git, compound lines), only their exact text.
func Scope(command string, v Verdict) (Rule, bool) {
	text := strings.TrimSpace(command)
	if v.Class == Blocked || text == "" {
		return Rule{}, false
	}
	exact := Rule{Exact: text, Class: v.Class}
	if v.Class == Dangerous {
		return exact, true
	}
	words, ok := chainOf(text)
	if !ok {
		return exact, true
	}
	return Rule{Words: words, Class: v.Class}, true
}

// Match reports whether the rule allows command.
func (r Rule) Match(command string) bool {
	text := strings.TrimSpace(command)
	if r.Exact != "" {
		return text == r.Exact
	}
	if len(r.Words) == 0 {
		return false
	}
	words, ok := chainOf(text)
	if !ok || len(words) < len(r.Words) {
		return false
	}
	for i, w := range r.Words {
		if words[i] != w {
			return false
		}
	}
	return Classify(text, neutral).Class <= r.Class
}

// String shows the rule at the prompt and in the audit log.
func (r Rule) String() string {
	if r.Exact != "" {
		return "exactly `" + r.Exact + "`"
	}
	return "`" + strings.Join(r.Words, " ") + " …` (up to " + r.Class.String() + ")"
}

// chainOf returns the command and subcommand words of a single simple
// command with literal words, or false when the text is anything else or
// names a command that must not be approved by name.
func chainOf(text string) ([]string, bool) {
	f, err := parse(text)
	if err != nil || len(f.Stmts) != 1 {
		return nil, false
	}
	s := f.Stmts[0]
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 || s.Background || s.Negated || s.Coprocess {
		return nil, false
	}
	for _, a := range c.Assigns {
		if a.Name == nil || hijackVars.Get()[a.Name.Value] || a.Array != nil || a.Value != nil && literalText(a.Value) == "" && len(a.Value.Parts) > 0 {
			return nil, false
		}
	}
	args := make([]arg, 0, len(c.Args))
	for _, word := range c.Args {
		v := literalText(word)
		if v == "" {
			return nil, false
		}
		args = append(args, arg{s: v, text: v})
	}
	name := args[0].s
	if strings.Contains(name, "/") {
		return nil, false
	}
	r := lookup(name)
	if r == nil || r.noscope || r.kind != kindPlain {
		return nil, false
	}
	words := []string{name}
	if r.sub != nil {
		descended := false
		for r.sub != nil {
			ops := scan(r, args)
			if len(ops) == 0 {
				break
			}
			s, ok := r.sub[args[ops[0]].s]
			if !ok {
				break
			}
			words = append(words, args[ops[0]].s)
			args = args[ops[0]:]
			r = s
			descended = true
		}
		if !descended {
			return nil, false // bare git, npm, docker …
		}
	}
	if r.ops != nil {
		// A command whose operands change its class (npm run deploy, make
		// install) is approved with its first operand.
		if ops := scan(r, args); len(ops) > 0 {
			words = append(words, args[ops[0]].s)
		}
	}
	return words, true
}
