// Package sandbox confines the programs the assistant runs: what a
// [Policy] lets them write (the workspace, the temp dir, the toolchains'
// caches) and read (everything but secrets), computed by [Compute] from
// the workspace and the session's environment.
//
// On Linux the kernel enforces it with Landlock: [Prepare] turns a policy
// into a ruleset, and each program starts as qsh itself with a hidden
// argument (package confine), which applies the ruleset to itself and then
// executes the program, so that everything the program starts is confined
// too. On macOS sandbox-exec runs it under a generated profile. What runs
// inside qsh's own process (the builtins' redirections, the filesystem
// tool) asks [Policy.Allows] instead.
package sandbox
