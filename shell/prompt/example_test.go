package prompt_test

import (
	"fmt"

	"github.com/qsh-shell/qsh/shell/prompt"
)

func ExampleRender() {
	d := prompt.Data{User: "ann", Host: "box.lan", Dir: "/home/ann/src", Home: "/home/ann",
		SSH: true, GitBranch: "main", Status: 1}
	fmt.Printf("%q\n", prompt.Render(d))
	// Output: "ann@box ~/src (main) [1] $ "
}

func ExampleDecode() {
	d := prompt.Data{User: "ann", Host: "box.lan", Dir: "/home/ann/$(x)", Home: "/home/ann"}
	// The shell expands the rest: here, ${VIRTUAL_ENV_PROMPT}; \w's
	// $(x) is quoted, text.
	decoded := prompt.Decode(`${VIRTUAL_ENV_PROMPT}\[\e[32m\]\u@\h\[\e[0m\]:\w\$ `, d)
	fmt.Printf("%q\n", decoded)
	fmt.Printf("%q\n", prompt.Visible(prompt.Unquote(decoded)))
	// Output:
	// "${VIRTUAL_ENV_PROMPT}\x01\x1b[32m\x02ann@box\x01\x1b[0m\x02:~/\\$(x)\\$ "
	// "${VIRTUAL_ENV_PROMPT}\x1b[32mann@box\x1b[0m:~/$(x)$ "
}
