package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/qsh-shell/qsh/assistant/tools"
	"github.com/qsh-shell/qsh/internal/testtime"
)

// stdio returns the configuration of a test server of the given kind (see
// runTestServer), run by this test binary.
func stdio(t *testing.T, name, kind string) ServerConfig {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return ServerConfig{Name: name, Command: exe, Env: map[string]string{
		"QSH_MCP_TEST_SERVER": kind,
		"QSH_MCP_TEST_NAME":   name,
	}}
}

func newManager(t *testing.T, opts ...Option) *Manager {
	t.Helper()
	// Starting a server (this test binary, -race) takes a while on busy cores.
	m := New(append([]Option{Confirm(nil), StartTimeout(testtime.Scaled(30 * time.Second)), StopTimeout(200 * time.Millisecond)}, opts...)...)
	t.Cleanup(func() { m.Close() })
	return m
}

func byName(list []tools.Tool) map[string]tools.Tool {
	out := map[string]tools.Tool{}
	for _, t := range list {
		out[t.Name()] = t
	}
	return out
}

func find(t *testing.T, list []tools.Tool, name string) tools.Tool {
	t.Helper()
	tool, ok := byName(list)[name]
	if !ok {
		var names []string
		for _, t := range list {
			names = append(names, t.Name())
		}
		t.Fatalf("no tool %s among %v", name, names)
	}
	return tool
}

func call(t *testing.T, tool tools.Tool, args string) tools.Result {
	t.Helper()
	return tool.Execute(context.Background(), tools.Env{}, json.RawMessage(args))
}

func TestNewStartsNothing(t *testing.T) {
	m := newManager(t, Servers(stdio(t, "a", "basic")))
	st, err := m.Status()
	if err != nil || len(st) != 1 || st[0].State != NotStarted {
		t.Fatalf("Status = %v, %v; want a: not started", st, err)
	}
}

func TestCalls(t *testing.T) {
	m := newManager(t, Servers(stdio(t, "a", "basic")), MaxOutput(400))
	list, warnings := m.Tools(context.Background())
	if len(warnings) > 0 {
		t.Fatalf("warnings: %v", warnings)
	}
	echo := find(t, list, "mcp_a_echo")
	if echo.Description() != "Echoes the message." {
		t.Errorf("description = %q", echo.Description())
	}
	if !strings.Contains(string(echo.Schema()), `"message"`) {
		t.Errorf("schema = %s", echo.Schema())
	}

	tests := []struct {
		tool, args string
		success    bool
		output     string // a substring of the output
		err        string // a substring of the error
		truncated  bool
	}{
		{tool: "mcp_a_echo", args: `{"message": "hello"}`, success: true, output: "hello"},
		{tool: "mcp_a_add", args: `{"a": 2, "b": 40}`, success: true, output: "42"},
		{tool: "mcp_a_whoami", args: ``, success: true, output: "I am a"},
		{tool: "mcp_a_echo", args: `{}`, err: "mcp_a_echo: invalid arguments"},
		{tool: "mcp_a_echo", args: `{"message": 3}`, err: "invalid arguments"},
		{tool: "mcp_a_add", args: `{"a": "two", "b": 1}`, err: "invalid arguments"},
		{tool: "mcp_a_echo", args: `{"message": `, err: "not valid JSON"},
		{tool: "mcp_a_echo", args: `["hello"]`, err: "must be a JSON object"},
		{tool: "mcp_a_fail", args: `{}`, output: "the repository does not exist", err: "the tool reported an error: the repository does not exist"},
		{tool: "mcp_a_media", args: `{}`, success: true, output: "here you are\n[image: image/png, 5 bytes, not shown]\n[audio: audio/wav, 3 bytes, not shown]\n" +
			"[resource link: file:///tmp/x.txt (x.txt)]\n[resource mem://notes]\nembedded text\n[resource mem://blob: application/zip, 2 bytes, not shown]"},
		{tool: "mcp_a_big", args: `{"n": 10000}`, success: true, output: "bytes omitted", truncated: true},
	}
	for _, tc := range tests {
		res := call(t, find(t, list, tc.tool), tc.args)
		if res.Success != tc.success || !strings.Contains(res.Output, tc.output) ||
			!strings.Contains(res.Error, tc.err) || (tc.err == "") != (res.Error == "") || res.Truncated != tc.truncated {
			t.Errorf("%s %s = %+v", tc.tool, tc.args, res)
		}
	}
	big := call(t, find(t, list, "mcp_a_big"), `{"n": 10000}`)
	if len(big.Output) > 400 || !strings.HasPrefix(big.Output, "BEGIN") || !strings.HasSuffix(big.Output, "END") {
		t.Errorf("big output not cut head and tail within 400 bytes: %q", big.Output)
	}

	st, _ := m.Status()
	if st[0].State != Running || st[0].Tools != len(list) || st[0].String() != "a: running, 11 tools" {
		t.Errorf("Status = %v", st)
	}
}

func TestSameToolTwoServers(t *testing.T) {
	m := newManager(t, Servers(stdio(t, "one", "basic"), stdio(t, "two", "basic")))
	list, warnings := m.Tools(context.Background())
	if len(warnings) > 0 {
		t.Fatal(warnings)
	}
	for _, s := range []string{"one", "two"} {
		res := call(t, find(t, list, "mcp_"+s+"_whoami"), `{}`)
		if res.Output != "I am "+s {
			t.Errorf("mcp_%s_whoami = %+v", s, res)
		}
	}
	seen := map[string]bool{}
	for _, tool := range list {
		if seen[tool.Name()] {
			t.Errorf("two tools named %s", tool.Name())
		}
		seen[tool.Name()] = true
	}
}

func TestFailedServers(t *testing.T) {
	// Long enough for the good one to start on busy cores; the mute one
	// takes it all.
	startup := testtime.Scaled(3 * time.Second)
	m := newManager(t, StartTimeout(startup),
		Servers(stdio(t, "good", "basic"), stdio(t, "dies", "exit"), stdio(t, "mute", "hang"),
			ServerConfig{Name: "missing", Command: "qsh-no-such-mcp-server"}))
	start := time.Now()
	list, warnings := m.Tools(context.Background())
	if d := time.Since(start); d > startup+testtime.Scaled(10*time.Second) {
		t.Errorf("Tools took %v with a %v start-up timeout", d, startup)
	}
	find(t, list, "mcp_good_echo")
	for _, tool := range list {
		if !strings.HasPrefix(tool.Name(), "mcp_good_") {
			t.Errorf("tool %s of a failed server", tool.Name())
		}
	}
	want := []string{
		`mcp: server "dies" failed: `,
		`(it said: boom: GITHUB_TOKEN is not set)`,
		`mcp: server "missing" failed: command "qsh-no-such-mcp-server" not found in PATH`,
		fmt.Sprintf(`mcp: server "mute" failed: no answer within %v`, startup),
	}
	all := strings.Join(warnings, "\n")
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("warnings lack %q:\n%s", w, all)
		}
	}
	if len(warnings) != 3 {
		t.Errorf("want one line per failed server, got %q", warnings)
	}
	st, _ := m.Status()
	states := map[string]State{}
	for _, s := range st {
		states[s.Name] = s.State
	}
	if states["good"] != Running || states["dies"] != Failed || states["mute"] != Failed || states["missing"] != Failed {
		t.Errorf("Status = %v", st)
	}

	// The next turn tries them again, and says so again.
	list, warnings = m.Tools(context.Background())
	find(t, list, "mcp_good_echo")
	if len(warnings) != 3 {
		t.Errorf("second turn: warnings %q", warnings)
	}
}

func TestCallTimeout(t *testing.T) {
	// The echo after must answer within it too, on busy cores.
	timeout := testtime.Scaled(2 * time.Second)
	m := newManager(t, Servers(stdio(t, "a", "basic")), CallTimeout(timeout))
	list, _ := m.Tools(context.Background())
	res := call(t, find(t, list, "mcp_a_slow"), `{}`)
	if res.Success || !strings.Contains(res.Error, fmt.Sprintf(`the MCP server "a" did not answer within %v`, timeout)) {
		t.Errorf("slow = %+v", res)
	}
	// The server is still good for the next call.
	if res := call(t, find(t, list, "mcp_a_echo"), `{"message":"still here"}`); res.Output != "still here" {
		t.Errorf("echo after a timeout = %+v", res)
	}
}

func TestCrashRestarts(t *testing.T) {
	m := newManager(t, Servers(stdio(t, "a", "basic")))
	list, _ := m.Tools(context.Background())
	res := call(t, find(t, list, "mcp_a_crash"), `{}`)
	if res.Success || !strings.Contains(res.Error, `the MCP server "a" stopped during the call (it said: panic: out of cheese)`) {
		t.Errorf("crash = %+v", res)
	}
	// Until the next turn its tools say it is gone.
	if s, _ := m.Status(); s[0].State != Failed {
		t.Errorf("Status after the crash = %v", s)
	}
	if res := call(t, find(t, list, "mcp_a_echo"), `{"message":"x"}`); res.Success || !strings.Contains(res.Error, "started again on the next question") {
		t.Errorf("echo on a crashed server = %+v", res)
	}
	list, warnings := m.Tools(context.Background())
	if len(warnings) > 0 {
		t.Errorf("restart warnings: %v", warnings)
	}
	if res := call(t, find(t, list, "mcp_a_echo"), `{"message":"back"}`); res.Output != "back" {
		t.Errorf("echo after restart = %+v", res)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	if !testtime.Until(30*time.Second, cond) {
		t.Fatalf("condition not met within %v", testtime.Scaled(30*time.Second))
	}
}

func TestConfirm(t *testing.T) {
	m := New(Servers(stdio(t, "a", "basic")), StopTimeout(200*time.Millisecond))
	defer m.Close()
	list, _ := m.Tools(context.Background())
	echo := find(t, list, "mcp_a_echo")
	var audit []Record
	m.audit = func(r Record) { audit = append(audit, r) }

	var out bytes.Buffer
	var asked atomic.Int32
	keys := func(k rune) tools.Env {
		return tools.Env{Out: &out, ReadKey: func(context.Context) (rune, error) {
			asked.Add(1)
			return k, nil
		}}
	}
	args := json.RawMessage(`{"message": "hi"}`)

	if res := echo.Execute(context.Background(), tools.Env{Out: &out}, args); res.Success || !strings.Contains(res.Error, "no terminal") {
		t.Errorf("without a terminal = %+v", res)
	}
	if res := echo.Execute(context.Background(), keys('n'), args); res.Success || res.Error != "the user declined this call" {
		t.Errorf("n = %+v", res)
	}
	if !strings.Contains(out.String(), `⚠ mcp  a: echo {"message":"hi"}  run? [y/n/a] n`) {
		t.Errorf("prompt = %q", out.String())
	}
	if res := echo.Execute(context.Background(), keys('y'), args); res.Output != "hi" {
		t.Errorf("y = %+v", res)
	}
	if res := echo.Execute(context.Background(), keys('a'), args); res.Output != "hi" {
		t.Errorf("a = %+v", res)
	}
	n := asked.Load()
	if res := echo.Execute(context.Background(), keys('n'), args); res.Output != "hi" || asked.Load() != n {
		t.Errorf("after a: %+v, asked again: %v", res, asked.Load() != n)
	}
	// "a" covers that tool only.
	if res := call(t, find(t, list, "mcp_a_add"), `{"a":1,"b":2}`); res.Success {
		t.Errorf("add after a for echo ran unasked: %+v", res)
	}
	cancelled := tools.Env{ReadKey: func(ctx context.Context) (rune, error) { return 0, context.Canceled }}
	if res := find(t, list, "mcp_a_add").Execute(context.Background(), cancelled, json.RawMessage(`{"a":1,"b":2}`)); res.Success || !res.Canceled {
		t.Errorf("cancelled = %+v", res)
	}

	var decisions []string
	for _, r := range audit {
		decisions = append(decisions, r.Decision+"/"+r.Outcome)
	}
	want := "deny/declined deny/declined once/ok always/ok approved/ok deny/declined deny/cancelled"
	if got := strings.Join(decisions, " "); got != want {
		t.Errorf("audit = %s\nwant    %s", got, want)
	}
	if audit[2].Server != "a" || audit[2].Remote != "echo" || audit[2].Tool != "mcp_a_echo" || string(audit[2].Args) != string(args) {
		t.Errorf("audit record = %+v", audit[2])
	}
}

func TestHTTPServer(t *testing.T) {
	var auth atomic.Value
	handler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return testServer() }, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth.Store(r.Header.Get("Authorization"))
		handler.ServeHTTP(w, r)
	}))
	defer srv.Close()
	m := newManager(t, Servers(ServerConfig{Name: "web", URL: srv.URL, Headers: map[string]string{"Authorization": "Bearer s3cret"}}))
	list, warnings := m.Tools(context.Background())
	if len(warnings) > 0 {
		t.Fatal(warnings)
	}
	if res := call(t, find(t, list, "mcp_web_add"), `{"a":1.5,"b":2}`); res.Output != "3.5" {
		t.Errorf("add over HTTP = %+v", res)
	}
	if got, _ := auth.Load().(string); got != "Bearer s3cret" {
		t.Errorf("Authorization = %q", got)
	}
}

func TestClose(t *testing.T) {
	m := New(Confirm(nil), Servers(stdio(t, "a", "basic")), StopTimeout(200*time.Millisecond))
	list, _ := m.Tools(context.Background())
	echo := find(t, list, "mcp_a_echo")
	m.Close()
	if res := call(t, echo, `{"message":"x"}`); res.Success {
		t.Errorf("call after Close = %+v", res)
	}
	if list, _ := m.Tools(context.Background()); len(list) != 0 {
		t.Errorf("Tools after Close = %d tools", len(list))
	}
}

func TestConfigFileError(t *testing.T) {
	path := t.TempDir() + "/mcp.json"
	os.WriteFile(path, []byte(`{"mcpServers": {"a": {"command": 1}}}`), 0o644)
	m := newManager(t, ConfigFile(path))
	list, warnings := m.Tools(context.Background())
	if len(list) != 0 || len(warnings) != 1 || !strings.HasPrefix(warnings[0], "mcp config "+path+": ") {
		t.Fatalf("Tools = %d tools, %q", len(list), warnings)
	}
	if _, warnings := m.Tools(context.Background()); len(warnings) != 0 {
		t.Errorf("the config error is repeated: %q", warnings)
	}
	if _, err := m.Status(); err == nil {
		t.Error("Status hides the config error")
	}
}

func TestToolListChanged(t *testing.T) {
	m := newManager(t, Servers(stdio(t, "a", "basic")))
	list, _ := m.Tools(context.Background())
	if _, ok := byName(list)["mcp_a_extra"]; ok {
		t.Fatal("extra before grow")
	}
	if res := call(t, find(t, list, "mcp_a_grow"), `{}`); res.Output != "grown" {
		t.Fatalf("grow = %+v", res)
	}
	waitFor(t, func() bool {
		list, _ = m.Tools(context.Background())
		_, ok := byName(list)["mcp_a_extra"]
		return ok
	})
	if res := call(t, find(t, list, "mcp_a_extra"), `{}`); res.Output != "new" {
		t.Errorf("extra = %+v", res)
	}
}

func TestHTTPFailures(t *testing.T) {
	refused := httptest.NewServer(http.NotFoundHandler())
	refused.Close()
	denied := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "bad token", http.StatusUnauthorized)
	}))
	defer denied.Close()
	m := newManager(t, Servers(ServerConfig{Name: "refused", URL: refused.URL}, ServerConfig{Name: "denied", URL: denied.URL}))
	start := time.Now()
	list, warnings := m.Tools(context.Background())
	t.Logf("%v: %q", time.Since(start), warnings)
	if len(list) != 0 || len(warnings) != 2 {
		t.Fatalf("Tools = %d tools, %q", len(list), warnings)
	}
	if !strings.Contains(warnings[0], "401") && !strings.Contains(warnings[0], "Unauthorized") {
		t.Errorf("denied: %s", warnings[0])
	}
	if !strings.Contains(warnings[1], "connection refused") {
		t.Errorf("refused: %s", warnings[1])
	}
}

func TestEnvironAndDir(t *testing.T) {
	dir := t.TempDir()
	srv := stdio(t, "a", "basic")
	delete(srv.Env, "QSH_MCP_TEST_NAME")
	m := newManager(t, Servers(srv), Dir(func() string { return dir }),
		Environ(func() []string {
			return append(os.Environ(), "QSH_MCP_TEST_NAME=from the shell", "QSH_MCP_TEST_API_KEY=sk-session")
		}))
	list, warnings := m.Tools(context.Background())
	if len(warnings) > 0 {
		t.Fatal(warnings)
	}
	if res := call(t, find(t, list, "mcp_a_pwd"), `{}`); res.Output != dir {
		t.Errorf("pwd = %+v, want %s", res, dir)
	}
	// The session's secrets stay out of the server's environment.
	if res := call(t, find(t, list, "mcp_a_whoami"), `{}`); res.Output != "I am from the shell" {
		t.Errorf("whoami = %+v", res)
	}
}

func TestNoisyServer(t *testing.T) {
	m := newManager(t, Servers(stdio(t, "noisy", "noisy")))
	list, warnings := m.Tools(context.Background())
	if len(warnings) > 0 {
		t.Fatal(warnings)
	}
	if res := call(t, find(t, list, "mcp_noisy_echo"), `{"message":"heard"}`); res.Output != "heard" {
		t.Errorf("echo = %+v", res)
	}
}
