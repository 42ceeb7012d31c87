package danger

import "strings"

// xterm judges a terminal emulator's display: a shell shown on another
// machine's X display is a reverse shell, whoever sits at that display
// types into this account.
func (w *walker) xterm(chain string, args []arg, io ioInfo) {
	display, _ := w.envValue("DISPLAY")
	for i := 1; i < len(args); i++ {
		flag, v, hasV := strings.Cut(args[i].s, "=")
		if flag != "-display" && flag != "--display" && flag != "-d" {
			continue
		}
		if !hasV && i+1 < len(args) {
			i++
			v = args[i].s
		}
		display = v
	}
	host, _, found := strings.Cut(display, ":")
	if found && host != "" && host != "unix" && !localHost(host) || hasHole(display) {
		w.res.add(Blocked, "`"+chain+"` on display `"+display+"`: reverse shell (a shell shown on another "+
			"machine's screen)")
	}
}
