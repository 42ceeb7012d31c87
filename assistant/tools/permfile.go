package tools

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/qsh-shell/qsh/policy/danger"
)

// The saved permissions file ($XDG_CONFIG_HOME/qsh/permissions): one rule
// a line, as key=value fields, for people to read and edit. qsh appends a
// line for each `A` and removes one for `? /permissions revoke N`, leaving
// the other lines as they were. A file with a line qsh cannot read, or a
// rule wider than an `a` answer could make, is ignored whole: it never
// allows more than it says.

// permissionsHeader starts a new file.
const permissionsHeader = `# qsh's saved permissions: calls the assistant may make without asking, each
# in one project (a git work tree's root, else a directory). Answering A at a
# confirmation adds a line; ? /permissions lists them, ? /permissions revoke N
# removes one. You may edit this file: if qsh cannot read a line, or a rule
# is wider than an a answer could make, it ignores the whole file and says so.
#
#   project=DIR kind=run command="WORDS" class=safe|dev     the command with these first words
#   project=DIR kind=run exact="TEXT" class=safe|dev|dangerous    this command text only
#   project=DIR kind=write under=DIR class=dev              writes and edits of files in DIR
#   project=DIR kind=read under=DIR class=safe|dev          looking at files in DIR
#   project=DIR kind=call tool=NAME class=dev               any call of an MCP tool
#
# made=TIME (RFC 3339) says when, from="QUESTION" during which question.
# Values with spaces or quotes are written in double quotes, with backslash escapes.
`

// savedRule is one rule of the file, with the line it is on.
type savedRule struct {
	Rule
	line int // 1-based
}

// parsePermissions reads the file's text. Any line it cannot read makes
// the whole file fail, with the line's number and why.
func parsePermissions(text string) ([]savedRule, error) {
	var rules []savedRule
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		r, err := parseRule(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", i+1, err)
		}
		rules = append(rules, savedRule{r, i + 1})
	}
	return rules, nil
}

// parseRule reads one line of key=value fields.
func parseRule(line string) (Rule, error) {
	fields, err := splitFields(line)
	if err != nil {
		return Rule{}, err
	}
	var r Rule
	class := ""
	for _, f := range fields {
		k, v := f[0], f[1]
		switch k {
		case "project":
			r.Project = v
		case "kind":
			r.Kind = v
		case "command":
			r.Command = v
		case "exact":
			r.Exact = v
		case "under":
			r.Under = v
		case "tool":
			r.Tool = v
		case "class":
			class = v
		case "made":
			t, err := time.Parse(time.RFC3339, v)
			if err != nil {
				return Rule{}, fmt.Errorf("made=%s is not a time like 2006-01-02T15:04:05Z", v)
			}
			r.Made = t
		case "from":
			r.From = v
		default:
			return Rule{}, fmt.Errorf("unknown key %q", k)
		}
	}
	switch class {
	case "safe":
		r.Class = danger.Safe
	case "dev":
		r.Class = danger.Dev
	case "dangerous":
		r.Class = danger.Dangerous
	case "":
		return Rule{}, fmt.Errorf("no class=")
	default:
		return Rule{}, fmt.Errorf("class=%s: want safe, dev or dangerous", class)
	}
	if err := r.check(); err != nil {
		return Rule{}, err
	}
	return r, nil
}

// check reports why r could not have come from an `A` answer: a saved
// rule is never wider than an `a` for the session.
func (r Rule) check() error {
	if r.Project == "" || !filepath.IsAbs(r.Project) || filepath.Clean(r.Project) != r.Project {
		return fmt.Errorf("project=%q: want an absolute, clean path", r.Project)
	}
	set := 0
	for _, v := range []string{r.Command, r.Exact, r.Under, r.Tool} {
		if v != "" {
			set++
		}
	}
	if set != 1 {
		return fmt.Errorf("want exactly one of command=, exact=, under=, tool=")
	}
	wrong := func(what string) error { return fmt.Errorf("kind=%s cannot have %s", r.Kind, what) }
	switch r.Kind {
	case kindRun:
		switch {
		case r.Under != "" || r.Tool != "":
			return wrong("under= or tool=")
		case r.Command != "":
			if r.Class > danger.Dev {
				return fmt.Errorf("command=%q class=%s: a dangerous command is saved only as its exact text", r.Command, r.Class)
			}
			// The words must be what danger.Scope makes of them: a
			// command and its subcommand, never an interpreter or bare
			// git.
			scope, ok := danger.Scope(r.Command, danger.Verdict{Class: r.Class})
			if !ok || scope.Exact != "" || strings.Join(scope.Words, " ") != r.Command {
				return fmt.Errorf("command=%q is not a command and its subcommand that a rule may cover", r.Command)
			}
		case strings.TrimSpace(r.Exact) != r.Exact:
			return fmt.Errorf("exact=%q has spaces around it", r.Exact)
		}
	case kindWrite, kindRead:
		if r.Under == "" {
			return wrong("command=, exact= or tool=")
		}
		if !filepath.IsAbs(r.Under) || filepath.Clean(r.Under) != r.Under {
			return fmt.Errorf("under=%q: want an absolute, clean path", r.Under)
		}
		if r.Kind == kindWrite && (r.Class != danger.Dev || !within(r.Under, r.Project)) {
			return fmt.Errorf("kind=write: only class=dev, in the project")
		}
		if r.Kind == kindRead && r.Class > danger.Dev {
			return fmt.Errorf("kind=read: only class=safe or dev")
		}
	case kindCall:
		if r.Tool == "" {
			return wrong("command=, exact= or under=")
		}
		if !toolName.get().MatchString(r.Tool) {
			return fmt.Errorf("tool=%q is not a tool's name", r.Tool)
		}
		if r.Class > danger.Dev {
			return fmt.Errorf("kind=call: only class=safe or dev")
		}
	case "":
		return fmt.Errorf("no kind=")
	default:
		return fmt.Errorf("kind=%s: want run, write, read or call", r.Kind)
	}
	return nil
}

// toolName is what MCP tools are called here (see assistant/mcp).
var toolName = lazyRegexp{expr: `^[A-Za-z0-9_.-]{1,128}$`}

// lazyRegexp compiles on first use: nothing at start-up.
type lazyRegexp struct {
	expr string
	re   *regexp.Regexp
}

func (l *lazyRegexp) get() *regexp.Regexp {
	if l.re == nil {
		l.re = regexp.MustCompile(l.expr)
	}
	return l.re
}

// splitFields reads key=value fields separated by blanks; a value is a
// word without blanks or quotes, or a double-quoted Go string. A key may
// appear once.
func splitFields(line string) ([][2]string, error) {
	var out [][2]string
	for {
		line = strings.TrimLeft(line, " \t")
		if line == "" {
			return out, nil
		}
		eq := strings.IndexByte(line, '=')
		if eq <= 0 {
			return nil, fmt.Errorf("%q is not key=value", cut(line))
		}
		key := line[:eq]
		if strings.ContainsAny(key, " \t\"") {
			return nil, fmt.Errorf("%q is not key=value", cut(line))
		}
		line = line[eq+1:]
		var val string
		if strings.HasPrefix(line, `"`) {
			end := closingQuote(line)
			if end < 0 {
				return nil, fmt.Errorf("%s=: the quoted value does not end", key)
			}
			v, err := strconv.Unquote(line[:end+1])
			if err != nil {
				return nil, fmt.Errorf("%s=: bad quoted value: %v", key, err)
			}
			val, line = v, line[end+1:]
			if line != "" && line[0] != ' ' && line[0] != '\t' {
				return nil, fmt.Errorf("%s=: text right after the closing quote", key)
			}
		} else {
			end := strings.IndexAny(line, " \t")
			if end < 0 {
				end = len(line)
			}
			val, line = line[:end], line[end:]
			if strings.Contains(val, `"`) {
				return nil, fmt.Errorf("%s=: a quote inside an unquoted value", key)
			}
		}
		if slices.ContainsFunc(out, func(f [2]string) bool { return f[0] == key }) {
			return nil, fmt.Errorf("%s= twice", key)
		}
		out = append(out, [2]string{key, val})
	}
}

// closingQuote is the index of the quote that ends the Go string literal
// at the start of s, or -1.
func closingQuote(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

func cut(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// formatRule is the line that saves r.
func formatRule(r Rule) string {
	var sb strings.Builder
	field := func(k, v string) {
		if sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(k + "=")
		if v == "" || strings.ContainsAny(v, " \t\"\\#=") || strconv.Quote(v) != `"`+v+`"` {
			v = strconv.Quote(v)
		}
		sb.WriteString(v)
	}
	field("project", r.Project)
	field("kind", r.Kind)
	switch {
	case r.Command != "":
		field("command", r.Command)
	case r.Exact != "":
		field("exact", r.Exact)
	case r.Under != "":
		field("under", r.Under)
	case r.Tool != "":
		field("tool", r.Tool)
	}
	field("class", r.Class.String())
	if !r.Made.IsZero() {
		field("made", r.Made.UTC().Format(time.RFC3339))
	}
	if r.From != "" {
		field("from", r.From)
	}
	return sb.String()
}
