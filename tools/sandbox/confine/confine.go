package confine

// JailArg is qsh's hidden first argument that makes it a jail (see
// [Main]): `qsh JailArg`, with the control channel on fd 3.
const JailArg = "--qsh-jail"

// Wanted reports whether args (os.Args) ask qsh to be a jail.
func Wanted(args []string) bool {
	return len(args) == 2 && args[1] == JailArg
}
