package eval

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// selectLoop is select: the items listed, numbered, on stderr; a line
// read; the variable set to the item chosen (empty for a bad choice) and
// REPLY to the line, until break or end of input.
func (r *Runner) selectLoop(name string, items []string, body []*syntax.Stmt) {
	r.status = 0
	if len(items) == 0 {
		return // bash shows no menu and reads nothing
	}
	in := bufio.NewReader(r.stdin())
	list := func() {
		w := r.stderr()
		width := len(strconv.Itoa(len(items)))
		for i, it := range items {
			fmt.Fprintf(w, "%*d) %s\n", width, i+1, it)
		}
	}
	list()
	for {
		ps3, ok := r.Get("PS3")
		if !ok {
			ps3 = "#? "
		}
		fmt.Fprint(r.stderr(), ps3)
		line, err := in.ReadString('\n')
		if err != nil && line == "" {
			fmt.Fprintln(r.stdout()) // bash ends the prompt's line on stdout
			r.status = 1
			return
		}
		line = strings.TrimRight(line, "\n")
		r.assign("REPLY", line, false)
		if strings.TrimSpace(line) == "" {
			list()
			continue
		}
		choice := ""
		if n, err := strconv.Atoi(strings.TrimSpace(line)); err == nil && n >= 1 && n <= len(items) {
			choice = items[n-1]
		}
		r.assign(name, choice, false)
		r.stmts(body)
		if r.loopFlow() {
			return
		}
	}
}
