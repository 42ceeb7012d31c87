package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// ServerConfig is one entry of the "mcpServers" object: a stdio server
// (Command, Args, Env) or a streamable-HTTP one (URL, Headers).
type ServerConfig struct {
	Name    string
	Command string
	Args    []string
	Env     map[string]string
	URL     string
	Headers map[string]string
}

// entry is the JSON shape of one server, as other MCP clients write it.
// Fields those clients add for themselves (autoApprove, timeout, …) are
// ignored.
type entry struct {
	Type     string            `json:"type"`
	Command  string            `json:"command"`
	Args     []string          `json:"args"`
	Env      map[string]string `json:"env"`
	URL      string            `json:"url"`
	Headers  map[string]string `json:"headers"`
	Disabled bool              `json:"disabled"`
}

// ConfigPath is where the configuration lives: $QSH_AI_MCP_CONFIG, else
// $XDG_CONFIG_HOME/qsh/mcp.json, else ~/.config/qsh/mcp.json.
func ConfigPath(getenv func(string) string) string {
	if p := getenv("QSH_AI_MCP_CONFIG"); p != "" {
		return p
	}
	dir := getenv("XDG_CONFIG_HOME")
	if dir == "" {
		dir = filepath.Join(getenv("HOME"), ".config")
	}
	return filepath.Join(dir, "qsh", "mcp.json")
}

// LoadConfig reads the configuration file at path. A missing file means no
// servers and no error. ${VAR} and ${VAR:-default} in the strings of an
// entry are replaced by getenv's answer, so that secrets can stay out of
// the file. Servers come back sorted by name.
func LoadConfig(path string, getenv func(string) string) ([]ServerConfig, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("mcp config: %v", err)
	}
	servers, err := ParseConfig(data, getenv)
	if err != nil {
		return nil, fmt.Errorf("mcp config %s: %v", path, err)
	}
	return servers, nil
}

// ParseConfig parses the JSON of a configuration file; see [LoadConfig].
func ParseConfig(data []byte, getenv func(string) string) ([]ServerConfig, error) {
	var file struct {
		Servers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, jsonError(data, err)
	}
	if file.Servers == nil {
		return nil, errors.New(`no "mcpServers" object`)
	}
	var servers []ServerConfig
	for name, raw := range file.Servers {
		var e entry
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, fmt.Errorf("server %q: %v", name, plainJSONError(err))
		}
		if e.Disabled {
			continue
		}
		s, err := e.server(name, getenv)
		if err != nil {
			return nil, fmt.Errorf("server %q: %v", name, err)
		}
		servers = append(servers, s)
	}
	sort.Slice(servers, func(i, j int) bool { return servers[i].Name < servers[j].Name })
	return servers, nil
}

func (e entry) server(name string, getenv func(string) string) (ServerConfig, error) {
	if name == "" {
		return ServerConfig{}, errors.New("empty server name")
	}
	switch e.Type {
	case "", "stdio", "http", "streamable-http", "streamableHttp":
	case "sse":
		return ServerConfig{}, errors.New(`"type": "sse" (the old HTTP+SSE transport) is not supported; use a streamable-HTTP URL`)
	default:
		return ServerConfig{}, fmt.Errorf("unknown \"type\" %q (want stdio or http)", e.Type)
	}
	switch {
	case e.Command != "" && e.URL != "":
		return ServerConfig{}, errors.New(`has both "command" and "url"; give one`)
	case e.Command == "" && e.URL == "":
		return ServerConfig{}, errors.New(`needs "command" (a stdio server) or "url" (a streamable-HTTP server)`)
	case e.URL != "" && (len(e.Args) > 0 || len(e.Env) > 0):
		return ServerConfig{}, errors.New(`"args" and "env" are for stdio servers, not with "url"`)
	case e.Command != "" && len(e.Headers) > 0:
		return ServerConfig{}, errors.New(`"headers" are for HTTP servers, not with "command"`)
	}
	s := ServerConfig{
		Name:    name,
		Command: expand(e.Command, getenv),
		URL:     expand(e.URL, getenv),
	}
	if s.URL != "" && !strings.HasPrefix(s.URL, "http://") && !strings.HasPrefix(s.URL, "https://") {
		return ServerConfig{}, fmt.Errorf("url %q is not http:// or https://", s.URL)
	}
	for _, a := range e.Args {
		s.Args = append(s.Args, expand(a, getenv))
	}
	s.Env = expandMap(e.Env, getenv)
	s.Headers = expandMap(e.Headers, getenv)
	return s, nil
}

func expandMap(m map[string]string, getenv func(string) string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = expand(v, getenv)
	}
	return out
}

// expand replaces ${VAR} and ${VAR:-default}. A bare $VAR is left alone:
// arguments such as regular expressions may hold dollars of their own.
func expand(s string, getenv func(string) string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			break
		}
		b.WriteString(s[:i])
		name, def, hasDef := strings.Cut(s[i+2:i+j], ":-")
		v := getenv(name)
		if v == "" && hasDef {
			v = def
		}
		b.WriteString(v)
		s = s[i+j+1:]
	}
	b.WriteString(s)
	return b.String()
}

// jsonError names the line and column of a syntax error, which is what a
// person editing the file needs.
func jsonError(data []byte, err error) error {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		// Offset is just past the bad byte, or the end for a truncated file.
		off := syn.Offset - 1
		if syn.Offset >= int64(len(data)) {
			off = int64(len(data))
		}
		line, col := position(data, off)
		return fmt.Errorf("line %d, column %d: %v", line, col, syn)
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		line, col := position(data, typ.Offset-1)
		return fmt.Errorf("line %d, column %d: %v", line, col, plainJSONError(err))
	}
	return err
}

func plainJSONError(err error) error {
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		field := typ.Field
		if field == "" {
			field = "value"
		}
		return fmt.Errorf("%s is a JSON %s, want %s", field, typ.Value, jsonKind(typ.Type.Kind().String()))
	}
	return err
}

func jsonKind(goKind string) string {
	switch goKind {
	case "struct", "map":
		return "an object"
	case "slice":
		return "an array"
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	}
	return goKind
}

func position(data []byte, offset int64) (line, col int) {
	offset = max(0, min(offset, int64(len(data))))
	line, col = 1, 1
	for _, c := range data[:offset] {
		if c == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}
