package capture_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"

	"github.com/qsh-shell/qsh/shell/capture"
)

// The outer side: an interactive shell on a terminal runs itself again
// behind Proxy, and runs in-process when that fails.
func ExampleProxy() {
	if capture.Inner() || os.Getenv("QSH_CAPTURE") == "off" {
		return // run the shell here, see ExampleClient
	}
	exe, err := os.Executable()
	if err != nil {
		return
	}
	status, err := capture.Proxy(exec.Command(exe, os.Args[1:]...), os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "output capture is off:", err)
		return // run the shell here, without capture
	}
	os.Exit(status)
}

// The inner side: the REPL prints the marks and asks for outputs. A nil
// Client (capture off) prints nothing and records nothing.
func ExampleClient() {
	c, err := capture.Dial() // before the interpreter copies os.Environ
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
	defer c.Close()
	in := bufio.NewScanner(os.Stdin)
	for {
		fmt.Print(c.PromptStart(), "$ ")
		if !in.Scan() {
			return
		}
		if in.Text() == "?" {
			outs, _ := c.Outputs(5) // the last five commands, oldest first
			for _, o := range outs {
				fmt.Printf("status %d: %q\n", o.Status, o.Text)
			}
			continue
		}
		fmt.Print(c.CommandStart())
		cmd := exec.Command("sh", "-c", in.Text())
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
		cmd.Run()
		fmt.Print(c.CommandEnd(cmd.ProcessState.ExitCode()))
	}
}
