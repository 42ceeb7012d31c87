// Package wire is the control channel between qsh and qsh-assistant: JSON
// lines over a socket pair that qsh hands the assistant as fd 3.
//
// The assistant is a program of its own so that qsh does not link it: its
// dependencies (HTTP clients, the MCP SDK, an HTML parser) would cost every
// start-up of the shell about a millisecond and several megabytes. qsh
// starts it on the first `?` line and it lives for the session. Both share
// the terminal: the assistant writes its answers there and reads the
// confirmation keys itself, while the commands it runs are run by the
// shell, in a subshell of the user's interpreter.
//
// One turn:
//
//	qsh → assistant   ask     the question and the session's context
//	assistant → qsh   run     an approved command line (id, class, workspace, timeout, sandbox)
//	qsh → assistant   output  what the command printed, as it comes (id)
//	qsh → assistant   exit    how it ended (id; what the sandbox refused)
//	assistant → qsh   done    the turn is over
//
// And at a confirmation:
//
//	assistant → qsh   preview what would this command change? (id)
//	qsh → assistant   preview the answer in a few words, from expanding it without running it (id)
//	assistant → qsh   edit    the user took the command over: put it on the next prompt line
//
// When a program of a run stops to read the terminal (a password prompt):
//
//	qsh → assistant   terminal  which program (id); qsh waits for the answer
//	assistant → qsh   terminal  said on the screen (id); qsh gives the program the terminal
//
// A run marked background outlives its turn: qsh answers at once and sends
// its output and exit as they come, between turns too; the assistant stops
// it with cancel and its id, and qsh stops the rest when the channel
// closes.
//
// qsh sends cancel (no id) when the user presses Ctrl-C and the turn must
// end; the assistant sends cancel with an id when it no longer wants a run
// (its timeout). The assistant exits when the channel closes.
package wire
