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

func TestPrintMasksSecrets(t *testing.T) {
	var s section
	Load([]string{"T_API_KEY=sk-secret"}, new(bytes.Buffer), &s)
	var out bytes.Buffer
	Print(&out, s)
	for _, want := range []string{"T_API_KEY=****\t(default: none)\n", "T_SIZE=5\t(default: 5)\n", "T_DERIVED=\t(default: from T_NAME)\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("missing %q in:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "secret") {
		t.Errorf("secret printed:\n%s", out.String())
	}
}
