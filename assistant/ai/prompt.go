package ai

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/qsh-shell/qsh/assistant/ai/chat"
)

// Command is what one command line at the prompt did; assistant/ai/remote converts the
// session record qsh sends (wire.Command) into these.
type Command struct {
	Line     string
	Dir      string
	Start    time.Time
	Duration time.Duration
	Status   int
	Output   string // the tail of what it printed, ANSI stripped; may be empty
}

// Bounds on the session record sent with a question, so a chatty build
// cannot fill the model's context.
const (
	maxCommands     = 10
	maxOutputTail   = 2000
	maxRecordLength = 8000
)

const systemPrompt = `You are the assistant in qsh, a bash-compatible shell; the user asks with "?" lines. Answer briefly, for a terminal: plain text, commands and code in fenced blocks, no tables or headings. Use the tools when that beats guessing. For a failed command, find the cause in its output and suggest a fix.
Each question comes with a <context> block: system, cwd, date, and the commands run since the last question, with exit status, duration and output tail. Secrets show as [REDACTED].`

// diagnosisPrompt ends the system prompt of a bare ?, which the registry
// holds to read-only calls (tools.Env.ReadOnly).
const diagnosisPrompt = `This question is a diagnosis (a bare "?"): find the cause. Only read-only tools and read-only commands run in it; anything that changes something (a build, a test run, an edit, an install) is refused without asking the user, so do not try. Give the fix as commands the user can run, and say they can ask (for example "? fix it") to have you do it.`

const fencedPrompt = `To call a tool, write a block like this on its own lines, then stop and wait for the result:
` + "```tool" + `
{"name": "TOOL", "args": {ARGUMENTS}, "reason": "why, in a few words"}
` + "```" + `
One JSON object per block; several blocks run in order; results come in the next message. The tools (args marked * are required):
`

// system returns the system prompt; with fenced tools it teaches the
// ```tool blocks and lists the tools, which otherwise go as functions.
func system(fenced bool, specs []chat.Tool) string {
	if !fenced || len(specs) == 0 {
		return systemPrompt
	}
	var sb strings.Builder
	sb.WriteString(systemPrompt)
	sb.WriteString("\n")
	sb.WriteString(fencedPrompt)
	for _, t := range specs {
		fmt.Fprintf(&sb, "- %s: %s\n  args: %s\n", t.Name, oneLine(t.Description), argList(t.Schema))
	}
	return sb.String()
}

// argList describes a JSON schema's properties in a line, shorter than
// the schema: name, * when required, the type or the allowed values.
func argList(schema json.RawMessage) string {
	var s struct {
		Properties map[string]struct {
			Type any   `json:"type"`
			Enum []any `json:"enum"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if json.Unmarshal(schema, &s) != nil || len(s.Properties) == 0 {
		return compact(schema)
	}
	required := map[string]bool{}
	for _, r := range s.Required {
		required[r] = true
	}
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	// Required first, then by name, for a stable prompt.
	sort.Slice(names, func(i, j int) bool {
		if required[names[i]] != required[names[j]] {
			return required[names[i]]
		}
		return names[i] < names[j]
	})
	var parts []string
	for _, n := range names {
		p := s.Properties[n]
		part := n
		if required[n] {
			part += "*"
		}
		switch {
		case len(p.Enum) > 0:
			var vals []string
			for _, v := range p.Enum {
				vals = append(vals, fmt.Sprint(v))
			}
			part += " (" + strings.Join(vals, "|") + ")"
		case p.Type != nil && p.Type != "string":
			part += fmt.Sprintf(" (%v)", p.Type)
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, ", ")
}

func compact(schema json.RawMessage) string {
	var v any
	if json.Unmarshal(schema, &v) != nil {
		return string(schema)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// osName describes the system once: the distribution's name on Linux.
func osName() string {
	name := runtime.GOOS + "/" + runtime.GOARCH
	if runtime.GOOS != "linux" {
		return name
	}
	b, err := os.ReadFile("/etc/os-release")
	if err != nil {
		return name
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "PRETTY_NAME="); ok {
			return strings.Trim(v, `"'`) + " (" + name + ")"
		}
	}
	return name
}

// contextBlock describes where the question was asked, with the commands
// run since the last question (all of the recent ones for the first).
func contextBlock(osname, dir string, now time.Time, record []Command, since time.Time) string {
	var sb strings.Builder
	sb.WriteString("<context>\n")
	fmt.Fprintf(&sb, "os: %s\nshell: qsh (bash-compatible)\ncwd: %s\ndate: %s\n", osname, dir, now.Format("Mon 2006-01-02 15:04 MST"))
	var recent []Command
	for _, c := range record {
		if since.IsZero() || c.Start.After(since) {
			recent = append(recent, c)
		}
	}
	if len(recent) > maxCommands {
		recent = recent[len(recent)-maxCommands:]
	}
	// Newest first when trimming to the budget, printed oldest first.
	var parts []string
	total := 0
	for i := len(recent) - 1; i >= 0; i-- {
		p := describeCommand(recent[i], dir)
		if total+len(p) > maxRecordLength && len(parts) > 0 {
			break
		}
		total += len(p)
		parts = append(parts, p)
	}
	if len(parts) > 0 {
		sb.WriteString("commands since the last question, oldest first:\n")
		for i := len(parts) - 1; i >= 0; i-- {
			sb.WriteString(parts[i])
		}
	}
	sb.WriteString("</context>\n")
	return sb.String()
}

func describeCommand(c Command, cwd string) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "$ %s\n  exit %d, %s", strings.TrimSpace(c.Line), c.Status, c.Duration.Round(time.Millisecond))
	if c.Dir != "" && c.Dir != cwd {
		fmt.Fprintf(&sb, ", in %s", c.Dir)
	}
	sb.WriteString("\n")
	if out := tail(c.Output, maxOutputTail); strings.TrimSpace(out) != "" {
		sb.WriteString("  output (end):\n")
		for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
			sb.WriteString("  | ")
			sb.WriteString(line)
			sb.WriteString("\n")
		}
	}
	return sb.String()
}

// tail keeps the last n bytes of s, from a line start when one is near.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[len(s)-n:]
	for len(s) > 0 && !utf8.RuneStart(s[0]) {
		s = s[1:]
	}
	if i := strings.IndexByte(s, '\n'); i >= 0 && i < 200 && i < len(s)-1 {
		s = s[i+1:]
	}
	return "[…]\n" + s
}

// bareQuestion is what a bare `?` asks, given the last command.
func bareQuestion(last Command) string {
	if last.Status != 0 {
		return fmt.Sprintf("My last command, `%s`, failed with exit status %d. Explain why, briefly, and suggest a fix.", strings.TrimSpace(last.Line), last.Status)
	}
	return fmt.Sprintf("Explain what my last command, `%s`, did and what its output means; if something looks wrong, suggest a fix.", strings.TrimSpace(last.Line))
}
