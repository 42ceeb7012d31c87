// Package confine is the inside of the sandbox's jail: qsh, started with
// [JailArg] by package sandbox in new namespaces, reads its plan from the
// control channel, makes its mounts, brings up loopback and the bridge to
// the proxy, drops its capabilities, sets no_new_privs, makes the Landlock
// ruleset and installs the seccomp filter, then starts the programs qsh
// sends it, as its children, and kills them all when the run ends.
//
// It runs from the first package initialiser of qsh (cmd/qsh/early),
// before the rest of qsh initialises: it imports only the runtime, sync
// and syscall, and writes its messages itself.
package confine
