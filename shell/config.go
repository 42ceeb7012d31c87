package shell

import (
	"errors"
	"strings"
)

// Config is the shell's part of qsh's configuration, read from the
// environment by cmd/qsh.
type Config struct {
	// HistFile is where history is kept; empty means
	// $XDG_STATE_HOME/qsh/history (or ~/.local/state/qsh/history).
	HistFile string `env:"QSH_HISTFILE" doc:"$XDG_STATE_HOME/qsh/history"`
	// HistSize is how many entries the history keeps.
	HistSize int `env:"QSH_HISTSIZE" envDefault:"50000"`
	// Capture records the tail of each command's output for the assistant.
	Capture Switch `env:"QSH_CAPTURE" envDefault:"on"`
	// AIContext sends the session record with each question; off sends
	// the questions alone.
	// Strict: mistyped, the questions are refused, never sent with
	// what off would keep back (see config.Strict).
	AIContext Switch `env:"QSH_AI_CONTEXT" envDefault:"on" strict:"true"`
	// AIHistory puts the commands the assistant ran into the history.
	AIHistory Switch `env:"QSH_AI_HISTORY" envDefault:"on"`
}

// DefaultConfig is the configuration when no variable is set.
func DefaultConfig() Config {
	return Config{HistSize: 50000, Capture: true, AIContext: true, AIHistory: true}
}

// Switch is a setting that is on or off; it reads on/off, true/false,
// yes/no and 1/0, as users write QSH_CAPTURE=off.
type Switch bool

// UnmarshalText reads a Switch.
func (s *Switch) UnmarshalText(b []byte) error {
	switch strings.ToLower(string(b)) {
	case "on", "true", "yes", "1", "t", "y":
		*s = true
	case "off", "false", "no", "0", "f", "n":
		*s = false
	default:
		return errors.New("expected on or off")
	}
	return nil
}

func (s Switch) String() string {
	if s {
		return "on"
	}
	return "off"
}
