package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/qsh-shell/qsh/assistant/tools"
	"github.com/qsh-shell/qsh/policy/danger"
)

// Tool is one tool of one server, offered to the model as
// mcp_<server>_<tool>. It implements [tools.Tool].
type Tool struct {
	m      *Manager
	srv    *server
	name   string
	remote *remoteTool
}

// Name is mcp_<server>_<tool>, in the characters and length model APIs
// accept.
func (t *Tool) Name() string { return t.name }

// Server is the name of the tool's server in the configuration.
func (t *Tool) Server() string { return t.srv.cfg.Name }

// Remote is the tool's name on its server.
func (t *Tool) Remote() string { return t.remote.def.Name }

// Description is the server's description of the tool.
func (t *Tool) Description() string {
	d := t.remote.def.Description
	if d == "" {
		d = t.remote.def.Title
	}
	if d == "" {
		d = fmt.Sprintf("The tool %q of the MCP server %q.", t.Remote(), t.Server())
	}
	return d
}

// Schema is the server's input schema for the tool.
func (t *Tool) Schema() json.RawMessage { return t.remote.schema }

// Classify tells tools.Registry how to confirm a call: every MCP call is
// asked about unless the confirmation mode is yolo, since what a server
// does cannot be seen from here.
func (t *Tool) Classify(args json.RawMessage) danger.Verdict {
	return danger.Verdict{Class: danger.Dev, Reasons: []string{
		fmt.Sprintf("calls %s on the MCP server %s", t.Remote(), t.Server()),
	}}
}

func newRemoteTool(def *sdk.Tool) *remoteTool {
	r := &remoteTool{def: def}
	schema, err := json.Marshal(def.InputSchema)
	if err != nil || def.InputSchema == nil || string(schema) == "null" {
		schema = []byte(`{"type":"object","properties":{}}`)
	}
	r.schema = schema
	var s jsonschema.Schema
	if json.Unmarshal(schema, &s) == nil {
		// A schema the validator cannot resolve (a remote $ref, an unknown
		// draft) is left to the server to check.
		r.resolved, _ = s.Resolve(nil)
	}
	return r
}

// maxName is the longest tool name the model APIs accept.
const maxName = 64

// toolName builds mcp_<server>_<tool> from the characters model APIs allow,
// within maxName, and unlike every name in taken.
func toolName(server, tool string, taken map[string]bool) string {
	name := "mcp_" + sanitize(server) + "_" + sanitize(tool)
	if len(name) > maxName {
		h := fnv.New32a()
		h.Write([]byte(server + "\x00" + tool))
		sum := fmt.Sprintf("_%08x", h.Sum32())
		name = name[:maxName-len(sum)] + sum
	}
	if !taken[name] {
		return name
	}
	for i := 2; ; i++ {
		suffix := fmt.Sprintf("_%d", i)
		base := name
		if len(base)+len(suffix) > maxName {
			base = base[:maxName-len(suffix)]
		}
		if !taken[base+suffix] {
			return base + suffix
		}
	}
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			return r
		}
		return '_'
	}, s)
}

// Execute validates the arguments against the tool's schema, confirms the
// call (unless the Manager was made with Confirm(nil)), and calls the tool
// with the call timeout.
func (t *Tool) Execute(ctx context.Context, env tools.Env, args json.RawMessage) tools.Result {
	start := time.Now()
	rec := Record{Time: start, Tool: t.name, Server: t.Server(), Remote: t.Remote()}
	res := t.execute(ctx, env, args, &rec)
	res.Duration = time.Since(start)
	if t.m.audit != nil {
		rec.Duration, rec.Truncated = res.Duration, res.Truncated
		t.m.audit(rec)
	}
	return res
}

func (t *Tool) execute(ctx context.Context, env tools.Env, args json.RawMessage, rec *Record) tools.Result {
	if len(bytes.TrimSpace(args)) == 0 || string(bytes.TrimSpace(args)) == "null" {
		args = json.RawMessage(`{}`)
	}
	rec.Args = args
	if err := t.validate(args); err != nil {
		rec.Decision, rec.Outcome = "invalid", "invalid"
		return tools.Result{Error: fmt.Sprintf("%s: invalid arguments: %v", t.name, err)}
	}

	switch {
	case t.m.confirm == nil:
		rec.Decision = "not asked"
	case t.m.isApproved(t.srv, t.Remote()):
		rec.Decision = "approved"
	default:
		d, err := t.m.confirm(ctx, env, t.prompt(args))
		rec.Decision = d.String()
		if err != nil {
			rec.Outcome = "cancelled"
			return tools.Result{Error: tools.ErrCanceled.Error(), Canceled: true}
		}
		switch d {
		case Deny:
			rec.Outcome = "declined"
			if env.ReadKey == nil {
				return tools.Result{Error: "not run: there is no terminal to ask the user for confirmation"}
			}
			return tools.Result{Error: "the user declined this call"}
		case Always:
			t.m.approve(t.srv, t.Remote())
		}
	}

	cs, state, reason := t.srv.current()
	if cs == nil {
		rec.Outcome = "not running"
		msg := fmt.Sprintf("the MCP server %q is %s", t.Server(), state)
		if reason != "" {
			msg += ": " + reason
		}
		return tools.Result{Error: msg + "; it is started again on the next question"}
	}
	callCtx, cancel := context.WithTimeout(ctx, t.m.callTimeout)
	defer cancel()
	out, err := cs.CallTool(callCtx, &sdk.CallToolParams{Name: t.Remote(), Arguments: args})
	if err != nil {
		return t.callError(ctx, callCtx, cs, err, rec)
	}
	return t.result(out, rec)
}

func (t *Tool) validate(args json.RawMessage) error {
	var v any
	if err := json.Unmarshal(args, &v); err != nil {
		return fmt.Errorf("not valid JSON: %v", err)
	}
	if _, ok := v.(map[string]any); !ok {
		return errors.New("the arguments must be a JSON object")
	}
	if t.remote.resolved == nil {
		return nil
	}
	return t.remote.resolved.Validate(v)
}

// prompt is the confirmation line: server, tool and arguments.
func (t *Tool) prompt(args json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, args) != nil {
		b.Reset()
		b.Write(args)
	}
	a := b.String()
	if r := []rune(a); len(r) > 400 {
		a = string(r[:400]) + fmt.Sprintf("… (%d bytes in all)", len(args))
	}
	return fmt.Sprintf("%s: %s %s", t.Server(), t.Remote(), a)
}

func (t *Tool) callError(ctx, callCtx context.Context, cs *sdk.ClientSession, err error, rec *Record) tools.Result {
	switch {
	case ctx.Err() != nil:
		rec.Outcome = "cancelled"
		return tools.Result{Error: "the call was cancelled"}
	case callCtx.Err() == context.DeadlineExceeded:
		rec.Outcome = "timeout"
		return tools.Result{Error: fmt.Sprintf("the MCP server %q did not answer within %v", t.Server(), t.m.callTimeout)}
	case t.srv.ended(cs):
		rec.Outcome = "server stopped"
		return tools.Result{Error: fmt.Sprintf("the MCP server %q stopped during the call%s; it is started again on the next question", t.Server(), said(t.srv.stderr))}
	}
	rec.Outcome = "error"
	return tools.Result{Error: fmt.Sprintf("the MCP server %q: %s", t.Server(), oneLine(err.Error()))}
}

// result turns what the server answered into what the model reads: text as
// it is, a short note for anything else.
func (t *Tool) result(out *sdk.CallToolResult, rec *Record) tools.Result {
	var parts []string
	for _, c := range out.Content {
		parts = append(parts, contentText(c))
	}
	if len(parts) == 0 && out.StructuredContent != nil {
		if b, err := json.Marshal(out.StructuredContent); err == nil {
			parts = append(parts, string(b))
		}
	}
	if out.NeedsInput() {
		parts = append(parts, "[the server asked for more input, which qsh cannot give]")
	}
	text, cut := truncate(strings.Join(parts, "\n"), t.m.maxOutput)
	res := tools.Result{Output: text, Truncated: cut, Success: !out.IsError && !out.NeedsInput()}
	if !res.Success {
		rec.Outcome = "error"
		res.Error = "the tool reported an error"
		if text != "" {
			first, _, _ := strings.Cut(text, "\n")
			res.Error += ": " + oneLine(first)
		}
		return res
	}
	rec.Outcome = "ok"
	return res
}

func contentText(c sdk.Content) string {
	switch c := c.(type) {
	case *sdk.TextContent:
		return c.Text
	case *sdk.ImageContent:
		return fmt.Sprintf("[image: %s, %d bytes, not shown]", c.MIMEType, len(c.Data))
	case *sdk.AudioContent:
		return fmt.Sprintf("[audio: %s, %d bytes, not shown]", c.MIMEType, len(c.Data))
	case *sdk.ResourceLink:
		s := "[resource link: " + c.URI
		if c.Name != "" && c.Name != c.URI {
			s += " (" + c.Name + ")"
		}
		if c.Description != "" {
			s += ": " + oneLine(c.Description)
		}
		return s + "]"
	case *sdk.EmbeddedResource:
		r := c.Resource
		if r == nil {
			return "[empty resource]"
		}
		if r.Text != "" {
			return "[resource " + r.URI + "]\n" + r.Text
		}
		return fmt.Sprintf("[resource %s: %s, %d bytes, not shown]", r.URI, r.MIMEType, len(r.Blob))
	}
	return fmt.Sprintf("[%T content, not shown]", c)
}
