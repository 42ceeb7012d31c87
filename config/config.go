// Package config loads the packages' Config structs from environment
// variables (caarlos0/env struct tags: env, envDefault, doc for a default
// that is computed, min for the least a number may be, and strict for a
// safety setting, see [Strict]) and prints them for --config. qsh loads
// the shell's section; qsh-assistant the assistant's.
package config

import (
	"encoding"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/caarlos0/env/v11"

	"github.com/qsh-shell/qsh/policy/secret"
)

// Problems are the values Load could not use, by variable: what was set
// and what was expected.
type Problems map[string]string

// Load fills each section, a pointer to a package's Config struct, from
// environ (KEY=value list). A value that does not parse, or is below its
// field's min, gets one line on stderr naming the variable and what it
// expected, and the default (a safety setting's, none: see [Strict]);
// loading never fails. The same problems are
// returned for --config to show.
func Load(environ []string, stderr io.Writer, sections ...any) Problems {
	vars := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			vars[k] = v
		}
	}
	problems := Problems{}
	for _, sec := range sections {
		loadSection(sec, vars, stderr, problems)
	}
	return problems
}

// loadSection parses one package's Config struct, retrying without each
// variable that failed so that it falls back to its default.
func loadSection(ptr any, vars map[string]string, stderr io.Writer, problems Problems) {
	typ := reflect.TypeOf(ptr).Elem()
	env := map[string]string{}
	for k, v := range vars {
		env[k] = v
	}
	// reject drops a variable that was set, so that the next parse uses
	// its default, and says so.
	reject := func(f reflect.StructField, what string) bool {
		key := envKey(f)
		if _, set := env[key]; !set {
			return false
		}
		def := f.Tag.Get("envDefault")
		if def == "" {
			def = "empty"
		}
		problems[key] = fmt.Sprintf("%q: expected %s", env[key], what)
		if !strict(f) { // said by what refuses (see Strict)
			fmt.Fprintf(stderr, "qsh: %s=%q: expected %s; using the default (%s)\n", key, env[key], what, def)
		}
		delete(env, key)
		return true
	}
	for range typ.NumField() + 1 {
		reflect.ValueOf(ptr).Elem().SetZero()
		err := envParse(ptr, env)
		bad := false
		for _, fe := range fieldErrors(err) {
			if f, ok := typ.FieldByName(fe.Name); ok && reject(f, expected(f.Type, fe.Err)) {
				bad = true
			}
		}
		if err == nil {
			val := reflect.ValueOf(ptr).Elem()
			for j := range typ.NumField() {
				f := typ.Field(j)
				if least, ok := f.Tag.Lookup("min"); ok && below(val.Field(j), least) && reject(f, atLeast(f.Type, least)) {
					bad = true
				}
			}
			if !bad {
				return
			}
		}
		if !bad {
			fmt.Fprintf(stderr, "qsh: configuration: %v\n", err)
			reflect.ValueOf(ptr).Elem().SetZero()
			envParse(ptr, map[string]string{})
			return
		}
	}
}

// refusal is what a strict setting's bad value costs.
const refusal = "the assistant will not start until it is fixed (a mistyped safety setting must not make it looser)"

// strict reports whether f is a safety setting (tag strict:"true"): one
// that makes the sandbox, the confirmations or what the model gets
// stricter. A value of it that does not parse may have meant the
// stricter one, so the default, which may be looser, is not used for it.
func strict(f reflect.StructField) bool { return f.Tag.Get("strict") == "true" }

// Strict lists, one line each, the safety settings of the sections (see
// [strict]) whose value Load could not use: the assistant refuses to
// start while there are any, and says so with these lines, which Load
// leaves unsaid.
func Strict(problems Problems, sections ...any) []string {
	var lines []string
	for _, s := range sections {
		typ := reflect.Indirect(reflect.ValueOf(s)).Type()
		for j := range typ.NumField() {
			f := typ.Field(j)
			if p, ok := problems[envKey(f)]; ok && strict(f) {
				lines = append(lines, envKey(f)+"="+p+"; "+refusal)
			}
		}
	}
	return lines
}

func envKey(f reflect.StructField) string {
	key, _, _ := strings.Cut(f.Tag.Get("env"), ",")
	return key
}

// below reports whether a number (or a duration) is less than least,
// written as its default would be.
func below(v reflect.Value, least string) bool {
	if v.Type() == reflect.TypeFor[time.Duration]() {
		d, err := time.ParseDuration(least)
		return err == nil && time.Duration(v.Int()) < d
	}
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(least, 10, 64)
		return err == nil && v.Int() < n
	case reflect.Float32, reflect.Float64:
		n, err := strconv.ParseFloat(least, 64)
		return err == nil && v.Float() < n
	}
	return false
}

// atLeast says in words what a field with a min accepts.
func atLeast(t reflect.Type, least string) string {
	noun := expected(t, nil)
	if t == reflect.TypeFor[time.Duration]() {
		noun = "a duration"
	}
	return fmt.Sprintf("%s of at least %s", noun, least)
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
// to them) with its value and default, secrets masked, and after a value
// that Load did not use, what was wrong with it.
func Print(w io.Writer, problems Problems, sections ...any) {
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
			fmt.Fprintf(w, "%s=%s\t(default: %s)", key, val, orNone(def))
			if p, ok := problems[key]; ok {
				if secret.Var(key) {
					p = "not used"
				}
				if strict(f) {
					fmt.Fprintf(w, "\trefused %s: the assistant will not start", p)
				} else {
					fmt.Fprintf(w, "\tignored %s", p)
				}
			}
			fmt.Fprintln(w)
		}
	}
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
