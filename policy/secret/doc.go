// Package secret says what is secret, in one place for all of qsh:
// environment variables by their names ([Var]), files by their paths
// ([Places.Why], [Name]) and values by their shape ([Redact]); and what of
// the environment a confined program may have ([Confined]: no secrets, no
// handles of the user's daemons such as TMUX or SSH_AUTH_SOCK).
//
// The classifier (policy/danger), the assistant's redaction (ai), the
// filesystem tool (tools) and the sandbox all ask it, so that what one
// hides the others hide too. It imports nothing of qsh's, and builds its
// tables on first use so that linking it costs the shell no start-up.
package secret
