package danger

// Class is how much harm running a command could do; a larger value is worse.
type Class int

// The classes, defined in shared/danger-classes.md.
const (
	Safe      Class = iota // read-only
	Dev                    // normal development work in the project
	Dangerous              // runs only with explicit confirmation
	Blocked                // never runs
)

var classNames = [...]string{"safe", "dev", "dangerous", "blocked"}

// String is the class's name as the CLI and the prompt show it.
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
