package danger

import "strings"

// fdisk judges the commands an interactive partition editor (fdisk,
// gdisk) reads from its input: `w` writes the table it was told to make
// (o: a new empty label), which wipes the disk's partitions.
func (w *walker) fdisk(chain string, args []arg, io ioInfo) {
	for _, a := range args[1:] {
		if matchFlag("-l --list", a.s) {
			return
		}
	}
	switch io.in.kind {
	case inData:
		for line := range strings.SplitSeq(io.in.data, "\n") {
			if strings.TrimSpace(line) == "w" {
				w.res.add(Blocked, "`"+chain+"`: writes the partition table its input makes")
				return
			}
		}
	case inDownload:
		w.res.add(Blocked, "`"+chain+"`: edits a partition table by commands downloaded from the network")
	case inUnknown, inFile:
		w.res.add(Dangerous, "`"+chain+"`: edits a partition table by commands not known before running")
	}
}
