package confine

// Arg is qsh's hidden first argument that asks for [Main]'s work:
//
//	qsh Arg FLAGS PATH ARGV0 ARGS…
//
// with the ruleset as fd 3 and FLAGS those of landlock_restrict_self.
const Arg = "--qsh-confine"

// Wanted reports whether args (os.Args) ask to start a confined program.
func Wanted(args []string) bool {
	return len(args) >= 5 && args[1] == Arg
}
