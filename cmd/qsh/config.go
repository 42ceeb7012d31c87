package main

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"time"

	"github.com/caarlos0/env/v11"

	"github.com/qsh-shell/qsh/ai"
	"github.com/qsh-shell/qsh/shell"
	"github.com/qsh-shell/qsh/tools"
)

// config is qsh's whole configuration: one field per package that has
// settings. Registering a package's Config is adding its field here; the
// loader and `--config` walk the fields.
type config struct {
	Shell shell.Config
	AI    ai.Config
	Tools tools.Config
}

// loadConfig fills cfg from environ (KEY=value list). A value that does
// not parse gets one line on stderr naming the variable and what it
// expected, and the default; loading never fails.
func loadConfig(environ []string, stderr io.Writer) config {
	vars := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			vars[k] = v
		}
	}
	var cfg config
	v := reflect.ValueOf(&cfg).Elem()
	for i := range v.NumField() {
		loadSection(v.Field(i).Addr().Interface(), vars, stderr)
	}
	return cfg
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
				key, env[key], expected(f.Type), def)
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

// expected says in words what a field of type t accepts.
func expected(t reflect.Type) string {
	if t == reflect.TypeFor[time.Duration]() {
		return "a duration such as 30s or 2m"
	}
	if t == reflect.TypeFor[shell.Switch]() {
		return "on or off"
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

// printConfig writes every variable of every section with its value and
// default, secrets masked.
func printConfig(w io.Writer, cfg config) {
	v := reflect.ValueOf(cfg)
	for i := range v.NumField() {
		sec := v.Field(i)
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
			if secret(key) && val != "" {
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

// secret reports whether a variable holds a credential that must not be
// printed.
func secret(name string) bool {
	for _, s := range []string{"KEY", "TOKEN", "SECRET", "PASSWORD"} {
		if strings.Contains(name, s) {
			return true
		}
	}
	return false
}

// withoutSecrets is environ without the API keys: qsh reads them once, and
// the commands it runs never see them.
func withoutSecrets(environ []string) []string {
	var out []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "QSH_AI_API_KEY":
			continue
		}
		out = append(out, kv)
	}
	return out
}
