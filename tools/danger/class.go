package danger

// Class is how much harm running a command could do; a larger value is worse.
type Class int

const (
	Safe Class = iota
	Dev
	Dangerous
	Blocked
)

var classNames = [...]string{"safe", "dev", "dangerous", "blocked"}

func (c Class) String() string {
	if c < 0 || int(c) >= len(classNames) {
		return "dangerous"
	}
	return classNames[c]
}

// Verdict is a class with the reasons that decided it, for the user to read.
type Verdict struct {
	Class   Class
	Reasons []string
}
