package mcp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioTransport runs a server's command and speaks to it over its stdin
// and stdout. Unlike the SDK's CommandTransport it drops lines on stdout
// that are not JSON, which sloppy servers print (banners, logs) and which
// would end the session, reaps the process as soon as it exits, and stops
// the whole process group.
type stdioTransport struct {
	cmd     *exec.Cmd
	stop    time.Duration // how long the server gets after stdin closes, and again after SIGTERM
	junk    io.Writer     // where the dropped lines go
	started func()        // called once the program started, or failed to
}

func (t *stdioTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	// Files, not writers: no copying goroutines, and Wait closes nothing
	// of ours, so the last answer before an exit is still read.
	t.cmd.Stdin, t.cmd.Stdout = inR, outW
	err = t.cmd.Start()
	if t.started != nil {
		t.started()
	}
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, err
	}
	p := &proc{cmd: t.cmd, stdin: inW, stdout: outR, stop: t.stop, exited: make(chan struct{})}
	go func() {
		t.cmd.Wait()
		close(p.exited)
		// A child left behind may hold stdout open; the session ends with
		// the server all the same, once what it wrote has been read.
		time.AfterFunc(time.Second, func() { outR.Close() })
	}()
	r := &jsonLines{r: bufio.NewReader(outR), junk: t.junk}
	return (&sdk.IOTransport{Reader: readCloser{r, p}, Writer: p}).Connect(ctx)
}

// proc is a running server: writes go to its stdin; Close stops it.
type proc struct {
	cmd    *exec.Cmd
	stdin  *os.File
	stdout *os.File
	stop   time.Duration
	exited chan struct{}
	once   sync.Once
}

func (p *proc) Write(b []byte) (int, error) { return p.stdin.Write(b) }

// Close asks the server to exit the way the MCP specification says:
// close its input, then SIGTERM, then SIGKILL, each after a wait.
func (p *proc) Close() error {
	p.once.Do(func() {
		p.stdin.Close()
		if !p.wait() {
			signalGroup(p.cmd.Process, syscall.SIGTERM)
			if !p.wait() {
				signalGroup(p.cmd.Process, syscall.SIGKILL)
				<-p.exited
			}
		}
		// Children that kept the process group alive go too.
		signalGroup(p.cmd.Process, syscall.SIGKILL)
		p.stdout.Close()
	})
	return nil
}

func (p *proc) wait() bool {
	t := time.NewTimer(p.stop)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}

type readCloser struct {
	io.Reader
	io.Closer
}

// jsonLines passes on the lines that may be JSON and sends the others to
// junk.
type jsonLines struct {
	r       *bufio.Reader
	junk    io.Writer
	pending []byte
	err     error
}

func (j *jsonLines) Read(p []byte) (int, error) {
	for len(j.pending) == 0 {
		if j.err != nil {
			return 0, j.err
		}
		line, err := j.r.ReadBytes('\n')
		j.err = err
		trimmed := bytes.TrimSpace(line)
		switch {
		case len(trimmed) == 0:
		case trimmed[0] == '{' || trimmed[0] == '[':
			j.pending = line
		case j.junk != nil:
			j.junk.Write(line)
		}
		if errors.Is(err, os.ErrClosed) {
			j.err = io.EOF
		}
	}
	n := copy(p, j.pending)
	j.pending = j.pending[n:]
	return n, nil
}
