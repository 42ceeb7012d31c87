package danger

import (
	"os"
	"path"
	"strings"
)

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

// fsImage judges mkfs and its kin given an image file rather than a
// device (mkfs.ext4 disk.img, mkfs.vfat -C fs.img 1024): a filesystem made
// in a file, a write of that file. It reports false when any operand
// may be a device, which is blocked as ever.
func (w *walker) fsImage(name string, args []arg) bool {
	base := name
	if i := strings.IndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	switch base {
	case "mkfs", "mke2fs", "mkswap", "mkdosfs", "mkntfs":
	default:
		return false
	}
	var targets []arg
	for i := 1; i < len(args); i++ {
		a := args[i].s
		switch {
		case strings.HasPrefix(a, "-"):
			if len(a) == 2 && strings.ContainsRune("tbLnFOEmiIgGUNsSrRMTJpo", rune(a[1])) && name != "mkfs.vfat" ||
				name == "mkfs.vfat" && strings.ContainsRune("FnsSrRbfhiIm", rune(a[1])) && len(a) == 2 {
				i++ // its value
			}
		case isNumber(a):
			// a block count
		case hasHole(a):
			return false
		default:
			targets = append(targets, args[i])
		}
	}
	if len(targets) == 0 {
		return false
	}
	for _, t := range targets {
		p, ok := w.abs(t.s)
		if !ok || strings.HasPrefix(p, "/dev/") || strings.HasPrefix(p, "/proc/") || strings.HasPrefix(p, "/sys/") {
			return false
		}
		if fi, err := os.Stat(p); err == nil && !fi.Mode().IsRegular() {
			return false
		}
		if !imageExt(p) {
			if _, err := os.Stat(p); err != nil {
				return false // neither an image's name nor a file that exists
			}
		}
	}
	w.res.add(Dev, "`"+name+"`: makes a filesystem in an image file")
	for _, t := range targets {
		w.writeTo(t.s, name, t.text)
	}
	return true
}

// imageExt reports a name that says it is a disk image.
func imageExt(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".img", ".raw", ".iso", ".bin", ".qcow2", ".vhd", ".vhdx", ".vmdk", ".ext2", ".ext3", ".ext4", ".fs",
		".fat", ".swap", ".image", ".disk":
		return true
	}
	return false
}
