package capture

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/qsh-shell/qsh/shell/capture/launch"
)

// The environment of the inner shell: EnvFD is the file descriptor of its
// end of the socket to the proxy, EnvID the aid its marks carry.
const (
	EnvFD = launch.EnvFD
	EnvID = launch.EnvID
)

// request asks for the last Last commands, once the proxy has read Ends
// end marks: the shell's own count, so the answer covers every command it
// finished even when the proxy lags behind the terminal.
type request struct {
	Last int `json:"last"`
	Ends int `json:"ends"`
}

type response struct {
	Outputs []Output `json:"outputs"`
	Error   string   `json:"error,omitempty"`
}

// Inner reports whether this process is an inner shell started by
// [Proxy] that has not called [Dial] yet.
func Inner() bool { return os.Getenv(EnvFD) != "" }

// Client is the inner shell's end of capture: it writes the marks and asks
// the proxy for what commands printed. A nil *Client is valid and does
// nothing: its marks are empty and it has no outputs, so a shell running
// without capture uses the same code.
type Client struct {
	id string

	mu     sync.Mutex
	conn   *os.File
	rd     *bufio.Reader
	ends   int
	broken error // set after a failed request: a late answer would be taken for the next one
}

// Dial connects to the proxy that started this process, and removes
// [EnvFD] and [EnvID] from the environment so that the commands the shell
// runs, nested shells included, neither see nor inherit them: call it
// before the interpreter copies the environment. It returns a nil Client
// and no error when this process was not started by Proxy.
func Dial() (*Client, error) {
	v, id := os.Getenv(EnvFD), os.Getenv(EnvID)
	if v == "" {
		return nil, nil
	}
	os.Unsetenv(EnvFD)
	os.Unsetenv(EnvID)
	fd, err := strconv.Atoi(v)
	if err != nil || fd < 3 {
		return nil, fmt.Errorf("capture: %s=%q is not a file descriptor", EnvFD, v)
	}
	// Inherited descriptors are not close-on-exec: keep it from every
	// command the shell starts. Non-blocking, a request waits in the
	// poller, with a deadline (the proxy's end is another open file).
	syscall.CloseOnExec(fd)
	if err := syscall.SetNonblock(fd, true); err != nil {
		return nil, fmt.Errorf("capture: %s=%d: %w", EnvFD, fd, err)
	}
	conn := os.NewFile(uintptr(fd), "capture")
	return &Client{id: id, conn: conn, rd: bufio.NewReader(conn)}, nil
}

// Close closes the connection to the proxy.
func (c *Client) Close() error {
	if c == nil {
		return nil
	}
	return c.conn.Close()
}

// PromptStart returns the mark to print just before the prompt.
func (c *Client) PromptStart() string { return c.mark(promptStart, 0) }

// PromptEnd returns the mark to print just after the prompt, where the
// user's input starts. Print it only where it costs no width (not inside
// a prompt string a line editor measures).
func (c *Client) PromptEnd() string { return c.mark(promptEnd, 0) }

// CommandStart returns the mark to print when a command line was accepted,
// just before it runs: its output starts here.
func (c *Client) CommandStart() string { return c.mark(commandStart, 0) }

// CommandEnd returns the mark to print when a command line finished with
// status. Print it exactly once per command started with CommandStart:
// the Client counts them, so that [Client.Outputs] waits for the proxy to
// have read the last one.
func (c *Client) CommandEnd(status int) string {
	if c == nil {
		return ""
	}
	c.mu.Lock()
	c.ends++
	c.mu.Unlock()
	return mark(commandEnd, c.id, status)
}

func (c *Client) mark(kind byte, status int) string {
	if c == nil {
		return ""
	}
	return mark(kind, c.id, status)
}

// requestTimeout bounds one request; the proxy itself waits at most a
// second for marks it has not read yet.
const requestTimeout = 3 * time.Second

// Outputs returns what the last n finished commands printed, oldest first;
// fewer when fewer were recorded. A nil Client returns none.
func (c *Client) Outputs(n int) ([]Output, error) {
	if c == nil {
		return nil, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.broken != nil {
		return nil, c.broken
	}
	line, err := c.roundTrip(request{Last: n, Ends: c.ends})
	if err != nil {
		c.broken = err
		c.conn.Close()
		return nil, err
	}
	var resp response
	if err := json.Unmarshal(line, &resp); err != nil {
		return nil, fmt.Errorf("capture: the proxy's answer: %w", err)
	}
	if resp.Error != "" {
		return nil, errors.New("capture: the proxy: " + resp.Error)
	}
	return resp.Outputs, nil
}

func (c *Client) roundTrip(req request) ([]byte, error) {
	c.conn.SetDeadline(time.Now().Add(requestTimeout))
	b, _ := json.Marshal(req)
	if _, err := c.conn.Write(append(b, '\n')); err != nil {
		return nil, fmt.Errorf("capture: ask the proxy: %w", err)
	}
	line, err := c.rd.ReadBytes('\n')
	if err != nil {
		return nil, fmt.Errorf("capture: read the proxy's answer: %w", err)
	}
	return line, nil
}
