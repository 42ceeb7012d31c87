package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// schemaFor builds the JSON schema of a Params struct from its json tags
// (omitempty marks an optional argument) and jsonschema tags (the
// description the model reads). enums restricts string properties to a set
// of values.
func schemaFor[T any](enums map[string][]string) *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		// Params structs are ours and fixed at compile time.
		panic(fmt.Sprintf("tools: schema of %T: %v", *new(T), err))
	}
	for name, vals := range enums {
		p := s.Properties[name]
		p.Enum = nil
		for _, v := range vals {
			p.Enum = append(p.Enum, v)
		}
	}
	return s
}

func mustJSON(s *jsonschema.Schema) json.RawMessage {
	b, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("tools: marshal schema: %v", err))
	}
	return b
}

// validate checks args against a tool's schema and says exactly what is
// wrong: the top level with our own messages (what models get wrong most),
// anything deeper with the validator's.
func validate(schema json.RawMessage, args json.RawMessage) error {
	if t := bytes.TrimSpace(args); len(t) == 0 || string(t) == "null" {
		args = json.RawMessage(`{}`)
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("the arguments are not valid JSON: %v", err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil // a schema we cannot read (an MCP server's): the tool checks
	}
	obj, ok := v.(map[string]any)
	if s.Type == "object" || s.Properties != nil {
		if !ok {
			return fmt.Errorf("the arguments must be a JSON object, got %s", jsonKind(v))
		}
		if err := validateTop(&s, obj); err != nil {
			return err
		}
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		return nil
	}
	var plain any
	json.Unmarshal(args, &plain)
	if err := rs.Validate(plain); err != nil {
		return fmt.Errorf("the arguments do not fit the schema: %v", err)
	}
	return nil
}

func validateTop(s *jsonschema.Schema, obj map[string]any) error {
	var missing []string
	for _, r := range s.Required {
		if _, ok := obj[r]; !ok {
			missing = append(missing, r)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("missing required argument %s", quoteList(missing))
	}
	names := make([]string, 0, len(obj))
	for k := range obj {
		names = append(names, k)
	}
	sort.Strings(names)
	closed := s.AdditionalProperties != nil && s.AdditionalProperties.Not != nil
	for _, k := range names {
		p, ok := s.Properties[k]
		if !ok {
			if closed {
				known := make([]string, 0, len(s.Properties))
				for n := range s.Properties {
					known = append(known, n)
				}
				sort.Strings(known)
				return fmt.Errorf("unknown argument %q; the arguments are %s", k, quoteList(known))
			}
			continue
		}
		if err := checkValue(k, p, obj[k]); err != nil {
			return err
		}
	}
	return nil
}

func checkValue(name string, p *jsonschema.Schema, v any) error {
	types := p.Types
	if p.Type != "" {
		types = []string{p.Type}
	}
	if len(types) > 0 {
		got := jsonKind(v)
		ok := slices.Contains(types, got) ||
			got == "integer" && slices.Contains(types, "number")
		if !ok {
			return fmt.Errorf("argument %q must be %s, got %s", name, strings.Join(types, " or "), describe(v))
		}
	}
	if len(p.Enum) > 0 && !slices.ContainsFunc(p.Enum, func(e any) bool { return fmt.Sprint(e) == fmt.Sprint(v) }) {
		vals := make([]string, len(p.Enum))
		for i, e := range p.Enum {
			vals[i] = fmt.Sprint(e)
		}
		return fmt.Errorf("argument %q must be one of %s, got %s", name, quoteList(vals), describe(v))
	}
	return nil
}

// jsonKind names the JSON type of a decoded value (numbers decoded with
// UseNumber).
func jsonKind(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if _, err := v.Int64(); err == nil {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func describe(v any) string {
	b, _ := json.Marshal(v)
	return fmt.Sprintf("%s %s", jsonKind(v), clip(string(b), 60))
}

func quoteList(s []string) string {
	q := make([]string, len(s))
	for i, x := range s {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, ", ")
}
