package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"golang.org/x/term"

	"github.com/qsh-shell/qsh/config"
	"github.com/qsh-shell/qsh/policy/secret"
	"github.com/qsh-shell/qsh/shell"
	"github.com/qsh-shell/qsh/shell/capture"
)

// version is qsh's release; `go build -ldflags "-X main.version=…"` sets it.
var version = "0.1.0-dev"

// options is what the command line asks for.
type options struct {
	command     *string  // -c
	interactive bool     // -i
	login       bool     // -l, --login, or argv[0] starting with -
	stdin       bool     // -s
	norc        bool     // --norc
	noprofile   bool     // --noprofile
	rcfile      string   // --rcfile FILE
	set         []string // set's flags: -e, +o pipefail…
	shopt       []string // shopt's: -s NAME, -u NAME…
	args        []string
	action      string // "help", "version", "config", "classify"
	json        bool   // --json: headless `?` lines, their events as JSON lines
}

// parseArgs reads qsh's flags the way bash does: single-letter flags may be
// combined (`-lc`, `-euo pipefail`), set's flags and -o NAME and shopt's
// -O NAME are taken, +X turns X off, and the first non-flag argument ends
// them.
func parseArgs(args []string) (options, error) {
	var o options
	if len(args) > 0 && strings.HasPrefix(filepath.Base(args[0]), "-") {
		o.login = true
	}
	if len(args) > 0 {
		args = args[1:]
	}
	for len(args) > 0 {
		a := args[0]
		args = args[1:]
		switch {
		case a == "--" || a == "-":
			o.args = args
			return o.withCommand()
		case a == "--help" || a == "-h":
			o.action = "help"
			return o, nil
		case a == "--version":
			o.action = "version"
			return o, nil
		case a == "--config":
			o.action = "config"
			return o, nil
		case a == "--classify":
			o.action = "classify"
			o.args = args
			return o, nil
		case a == "--json":
			o.json = true
		case a == "--login":
			o.login = true
		case a == "--interactive":
			o.interactive = true
		case a == "--norc":
			o.norc = true
		case a == "--noprofile":
			o.noprofile = true
		case a == "--noediting":
		case a == "--rcfile" || a == "--init-file":
			if len(args) == 0 {
				return o, fmt.Errorf("%s: option requires an argument", a)
			}
			o.rcfile, args = args[0], args[1:]
		case a == "--verbose":
			o.set = append(o.set, "-v")
		case a == "--posix":
			o.set = append(o.set, "-o", "posix")
		case strings.HasPrefix(a, "--"):
			return o, fmt.Errorf("%s: invalid option", a)
		case len(a) > 1 && (a[0] == '-' || a[0] == '+'):
			on := a[0] == '-'
			for _, c := range []byte(a[1:]) {
				switch {
				case c == 'c':
					o.command = new(string)
				case c == 'i' && on:
					o.interactive = true
				case c == 'l' && on:
					o.login = true
				case c == 's' && on:
					o.stdin = true
				case c == 'o' || c == 'O':
					if len(args) == 0 {
						return o, fmt.Errorf("%c%c: option requires an argument", a[0], c)
					}
					name := args[0]
					args = args[1:]
					if !shell.IsOption(name, c == 'O') {
						if c == 'O' {
							return o, fmt.Errorf("%s: invalid shell option name", name)
						}
						return o, fmt.Errorf("%s: invalid option name", name)
					}
					if c == 'O' {
						o.shopt = append(o.shopt, map[bool]string{true: "-s", false: "-u"}[on], name)
					} else {
						o.set = append(o.set, a[:1]+"o", name)
					}
				case strings.IndexByte(setFlags, c) >= 0:
					o.set = append(o.set, a[:1]+string(c))
				default:
					return o, fmt.Errorf("%c%c: invalid option", a[0], c)
				}
			}
		default:
			o.args = append([]string{a}, args...)
			return o.withCommand()
		}
	}
	return o.withCommand()
}

// setFlags are the one-letter flags of set, which qsh takes too.
const setFlags = "abefhkmnptuvxBCEHPT"

// withCommand takes the -c string from the first argument.
func (o options) withCommand() (options, error) {
	if o.command == nil {
		return o, nil
	}
	if len(o.args) == 0 {
		return o, fmt.Errorf("-c: option requires an argument")
	}
	*o.command = o.args[0]
	o.args = o.args[1:]
	if len(o.args) == 0 {
		o.args = nil
	}
	return o, nil
}

func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	return ok && term.IsTerminal(int(file.Fd()))
}

// run is qsh's main: it returns the exit status instead of exiting.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, err := parseArgs(args)
	if err != nil {
		fmt.Fprintf(stderr, "qsh: %v\n", err)
		fmt.Fprintln(stderr, "Usage: qsh [-ils] [OPTION…] [-c STRING [NAME [ARG…]] | FILE [ARG…]]; see qsh --help")
		return 2
	}
	if o.json && o.action == "" && o.command == nil {
		fmt.Fprintln(stderr, "qsh: --json: goes with -c: qsh --json -c '? QUESTION'")
		return 2
	}
	switch o.action {
	case "help":
		io.WriteString(stdout, usage)
		return 0
	case "version":
		fmt.Fprintf(stdout, "qsh %s (%s, %s/%s)\n", version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
		return 0
	case "classify":
		return classify(o.args, stdin, stdout, stderr)
	}
	// An inner shell behind a capture proxy connects to it first: Dial
	// also drops the proxy's variables from the environment.
	rec, err := capture.Dial()
	if err != nil {
		fmt.Fprintf(stderr, "qsh: %v\n", err)
	}
	environ := os.Environ()
	// Configuration errors wait until we know whether this process is the
	// shell or only the capture proxy, whose inner shell reports them.
	var cfgErrs bytes.Buffer
	var cfg shell.Config
	problems := config.Load(environ, &cfgErrs, &cfg)
	interactive := o.interactive ||
		(o.command == nil && (len(o.args) == 0 || o.stdin) && isTerminal(stdin) && isTerminal(stderr))
	if interactive && o.action == "" && rec == nil && bool(cfg.Capture) {
		if st, ok := proxySelf(args, stdin, stdout, stderr); ok {
			return st
		}
	}
	// The settings are an interactive shell's (history, capture): said by
	// the one that uses them, once, and never by a script or a -c string,
	// which print only what they print (--config lists them all).
	if interactive {
		stderr.Write(cfgErrs.Bytes())
	}
	if o.action == "config" {
		return printConfig(stdout, stderr, cfg, problems)
	}

	ctx := context.Background()
	name := shellName(args, o.login)
	params := o.args
	var script string
	switch {
	case o.command != nil:
		if len(params) > 0 {
			name, params = params[0], params[1:]
		}
	case len(params) > 0 && !o.stdin:
		script, name, params = params[0], params[0], params[1:]
	}
	if !interactive && shell.RunsOnEvaluator(o.command) {
		return shell.Program{
			Stdin: stdin, Stdout: stdout, Stderr: stderr,
			Name: name, Params: params, Environ: environ,
			Version: version, Login: o.login && !o.noprofile,
			Set: o.set, Shopt: o.shopt,
			Command: o.command, Script: script,
		}.Run(ctx)
	}
	helper := &assistant{environ: environ, stdin: stdin, stdout: stdout, stderr: stderr, json: o.json}
	defer helper.close()
	sh, err := shell.New(
		shell.Stdio(stdin, stdout, stderr),
		shell.Params(name, params...),
		shell.Environ(environ),
		shell.Withhold(secret.Var),
		shell.Interactive(interactive),
		shell.LoginShell(o.login),
		shell.Version(version),
		shell.Configure(cfg),
		shell.Ask(helper.ask),
		shell.Capture(rec),
	)
	if err != nil {
		fmt.Fprintf(stderr, "qsh: %v\n", err)
		return 1
	}
	sh.SetOptions(ctx, o.set, o.shopt)
	if o.login && !o.noprofile {
		sh.Login(ctx)
	}
	if interactive {
		sh.Inputrc(ctx)
	}
	switch {
	case !interactive || o.norc:
	case o.rcfile != "":
		sh.RCFile(ctx, o.rcfile)
	default:
		sh.RC(ctx)
	}
	switch {
	case o.command != nil:
		return sh.RunString(ctx, *o.command)
	case script != "":
		f, err := os.Open(script)
		if err != nil {
			fmt.Fprintf(stderr, "qsh: %s: %s\n", script, errText(unwrap(err)))
			return 127
		}
		defer f.Close()
		return sh.RunScript(ctx, f, script)
	case interactive:
		return sh.REPL(ctx)
	default:
		return sh.RunScript(ctx, stdin, name)
	}
}

// shellName is $0 and the prefix of the shell's messages. bash uses its
// argv[0] as given; so does qsh when it stands in for another shell (a
// bash or sh link to it, exec -a), since programs print usage and match
// messages with it, but it keeps its own short name when run as qsh by
// any path. A login shell's leading dash stays, as bash keeps it.
func shellName(args []string, login bool) string {
	if len(args) == 0 {
		return "qsh"
	}
	base := filepath.Base(args[0])
	switch {
	case login && strings.HasPrefix(base, "-"):
		return base
	case strings.TrimPrefix(base, "-") == "qsh":
		return "qsh"
	}
	return args[0]
}

// proxySelf runs qsh again, as the inner shell behind a capture proxy on
// this terminal (see shell/capture), and returns its exit status. It
// reports false when capture cannot work here; the caller then runs the
// shell itself, without capture.
func proxySelf(args []string, stdin io.Reader, stdout, stderr io.Writer) (int, bool) {
	in, ok1 := stdin.(*os.File)
	out, ok2 := stdout.(*os.File)
	if !ok1 || !ok2 || !isTerminal(in) || !isTerminal(out) {
		return 0, false
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "qsh: output capture is off: %v\n", err)
		return 0, false
	}
	cmd := exec.Command(exe, args[1:]...)
	if len(args) > 0 {
		cmd.Args[0] = args[0] // "-qsh" stays a login shell
	}
	st, err := capture.Proxy(cmd, in, out)
	if err != nil {
		fmt.Fprintf(stderr, "qsh: output capture is off: %v\n", err)
		return 0, false
	}
	return st, true
}

// errText is err's message with a capital, as shells print them.
func errText(err error) string {
	s := err.Error()
	return strings.ToUpper(s[:1]) + s[1:]
}

func unwrap(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
