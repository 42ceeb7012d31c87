package main

// End-to-end tests of headless turns (qsh --json -c '? …'): no terminal,
// JSON lines on stdout, an exit status that says how the turn ended.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
)

// headless runs `qsh --json -c src` in dir with its output piped, and
// returns its stdout's events, its stderr and its exit status.
func headless(t *testing.T, dir string, env []string, src string) ([]map[string]any, string, int) {
	t.Helper()
	cmd := exec.Command(qshBinary(t), "--json", "-c", src)
	cmd.Dir = dir
	cmd.Env = append(env, "PATH="+os.Getenv("PATH"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	status := 0
	if ee, ok := err.(*exec.ExitError); ok {
		status = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	var evs []map[string]any
	sc := bufio.NewScanner(&stdout)
	for sc.Scan() {
		var ev map[string]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("stdout line is not JSON: %q (%v)", sc.Text(), err)
		}
		evs = append(evs, ev)
	}
	return evs, stderr.String(), status
}

// TestHeadlessRefusesDangerous: in a pipeline, a dangerous call is refused
// without asking, the model is told why, the events say so, and the exit
// status is 3.
func TestHeadlessRefusesDangerous(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	srv := aitest.NewOpenAI(t, execCall("rm -r src"), aitest.Say("I could not delete it.", 2))
	evs, stderr, status := headless(t, dir, aiEnv(t, srv), "? delete src")
	if status != 3 {
		t.Errorf("exit status %d, want 3; stderr: %s", status, stderr)
	}
	if !exists(filepath.Join(dir, "src")) {
		t.Error("the dangerous command ran")
	}
	var types []string
	var call, end map[string]any
	for _, ev := range evs {
		types = append(types, ev["type"].(string))
		switch ev["type"] {
		case "tool_call":
			call = ev
		case "end":
			end = ev
		}
	}
	if got := strings.Join(types, " "); got != "tool_call tool_result text usage end" {
		t.Fatalf("events: %s", got)
	}
	if call["name"] != "execute_command" || call["class"] != "dangerous" || call["decision"] != "refused" {
		t.Errorf("tool_call %v", call)
	}
	if end["reason"] != "refused" || end["status"] != float64(3) {
		t.Errorf("end %v", end)
	}
	if res := toolResults(t, srv); len(res) != 1 || !strings.Contains(res[0], "no terminal to ask on") {
		t.Errorf("the model was told %q", res)
	}
	if !strings.Contains(stderr, "execute_command was refused (dangerous)") {
		t.Errorf("stderr %q", stderr)
	}
}

// TestHeadlessAnswers: a safe call runs without asking, and an answered
// turn exits 0; a failing model exits 1.
func TestHeadlessAnswers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := aitest.NewOpenAI(t, execCall("echo hel''lo"), aitest.Say("It said hello.", 2))
	evs, stderr, status := headless(t, dir, aiEnv(t, srv), "? say hello")
	if status != 0 || len(evs) == 0 {
		t.Fatalf("exit status %d, %d events; stderr: %s", status, len(evs), stderr)
	}
	if evs[0]["decision"] != "run" || evs[1]["ok"] != true || !strings.Contains(evs[1]["output"].(string), "hello") {
		t.Errorf("events %v", evs)
	}
	bad := aitest.NewOpenAI(t, aitest.Fail(401, "invalid_api_key", "bad key"))
	evs, _, status = headless(t, dir, aiEnv(t, bad), "? hi")
	if status != 1 || evs[len(evs)-1]["reason"] != "error" {
		t.Errorf("failing model: status %d, events %v", status, evs)
	}
}
