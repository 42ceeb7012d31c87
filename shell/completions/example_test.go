package completions_test

import (
	"fmt"

	"github.com/qsh-shell/qsh/shell/completions"
)

func ExampleComplete() {
	env := completions.Env{Vars: []string{"HOME", "HOSTNAME", "PATH"}}
	line := "echo $HO"
	cands, replace := completions.Complete(line, len(line), env)
	fmt.Printf("%q replace %q\n", cands, line[len(line)-replace:])
	// Output: ["$HOME" "$HOSTNAME"] replace "$HO"
}

func ExampleReadline() {
	r := completions.Readline{Env: func() completions.Env {
		return completions.Env{Builtins: []string{"echo", "exit", "export"}}
	}}
	suffixes, length := r.Do([]rune("ex"), 2)
	for _, s := range suffixes {
		fmt.Printf("%q ", string(s))
	}
	fmt.Println(length)
	// Output: "it " "port " 2
}
