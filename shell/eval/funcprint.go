package eval

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// FuncText is a function's definition as declare -f prints it.
func FuncText(fn *Func) string {
	var sb strings.Builder
	sb.WriteString(fn.Name + " () \n")
	body := fn.Body
	p := syntax.NewPrinter(syntax.Indent(4))
	var bb strings.Builder
	p.Print(&bb, body)
	text := bb.String()
	if _, ok := body.Cmd.(*syntax.Block); ok {
		// bash puts the brace on its own line, with a space after it.
		text = strings.TrimPrefix(text, "{")
		text = "{ " + text
	}
	sb.WriteString(text)
	sb.WriteString("\n")
	return sb.String()
}
