// Package sandbox confines the programs the assistant runs: what a
// [Policy] lets them write (the workspace, the temp dir, the toolchains'
// caches) and read (everything but secrets and qsh's own files),
// computed by [Compute] from the workspace and the session's environment.
//
// On Linux a [Jail] enforces it, in layers: qsh starts, as itself with a
// hidden argument, a process in new user, mount, PID, IPC and network
// namespaces (package confine) that carries out a plan made here (a /tmp
// and /run of its own, the repository's configuration read-only, a layer
// of its own over each cache, its own /proc and terminals, a bridge to
// the proxy of package proxy), drops its privileges, applies the Landlock
// ruleset and the seccomp filter, and starts each program as its child.
// Where the kernel refuses namespaces the same jail runs without them,
// reduced, and says so. On macOS sandbox-exec runs programs under a
// generated profile. What runs inside qsh's own process (the builtins'
// redirections, the filesystem tool) asks [Policy.Allows], and opens files
// as the jail sees them ([Jail.Open]).
package sandbox
