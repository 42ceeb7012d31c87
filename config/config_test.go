package config

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

type section struct {
	Size    int           `env:"T_SIZE" envDefault:"5"`
	On      bool          `env:"T_ON" envDefault:"true"`
	Name    string        `env:"T_NAME"`
	Wait    time.Duration `env:"T_WAIT" envDefault:"1s"`
	Key     string        `env:"T_API_KEY"`
	Derived string        `env:"T_DERIVED" doc:"from T_NAME"`
	Mode    mode          `env:"T_MODE" envDefault:"on"`
	Count   int           `env:"T_COUNT" envDefault:"10" min:"1"`
	Tick    time.Duration `env:"T_TICK" envDefault:"2s" min:"1s"`
}

// mode is a type of its own that parses itself, like shell.Switch.
type mode bool

func (m *mode) UnmarshalText(b []byte) error {
	switch string(b) {
	case "on":
		*m = true
	case "off":
		*m = false
	default:
		return errors.New("expected on or off")
	}
	return nil
}

func TestLoad(t *testing.T) {
	var stderr bytes.Buffer
	var s section
	Load([]string{"T_SIZE=nope", "T_ON=maybe", "T_NAME=x", "T_WAIT=2m", "T_MODE=sideways"}, &stderr, &s)
	if s.Size != 5 || !s.On || s.Name != "x" || s.Wait != 2*time.Minute || !bool(s.Mode) {
		t.Errorf("loaded %+v", s)
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if len(lines) != 3 || !strings.Contains(stderr.String(), `T_MODE="sideways": expected on or off; using the default (on)`) || !strings.Contains(stderr.String(), `T_SIZE="nope": expected an integer; using the default (5)`) ||
		!strings.Contains(stderr.String(), `T_ON="maybe": expected true or false`) {
		t.Errorf("warnings:\n%s", stderr.String())
	}
}

func TestLoadMin(t *testing.T) {
	var stderr bytes.Buffer
	var s section
	problems := Load([]string{"T_COUNT=0", "T_TICK=-5s", "T_SIZE=-3"}, &stderr, &s)
	if s.Count != 10 || s.Tick != 2*time.Second || s.Size != -3 {
		t.Errorf("loaded %+v", s)
	}
	for _, want := range []string{
		`qsh: T_COUNT="0": expected an integer of at least 1; using the default (10)`,
		`qsh: T_TICK="-5s": expected a duration of at least 1s; using the default (2s)`,
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("warnings lack %q:\n%s", want, stderr.String())
		}
	}
	if len(problems) != 2 || problems["T_COUNT"] != `"0": expected an integer of at least 1` {
		t.Errorf("problems %q", problems)
	}
	var out bytes.Buffer
	Print(&out, problems, s)
	if !strings.Contains(out.String(), "T_COUNT=10\t(default: 10)\tignored \"0\": expected an integer of at least 1\n") ||
		!strings.Contains(out.String(), "T_SIZE=-3\t(default: 5)\n") {
		t.Errorf("--config does not show the problem:\n%s", out.String())
	}
	// Unset, the default is used without a word.
	stderr.Reset()
	if problems := Load(nil, &stderr, &s); len(problems) != 0 || stderr.Len() != 0 || s.Count != 10 {
		t.Errorf("defaults: %+v, %q, %s", s, problems, stderr.String())
	}
}

func TestPrintMasksSecrets(t *testing.T) {
	var s section
	Load([]string{"T_API_KEY=sk-secret"}, new(bytes.Buffer), &s)
	var out bytes.Buffer
	Print(&out, nil, s)
	for _, want := range []string{"T_API_KEY=****\t(default: none)\n", "T_SIZE=5\t(default: 5)\n", "T_DERIVED=\t(default: from T_NAME)\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("missing %q in:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "secret") {
		t.Errorf("secret printed:\n%s", out.String())
	}
}

// guarded has safety settings: mistyped, they refuse rather than fall
// back to a default that may be looser.
type guarded struct {
	Sandbox mode `env:"T_SANDBOX" envDefault:"on" strict:"true"`
	Confirm bool `env:"T_CONFIRM" envDefault:"false" strict:"true"`
	Size    int  `env:"T_SIZE" envDefault:"5"`
}

func TestStrict(t *testing.T) {
	var stderr bytes.Buffer
	var g guarded
	problems := Load([]string{"T_SANDBOX=readonyl", "T_CONFIRM=tru", "T_SIZE=x"}, &stderr, &g)
	if got := stderr.String(); strings.Contains(got, "T_SANDBOX") || strings.Contains(got, "T_CONFIRM") || !strings.Contains(got, "T_SIZE") {
		t.Errorf("Load said:\n%s", got)
	}
	want := []string{
		`T_SANDBOX="readonyl": expected on or off; the assistant will not start until it is fixed (a mistyped safety setting must not make it looser)`,
		`T_CONFIRM="tru": expected true or false; the assistant will not start until it is fixed (a mistyped safety setting must not make it looser)`,
	}
	if got := Strict(problems, &g); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Strict:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var out bytes.Buffer
	Print(&out, problems, g)
	if !strings.Contains(out.String(), `(default: on)	refused "readonyl": expected on or off: the assistant will not start`) {
		t.Errorf("Print:\n%s", out.String())
	}
	if got := Strict(Load([]string{"T_SANDBOX=off"}, &stderr, &g), &g); len(got) != 0 {
		t.Errorf("a good value refused: %q", got)
	}
}
