package mcp

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The test binary doubles as the MCP servers the tests start: with
// QSH_MCP_TEST_SERVER set it runs one on stdio instead of the tests.
func TestMain(m *testing.M) {
	if kind := os.Getenv("QSH_MCP_TEST_SERVER"); kind != "" {
		runTestServer(kind)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func runTestServer(kind string) {
	switch kind {
	case "exit":
		fmt.Fprintln(os.Stderr, "starting up")
		fmt.Fprintln(os.Stderr, "boom: GITHUB_TOKEN is not set")
		os.Exit(1)
	case "flaky":
		if _, err := os.Stat(os.Getenv("QSH_MCP_TEST_FAIL_IF")); err == nil {
			fmt.Fprintln(os.Stderr, "cannot start today")
			os.Exit(1)
		}
	case "noisy":
		// Some servers log to stdout, where only JSON-RPC belongs.
		fmt.Println("Server listening on stdio")
	case "forks":
		// A child that inherits stdout and outlives the server.
		child := exec.Command("sleep", "60")
		child.Stdout = os.Stdout
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Setenv("QSH_MCP_TEST_CHILD", fmt.Sprint(child.Process.Pid))
	case "hang":
		// Reads the requests and never answers; exits when stdin closes.
		io.Copy(io.Discard, os.Stdin)
		return
	}
	if kind == "stubborn" {
		// Ignores its closed stdin and SIGTERM: only SIGKILL stops it.
		signal.Ignore(syscall.SIGTERM)
		os.Setenv("QSH_MCP_TEST_CHILD", fmt.Sprint(os.Getpid()))
	}
	if err := testServer().Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
	if kind == "stubborn" {
		select {}
	}
}

type echoArgs struct {
	Message string `json:"message" jsonschema:"what to echo"`
}

type addArgs struct {
	A float64 `json:"a"`
	B float64 `json:"b"`
}

type sizeArgs struct {
	N int `json:"n"`
}

type none struct{}

func text(s string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
}

// testServer has a tool for each kind of answer the client must handle.
func testServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "qsh-test", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "Echoes the message."},
		func(_ context.Context, _ *sdk.CallToolRequest, in echoArgs) (*sdk.CallToolResult, any, error) {
			return text(in.Message), nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "add", Description: "Adds two numbers."},
		func(_ context.Context, _ *sdk.CallToolRequest, in addArgs) (*sdk.CallToolResult, any, error) {
			return text(fmt.Sprint(in.A + in.B)), nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "whoami"},
		func(_ context.Context, _ *sdk.CallToolRequest, _ none) (*sdk.CallToolResult, any, error) {
			if key := os.Getenv("QSH_MCP_TEST_API_KEY"); key != "" {
				return text("I am " + os.Getenv("QSH_MCP_TEST_NAME") + " with " + key), nil, nil
			}
			return text("I am " + os.Getenv("QSH_MCP_TEST_NAME")), nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "pwd"},
		func(_ context.Context, _ *sdk.CallToolRequest, _ none) (*sdk.CallToolResult, any, error) {
			dir, _ := os.Getwd()
			return text(dir), nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "child"},
		func(_ context.Context, _ *sdk.CallToolRequest, _ none) (*sdk.CallToolResult, any, error) {
			return text(os.Getenv("QSH_MCP_TEST_CHILD")), nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "fail"},
		func(_ context.Context, _ *sdk.CallToolRequest, _ none) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{
				&sdk.TextContent{Text: "the repository does not exist"},
			}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "media"},
		func(_ context.Context, _ *sdk.CallToolRequest, _ none) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{
				&sdk.TextContent{Text: "here you are"},
				&sdk.ImageContent{MIMEType: "image/png", Data: []byte("12345")},
				&sdk.AudioContent{MIMEType: "audio/wav", Data: []byte("123")},
				&sdk.ResourceLink{URI: "file:///tmp/x.txt", Name: "x.txt"},
				&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "mem://notes", Text: "embedded text"}},
				&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "mem://blob", MIMEType: "application/zip", Blob: []byte("zz")}},
			}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "big"},
		func(_ context.Context, _ *sdk.CallToolRequest, in sizeArgs) (*sdk.CallToolResult, any, error) {
			return text("BEGIN" + strings.Repeat("x", in.N) + "END"), nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "slow"},
		func(ctx context.Context, _ *sdk.CallToolRequest, _ none) (*sdk.CallToolResult, any, error) {
			select {
			case <-ctx.Done():
			case <-time.After(20 * time.Second):
			}
			return text("late"), nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "grow", Description: "Adds the tool extra."},
		func(_ context.Context, _ *sdk.CallToolRequest, _ none) (*sdk.CallToolResult, any, error) {
			sdk.AddTool(s, &sdk.Tool{Name: "extra"},
				func(_ context.Context, _ *sdk.CallToolRequest, _ none) (*sdk.CallToolResult, any, error) {
					return text("new"), nil, nil
				})
			return text("grown"), nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "crash"},
		func(_ context.Context, _ *sdk.CallToolRequest, _ none) (*sdk.CallToolResult, any, error) {
			fmt.Fprintln(os.Stderr, "panic: out of cheese")
			os.Exit(2)
			return nil, nil, nil
		})
	return s
}
