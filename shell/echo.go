package shell

import (
	"errors"
	"strings"
	"syscall"

	"mvdan.cc/sh/v3/interp"
)

// echoBuiltin is bash's echo: leading words made of n, e and E only are
// flags (-n no newline, -e escapes, -E none, the last of e and E winning;
// shopt xpg_echo makes -e the default), and it fails on a write error.
func (s *Shell) echoBuiltin(hc interp.HandlerContext, b builtinIO, args []string) int {
	newline, escapes := true, s.opt(hc.Env, "xpg_echo")
	for len(args) > 0 && isEchoFlag(args[0]) {
		for _, c := range args[0][1:] {
			switch c {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
		args = args[1:]
	}
	var out []byte
	for i, a := range args {
		if i > 0 {
			out = append(out, ' ')
		}
		if !escapes {
			out = append(out, a...)
			continue
		}
		var stop bool
		if out, stop = echoEscapes(out, a); stop {
			newline = false
			break
		}
	}
	if newline {
		out = append(out, '\n')
	}
	if _, err := b.out.Write(out); err != nil {
		if errors.Is(err, syscall.EPIPE) {
			// bash's echo would have died of SIGPIPE, silently.
			return 128 + int(syscall.SIGPIPE)
		}
		return b.fail(1, "write error: %s", errno(err))
	}
	return 0
}

func isEchoFlag(a string) bool {
	return len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "neE") == ""
}

// echoEscapes appends a with echo -e's escapes decoded: %b's, but for
// octal, which must start with \0. stop reports \c: nothing more is
// printed.
func echoEscapes(out []byte, a string) (_ []byte, stop bool) {
	for i := 0; i < len(a); {
		if a[i] != '\\' {
			out = append(out, a[i])
			i++
			continue
		}
		if i+1 < len(a) && a[i+1] >= '1' && a[i+1] <= '7' {
			out = append(out, '\\', a[i+1])
			i += 2
			continue
		}
		out, i, stop = unescape(out, a, i, true, func(string) {})
		if stop {
			return out, true
		}
	}
	return out, false
}
