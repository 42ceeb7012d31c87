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
			w.wroteFile(p, io.in.data, io.in.kind == inData, appends)
			if io.in.kind == inDownload {
				w.shared.download(p) // curl … | tee x.sh
			}
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
	for _, p := range io.in.parts {
		w.literal1(p)
	}
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
		text = strings.Join(io.in.parts, "\n")
	}
	for line := range strings.SplitSeq(text, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 0 || strings.HasPrefix(f[0], "#") || strings.Contains(f[0], "="):
		case strings.HasPrefix(f[0], "@") && len(f) > 1:
			w.cronCommand(strings.Join(f[1:], " "), known)
		case len(f) > 5:
			w.cronCommand(strings.Join(f[5:], " "), known)
		}
	}
}

// copies records what cp, install and mv put into their destination: the
// content of a source this string wrote, or a here-string given as
// /dev/stdin (install -m 755 /dev/stdin run.sh <<< '…').
func (w *walker) copies(chain string, args []arg, io ioInfo) {
	ops := scan(commands.Get()[firstWord(chain)], args)
	if len(ops) != 2 {
		return
	}
	src, dst := args[ops[0]].s, args[ops[1]].s
	content, known := "", false
	switch p, ok := w.abs(src); {
	case src == "/dev/stdin" || src == "-":
		content, known = io.in.data, io.in.kind == inData
	case ok:
		var wrote bool
		content, wrote = w.shared.scripts[p]
		known = wrote && !hasHole(content)
	}
	if d, ok := w.abs(dst); ok && (known || src == "/dev/stdin") {
		w.shared.wrote(d, content, known, false)
	}
}

// cronCommand judges a crontab entry's command: fully when the crontab is
// known, for what is worse than dangerous when only a part is.
func (w *walker) cronCommand(cmd string, known bool) {
	if known {
		w.nested(cmd, input{})
	} else {
		w.literal1(cmd)
	}
}
