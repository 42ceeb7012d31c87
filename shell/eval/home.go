package eval

import (
	"context"
	"os/exec"
	"strings"
	"time"
)

// getentWait bounds a lookup through getent.
const getentWait = 2 * time.Second

// lookupHomeGetent asks getent(1) for a user's home, for users that only
// NSS modules (LDAP, SSSD) know: qsh is built without cgo, and Go's own
// lookup reads /etc/passwd alone.
func lookupHomeGetent(ctx context.Context, name string) string {
	if name == "" || strings.ContainsAny(name, "/\x00") {
		return ""
	}
	// A directory server that does not answer must not hang the shell.
	ctx, cancel := context.WithTimeout(ctx, getentWait)
	defer cancel()
	out, err := exec.CommandContext(ctx, "getent", "passwd", name).Output()
	if err != nil {
		return ""
	}
	fields := strings.Split(strings.TrimSpace(string(out)), ":")
	if len(fields) < 6 || fields[0] != name {
		return "" // getent takes a number for a UID: ~2 is no user's
	}
	return fields[5]
}

// dirStackTilde is ~+N, ~-N and ~N: entries of the directory stack.
func (r *Runner) dirStackTilde(name string) (string, bool) {
	sign := byte('+')
	s := name
	if s != "" && (s[0] == '+' || s[0] == '-') {
		sign, s = s[0], s[1:]
	}
	n, ok := fastNumber(s)
	if !ok || s == "" || n < 0 {
		return "", false
	}
	stack := append([]string{r.pwdVar()}, r.dirstack...)
	i := int(n)
	if sign == '-' {
		i = len(stack) - 1 - i
	}
	if i < 0 || i >= len(stack) {
		return "", false
	}
	return stack[i], true
}
