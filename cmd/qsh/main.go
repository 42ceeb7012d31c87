// Command qsh is a bash-like interactive shell with an AI assistant on `?`
// lines. Run `qsh --help` for its flags.
package main

import "os"

func main() {
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
