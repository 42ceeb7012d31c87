package danger

import (
	"strings"
)

// Commands that store text for something to run later: tee writes files
// the string may run; at, batch and crontab run their input as shell
// code.

// tee records what it writes into its files.
func (w *walker) tee(chain string, args []arg, io ioInfo) {
	appends := false
	for _, a := range args[1:] {
		if a.s == "-a" || a.s == "--append" {
			appends = true
		}
	}
	for _, i := range scan(&rule{}, args) {
		if p, ok := w.abs(args[i].s); ok {
			w.shared.wrote(p, io.in.data, io.in.kind == inData, appends)
		}
	}
}

// at judges the commands at and batch are given: on their input, or in
// the file -f names.
func (w *walker) at(chain string, args []arg, io ioInfo) {
	for i, a := range args {
		if (a.s == "-f" || a.s == "--file") && i+1 < len(args) {
			w.runFile(args[i+1].s, args[i+1].text, "sh")
			return
		}
		if a.s == "-l" || a.s == "-q" && len(args) == 3 || a.s == "-c" || a.s == "-r" || a.s == "-d" {
			return // lists, shows or removes jobs
		}
	}
	w.scheduled(chain, io)
}

// scheduled judges shell code a scheduler reads from its input.
func (w *walker) scheduled(chain string, io ioInfo) {
	switch io.in.kind {
	case inData:
		w.nested(io.in.data, input{})
	case inDownload:
		w.res.add(Blocked, "`"+chain+"`: schedules code downloaded from the network")
	case inFile:
		w.runFile(io.in.data, io.in.data, "sh")
	}
}

// crontab judges a crontab being installed: each entry's command, from
// the file named or from its input (crontab -).
func (w *walker) crontab(chain string, args []arg, io ioInfo) {
	ops := scan(&rule{vals: "-u"}, args)
	text, known := "", false
	switch {
	case len(ops) == 0 || args[ops[0]].s == "-":
		text, known = io.in.data, io.in.kind == inData
	default:
		p, ok := w.abs(args[ops[0]].s)
		if content, wrote := w.shared.scripts[p]; ok && wrote && !hasHole(content) {
			text, known = content, true
		}
	}
	if !known {
		return
	}
	for line := range strings.SplitSeq(text, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 0 || strings.HasPrefix(f[0], "#") || strings.Contains(f[0], "="):
		case strings.HasPrefix(f[0], "@") && len(f) > 1:
			w.nested(strings.Join(f[1:], " "), input{})
		case len(f) > 5:
			w.nested(strings.Join(f[5:], " "), input{})
		}
	}
}
