package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPreHook: the pre-tool hook sees the call on stdin and may let it go,
// veto it (exit status with a reason on stderr, or {"deny": …}), or
// rewrite its arguments, which are then checked as the model's would be;
// a hook that fails or overruns blocks the call.
func TestPreHook(t *testing.T) {
	t.Parallel()
	read := `{"operation":"read","path":"a.txt"}`
	for _, tc := range []struct {
		name, hook, want, decision string
		ok                         bool
	}{
		{"allows", "cat > seen.json", "from a", "run", true},
		{"exit", "echo 'no reading today' >&2; exit 1", "vetoed this call: no reading today", "vetoed", false},
		{"deny", `echo '{"deny": "not a.txt"}'`, "vetoed this call: not a.txt", "vetoed", false},
		{"rewrite", `echo '{"args": {"operation": "read", "path": "b.txt"}}'`, "changed the arguments", "run", true},
		{"rewrite checked", `echo '{"args": {"operation": "write", "path": "c.txt", "content": "x"}}'`, "not run", "refused", false},
		{"garbage", "echo nope", "not a JSON object", "vetoed", false},
		{"overruns", "sleep 5", "did not finish within", "vetoed", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := DefaultConfig()
			cfg.HookPreTool, cfg.HookTimeout = tc.hook, 300*time.Millisecond
			if tc.name != "overruns" {
				cfg.HookTimeout = 10 * time.Second
			}
			r, _ := testRegistry(t, cfg)
			d := t.TempDir()
			os.WriteFile(filepath.Join(d, "a.txt"), []byte("from a\n"), 0o644)
			os.WriteFile(filepath.Join(d, "b.txt"), []byte("from b\n"), 0o644)
			res := r.Call(context.Background(), testEnv(d, new(bytes.Buffer)), "filesystem", json.RawMessage(read))
			text := res.Output + res.Error
			if res.Success != tc.ok || !strings.Contains(text, tc.want) || res.Decision != tc.decision {
				t.Errorf("result %+v; want ok %v, %q, decision %s", res, tc.ok, tc.want, tc.decision)
			}
			if tc.name == "rewrite" && !strings.Contains(text, "from b") {
				t.Errorf("the rewritten call did not run: %q", text)
			}
			if tc.name == "allows" {
				b, _ := os.ReadFile(filepath.Join(d, "seen.json"))
				var p HookPayload
				if err := json.Unmarshal(b, &p); err != nil || p.Event != "pre_tool" || p.Tool != "filesystem" || p.Dir != d || !strings.Contains(string(p.Args), "a.txt") {
					t.Errorf("payload %s (%v)", b, err)
				}
			}
		})
	}
}

// TestPostHook: the post-tool hook sees the result; one that fails is
// said in one line and changes nothing.
func TestPostHook(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("from a\n"), 0o644)
	cfg := DefaultConfig()
	cfg.HookPostTool = "cat > post.json; echo broken >&2; exit 3"
	r, _ := testRegistry(t, cfg)
	var out bytes.Buffer
	res := r.Call(context.Background(), testEnv(dir, &out), "filesystem", json.RawMessage(`{"operation":"read","path":"a.txt"}`))
	if !res.Success {
		t.Fatalf("result %+v", res)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "post.json"))
	var p HookPayload
	if err := json.Unmarshal(b, &p); err != nil || p.Event != "post_tool" || p.Result == nil || !p.Result.OK || !strings.Contains(p.Result.Output, "from a") || p.Result.Class != "safe" {
		t.Errorf("payload %s (%v)", b, err)
	}
	if out.String() != "qsh: the post-tool hook failed: broken\n" {
		t.Errorf("screen %q", out.String())
	}
}

func TestTurnEndHook(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := DefaultConfig()
	cfg.HookTurnEnd = "cat > end.json"
	r, _ := testRegistry(t, cfg)
	if err := r.TurnEnd(context.Background(), Env{Dir: dir}, HookPayload{Reason: "answered", Question: "q"}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "end.json"))
	if !strings.Contains(string(b), `"event":"turn_end"`) || !strings.Contains(string(b), `"reason":"answered"`) {
		t.Errorf("payload %s", b)
	}
	cfg.HookTurnEnd = "exit 1"
	r, _ = testRegistry(t, cfg)
	if err := r.TurnEnd(context.Background(), Env{Dir: dir}, HookPayload{}); err == nil {
		t.Error("a failing hook is not reported")
	}
}
