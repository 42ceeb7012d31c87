package wire

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/qsh-shell/qsh/policy/sandbox"
)

// The message types.
const (
	Ask    = "ask"
	Run    = "run"
	Output = "output"
	Exit   = "exit"
	Done   = "done"
	Cancel = "cancel"
	// Edit (assistant → qsh): put Command on the user's next prompt line.
	Edit = "edit"
	// Preview (assistant → qsh, with an id and Command): what would the
	// command change? qsh answers with a preview of the same id and Text.
	Preview = "preview"
	// Terminal (qsh → assistant, with a run's id and Command): a program
	// of the run stopped to use the terminal (a password prompt) and is
	// about to be given it; the assistant says so on the screen and
	// answers with a terminal message of the same id, after which qsh
	// hands the terminal over.
	Terminal = "terminal"
	// Prepare (assistant → qsh, with Sandbox): the policy the question's
	// confined runs will most likely have; qsh opens that jail while the
	// model thinks, and a run with another policy gets its own.
	Prepare = "prepare"
)

// Message is one line of the channel. Type says which fields are used.
type Message struct {
	Type string `json:"type"`
	ID   int    `json:"id,omitempty"` // run, output, exit, cancel of one run

	// ask
	Text     string    `json:"text,omitempty"`
	Dir      string    `json:"dir,omitempty"`
	Record   []Command `json:"record,omitempty"`
	Environ  []string  `json:"environ,omitempty"`
	Terminal bool      `json:"terminal,omitempty"` // stdout is a terminal
	Keys     bool      `json:"keys,omitempty"`     // stdin is a terminal to read confirmation keys from
	// NoContext: the record is not sent (QSH_AI_CONTEXT=off).
	NoContext bool `json:"nocontext,omitempty"`
	// Editable: a prompt follows the turn, which an edit message fills.
	Editable bool `json:"editable,omitempty"`
	// Private: a private line's question; nothing of its turn is saved.
	Private bool `json:"private,omitempty"`
	// Suggest: a `??` line; one request without tools, whose command
	// comes back as an edit message (or is printed, without a prompt).
	Suggest bool `json:"suggest,omitempty"`
	// JSON: headless (qsh --json); the turn's events go to stdout as JSON
	// lines, and its done message carries the exit status.
	JSON bool `json:"json,omitempty"`

	// run
	Command   string          `json:"command,omitempty"`
	Workspace string          `json:"workspace,omitempty"`
	Home      string          `json:"home,omitempty"`
	Approved  int             `json:"approved,omitempty"` // a danger.Class
	Unguarded bool            `json:"unguarded,omitempty"`
	Timeout   time.Duration   `json:"timeout,omitempty"`
	Sandbox   *sandbox.Policy `json:"sandbox,omitempty"` // confine the run
	// Background: start the run and leave it running, past the turn,
	// until it ends, a cancel of its id, or the channel closes; its
	// output and exit come whenever they do.
	Background bool `json:"background,omitempty"`

	// output
	Data []byte `json:"data,omitempty"`

	// exit
	Status   int      `json:"status,omitempty"`
	Stopped  string   `json:"stopped,omitempty"` // the guard's refusal
	Timedout bool     `json:"timedout,omitempty"`
	Canceled bool     `json:"canceled,omitempty"` // also done: the user canceled the turn
	Denied   []string `json:"denied,omitempty"`   // what the sandbox refused the shell's opens
	// HandedOff: the programs that were given the terminal.
	HandedOff []string `json:"handedoff,omitempty"`

	// exit, done
	Error string `json:"error,omitempty"`
	// done of a headless turn: the `?` line's exit status, when not 0
	// (see ai.Ended); Error says why.
	Ended int `json:"ended,omitempty"`
}

// Command is what one command line at the prompt did; it converts to and
// from shell.Command and ai.Command.
type Command struct {
	Line     string
	Dir      string
	Start    time.Time
	Duration time.Duration
	Status   int
	Output   string
}

// Conn reads and writes messages. Send may be called from several
// goroutines; Receive from one.
type Conn struct {
	mu  sync.Mutex
	w   io.Writer
	enc *json.Encoder
	dec *json.Decoder
}

// NewConn returns a Conn on rw.
func NewConn(rw io.ReadWriter) *Conn {
	return &Conn{w: rw, enc: json.NewEncoder(rw), dec: json.NewDecoder(bufio.NewReader(rw))}
}

// Send writes one message.
func (c *Conn) Send(m Message) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.enc.Encode(m); err != nil {
		return fmt.Errorf("control channel: %w", err)
	}
	return nil
}

// Receive reads the next message. It returns io.EOF when the other side
// closed the channel.
func (c *Conn) Receive() (Message, error) {
	var m Message
	if err := c.dec.Decode(&m); err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return m, io.EOF
		}
		return m, fmt.Errorf("control channel: %w", err)
	}
	return m, nil
}
