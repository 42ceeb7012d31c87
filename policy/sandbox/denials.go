package sandbox

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
)

// maxDenials bounds the lines one run reports.
const maxDenials = 5

// Denials finds, in what confined programs print as they run, the
// failures the sandbox caused: a line that says "Permission denied" (or
// "Operation not permitted") about a path the policy keeps from them, or
// about a TCP connection when the network is off. Write it the programs'
// output; Lines says each once.
type Denials struct {
	p   Policy
	dir string
	git []string // the repository's files that are read-only (Policy.ReadOnly)
	// access reports whether the user (unconfined) may access path in
	// mode (syscall.Access): a path the user may not touch either failed
	// for another reason than the sandbox.
	access func(path string, mode uint32) error

	mu      sync.Mutex
	partial []byte
	seen    map[string]bool
	lines   []string
	more    int
}

// NewDenials watches the output of a run under p started in dir.
func NewDenials(p Policy, dir string) *Denials {
	return &Denials{p: p, dir: dir, access: syscall.Access, seen: map[string]bool{}, git: p.ReadOnly}
}

// Write scans the complete lines of b.
func (d *Denials) Write(b []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.partial = append(d.partial, b...)
	for {
		i := strings.IndexByte(string(d.partial), '\n')
		if i < 0 {
			break
		}
		d.scan(string(d.partial[:i]))
		d.partial = d.partial[i+1:]
	}
	if len(d.partial) > 4096 {
		d.partial = d.partial[len(d.partial)-4096:] // a line that long says no path we could use
	}
	return len(b), nil
}

// Add reports a denial known for sure, such as the shell's own refusals.
func (d *Denials) Add(line string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.add(line)
}

// Lines are the denials found, one line each, at most a few.
func (d *Denials) Lines() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.partial) > 0 {
		d.scan(string(d.partial))
		d.partial = nil
	}
	out := append([]string(nil), d.lines...)
	if d.more > 0 {
		out = append(out, fmt.Sprintf("sandbox: … and %d more denied", d.more))
	}
	return out
}

func (d *Denials) add(line string) {
	if line == "" || d.seen[line] {
		return
	}
	d.seen[line] = true
	if len(d.lines) >= maxDenials {
		d.more++
		return
	}
	d.lines = append(d.lines, line)
}

// pathToken matches what may be a path in an error message: absolute, or
// under ~, or quoted. It is compiled on first use: qsh links this package
// and its start must not pay for it.
var pathToken struct {
	once sync.Once
	re   *regexp.Regexp
}

func pathTokens() *regexp.Regexp {
	pathToken.once.Do(func() {
		pathToken.re = regexp.MustCompile("(?:^|[\\s'\"`‘(\\[=,])((?:~|/|\\.git/)[^\\s'\"`’:,;()\\[\\]]*)|['\"`‘]([^'\"`’\\s]+)['\"`’]")
	})
	return pathToken.re
}

// scan looks at one line of output.
func (d *Denials) scan(line string) {
	low := strings.ToLower(line)
	has := func(words ...string) bool {
		return slices.ContainsFunc(words, func(w string) bool { return strings.Contains(low, w) })
	}
	if d.p.Net != NetOn && has("network is unreachable", "address family not supported",
		"permission denied", "operation not permitted", "eacces") &&
		has("connect", "dial", "bind", "network", "socket", "resolve", "address family") {
		if d.p.Net == NetOff {
			d.add("sandbox: network connection denied (QSH_AI_SANDBOX_NET=off)")
		} else {
			d.add("sandbox: network connection denied (programs reach the allowed domains only, through the proxy HTTP_PROXY names)")
		}
		return
	}
	if !has("permission denied", "operation not permitted", "eacces", "read-only file system", "resource busy") {
		return
	}
	for _, m := range pathTokens().FindAllStringSubmatch(line, -1) {
		tok := m[1]
		if tok == "" {
			tok = m[2]
		}
		tok = strings.TrimRight(tok, ".")
		if tok == "" || tok == "/" {
			continue
		}
		if rest, ok := strings.CutPrefix(tok, "~"); ok {
			if d.p.Home == "" || rest != "" && rest[0] != '/' {
				continue
			}
			tok = d.p.Home + rest
		}
		d.add(d.explain(Resolve(d.dir, tok)))
	}
}

// explain is the line for a path a program was refused, or "" when the
// sandbox is not why: the policy allows it, or the user could not either.
func (d *Denials) explain(path string) string {
	const r, w = 4, 2 // R_OK, W_OK
	for _, g := range d.git {
		if Under(path, g) {
			return "sandbox: write to " + d.p.Show(path) + " denied (the repository's configuration and hooks are read-only in the sandbox)"
		}
		if path == filepath.Dir(g) && filepath.Base(path) == ".git" {
			return "sandbox: " + d.p.Show(path) + " cannot be moved or replaced in the sandbox"
		}
	}
	switch {
	case !d.p.Allows(path, false):
		if d.access(path, r) != nil {
			return ""
		}
	case !d.p.Allows(path, true):
		target := path
		if d.access(target, 0) != nil {
			target = dirOf(path) // to be created: its directory must be writable
		}
		if d.access(target, w) != nil {
			return ""
		}
	default:
		return ""
	}
	return d.p.Refusal(path, true)
}

func dirOf(path string) string {
	if i := strings.LastIndexByte(path, '/'); i > 0 {
		return path[:i]
	}
	return "/"
}
