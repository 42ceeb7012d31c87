package confine

// Linux's numbers, the same on every architecture.
const (
	prSetNoNewPrivs = 38
	// ctlFD is the control channel's descriptor in the jail.
	ctlFD = 3
)

// Main makes this process the jail qsh asked for, or its launcher, if args
// (os.Args) ask for one, and does not return then; otherwise it returns
// at once.
func Main(args []string) {
	if ok, netNS := launchWanted(args); ok {
		launch(netNS)
	}
	if Wanted(args) {
		jail()
	}
}
