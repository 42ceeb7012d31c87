package ai

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/qsh-shell/qsh/ai/chat"
)

// Command is what one command line at the prompt did; cmd/qsh converts the
// shell's session record into these.
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

const systemPrompt = `You are the assistant built into qsh, a bash-compatible interactive shell. The user asks you from the prompt with a line starting with "?".
Answer briefly and concretely: the answer is shown in a terminal, so write plain text, and put commands and code in fenced code blocks; no tables, no headings.
Use the tools to look at files or run commands when that beats guessing; prefer read-only commands, and say what you will change before changing anything. Commands run in a subshell of the user's session, in its current directory.
A tool result that reports an error or a refusal is information: adjust, do not repeat the same call.
When the user asks about a failed command, find the cause in its output and suggest a fix, as a command when there is one.
Each question comes with a <context> block: the system, the directory, the date and the commands the user ran since the last question, with exit status, duration and the end of their output. Values that look secret appear as [REDACTED].`

const fencedPrompt = `
You call tools by writing a block like this on its own lines, then stopping to wait for the result:
` + "```tool" + `
{"name": "TOOL", "args": {ARGUMENTS}, "reason": "why, in a few words"}
` + "```" + `
One JSON object per block; several blocks run in order. The results come back in the next message. Never invent a result. The tools:
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
		fmt.Fprintf(&sb, "- %s: %s\n  args schema: %s\n", t.Name, oneLine(t.Description), compact(t.Schema))
	}
	return sb.String()
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
