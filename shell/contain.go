package shell

import (
	"fmt"
	"io"
	"reflect"
	"strings"

	"mvdan.cc/sh/v3/interp"
)

// internalStatus is the status of code the shell failed on: 2, as bash
// gives what it cannot run.
const internalStatus = 2

// contain runs f, which hands user or model code to the interpreter r: a
// command line, an rc or sourced file, a trap, a hook, a completion
// function, a key's command, the assistant's run. A panic in f (the
// interpreter has some for code bash runs, see docs/COMPATIBILITY.md)
// must cost that code, never the session: it is reported on stderr as
// one line, r is put back into the scope f began in, and contain reports
// true. Every such boundary goes through here, so that one place decides
// what a panic costs, whichever evaluator runs the code.
func contain(r *interp.Runner, stderr io.Writer, f func()) (panicked bool) {
	var saved interp.Runner
	if r != nil {
		saved = *r
	}
	defer func() {
		p := recover()
		if p == nil {
			return
		}
		if r != nil {
			restore(r, saved)
		}
		fmt.Fprintf(stderr, "qsh: internal error: %s\n", panicText(p))
		panicked = true
	}()
	f()
	return false
}

// restore puts r back into the scope it began a run in, after a panic
// left it wherever the panic struck: inside a function (its local scope
// and arguments), with a redirection's files as its streams, inside a
// sourced file or a trap. What the run changed in that scope stays, as
// after an error in bash: its variables (the scope's storage is shared),
// its directory, and its positional parameters unless a function's were
// in place.
func restore(r *interp.Runner, saved interp.Runner) {
	after := *r
	*r = saved
	r.Dir = after.Dir
	if !inFunc(&after) {
		r.Params = after.Params
	}
}

// inFunc reads the interpreter's note of whether it was running a
// function, which it does not export; false when it cannot be read.
func inFunc(r *interp.Runner) bool {
	f := reflect.ValueOf(r).Elem().FieldByName("inFunc")
	return f.IsValid() && f.Kind() == reflect.Bool && f.Bool()
}

// panicText is a panic's value as one line.
func panicText(p any) string {
	msg := fmt.Sprint(p)
	if err, ok := p.(error); ok {
		msg = err.Error()
	}
	if msg = strings.Join(strings.Fields(msg), " "); msg == "" {
		msg = fmt.Sprintf("%T", p)
	}
	return msg
}
