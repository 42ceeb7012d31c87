package confine

// JailArg is qsh's hidden first argument that makes it a jail (see
// [Main]): `qsh JailArg`, with the control channel on fd 3.
const JailArg = "--qsh-jail"

// LaunchArg is the hidden first argument of a jail's launcher: `qsh
// LaunchArg NET`, a process of qsh's in qsh's own namespaces, with the
// control channel on fd 3, that starts the jail in new ones (a network
// namespace of its own if NET is "1") and ends with it, exiting
// [Refused] if the kernel refuses them. qsh could start the jail itself,
// but a start into a new user namespace cannot use vfork: qsh's memory
// would be copied on write, and qsh would take a page fault on each page
// it writes next, on the first command's way (tens of microseconds each
// on a virtual machine). qsh starts the launcher with vfork; the launcher,
// a small process, pays for the fork instead.
const LaunchArg = "--qsh-jail-launch"

// Refused is the launcher's exit status when the kernel refuses the jail's
// namespaces.
const Refused = 126

// Wanted reports whether args (os.Args) ask qsh to be a jail.
func Wanted(args []string) bool {
	return len(args) == 2 && args[1] == JailArg
}

// launchWanted reports whether args (os.Args) ask qsh to be a jail's
// launcher, and for a network namespace.
func launchWanted(args []string) (ok, netNS bool) {
	if len(args) != 3 || args[1] != LaunchArg || args[2] != "0" && args[2] != "1" {
		return false, false
	}
	return true, args[2] == "1"
}
