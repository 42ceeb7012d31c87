// Package ansi makes text from outside qsh safe to show on a terminal:
// what the model writes, what the assistant's tools and MCP servers
// return, what the programs the assistant runs print. Text, newlines and
// tabs pass; every other control character, and so every escape sequence
// (OSC 52 that sets the clipboard, a title, a cleared screen, DCS, APC,
// SGR colours too), is shown in caret notation (`^[]52;…^G`) and never
// acted on. qsh adds its own colours after [Escape]. One function for
// every path, [Escape], with [Stream] and [Writer] for text that comes in
// pieces.
package ansi
