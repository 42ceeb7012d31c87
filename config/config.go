// Package config loads the packages' Config structs from environment
// variables (caarlos0/env struct tags: env, envDefault, and doc for a
// default that is computed) and prints them for --config. qsh loads the
// shell's section; qsh-assistant the assistant's.
package config

import (
	"encoding"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"time"

	"github.com/caarlos0/env/v11"

	"github.com/qsh-shell/qsh/tools/danger/secret"
)

// Load fills each section, a pointer to a package's Config struct, from
// environ (KEY=value list). A value that does not parse gets one line on
// stderr naming the variable and what it expected, and the default;
// loading never fails.
func Load(environ []string, stderr io.Writer, sections ...any) {
	vars := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			vars[k] = v
		}
	}
	for _, sec := range sections {
		loadSection(sec, vars, stderr)
	}
}

// loadSection parses one package's Config struct, retrying without each
// variable that failed so that it falls back to its default.
func loadSection(ptr any, vars map[string]string, stderr io.Writer) {
	typ := reflect.TypeOf(ptr).Elem()
	env := map[string]string{}
	for k, v := range vars {
		env[k] = v
	}
	for range typ.NumField() + 1 {
		reflect.ValueOf(ptr).Elem().SetZero()
		err := envParse(ptr, env)
		if err == nil {
			return
		}
		bad := false
		for _, fe := range fieldErrors(err) {
			f, ok := typ.FieldByName(fe.Name)
			if !ok {
				continue
			}
			key, _, _ := strings.Cut(f.Tag.Get("env"), ",")
			if _, set := env[key]; !set {
				continue
			}
			def := f.Tag.Get("envDefault")
			if def == "" {
				def = "empty"
			}
			fmt.Fprintf(stderr, "qsh: %s=%q: expected %s; using the default (%s)\n",
				key, env[key], expected(f.Type, fe.Err), def)
			delete(env, key)
			bad = true
		}
		if !bad {
			fmt.Fprintf(stderr, "qsh: configuration: %v\n", err)
			reflect.ValueOf(ptr).Elem().SetZero()
			envParse(ptr, map[string]string{})
			return
		}
	}
}

func envParse(ptr any, environ map[string]string) error {
	return env.ParseWithOptions(ptr, env.Options{Environment: environ})
}

func fieldErrors(err error) []env.ParseError {
	var out []env.ParseError
	var agg env.AggregateError
	if errors.As(err, &agg) {
		for _, e := range agg.Errors {
			var pe env.ParseError
			if errors.As(e, &pe) {
				out = append(out, pe)
			}
		}
	}
	return out
}

// expected says in words what a field of type t accepts; err is why the
// value did not parse.
func expected(t reflect.Type, err error) string {
	// A type of its own (shell.Switch: on or off) says it in its error.
	if reflect.PointerTo(t).Implements(reflect.TypeFor[encoding.TextUnmarshaler]()) && err != nil {
		if what, ok := strings.CutPrefix(err.Error(), "expected "); ok {
			return what
		}
	}
	if t == reflect.TypeFor[time.Duration]() {
		return "a duration such as 30s or 2m"
	}
	if t.Kind() == reflect.String {
		return "one of the documented values"
	}
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a non-negative integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "a " + t.String()
}

// Print writes every variable of every section (Config structs or pointers
// to them) with its value and default, secrets masked.
func Print(w io.Writer, sections ...any) {
	for _, s := range sections {
		sec := reflect.Indirect(reflect.ValueOf(s))
		typ := sec.Type()
		for j := range typ.NumField() {
			f := typ.Field(j)
			key, _, _ := strings.Cut(f.Tag.Get("env"), ",")
			if key == "" {
				continue
			}
			def, ok := f.Tag.Lookup("envDefault")
			if d := f.Tag.Get("doc"); !ok && d != "" {
				def = d
			}
			val := fmt.Sprint(sec.Field(j).Interface())
			if secret.Var(key) && val != "" {
				val = "****"
			}
			fmt.Fprintf(w, "%s=%s\t(default: %s)\n", key, val, orNone(def))
		}
	}
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
