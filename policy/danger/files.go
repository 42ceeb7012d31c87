package danger

import (
	"os"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/qsh-shell/qsh/internal/lazy"
)

// Checks for commands that delete, change or unpack files.

func (w *walker) rm(chain string, args []arg, io ioInfo) {
	recursive, dirs := false, false
	var targets []arg
	dashdash := false
	for _, a := range args[1:] {
		switch {
		case dashdash || !strings.HasPrefix(a.s, "-") || a.s == "-":
			targets = append(targets, a)
		case a.s == "--":
			dashdash = true
		case a.s == "--recursive" || a.s == "-r" || a.s == "-R":
			recursive = true
		case a.s == "--dir" || a.s == "-d":
			dirs = true
		case strings.HasPrefix(a.s, "--"):
		default:
			if strings.ContainsAny(a.s[1:], "rR") {
				recursive = true
			}
		}
	}
	verb := "`" + chain + "`"
	if recursive {
		verb = "`" + chain + " -r`"
	}
	if len(targets) == 0 {
		w.res.add(Safe, verb+": deletes nothing")
		return
	}
	for _, t := range targets {
		p, ok := w.abs(t.s)
		if ok && recursive && strings.HasSuffix(t.s, "/") {
			// rm -rf link/ deletes what the link points at.
			p = w.throughLinks(p)
		}
		on := verb + " on `" + t.text + "`"
		rec := recursive
		if base, found := strings.CutSuffix(p, "/"+holeTree); found {
			// Every file of a tree, one by one: as good as -r on it.
			p, rec = base+"/"+holeEntry, true
		}
		if !ok {
			if rec && homeHole(t.s) {
				w.res.add(Blocked, on+": deletes a home directory, whichever user's it is")
				continue
			}
			w.res.add(Dangerous, on+": path not known before running")
			continue
		}
		if w.box != nil && under(p, scratch) {
			w.res.add(Dev, on+": deletes inside the container")
			continue
		}
		if why := w.catastrophic(p); why != "" {
			if rec || hasGlob(path.Base(p)) && (rec || dirs) {
				w.res.add(Blocked, on+": "+why)
				continue
			}
			w.res.add(Dangerous, on+": deletes system or home files")
			continue
		}
		base := path.Base(p)
		switch {
		case strings.Contains(p, holeEntry):
			w.res.add(Dangerous, on+": deletes every file found")
		case !w.inside(p):
			if p == w.ws.Dir {
				w.res.add(Dangerous, on+": deletes the whole workspace")
			} else {
				w.res.add(Dangerous, on+": deletes outside the workspace")
			}
		case buildDirs.Get()[base] || hasGlob(base) && buildDirs.Get()[path.Base(path.Dir(p))] || buildDirUnder(p, w.ws.Dir):
			w.res.add(Dev, on+": removes regenerable build output")
		case hasGlob(base):
			w.res.add(Dangerous, on+": deletes files in bulk")
		case rec && plainFile(p) && w.secretFile(p) == "":
			w.res.add(Dev, on+": deletes a file in the workspace (-r changes nothing for a file)")
		case rec:
			w.res.add(Dangerous, on+": deletes a directory tree")
		case w.secretFile(p) != "":
			w.res.add(Dangerous, on+": deletes a secret file")
		default:
			w.res.add(Dev, on+": deletes a file in the workspace")
		}
	}
}

// plainFile reports a path that is a file, not a directory: one on disk,
// or, when there is none, a lock file or a name with a data file's
// extension (package-lock.json, app.log).
func plainFile(p string) bool {
	if fi, err := os.Lstat(p); err == nil {
		return fi.Mode().IsRegular()
	}
	if lockFiles.Get()[path.Base(p)] {
		return true
	}
	switch path.Ext(p) {
	case ".json", ".lock", ".log", ".txt", ".csv", ".tsv", ".xml", ".yaml", ".yml", ".toml", ".sum", ".tgz",
		".zip", ".gz", ".img", ".iso", ".pdf", ".png", ".jpg", ".sqlite", ".db", ".pyc", ".o", ".a", ".so":
		return true
	}
	return false
}

// buildDirUnder reports whether p lies inside a build directory of the
// workspace (rm -rf build/tmp).
func buildDirUnder(p, ws string) bool {
	rel := strings.TrimPrefix(p, ws+"/")
	parts := strings.Split(rel, "/")
	for _, part := range parts[:len(parts)-1] {
		if buildDirs.Get()[part] {
			return true
		}
	}
	return false
}

func (w *walker) chmod(chain string, args []arg, io ioInfo) {
	recursive := false
	var ops []arg
	for _, a := range args[1:] {
		if a.s == "-R" || a.s == "--recursive" || strings.HasPrefix(a.s, "-") && !strings.HasPrefix(a.s, "--") && strings.Contains(a.s, "R") {
			recursive = true
			continue
		}
		if strings.HasPrefix(a.s, "-") && len(a.s) > 1 && !strings.ContainsAny(a.s[1:2], "rwxXst") {
			continue
		}
		ops = append(ops, a)
	}
	if len(ops) < 2 {
		return
	}
	if strings.HasPrefix(chain, "chmod") {
		switch uid, gid := setID(ops[0].s); {
		case uid:
			w.res.add(Dangerous, "`"+chain+" "+ops[0].text+"`: sets the setuid bit (the program runs with its "+
				"owner's rights)")
		case gid && !slices.ContainsFunc(ops[1:], func(t arg) bool { return !w.workspaceDir(t.s) }):
			// On a directory setgid only makes new files take its group.
		case gid:
			w.res.add(Dangerous, "`"+chain+" "+ops[0].text+"`: sets the setgid bit (a program runs with its "+
				"group's rights; a directory gives new files its group)")
		}
	}
	for _, t := range ops[1:] {
		p, ok := w.abs(t.s)
		on := "`" + chain + " " + ops[0].text + " " + t.text + "`"
		switch {
		case !ok:
			w.res.add(Dangerous, on+": path not known before running")
		case strings.Contains(p, holeEntry) || strings.Contains(p, holeTree):
			// Every file find or xargs gives it: as good as -R.
			root := strings.TrimSuffix(strings.TrimSuffix(p, "/"+holeEntry), "/"+holeTree)
			if root == "" {
				root = "/"
			}
			switch {
			case strings.HasSuffix(p, "/"+holeTree) && (root == "/" || systemDirs.Get()[root]):
				w.res.add(Blocked, on+": changes every file of the system")
			case worldWritable(ops[0].s):
				w.res.add(Dangerous, on+": makes every file found writable by every user")
			case !w.inside(root) && root != w.ws.Dir:
				w.res.add(Dangerous, on+": changes files outside the workspace")
			default:
				w.res.add(Dev, on+": changes permissions of the files found")
			}
			if why := w.catastrophic(root); why != "" {
				w.res.add(Dangerous, on+": changes system or home files")
			}
		case recursive && (p == "/" || systemDirs.Get()[p] || path.Dir(p) == "/" && hasGlob(path.Base(p))):
			w.res.add(Blocked, on+": changes the whole system recursively")
		case w.inside(p) || p == w.ws.Dir:
			switch {
			case strings.HasPrefix(chain, "chown") || strings.HasPrefix(chain, "chgrp"):
				w.res.add(Dangerous, on+": changes file owners")
			case recursive && worldWritable(ops[0].s):
				w.res.add(Dangerous, on+": makes a whole tree writable by every user")
			default:
				w.res.add(Dev, on+": changes permissions in the workspace")
			}
		default:
			w.res.add(Dangerous, on+": changes files outside the workspace")
		}
	}
}

// setfacl judges changing ACLs or attributes (setfacl, chattr) as chmod
// is judged: -R on / or a system directory changes the whole system.
func (w *walker) setfacl(chain string, args []arg, io ioInfo) {
	recursive := false
	var targets []arg
	for i := 1; i < len(args); i++ {
		a := args[i].s
		switch {
		case a == "-R" || a == "--recursive" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") &&
			strings.Contains(a, "R") && chain == "setfacl":
			recursive = true
		case chain == "setfacl" && matchFlag("-m --modify -M --modify-file -x --remove -X --remove-file --set "+
			"--set-file", a) && !strings.Contains(a, "="):
			i++
		case chain == "chattr" && (strings.HasPrefix(a, "+") || strings.HasPrefix(a, "=") ||
			strings.HasPrefix(a, "-") && len(a) > 1 && strings.Trim(a[1:], "aAcCdDeFijmPsStTux") == ""):
			// a mode: +i, -a, =e
		case chain == "chattr" && (a == "-v" || a == "-p") && i+1 < len(args):
			i++
		case strings.HasPrefix(a, "-"):
		default:
			targets = append(targets, args[i])
		}
	}
	for _, t := range targets {
		p, ok := w.abs(t.s)
		on := "`" + chain + " " + t.text + "`"
		switch {
		case !ok:
			w.res.add(Dangerous, on+": path not known before running")
		case recursive && (p == "/" || systemDirs.Get()[p] || path.Dir(p) == "/" && hasGlob(path.Base(p))):
			w.res.add(Blocked, on+": changes the whole system recursively")
		case w.inside(p) || p == w.ws.Dir:
			w.res.add(Dev, on+": changes files in the workspace")
		default:
			w.res.add(Dangerous, on+": changes files outside the workspace")
		}
	}
}

// setID reports whether a chmod mode sets the setuid and the setgid bit:
// octal 4755, 2755, 6755, or u+s, g+s, +s, u=rwxs.
func setID(mode string) (uid, gid bool) {
	if isNumber(mode) {
		if len(mode) < 4 {
			return false, false
		}
		d := mode[len(mode)-4] - '0'
		return d&4 != 0, d&2 != 0
	}
	for clause := range strings.SplitSeq(mode, ",") {
		if i := strings.IndexAny(clause, "+="); i >= 0 && strings.Contains(clause[i+1:], "s") {
			who := clause[:i]
			uid = uid || who == "" || strings.ContainsAny(who, "ua")
			gid = gid || who == "" || strings.ContainsAny(who, "ga")
		}
	}
	return uid, gid
}

// workspaceDir reports whether s names a directory in the workspace, as far
// as the text tells: it ends in / or is . or .., inside or the workspace.
func (w *walker) workspaceDir(s string) bool {
	p, ok := w.abs(s)
	dir := strings.HasSuffix(s, "/") || path.Base(s) == "." || path.Base(s) == ".."
	return ok && dir && (w.inside(p) || p == w.ws.Dir)
}

// worldWritable reports a chmod mode that lets every user write: octal
// with the others' write bit (777, 666, 0757), or o+w, a+w, a=rwx.
func worldWritable(mode string) bool {
	if isNumber(mode) {
		return len(mode) >= 3 && (mode[len(mode)-1]-'0')&2 != 0
	}
	for clause := range strings.SplitSeq(mode, ",") {
		i := strings.IndexAny(clause, "+=")
		if i < 0 {
			continue
		}
		who, perms := clause[:i], clause[i+1:]
		if strings.ContainsAny(who, "oa") && strings.Contains(perms, "w") {
			return true
		}
	}
	return false
}

func (w *walker) dd(chain string, args []arg, io ioInfo) {
	endless, bounded, out := io.in.endless, false, ""
	for _, a := range args[1:] {
		if v, ok := strings.CutPrefix(a.s, "if="); ok {
			endless = endlessDevices[v]
		}
		bounded = bounded || strings.HasPrefix(a.s, "count=")
		if op, v, ok := ddOutput(a.s); ok && !strings.Contains(op, "wipe") {
			out = v
		}
	}
	if endless && !bounded && out != "" && !strings.HasPrefix(out, "/dev/") {
		w.res.add(Dangerous, "`dd of="+out+"`: writes an endless stream to a file, until the disk is full")
	}
	if out != "" && !strings.HasPrefix(out, "/dev/") && ddInPlace(args) && w.inBuildDir(out) {
		// build/flash.img: the build's own output, made again by the next
		// build.
		w.res.add(Dev, "`dd of="+out+"`: patches a file of the build's output")
	} else if out != "" && !strings.HasPrefix(out, "/dev/") && ddInPlace(args) {
		// A new image file of zeros is everyday work; writing into the
		// middle of an existing one (a database, an image) is not undone.
		w.res.add(Dangerous, "`dd of="+out+"`: overwrites part of the file in place (conv=notrunc or seek=)")
	}
	if n := ddTotal(args); out != "" && !strings.HasPrefix(out, "/dev/") && n >= 10<<30 {
		// As fallocate of 10 GiB or more: enough to fill a disk.
		w.res.add(Dangerous, "`dd of="+out+"`: writes "+strconv.FormatInt(n>>30, 10)+" GiB, which may fill the disk")
	}
	for _, a := range args[1:] {
		if op, v, ok := ddOutput(a.s); ok {
			w.writeTo(v, chain, a.text)
			if strings.Contains(op, "wipe") {
				w.res.add(Dangerous, "`"+chain+" "+a.text+"`: overwrites the file's contents")
			}
		}
		if v, ok := strings.CutPrefix(a.s, "if="); ok {
			p, ok := w.abs(v)
			if ok && strings.HasPrefix(p, "/dev/") && rawDevice.Get().MatchString(p) {
				if ddHead(args) {
					w.res.add(Safe, "`dd "+a.text+"`: reads the start of a disk: its partition table and boot code")
					continue
				}
				if out == "/dev/null" {
					// A read test (speed, bad sectors): nothing read is kept.
					w.res.add(Safe, "`dd "+a.text+" of=/dev/null`: reads a disk and keeps nothing")
					continue
				}
				w.res.add(Dangerous, "`dd "+a.text+"`: reads a raw disk")
			}
			w.readFile(p, ok, "`dd "+a.text+"`")
		}
	}
}

// ddInPlace reports whether dd's operands keep the output file and write
// into it: conv=notrunc, or a seek= past its start with data to write
// (seek= with count=0 only sizes a file: the sparse-image idiom).
func ddInPlace(args []arg) bool {
	seek, empty := false, false
	for _, a := range args[1:] {
		if v, ok := strings.CutPrefix(a.s, "conv="); ok && slices.Contains(strings.Split(v, ","), "notrunc") {
			return true
		}
		for _, op := range []string{"seek=", "oseek="} {
			if v, ok := strings.CutPrefix(a.s, op); ok && strings.TrimLeft(v, "0") != "" {
				seek = true
			}
		}
		empty = empty || a.s == "count=0"
	}
	return seek && !empty
}

// bigFile is the size from which a file allocated at once may fill the
// disk (fallocate -l 500G): a test image or a swap file is smaller.
const bigFile = 10 << 30

// fallocate judges the size a file is given: its blocks are reserved.
func (w *walker) fallocate(chain string, args []arg, io ioInfo) {
	for i, a := range args[1:] {
		v, ok := strings.CutPrefix(a.s, "--length=")
		if !ok && (a.s == "-l" || a.s == "--length") && i+2 < len(args) {
			v, ok = args[i+2].s, true
		}
		if n := sizeArg(v); ok && (n < 0 || n >= bigFile) {
			w.res.add(Dangerous, "`"+chain+" "+a.text+" "+v+"`: reserves disk space that may fill the disk")
		}
	}
}

// truncate judges setting sizes: growing a file, or making a new one
// (sparse: it uses no space), changes no data; shrinking cuts it off.
func (w *walker) truncate(chain string, args []arg, io ioInfo) {
	size, ops := "", []arg{}
	for i := 1; i < len(args); i++ {
		a := args[i].s
		switch {
		case (a == "-s" || a == "--size") && i+1 < len(args):
			size = args[i+1].s
			i++
		case strings.HasPrefix(a, "--size="):
			size = strings.TrimPrefix(a, "--size=")
		case strings.HasPrefix(a, "-s") && len(a) > 2:
			size = a[2:]
		case (a == "-r" || a == "--reference") && i+1 < len(args):
			size = "?"
			i++
		case strings.HasPrefix(a, "-"):
		default:
			ops = append(ops, args[i])
		}
	}
	grow := strings.HasPrefix(size, "+") && sizeArg(size[1:]) >= 0
	n := sizeArg(size)
	for _, t := range ops {
		p, ok := w.abs(t.s)
		var fi os.FileInfo
		err := os.ErrNotExist
		if ok {
			fi, err = os.Stat(p)
		}
		switch {
		case !ok:
			w.res.add(Dangerous, "`"+chain+" "+t.text+"`: path not known before running")
		case grow:
		case n > 0 && (os.IsNotExist(err) || err == nil && fi.Size() <= n):
			// a new (sparse) file, or one made longer
		default:
			w.res.add(Dangerous, "`"+chain+" -s "+size+" "+t.text+"`: cuts off the file's data")
		}
	}
}

// sizeArg reads a size as fallocate and truncate take it: a number with
// an optional unit (K M G T, KB MB … as powers of 1000, KiB … of 1024);
// -1 when it is none.
func sizeArg(s string) int64 {
	s = strings.TrimSuffix(strings.TrimSuffix(s, "iB"), "B")
	if s == "" {
		return -1
	}
	mul := int64(1)
	switch s[len(s)-1] {
	case 'K', 'k':
		mul = 1 << 10
	case 'M', 'm':
		mul = 1 << 20
	case 'G', 'g':
		mul = 1 << 30
	case 'T', 't':
		mul = 1 << 40
	case 'P', 'p':
		mul = 1 << 50
	}
	if mul > 1 {
		s = s[:len(s)-1]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mul {
		return -1
	}
	return n * mul
}

// ddHead reports a dd that reads no more than the first MiB of its input:
// on a disk, the partition table and boot code, before any filesystem.
func ddHead(args []arg) bool {
	bs, count := int64(512), int64(-1)
	for _, a := range args[1:] {
		op, v, _ := strings.Cut(a.s, "=")
		switch op {
		case "bs", "ibs":
			bs = ddSize(v)
		case "count":
			count = ddSize(v)
		case "skip", "iseek":
			if ddSize(v) != 0 {
				return false
			}
		case "iflag":
			if strings.Contains(v, "count_bytes") {
				bs = 1
			}
		}
	}
	return count >= 0 && bs > 0 && bs <= 1<<20 && count*bs <= 1<<20
}

// ddTotal is how many bytes dd copies by bs= (or obs=) and count=, or 0
// when either is not given.
func ddTotal(args []arg) int64 {
	bs, count := int64(512), int64(-1)
	for _, a := range args[1:] {
		op, v, _ := strings.Cut(a.s, "=")
		switch op {
		case "bs", "obs":
			bs = ddSize(v)
		case "count":
			count = ddSize(v)
		}
	}
	if bs <= 0 || count <= 0 || count > (1<<62)/bs {
		return 0
	}
	return bs * count
}

// ddSize reads a dd size: a number with an optional unit (c w b K M G,
// kB MB GB …, xN products are not read); -1 when it is no size.
func ddSize(s string) int64 {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil || n > 1<<40 {
		return -1
	}
	unit := map[string]int64{"": 1, "c": 1, "w": 2, "b": 512, "K": 1 << 10, "k": 1 << 10, "KiB": 1 << 10,
		"kB": 1000, "KB": 1000, "M": 1 << 20, "MiB": 1 << 20, "MB": 1000000, "G": 1 << 30, "GiB": 1 << 30,
		"GB": 1000000000, "T": 1 << 40, "TB": 1000000000000}
	m, ok := unit[s[i:]]
	if !ok {
		return -1
	}
	return n * m
}

// ddOutput splits an operand of dd or its kin (dcfldd, dc3dd) that names
// a file they write: of=, hof= and ofs= copy into it, wipe= and hwipe=
// overwrite it with a pattern.
func ddOutput(a string) (op, target string, ok bool) {
	op, target, found := strings.Cut(a, "=")
	switch op {
	case "of", "hof", "ofs", "hofs", "wipe", "hwipe":
		return op + "=", target, found
	}
	return "", "", false
}

func (w *walker) tar(chain string, args []arg, io ioInfo) {
	if len(args) < 2 {
		return
	}
	mode := ""
	file := ""
	dir := ""
	absolute, toStdout := false, false
	first := args[1].s
	if !strings.HasPrefix(first, "-") && letters(first) {
		first = "-" + first
	}
	for i := 1; i < len(args); i++ {
		a := args[i].s
		if i == 1 {
			a = first
		}
		switch {
		case a == "--extract" || a == "--get":
			mode = "x"
		case a == "--create":
			mode = "c"
		case a == "--list":
			mode = "t"
		case a == "--append" || a == "--update":
			mode = "c"
		case strings.HasPrefix(a, "--file="):
			file = strings.TrimPrefix(a, "--file=")
		case a == "--file" || a == "-C" || a == "--directory":
			if i+1 < len(args) {
				if a == "--file" {
					file = args[i+1].s
				} else {
					dir = args[i+1].s
				}
				i++
			}
		case strings.HasPrefix(a, "--directory="):
			dir = strings.TrimPrefix(a, "--directory=")
		case a == "--remove-files":
			w.res.add(Dangerous, "`tar --remove-files`: deletes the files it packs")
		case a == "--recursive-unlink":
			w.res.add(Dangerous, "`tar --recursive-unlink`: empties the directories it unpacks into")
		case a == "-P" || a == "--absolute-names":
			absolute = true
		case a == "-O" || a == "--to-stdout":
			toStdout = true
		case tarRuns(a):
			// --to-command=CMD, --checkpoint-action=exec=CMD, -I PROG …:
			// the value is a command tar runs.
			v, ok := "", false
			if _, v, ok = strings.Cut(a, "="); !ok && i+1 < len(args) {
				i++
				v = args[i].s
			}
			prog, _, _ := strings.Cut(strings.TrimSpace(v), " ")
			switch {
			case strings.HasPrefix(a, "--checkpoint-action") && !strings.HasPrefix(v, "exec"):
				// dot, bell, echo, ttyout, sleep, totals: no program.
			case (a == "-I" || strings.HasPrefix(a, "--use-compress-program")) && compressors.Get()[prog]:
			default:
				w.res.add(Dangerous, "`tar "+args[i].text+"`: runs a program")
				w.literal1(strings.TrimPrefix(v, "exec="))
			}
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && letters(a[1:]):
			for _, c := range a[1:] {
				switch c {
				case 'P':
					absolute = true
				case 'O':
					toStdout = true
				case 'x':
					mode = "x"
				case 'c', 'r', 'u':
					mode = "c"
				case 't':
					if mode == "" {
						mode = "t"
					}
				}
			}
			if strings.HasSuffix(a, "f") && i+1 < len(args) {
				file = args[i+1].s
				i++
			} else if strings.HasSuffix(a, "C") && i+1 < len(args) {
				dir = args[i+1].s
				i++
			}
		}
	}
	switch mode {
	case "t":
		w.res.add(Safe, "`tar -t`: lists an archive")
	case "c":
		if file == "-" {
			w.res.add(Safe, "`tar -cf -`: packs to standard output, writing no file")
			return
		}
		if file != "" {
			w.writeTo(file, "tar -c", file)
		} else {
			w.res.add(Dev, "`tar -c`: packs files")
		}
	case "x":
		if toStdout {
			w.res.add(Safe, "`tar -xO`: unpacks to standard output, writing no file")
			return
		}
		if absolute {
			w.res.add(Dangerous, "`tar -P`: unpacks to the absolute paths the archive names, anywhere")
		}
		if dir == "" {
			dir = "."
		}
		w.writeTo(dir, "tar -x", dir)
		// Unpacking a download makes everything unpacked downloaded code.
		p, _ := w.abs(file)
		if (file == "" || file == "-") && io.in.kind == inDownload || w.shared.downloads[p] {
			if d, ok := w.abs(dir); ok {
				w.shared.dlDirs = append(w.shared.dlDirs, d)
			}
		}
	default:
		w.res.add(Dev, "`tar`: packs or unpacks files")
	}
}

// zipMove judges zip -m (--move): the files packed are deleted, many at
// once. The flag hides in clusters of letters and digits (-rm, -9m).
func (w *walker) zipMove(chain string, args []arg, io ioInfo) {
	for _, a := range args[1:] {
		s := a.s
		if s == "--move" || len(s) > 1 && s[0] == '-' && s[1] != '-' && strings.ContainsRune(s, 'm') &&
			strings.Trim(s[1:], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") == "" {
			w.res.add(Dangerous, "`"+chain+" "+a.text+"`: deletes the files it packs")
			return
		}
	}
}

// compressors are the programs tar -I commonly names; they only filter.
var compressors = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{
		"gzip": true, "pigz": true, "bzip2": true, "pbzip2": true, "lbzip2": true, "xz": true, "pixz": true,
		"zstd": true, "pzstd": true, "lz4": true, "lzip": true, "lzma": true, "lzop": true, "brotli": true,
	}
}}

// tarRuns reports tar's options whose value is a program it runs.
func tarRuns(a string) bool {
	name, _, _ := strings.Cut(a, "=")
	switch name {
	case "--to-command", "--checkpoint-action", "--use-compress-program", "-I", "-F", "--info-script",
		"--new-volume-script", "--rsh-command", "--rmt-command":
		return true
	}
	return false
}

func (w *walker) unzip(chain string, args []arg, io ioInfo) {
	for i, a := range args {
		if a.s == "-d" && i+1 < len(args) {
			w.writeTo(args[i+1].s, "unzip -d", args[i+1].text)
			return
		}
	}
	for _, a := range args[1:] {
		if a.s == "-l" || a.s == "-v" || a.s == "-t" || a.s == "-Z" || a.s == "-p" || a.s == "-c" {
			return
		}
	}
	w.writeTo(".", "unzip", "(here)")
}

// inplace judges tools whose -w/-i flag rewrites their file operands.
func (w *walker) inplace(chain string, args []arg, io ioInfo) {
	writing := false
	for _, a := range args[1:] {
		if a.s == "-w" || a.s == "-i" || a.s == "--write" || a.s == "--inplace" || strings.HasPrefix(a.s, "-") && !strings.HasPrefix(a.s, "--") && strings.ContainsAny(a.s, "wi") && letters(a.s[1:]) {
			writing = true
		}
	}
	if !writing {
		return
	}
	for _, a := range args[1:] {
		if strings.HasPrefix(a.s, "-") {
			continue
		}
		if a.s == hole && a.text == "(input)" {
			// xargs gofmt -w < list: names not known, but a formatter
			// rewrites only sources of its language, in place.
			w.res.add(Dev, "`"+chain+"`: formats the files its input names")
			continue
		}
		w.writeTo(a.s, chain, a.text)
	}
}

// patch judges the files patch writes: a file operand, -o, and the
// directory -d patches in.
func (w *walker) patch(chain string, args []arg, io ioInfo) {
	r := commands.Get()["patch"]
	for i := 1; i < len(args); i++ {
		a := args[i].s
		name, v, hasV := strings.Cut(a, "=")
		switch name {
		case "-d", "--directory", "-o", "--output":
			if !hasV && i+1 < len(args) {
				i++
				v = args[i].s
			}
			w.writeTo(v, chain+" "+name, v)
		case "-i", "--input":
			if !hasV && i+1 < len(args) {
				i++
				v = args[i].s
			}
			p, ok := w.abs(v)
			w.readFile(p, ok, "`"+chain+" -i "+v+"`")
		default:
			if strings.HasPrefix(a, "-d") && len(a) > 2 && !strings.HasPrefix(a, "--") {
				w.writeTo(a[2:], chain+" -d", a[2:])
			}
		}
	}
	// patch [ORIGINAL [PATCHFILE]]: the original is written.
	if ops := scan(r, args); len(ops) > 0 {
		w.writeTo(args[ops[0]].s, chain, args[ops[0]].text)
	}
}

// gitApply judges git apply --directory: paths in the patch get that
// prefix, which must stay in the repository.
func (w *walker) gitApply(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		name, v, hasV := strings.Cut(args[i].s, "=")
		if name != "--directory" {
			continue
		}
		if !hasV && i+1 < len(args) {
			i++
			v = args[i].s
		}
		dir := w.ws.Dir
		if dir == "" {
			dir = w.cwd
		}
		if p, ok := w.abs(path.Join(dir, v)); !ok || !(w.inside(p) || p == w.ws.Dir) || strings.HasPrefix(v, "/") {
			w.res.add(Dangerous, "`"+chain+" --directory="+v+"`: patches files outside the repository")
		}
	}
}

// gitClone judges the directory git clone writes and the config -c sets
// in the new repository.
func (w *walker) gitClone(chain string, args []arg, io ioInfo) {
	w.gitExt(chain, args, io)
	for i := 1; i+1 < len(args); i++ {
		if args[i].s == "-c" || args[i].s == "--config" {
			key, v, _ := strings.Cut(args[i+1].s, "=")
			w.gitConfigPair(key, v, chain+" -c "+key)
		}
	}
	ops := scan(commands.Get()["git"].sub["clone"], args)
	if len(ops) >= 2 {
		d := args[ops[1]]
		w.writeTo(d.s, chain, d.text)
	}
	// What a clone brings is code from the network: running a script of
	// it, as a download's, is download-and-run.
	if len(ops) > 0 && gitURL(args[ops[0]].s) {
		dir := strings.TrimSuffix(path.Base(strings.TrimSuffix(args[ops[0]].s, "/")), ".git")
		if i := strings.LastIndexByte(dir, ':'); i >= 0 {
			dir = dir[i+1:]
		}
		if len(ops) >= 2 {
			dir = args[ops[1]].s
		}
		if d, ok := w.abs(dir); ok {
			w.shared.dlDirs = append(w.shared.dlDirs, d)
		}
	}
}

// gitRemoteSet records the remote git remote add or set-url names, for a
// push later in the string.
func (w *walker) gitRemoteSet(chain string, args []arg, io ioInfo) {
	w.gitExt(chain, args, io)
	if ops := scan(&rule{vals: "-t -m --track --master"}, args); len(ops) > 0 {
		if w.shared.remotes == nil {
			w.shared.remotes = map[string]bool{}
		}
		w.shared.remotes[args[ops[0]].s] = true
	}
}

// gitPush judges where git push sends the repository: a URL given on the
// line (or with --repo), or a remote the string added or pointed elsewhere,
// is a host nobody chose before the string; the repository's code and
// history go there.
func (w *walker) gitPush(chain string, args []arg, io ioInfo) {
	w.gitExt(chain, args, io)
	if w.dry {
		return
	}
	repo := ""
	for i := 1; i < len(args); i++ {
		if v, ok := strings.CutPrefix(args[i].s, "--repo="); ok {
			repo = v
		} else if args[i].s == "--repo" && i+1 < len(args) {
			repo = args[i+1].s
		}
	}
	if ops := scan(commands.Get()["git"].sub["push"], args); len(ops) > 0 && repo == "" {
		repo = args[ops[0]].s
	}
	switch {
	case repo == "" && w.shared.remotes["origin"]:
		w.res.add(Dangerous, "`"+chain+"`: pushes to a remote this command line changed")
	case repo == "":
	case w.shared.remotes[repo]:
		w.res.add(Dangerous, "`"+chain+" "+repo+"`: pushes to a remote this command line added or changed")
	case gitURL(repo):
		w.res.add(Dangerous, "`"+chain+" "+repo+"`: pushes to a URL given on the command line")
	}
}

// gitURL reports whether a git repository argument is a URL (scheme://,
// or scp-like host:path) rather than a remote's name.
func gitURL(s string) bool {
	if strings.Contains(s, "://") {
		return true
	}
	host, _, ok := strings.Cut(s, ":")
	return ok && host != "" && !strings.Contains(host, "/")
}
