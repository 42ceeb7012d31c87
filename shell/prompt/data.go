package prompt

import (
	"strconv"
	"time"
)

// Data is everything a prompt may show. The caller fills it in; the zero
// value renders a usable prompt.
type Data struct {
	User      string // login name
	Host      string // full host name; \h and the default prompt cut it at the first dot
	Dir       string // current directory, absolute
	DirTrim   int    // PROMPT_DIRTRIM: \w keeps this many trailing directories, 0 all
	Home      string // $HOME, for abbreviating Dir with ~
	SSH       bool   // the session came in over SSH (SSH_CONNECTION or SSH_TTY set)
	Root      bool   // effective user is root: \$ shows #
	GitBranch string // branch or short hash, see [GitBranch]; empty outside a repository
	Status    int    // exit status of the last command
	Duration  time.Duration
	Jobs      int  // background jobs, for \j
	Color     bool // emit colour escapes; see [ColorEnabled]
	Now       time.Time
	Shell     string // shell name for \s; "qsh" when empty
	Version   string // for \v and \V
	// NoLineEditing drops \[ and \], as bash does where readline does
	// not draw the prompt (a script's ${x@P} and PS4).
	NoLineEditing bool
}

// ColorEnabled reports whether a prompt should be coloured, following the
// NO_COLOR convention (any non-empty value disables colour) and TERM=dumb.
// getenv is usually os.Getenv; isTerminal says whether the prompt is drawn on
// a terminal at all.
func ColorEnabled(getenv func(string) string, isTerminal bool) bool {
	if !isTerminal || getenv("NO_COLOR") != "" {
		return false
	}
	return getenv("TERM") != "dumb"
}

// TildeDir returns dir with a leading home directory replaced by ~.
func TildeDir(dir, home string) string {
	home = trimSlash(home)
	switch {
	case home == "" || home == "/":
		return dir
	case dir == home:
		return "~"
	case len(dir) > len(home) && dir[:len(home)] == home && dir[len(home)] == '/':
		return "~" + dir[len(home):]
	}
	return dir
}

func trimSlash(s string) string {
	for len(s) > 1 && s[len(s)-1] == '/' {
		s = s[:len(s)-1]
	}
	return s
}

// shortHost cuts a host name at its first dot, as bash's \h does.
func shortHost(h string) string {
	for i := 0; i < len(h); i++ {
		if h[i] == '.' {
			return h[:i]
		}
	}
	return h
}

// formatDuration prints a duration the way people read it in a prompt:
// 2.5s, 1m05s, 2h03m.
func formatDuration(d time.Duration) string {
	switch {
	case d < time.Minute:
		return d.Round(100 * time.Millisecond).String()
	case d < time.Hour:
		d = d.Round(time.Second)
		return strconv.Itoa(int(d/time.Minute)) + "m" + pad2(int(d%time.Minute/time.Second)) + "s"
	default:
		d = d.Round(time.Minute)
		return strconv.Itoa(int(d/time.Hour)) + "h" + pad2(int(d%time.Hour/time.Minute)) + "m"
	}
}

func pad2(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}
