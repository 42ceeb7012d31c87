package main

// End-to-end tests of what a local model server showed (issue 18): bad
// settings, tools refused, answers without end, the session record, the
// context window, a model that repeats itself, the spinner on Ctrl-C. The
// servers are the fakes of assistant/ai/aitest, playing Ollama's shapes.

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
	"github.com/qsh-shell/qsh/internal/testtime"
	"github.com/qsh-shell/qsh/shell/shelltest"
)

// TestModelsBadSettings checks that a bad QSH_AI_* value is one warning and
// its default, never an assistant that is off, and that --config shows it.
func TestModelsBadSettings(t *testing.T) {
	t.Parallel()
	bin := qshBinary(t)
	srv := aitest.NewOpenAI(t, aitest.Say("Still here.", 2))
	env := aiEnv(t, srv, "QSH_AI_TOOL_PROTOCOL=bogus", "QSH_AI_MAX_OUTPUT_TOKENS=lots")
	tm := startAI(t, bin, env)
	tm.Mark()
	tm.Line("? /status")
	out := tm.WaitFor(ps1)
	for _, want := range []string{
		`QSH_AI_TOOL_PROTOCOL="bogus": expected auto, native or fenced; using the default (auto)`,
		`QSH_AI_MAX_OUTPUT_TOKENS="lots": expected an integer; using the default (4096)`,
		"protocol  native (auto",
		"provider  openai",
	} {
		if strings.Count(out, want) != 1 {
			t.Errorf("/status with bad settings lacks %q once:\n%s", want, out)
		}
	}
	tm.Line("? hello")
	out = tm.WaitFor(ps1)
	if !strings.Contains(out, "Still here.") || strings.Contains(out, "QSH_AI_") {
		t.Errorf("the next question:\n%s", out)
	}
	if body := string(srv.Requests()[0].Raw); strings.Contains(body, "```tool") || !strings.Contains(body, `"tools"`) {
		t.Errorf("the default protocol is not native tools: %s", body)
	}
	cmd := exec.Command(bin, "--config")
	cmd.Env = env
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := "QSH_AI_TOOL_PROTOCOL=auto\t(default: auto)\tignored \"bogus\": expected auto, native or fenced\n"; !strings.Contains(string(stdout), want) {
		t.Errorf("--config does not show the problem:\n%s", stdout)
	}
}

// ollamaEnv points qsh at a fake Ollama serving model.
func ollamaEnv(t *testing.T, srv *aitest.Server, model string, extra ...string) []string {
	return aiEnv(t, srv, append([]string{"QSH_AI_PROVIDER=ollama", "QSH_AI_MODEL=" + model}, extra...)...)
}

// TestModelsToolsRefused checks a model whose template has no tools: the
// first question is asked again with ```tool blocks, one line says so, and
// the model keeps them for the session.
func TestModelsToolsRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"notes.txt": "x\n"})
	srv := aitest.NewOllama(t, aitest.Ollama{NoTools: true},
		aitest.Say("Let me look.\n```tool\n{\"name\": \"filesystem\", \"args\": {\"operation\": \"list\", \"path\": \".\"}}\n```\n", 4),
		aitest.Say("There is notes.txt.", 2),
		aitest.Say("Yes, still here.", 1))
	tm := startIn(t, dir, ollamaEnv(t, srv, "smol"))
	tm.Line("? what files are here")
	out := tm.WaitFor(ps1)
	for _, want := range []string{
		"(smol does not support tools, so they are described in its prompt as ```tool blocks from now on this session)",
		"→ filesystem list .", "There is notes.txt.",
	} {
		if strings.Count(out, want) != 1 {
			t.Errorf("the screen lacks %q once:\n%s", want, out)
		}
	}
	if strings.Contains(out, "qsh: ?:") || strings.Contains(out, `"name"`) {
		t.Errorf("an error or the tool block is shown:\n%s", out)
	}
	tm.Line("? still there?")
	if out := tm.WaitFor(ps1); !strings.Contains(out, "Yes, still here.") || strings.Contains(out, "does not support tools") {
		t.Errorf("the second question:\n%s", out)
	}
	tm.Line("? /status")
	if out := tm.WaitFor(ps1); !strings.Contains(out, "protocol  fenced: smol does not support tools (auto)") {
		t.Errorf("/status:\n%s", out)
	}
	reqs := srv.Requests()
	if len(reqs) != 4 || reqs[0].Body["tools"] == nil || reqs[1].Body["tools"] != nil || reqs[3].Body["tools"] != nil {
		t.Errorf("%d requests; tools sent: %v %v", len(reqs), reqs[0].Body["tools"] != nil, reqs[len(reqs)-1].Body["tools"] != nil)
	}
	if got := wantResults(t, srv); len(got) != 0 {
		t.Errorf("fenced results went as tool messages")
	}
	if last := string(reqs[2].Raw); !strings.Contains(last, "Result of the filesystem call (ok)") || !strings.Contains(last, "notes.txt") {
		t.Errorf("the block's result did not reach the model: %s", last)
	}
}

// TestModelsEndlessAnswer checks that every request carries an output
// limit, that an answer stopped by it says so in one line, and that
// QSH_AI_TIMEOUT stops a model that streams for ever (it ran 75 s with
// QSH_AI_TIMEOUT=8s), keeping what was shown.
func TestModelsEndlessAnswer(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOllama(t, aitest.Ollama{},
		aitest.Reply{Text: "Counting: ", Forever: true},
		aitest.Reply{Text: "Again: ", Forever: true, IgnoreLimit: true},
		aitest.Reply{Text: "And hang: ", Hang: true},
		aitest.Say("You saw words.", 1))
	tm := startAI(t, qshBinary(t), ollamaEnv(t, srv, "llama3.2", "QSH_AI_MAX_OUTPUT_TOKENS=20", "QSH_AI_TIMEOUT=3s"))
	tm.Line("? count")
	out := tm.WaitFor(ps1)
	if !strings.Contains(out, "word20 \n(the answer stopped at its limit of 20 tokens, QSH_AI_MAX_OUTPUT_TOKENS — ask to go on, or raise it)") ||
		strings.Contains(out, "word21") {
		t.Errorf("the limited answer:\n%s", out)
	}
	if n := srv.Requests()[0].Body["max_tokens"]; n != float64(20) {
		t.Errorf("max_tokens %v, want 20", n)
	}
	// A server that ignores the limit is stopped by qsh (see
	// TestAnswerBoundedByClient); one that holds the answer open, by
	// QSH_AI_TIMEOUT.
	tm.Line("? count again")
	out = tm.WaitFor(ps1)
	if !strings.Contains(out, "Again: word1 word2 ") || !strings.Contains(out, "went past its limit of 20 tokens") {
		t.Errorf("the endless answer:\n%s", tail(out, 600))
	}
	start := time.Now()
	tm.Line("? and again")
	out = tm.WaitFor(ps1)
	if d := time.Since(start); d > 9*time.Second {
		t.Errorf("the held answer held the shell %v with QSH_AI_TIMEOUT=3s", d)
	}
	if !strings.Contains(out, "And hang: ") ||
		!strings.Contains(out, "\nqsh: ?: ollama: the answer was stopped after 3s (QSH_AI_TIMEOUT bounds each answer) — what came is kept") {
		t.Errorf("the held answer:\n%s", tail(out, 600))
	}
	tm.Line("? what did you say")
	tm.WaitFor("You saw words.")
	last := string(srv.Requests()[3].Raw)
	if !strings.Contains(last, "Again: word1 word2 ") || !strings.Contains(last, "[stopped here: the answer went past QSH_AI_MAX_OUTPUT_TOKENS]") ||
		!strings.Contains(last, "And hang: ") || !strings.Contains(last, "[stopped here: QSH_AI_TIMEOUT]") {
		t.Errorf("what was shown is not kept for the follow-up")
	}
}

// TestModelsServerDies checks a stream that ends cleanly in the middle of
// an answer (Ollama killed mid-answer): one line, the text kept.
func TestModelsServerDies(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOllama(t, aitest.Ollama{}, aitest.Reply{Text: "The first half of the answer", Chunks: 6, EndAfter: 3}, aitest.Say("Back.", 1))
	tm := startAI(t, qshBinary(t), ollamaEnv(t, srv, "llama3.2"))
	tm.Line("? explain")
	out := tm.WaitFor(ps1)
	if !strings.Contains(out, "The first half") || strings.Count(out, "qsh: ?: ollama: the answer was cut off (the stream ended before the answer did) — ask again\n") != 1 {
		t.Errorf("screen:\n%s", out)
	}
	tm.Line("? go on")
	tm.WaitFor("Back.")
	if last := string(srv.Requests()[1].Raw); !strings.Contains(last, "[stopped here: the answer broke off]") {
		t.Errorf("the broken answer is not kept: %s", last)
	}
}

// tail is the end of s, for failure messages.
func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// TestModelsRecordHoldsCommands checks that `?` lines, their answers and
// what the assistant's tools printed are not "commands since the last
// question": the conversation carries them, once.
func TestModelsRecordHoldsCommands(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOllama(t, aitest.Ollama{},
		execCall(`printf 'TOOL%s\n' -OUT-5`),
		aitest.Say("ANSWER-ONE-7", 2),
		aitest.Say("ANSWER-TWO", 1),
		aitest.Say("It printed between-3.", 1))
	tm := startAI(t, qshBinary(t), ollamaEnv(t, srv, "llama3.2"))
	tm.Line("? one")
	tm.WaitFor("ANSWER-ONE-7")
	tm.WaitFor(ps1)
	enter(tm, "echo between-3")
	tm.Line("? two")
	tm.WaitFor("ANSWER-TWO")
	tm.WaitFor(ps1)
	tm.Line("?")
	tm.WaitFor("It printed between-3.")
	tm.WaitFor(ps1)
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(reqs))
	}
	two := string(reqs[2].Raw)
	for what, n := range map[string]int{"ANSWER-ONE-7": 1, "TOOL-OUT-5": 1, "$ echo between-3": 1, "$ ? one": 0, "$ ?": 0} {
		if got := strings.Count(two, what); got != n {
			t.Errorf("the second question's request holds %q %d times, want %d", what, got, n)
		}
	}
	if !strings.Contains(two, `between-3\n`) {
		t.Errorf("the command's output is not in the context block: %s", two)
	}
	if bare := string(reqs[3].Raw); !strings.Contains(bare, "my last command, `echo between-3`") {
		t.Errorf("a bare ? does not ask about the last command: %s", bare)
	}
}

// TestModelsWindow checks the context window of a small local model
// (Ollama's default 4,096 tokens): after `seq 1 5000` and a long `ls`, the
// prompt Ollama showed was 5,651 tokens, cut from its start. Now it fits:
// the older output goes first, the system prompt and the tools stay, one
// line says so; and a prompt the server reports as long as the window is
// said to have been cut.
func TestModelsWindow(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOllama(t, aitest.Ollama{},
		aitest.Say("Numbers, then files.", 2),
		aitest.Reply{Text: "Hm.", Usage: aitest.Usage{Input: 4096, Output: 2}})
	tm := startAI(t, qshBinary(t), ollamaEnv(t, srv, "llama3.2"))
	enter(tm, "seq 1 5000")
	enter(tm, "ls -l /usr/bin /usr/lib")
	tm.Line("? what happened")
	out := tm.WaitFor(ps1)
	if !strings.Contains(out, "(to fit llama3.2's 4,096-token window, left out ") || !strings.Contains(out, "Numbers, then files.") {
		t.Errorf("screen:\n%s", tail(out, 1500))
	}
	req := srv.Requests()[0]
	body := string(req.Raw)
	msgs, _ := req.Body["messages"].([]any)
	system, _ := msgs[0].(map[string]any)["content"].(string)
	if !strings.HasPrefix(system, "You are the assistant in qsh") || !strings.HasSuffix(system, "Secrets show as [REDACTED].") {
		t.Errorf("the system prompt was cut: %q", system)
	}
	if tools, _ := req.Body["tools"].([]any); len(tools) != 3 {
		t.Errorf("%d tools sent, want 3", len(tools))
	}
	if !strings.Contains(body, `$ seq 1 5000\n  exit 0`) || strings.Contains(body, `\n  | 5000\n`) ||
		!strings.Contains(body, "output: left out to fit the model's context window") {
		t.Errorf("the older command's output was not the one left out: %s", body)
	}
	if !strings.Contains(body, `$ ls -l /usr/bin /usr/lib`) {
		t.Errorf("the newest command is gone: %s", body)
	}
	// The fake counts a token per 4 bytes, as many models do with English.
	if n := len(body)/4 + int(req.Body["max_tokens"].(float64)); n > 4096 {
		t.Errorf("prompt and answer take ≈%d tokens of 4,096", n)
	}
	tm.Line("? and now")
	out = tm.WaitFor(ps1)
	if !strings.Contains(out, "(the prompt filled all 4,096 tokens of llama3.2's window, so the server cut its start") {
		t.Errorf("a cut prompt is not reported:\n%s", tail(out, 1500))
	}
	tm.Line("? /status")
	if out := tm.WaitFor(ps1); !strings.Contains(out, "window    4,096 tokens (from Ollama: the num_ctx it runs with)") {
		t.Errorf("/status:\n%s", out)
	}
}

// TestModelsLooping checks a model that repeats itself, as a small one
// did ten times in a turn: a call the user declined is not asked about
// again, a read is not run again, and the third time the turn ends with
// one line.
func TestModelsLooping(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"build/out.o": "x", "notes.txt": "y"})
	rm := execCall("rm -rf build")
	list := call("filesystem", map[string]any{"operation": "list", "path": "."})
	srv := aitest.NewOllama(t, aitest.Ollama{}, rm, rm, rm, list, list, list, aitest.Say("Done.", 1))
	tm := startIn(t, dir, ollamaEnv(t, srv, "llama3.2"))
	tm.Line("? clean the build")
	tm.WaitFor("run? [y/n/a")
	tm.Type("n")
	out := tm.WaitFor(ps1)
	if n := strings.Count(out, "run? [y/n"); n != 0 {
		t.Errorf("the declined call was asked about %d more times:\n%s", n, out)
	}
	for _, want := range []string{
		"✗ declined before in this turn: not asked again",
		"qsh: ?: llama3.2 is looping: it made the same call (rm -rf build) 3 times in this turn, so the turn stops here",
	} {
		if strings.Count(out, want) != 1 {
			t.Errorf("the screen lacks %q once:\n%s", want, out)
		}
	}
	if !exists(filepath.Join(dir, "build", "out.o")) {
		t.Errorf("build was deleted")
	}
	tm.Line("? list them")
	out = tm.WaitFor(ps1)
	for _, want := range []string{
		"✓ the same as before: its earlier result",
		"qsh: ?: llama3.2 is looping: it made the same call (list .) 3 times in this turn, so the turn stops here",
	} {
		if strings.Count(out, want) != 1 {
			t.Errorf("the screen lacks %q once:\n%s", want, out)
		}
	}
	if strings.Count(out, "✓ ok") != 1 {
		t.Errorf("list ran more than once:\n%s", out)
	}
	if n := len(srv.Requests()); n != 6 {
		t.Errorf("%d requests, want 6", n)
	}
	tm.Line("? so?")
	tm.WaitFor("Done.")
}

// TestModelsSpinnerCtrlC checks that Ctrl-C while the spinner turns leaves
// nothing of it on the screen: it left "⠸^" (the terminal echoes ^C after
// the frame, and the spinner went back over the frame alone).
func TestModelsSpinnerCtrlC(t *testing.T) {
	t.Parallel()
	// The spinner shows before the request leaves: a Ctrl-C that beat it
	// to the server would leave the hanging reply to the next question.
	taken := make(chan struct{})
	srv := aitest.NewOllama(t, aitest.Ollama{}, aitest.Reply{Hang: true, Taken: taken}, aitest.Say("Back.", 1))
	tm := startAI(t, qshBinary(t), ollamaEnv(t, srv, "llama3.2"))
	tm.Line("? think hard")
	tm.WaitMatch("[" + spinnerFrames + "]")
	select {
	case <-taken:
	case <-time.After(testtime.Scaled(30 * time.Second)):
		t.Fatal("the question never reached the model server")
	}
	tm.Type(shelltest.CtrlC)
	tm.WaitFor(ps1)
	raw := tm.Raw()
	from := strings.LastIndex(raw, "? think hard")
	from += strings.Index(raw[from:], "\n") + 1
	for i, line := range render(raw[from:]) {
		if strings.ContainsAny(line, spinnerFrames+"^") {
			t.Errorf("line %d after the question shows %q", i+1, line)
		}
	}
	tm.Line("? again")
	tm.WaitFor("Back.")
}

const spinnerFrames = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"

// render plays terminal output on a screen of its own and returns the
// lines it shows: text, CR, LF, backspace, cursor moves and saves, erasing
// to the end of the line; other sequences are skipped.
func render(out string) []string {
	var lines [][]rune
	row, col := 0, 0
	saved := [2]int{}
	put := func(r rune) {
		for len(lines) <= row {
			lines = append(lines, nil)
		}
		for len(lines[row]) <= col {
			lines[row] = append(lines[row], ' ')
		}
		lines[row][col] = r
		col++
	}
	rs := []rune(out)
	for i := 0; i < len(rs); i++ {
		switch r := rs[i]; {
		case r == '\r':
			col = 0
		case r == '\n':
			row++
		case r == '\b':
			col = max(0, col-1)
		case r == 0x1b && i+1 < len(rs) && rs[i+1] == '[':
			j := i + 2
			for j < len(rs) && (rs[j] < '@' || rs[j] > '~') {
				j++
			}
			if j == len(rs) {
				i = j
				break
			}
			n, _ := strconv.Atoi(strings.TrimLeft(string(rs[i+2:j]), "?"))
			switch rs[j] {
			case 'D':
				col = max(0, col-max(n, 1))
			case 'C':
				col += max(n, 1)
			case 'A':
				row = max(0, row-max(n, 1))
			case 'B':
				row += max(n, 1)
			case 'G':
				col = max(n, 1) - 1
			case 'K':
				if row < len(lines) && n == 0 && col < len(lines[row]) {
					lines[row] = lines[row][:col]
				}
			}
			i = j
		case r == 0x1b && i+1 < len(rs) && rs[i+1] == ']':
			j := i + 2
			for j < len(rs) && rs[j] != 0x07 && !(rs[j] == 0x1b && j+1 < len(rs) && rs[j+1] == '\\') {
				j++
			}
			if j < len(rs) && rs[j] == 0x1b {
				j++
			}
			i = j
		case r == 0x1b && i+1 < len(rs):
			switch rs[i+1] {
			case '7':
				saved = [2]int{row, col}
			case '8':
				row, col = saved[0], saved[1]
			}
			i++
		case r >= ' ':
			put(r)
		}
	}
	out2 := make([]string, len(lines))
	for i, l := range lines {
		out2[i] = strings.TrimRight(string(l), " ")
	}
	return out2
}

func TestRender(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"ab\x1b7⠋^C\x1b8\x1b[K\r\nc": "ab|c",
		"ab⠋^C\x1b[1D\x1b[K\r\n":     "ab⠋^",
		"x\x1b[1;31my\x1b[0m\rZ":     "Zy",
		"\x1b]7;file://h/x\x1b\\ok":  "ok",
	} {
		if got := strings.Join(render(in), "|"); got != want {
			t.Errorf("render(%q) = %q, want %q", in, got, want)
		}
	}
}
