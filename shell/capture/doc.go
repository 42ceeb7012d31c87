// Package capture records what each interactive command printed, without
// changing how it prints it.
//
// An interactive qsh on a terminal re-executes itself behind [Proxy] (or
// [Relay], when package launch started the inner shell early): the outer
// process owns the user's terminal (raw mode) and relays bytes both ways
// to a pseudo-terminal whose slave is the inner shell's controlling
// terminal, like script(1). Every byte reaches the user's terminal
// unchanged, so colour, vim, less, ssh and password prompts behave as
// without capture; Ctrl-C and Ctrl-Z are plain bytes the inner terminal's
// line discipline turns into signals for the inner's foreground job.
//
// The inner shell prints OSC 133 marks (prompt start, command start,
// command end with status) through a [Client]. The marks carry an aid=ID
// option naming this proxy, so marks of a nested shell or of a remote host
// are ignored (they are just output). The outer watches the byte stream for
// its marks and keeps the tail of what each command printed in a bounded
// [Ring]; the inner asks for the recorded outputs over a socket passed at
// exec (one JSON request line, one JSON answer line), and gets them back as
// text by [Strip].
//
// A request carries the number of end marks the shell has printed, and the
// proxy answers once it has read that many (or after a second): the marks
// and the request travel on different channels, and a user typing ahead
// must not get the record of all but the last command.
//
// Behind the proxy the inner shell is a session leader, as a login shell in
// a terminal window is: a program it runs in its own process group gets no
// stop from Ctrl-Z (the kernel discards terminal stop signals for an
// orphaned process group), the same as in that window.
//
// Whether to capture is the caller's decision: only an interactive shell
// whose stdin and stdout are terminals, with QSH_CAPTURE not "off", and
// which is not itself an inner shell ([Inner]). Scripts, -c strings and
// piped stdin never capture.
package capture
