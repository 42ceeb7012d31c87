package shell

// Config is the shell's part of qsh's configuration, read from the
// environment by cmd/qsh.
type Config struct {
	// HistFile is where history is kept; empty means
	// $XDG_STATE_HOME/qsh/history (or ~/.local/state/qsh/history).
	HistFile string `env:"QSH_HISTFILE" doc:"$XDG_STATE_HOME/qsh/history"`
	// HistSize is how many entries the history keeps.
	HistSize int `env:"QSH_HISTSIZE" envDefault:"50000"`
	// Capture records the tail of each command's output for the assistant.
	Capture bool `env:"QSH_CAPTURE" envDefault:"true"`
}

// DefaultConfig is the configuration when no variable is set.
func DefaultConfig() Config {
	return Config{HistSize: 50000, Capture: true}
}
