package tools

import "github.com/qsh-shell/qsh/policy/danger"

// Decision is what the policy says to do with a call before anyone is asked.
type Decision int

const (
	Run    Decision = iota // run without asking
	Ask                    // ask the user first
	Refuse                 // never run
)

func (d Decision) String() string {
	switch d {
	case Run:
		return "run"
	case Ask:
		return "ask"
	}
	return "refuse"
}

// Decide is the policy table of danger-classes.md: class × mode. With
// allowedOnly (QSH_AI_EXEC_ALLOWED_ONLY) a dangerous call is refused
// instead of asked about, for unattended use.
func Decide(mode ConfirmMode, c danger.Class, allowedOnly bool) Decision {
	if c < danger.Safe {
		c = danger.Dangerous // not a known class: unknown is not safe
	}
	switch {
	case c >= danger.Blocked:
		return Refuse
	case c == danger.Dangerous && allowedOnly:
		return Refuse
	case c == danger.Dangerous:
		return Ask
	}
	switch mode {
	case ConfirmYolo:
		return Run
	case ConfirmAll:
		return Ask
	}
	if c == danger.Safe {
		return Run
	}
	return Ask
}
