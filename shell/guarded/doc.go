// Package guarded runs a command line the user approved for the assistant:
// in a subshell of the user's interpreter, through the danger package's
// run-time guard, each program in a process group of its own that a
// timeout or Ctrl-C kills whole, with a non-interactive environment.
//
// It is the shell's half of the assistant's execute_command. qsh links it
// (the assistant runs in another process and asks qsh to run commands), so
// it must stay free of the assistant's dependencies and of init work.
package guarded
