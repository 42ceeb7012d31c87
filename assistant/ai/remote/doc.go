// Package remote is qsh-assistant: the assistant as a program of its own,
// which qsh starts on the first `?` line and talks to over the control
// channel of package wire (fd 3). It keeps the agent, its tools and the MCP
// servers for the session; it writes to and reads keys from the terminal it
// inherits; the commands it runs it asks qsh to run. See package wire for
// the protocol and why the assistant is a separate process.
package remote
