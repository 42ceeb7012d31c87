package shell

import (
	"context"
	"os/exec"
	"os/user"
	"strings"
	"sync"
	"time"

	"mvdan.cc/sh/v3/expand"
)

// getentWait bounds a lookup through getent: a directory server that does
// not answer must not hang the shell.
const getentWait = 2 * time.Second

// userHomes answers the "HOME name" queries expand makes for ~name. qsh is
// built without cgo, which saves a millisecond at every start, so os/user
// reads only /etc/passwd; users the system knows from elsewhere (LDAP,
// SSSD: the name service) are asked of getent(1), once each.
type userHomes struct {
	expand.Environ
	lookup func(ctx context.Context, name string) string

	mu    sync.Mutex
	homes map[string]string
}

func newUserHomes(env expand.Environ) *userHomes {
	return &userHomes{Environ: env, lookup: lookupHome, homes: map[string]string{}}
}

func (e *userHomes) Get(name string) expand.Variable {
	who, ok := strings.CutPrefix(name, "HOME ")
	if !ok {
		return e.Environ.Get(name)
	}
	e.mu.Lock()
	home, seen := e.homes[who]
	e.mu.Unlock()
	if !seen {
		ctx, cancel := context.WithTimeout(context.Background(), getentWait)
		home = e.lookup(ctx, who)
		cancel()
		e.mu.Lock()
		e.homes[who] = home
		e.mu.Unlock()
	}
	if home == "" {
		return expand.Variable{} // ~name stays as written, as in bash
	}
	return expand.Variable{Set: true, Kind: expand.String, Str: home}
}

// lookupHome finds the home directory of user name, "" when there is none.
func lookupHome(ctx context.Context, name string) string {
	if u, err := user.Lookup(name); err == nil {
		return u.HomeDir
	}
	if name == "" || strings.HasPrefix(name, "-") || strings.ContainsAny(name, ":/\x00\n") {
		return ""
	}
	out, err := exec.CommandContext(ctx, "getent", "passwd", name).Output()
	if err != nil {
		return ""
	}
	return passwdHome(string(out), name)
}

// passwdHome is the home directory in a passwd(5) line for name.
func passwdHome(line, name string) string {
	line, _, _ = strings.Cut(line, "\n")
	f := strings.Split(line, ":")
	if len(f) < 7 || f[0] != name || !strings.HasPrefix(f[5], "/") {
		return ""
	}
	return f[5]
}
