package danger

// Checks for text tools whose scripts can run commands or write files.

func (w *walker) awk(chain string, args []arg, io ioInfo) {
	r := &rule{vals: "-F -v -f --field-separator --assign --file"}
	ops := scan(r, args)
	for i, a := range args {
		if (a.s == "-f" || a.s == "--file") && i+1 < len(args) {
			w.res.add(Dev, "`awk -f`: runs a program from a file")
			return
		}
	}
	if len(ops) == 0 {
		return
	}
	prog := args[ops[0]].s
	w.inline("awk", prog)
}
