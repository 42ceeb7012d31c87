// Package launch starts an inner shell on a new pseudo-terminal. It
// imports nothing but os, os/signal and packages they import themselves
// (syscall, errors, strconv, unsafe), so that qsh can use it from an init
// function that runs before the rest of qsh's packages are initialised
// (see cmd/qsh/early).
package launch
