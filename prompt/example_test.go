package prompt_test

import (
	"fmt"

	"github.com/qsh-shell/qsh/prompt"
)

func ExampleRender() {
	d := prompt.Data{User: "ann", Host: "box.lan", Dir: "/home/ann/src", Home: "/home/ann",
		SSH: true, GitBranch: "main", Status: 1}
	fmt.Printf("%q\n", prompt.Render(d))
	// Output: "ann@box ~/src (main) [1] $ "
}

func ExampleExpand() {
	d := prompt.Data{User: "ann", Host: "box.lan", Dir: "/home/ann/src", Home: "/home/ann"}
	vars := map[string]string{"VIRTUAL_ENV_PROMPT": "(venv) "}
	fmt.Printf("%q\n", prompt.Expand(`${VIRTUAL_ENV_PROMPT}\[\e[32m\]\u@\h\[\e[0m\]:\w\$ `, d,
		func(name string) string { return vars[name] }))
	// Output: "(venv) \x1b[32mann@box\x1b[0m:~/src$ "
}
