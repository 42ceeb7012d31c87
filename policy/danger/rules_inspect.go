package danger

import "strings"

// inspectCommands are the programs that report on the machine: its
// hardware, sensors, load, sessions, network links, displays and sound,
// and the inspectors of filesystems and documents. Most of them print and
// nothing else; those that can also change what they report on (nmcli,
// xrandr, nvidia-smi) are safe only in their reading forms, and what they
// change is dangerous, as any change to the system is.
func inspectCommands() map[string]*rule {
	m := map[string]*rule{
		// Inspectors of archives, packages, signatures and data files:
		// each prints what its operand holds in its reading mode and
		// changes it in another.
		"cpio": {class: Dev, why: "packs or unpacks an archive in the current directory",
			flags: []flag{set("-t --list", Safe, "lists an archive")}, check: (*walker).cpioDir},
		"jar": {class: Dev, why: "packs or unpacks a Java archive",
			ops:   []flag{set("t tf tvf tfv vtf", Safe, "lists an archive")},
			flags: []flag{set("-t --list", Safe, "lists an archive")}},
		"javap":       {class: Safe, why: "disassembles class files", check: (*walker).readerFlags},
		"pkg-config":  safe("prints how to build against a library"),
		"h5ls":        {class: Safe, why: "lists an HDF5 file", check: (*walker).readerFlags},
		"h5dump":      {class: Safe, why: "prints an HDF5 file", check: (*walker).readerFlags},
		"ansible-doc": safe("shows Ansible documentation"),
		"apksigner": {class: Dangerous, why: "signs an APK",
			sub: map[string]*rule{"verify": safe("verifies an APK's signature"), "sign": dev("signs an APK")}},
		"codesign": {class: Safe, why: "shows or verifies a code signature", check: (*walker).codesign,
			vals: "-s --sign -i --identifier -r --requirements --entitlements -o --options --keychain --prefix " +
				"--timestamp -D --detached --file-list --digest-algorithm"},
		"plutil": {class: Dev, why: "rewrites a property list", write: writeAll,
			flags:  []flag{set("-p -lint -help", Safe, "prints or checks a property list")},
			stdout: "-p -lint -help"},
		"xattr":       {class: Safe, why: "lists extended attributes", check: (*walker).xattr},
		"mdfind":      named(safe("searches the Spotlight index")),
		"inotifywait": {class: Safe, why: "watches files for changes", check: (*walker).readerFlags},
		"scutil": {class: Dangerous, why: "changes system configuration",
			flags: []flag{set("--dns --proxy --nwi --get -r", Safe, "shows network or system configuration")}},
		"dfu-util": {class: Dangerous, why: "writes a device's firmware",
			flags: []flag{set("-l --list", Safe, "lists devices")}},
		// Version control other than git: reading is safe, updating the
		// working copy dev, changing the repository's server dangerous.
		"svn": {class: Dangerous, why: remoteEdit, sub: map[string]*rule{
			"status": safe(readOnly), "st": safe(readOnly), "log": safe(readOnly), "diff": safe(readOnly),
			"info": safe(readOnly), "list": safe(readOnly), "ls": safe(readOnly), "cat": safe(readOnly),
			"blame": safe(readOnly), "annotate": safe(readOnly),
			"update": dev("updates the working copy"), "up": dev("updates the working copy"),
			"checkout": dev("checks out a working copy"), "co": dev("checks out a working copy"),
			"add": dev("adds files"), "mkdir": dev("adds a directory"),
			"revert": dangerous("throws away local changes"),
		}},
		"hg": {class: Dangerous, why: "runs a Mercurial command", sub: map[string]*rule{
			"status": safe(readOnly), "st": safe(readOnly), "log": safe(readOnly), "diff": safe(readOnly),
			"summary": safe(readOnly), "sum": safe(readOnly), "annotate": safe(readOnly), "cat": safe(readOnly),
			"branches": safe(readOnly), "heads": safe(readOnly), "tags": safe(readOnly), "paths": safe(readOnly),
			"identify": safe(readOnly), "id": safe(readOnly), "show": safe(readOnly), "files": safe(readOnly),
			"pull": dev("fetches from a remote"), "clone": dev("clones a repository"),
			"update": hgUpdate(), "up": hgUpdate(), "revert": dangerous("throws away local changes"),
			"commit": dev("commits"), "ci": dev("commits"), "add": dev("adds files"),
			"push": dangerous("pushes to a remote"), "strip": dangerous("removes changesets"),
			"purge": dangerous("deletes untracked files"),
		}},
		// Hardware, sensors and load.
		"sensors": {class: Safe, why: "shows hardware sensors",
			flags: []flag{raise("-s --set", Dangerous, "changes sensor limits")}},
		"acpi":    safe("shows power and thermal state"),
		"upower":  safe("shows power devices"),
		"mpstat":  {class: Safe, why: "shows statistics", check: (*walker).readerFlags},
		"pidstat": {class: Safe, why: "shows statistics", check: (*walker).readerFlags},
		"sar":     {class: Safe, why: "shows statistics", check: (*walker).readerFlags},
		"dstat":   {class: Safe, why: "shows statistics", check: (*walker).readerFlags},
		"iotop":   safe("shows processes' I/O"),
		"iftop":   safe("shows network traffic"),
		"nethogs": safe("shows network traffic by process"),
		"nload":   safe("shows network traffic"),
		"bmon":    safe("shows network traffic"),
		"vnstat":  safe("shows network traffic"),
		"glances": {class: Safe, why: "shows the system's load", check: (*walker).readerFlags},
		"atop": {class: Safe, why: "shows processes", vals: "-w -r",
			flags: []flag{raise("-w", Dev, "writes a log")}},
		"nvtop":               safe("shows GPU load"),
		"radeontop":           safe("shows GPU load"),
		"intel_gpu_top":       safe("shows GPU load"),
		"slabtop":             safe("shows kernel caches"),
		"tload":               safe("shows the load"),
		"pmap":                safe("shows a process's memory map"),
		"lshw":                safe("lists hardware"),
		"hwinfo":              safe("lists hardware"),
		"inxi":                safe("shows the system"),
		"neofetch":            safe("shows the system"),
		"fastfetch":           safe("shows the system"),
		"screenfetch":         safe("shows the system"),
		"lstopo-no-graphics":  safe("shows the machine's topology"),
		"lsipc":               safe("lists IPC resources"),
		"lslocks":             safe("lists file locks"),
		"lslogins":            safe("lists users"),
		"lsns":                safe("lists namespaces"),
		"lsirq":               safe("lists interrupts"),
		"lsmem":               safe("lists memory blocks"),
		"lsinitramfs":         safe("lists an initramfs"),
		"modinfo":             safe("shows a kernel module"),
		"getcap":              safe("shows file capabilities"),
		"systemd-detect-virt": safe("shows the virtualisation"),
		"virt-what":           safe("shows the virtualisation"),
		"systemd-cgls":        safe("lists control groups"),
		"systemd-cgtop":       safe("shows control groups' load"),
		"systemd-delta":       safe("shows overridden configuration"),
		"uuidgen":             safe("prints a new UUID"),
		"zramctl": {class: Dangerous, why: "changes compressed swap devices",
			bare: safe("lists compressed swap devices")},
		"chage": {class: Dangerous, why: "changes password ageing",
			flags: []flag{set("-l --list", Safe, "shows password ageing")}},
		"faillock": {class: Safe, why: "shows failed logins",
			flags: []flag{raise("--reset", Dangerous, "clears failed logins")}},
		"lastlog": {class: Safe, why: "shows last logins",
			flags: []flag{raise("-C --clear -S --set", Dangerous, "changes the login records")}},
		"dmidecode": {
			class: Safe,
			why:   "shows the firmware's hardware tables",
			vals:  "-t --type -s --string -d --dev-mem --from-dump",
			flags: []flag{raise("--dump-bin", Dev, "writes the tables to a file")},
			check: (*walker).dmidecodeDump,
		},
		"ncdu": {
			class: Safe,
			why:   "shows disk usage",
			vals:  "-o -f -X --exclude-from --exclude",
			flags: []flag{raise("--enable-delete", Dangerous, "can delete what it lists")},
			check: (*walker).readerFlags,
		},
		"nvidia-smi": {
			class: Safe,
			why:   "shows GPUs",
			vals:  "-i --id -f --filename -d --display -l --loop -lms --loop-ms --query-gpu --format",
			flags: []flag{
				raise("-pm --persistence-mode -e --ecc-config -p --reset-ecc-errors -c --compute-mode -r --gpu-reset "+
					"-ac --applications-clocks -rac --reset-applications-clocks -pl --power-limit -lgc "+
					"--lock-gpu-clocks -rgc --reset-gpu-clocks -lmc --lock-memory-clocks -rmc --reset-memory-clocks "+
					"-mig --multi-instance-gpu --auto-boost-default --auto-boost-permission -am --accounting-mode "+
					"-caa --clear-accounted-apps -dm --driver-model -fdm --force-driver-model",
					Dangerous, "changes GPU settings"),
			},
			check: (*walker).nvidiaSMI,
		},
		"cpupower": verbs("changes CPU power settings", "shows CPU power settings",
			"frequency-info info idle-info monitor"),
		"ethtool": {
			class: Safe,
			why:   "shows a network interface",
			flags: []flag{raise("-s --change -K --features --offload -A --pause -C --coalesce -G --set-ring "+
				"-L --set-channels -E --change-eeprom -f --flash -W --set-dump -X --set-rxfh-indir --config-nfc "+
				"-U --config-ntuple -r --negotiate -p --identify --reset --set-eee --set-fec --set-priv-flags "+
				"--set-phy-tunable --cable-test --set-module",
				Dangerous, "changes a network interface")},
		},
		"iwconfig": {class: Dangerous, why: "changes a wireless interface", bare: safe("shows wireless interfaces"),
			bareMax: 1},
		"iw": {
			class: Safe,
			why:   "shows wireless devices",
			ops: []flag{raise("set del add connect disconnect switch cqm reg ibss mesh ocb mpath mpp "+
				"offchannel vendor wowlan coalesce", Dangerous, "changes a wireless device")},
		},
		"nmcli": {
			class: Safe,
			why:   "shows network state",
			vals:  "-f --fields -g --get-values -e --escape -c --colors -m --mode -w --wait",
			flags: []flag{raise("-s --show-secrets", Dangerous, "shows stored passwords")},
			check: (*walker).nmcli,
		},
		"xrandr": {
			class: Dangerous,
			why:   "changes the display",
			bare:  safe("shows the display"),
			flags: []flag{set("-q --query --listmonitors --listactivemonitors --current --verbose --listproviders "+
				"--prop --properties", Safe, "shows the display")},
		},
		"pactl": verbs("changes sound settings", "shows sound devices",
			"list info stat get-default-sink get-default-source get-sink-volume get-source-volume "+
				"get-sink-mute get-source-mute subscribe"),
		"bluetoothctl": verbs("changes Bluetooth devices", "shows Bluetooth devices",
			"devices paired-devices show info list version"),
		"resolvectl": verbs("changes name resolution", "shows name resolution",
			"status query statistics monitor show-cache show-server-state service openpgp tlsa"),
		"loginctl": verbs("changes login sessions", "shows login sessions",
			"list-sessions list-users list-seats session-status user-status seat-status show-session "+
				"show-user show-seat"),
		"networkctl": verbs("changes network links", "shows network links", "list status lldp label"),
		"localectl": verbs("changes the locale", "shows the locale", "status list-locales list-keymaps "+
			"list-x11-keymap-models list-x11-keymap-layouts list-x11-keymap-variants list-x11-keymap-options"),
		"busctl": verbs("calls system services", "shows the system bus",
			"list status tree introspect monitor capture get-property"),
		"coredumpctl": verbs("debugs or extracts a core dump, which holds the process's memory",
			"lists crashed processes", "list info"),
		// Its operands are device names, not files read.
		"udevadm": namedAll(verbs("changes device rules or state", "shows devices", "info monitor")),
		"crictl": verbs("changes containers", "shows containers",
			"ps images img pods logs inspect inspecti inspectp info version stats statsp imagefsinfo config"),
		// Filesystems: inspectors of a device read its superblock and
		// metadata, none of the files on it.
		"dumpe2fs": named(safe("shows a filesystem's metadata")),
		"xfs_info": named(safe("shows a filesystem's geometry")),
		"btrfs": {
			class: Dangerous,
			why:   "changes a Btrfs filesystem",
			names: true,
			sub: allNamed(map[string]*rule{
				"filesystem": verbs("changes a Btrfs filesystem", "shows a Btrfs filesystem", "show df du usage label"),
				"fi":         verbs("changes a Btrfs filesystem", "shows a Btrfs filesystem", "show df du usage label"),
				"subvolume":  verbs("changes subvolumes", "shows subvolumes", "list show get-default find-new"),
				"su":         verbs("changes subvolumes", "shows subvolumes", "list show get-default find-new"),
				"device":     verbs("changes a filesystem's devices", "shows devices", "stats usage ready"),
				"scrub":      verbs("scrubs a filesystem", "shows a scrub", "status"),
				"balance":    verbs("rebalances a filesystem", "shows a balance", "status"),
				"qgroup":     verbs("changes quotas", "shows quotas", "show"),
				"version":    safe("prints its version"),
			}),
		},
		"certbot": {class: Dangerous, why: "changes certificates and the web server's configuration",
			sub:  map[string]*rule{"certificates": safe("lists certificates")},
			open: true,
			dry:  flag{match: "--dry-run", class: Dev, why: "tests renewal against the staging server"}},
		// Servers' own checks of their configuration.
		"nginx": {class: Dangerous, why: "starts or signals the web server",
			flags: []flag{set("-t -T -v -V -h", Safe, "checks or shows its configuration")}},
		"apachectl":  apachectl(),
		"apache2ctl": apachectl(),
		"sshd": {class: Dangerous, why: "starts the ssh server",
			flags: []flag{set("-t -T -V", Safe, "checks or shows its configuration")}},
		"chkconfig": {class: Dangerous, why: "changes which services start", flags: []flag{
			set("--list", Safe, "lists services")}, bare: safe("lists services")},
		"arp": {class: Safe, why: "shows the neighbour table",
			flags: []flag{raise("-d -s -f --delete --set --file", Dangerous, "changes the neighbour table")}},
		"route": {class: Safe, why: "shows the routing table",
			ops: []flag{raise("add del delete flush change", Dangerous, "changes the routing table")}},
		"fuser": {class: Safe, why: "shows which processes use a file",
			flags: []flag{raise("-k --kill", Dangerous, "kills the processes")}},
		"tput": safe("queries the terminal"),
		"stty": {class: Dev, why: "changes the terminal's settings",
			bare:  safe("shows the terminal's settings"),
			flags: []flag{set("-a --all -g --save", Safe, "shows the terminal's settings")},
			ops:   []flag{set("size speed", Safe, "shows the terminal's settings")}},
		"apt-file": {class: Dev, why: "updates its index",
			sub: map[string]*rule{"search": safe("finds a package's files"), "find": safe("finds a package's files"),
				"list": safe("lists a package's files"), "show": safe("lists a package's files")}, open: true},
		"pipdeptree": named(safe("shows installed packages")),
		"skopeo": {class: Dangerous, why: "copies or deletes images in registries",
			sub: map[string]*rule{"inspect": dev(remoteRead), "list-tags": dev(remoteRead)}, open: true},
		"mlr": {class: Safe, why: "processes tables", check: (*walker).mlr,
			flags: []flag{raise("-I", Dev, "rewrites its files in place")}},
		"qsv": {class: Safe, why: "processes tables", check: (*walker).readerFlags},
		"zoxide": {class: Dev, why: "changes its directory database",
			sub: map[string]*rule{"query": safe("finds a directory")}, open: true},
		// Viewers of files and differences; a diff viewer reads both sides.
		"delta":   safe(readOnly),
		"difft":   safe(readOnly),
		"icdiff":  safe(readOnly),
		"hexyl":   safe(readOnly),
		"glow":    {class: Safe, why: readOnly, check: (*walker).readerFlags},
		"mdcat":   {class: Safe, why: readOnly, check: (*walker).readerFlags},
		"dust":    safe("shows disk usage"),
		"duf":     safe("shows disk usage"),
		"procs":   safe("lists processes"),
		"crc32":   named(safe("hashes files")),
		"csvstat": safe(readOnly),
		"xsv":     {class: Safe, why: "reads CSV", check: (*walker).readerFlags},
		"binwalk": {class: Safe, why: "inspects a firmware image",
			flags: []flag{raise("-e --extract -D --dd -M --matryoshka", Dev, "extracts files into the workspace"),
				raise("-r --rm --run-as", Dangerous, "deletes files or runs extractors as another user")}},
		"pandoc": {class: Safe, why: "converts a document", check: (*walker).readerFlags,
			flags: []flag{raise("-F --filter -L --lua-filter", Dangerous, "runs a filter program")}},
		"certutil": {class: Dangerous, why: "changes a certificate database",
			flags: []flag{set("-L -K", Safe, "lists certificates")}},
		// Document and archive inspectors and converters.
		"zipinfo": safe("lists an archive"),
		"apropos": safe("searches the manual"),
		"whatis":  safe("searches the manual"),
		"pdftotext": {
			class: Safe,
			why:   "converts a document to text",
			vals:  "-f -l -r -x -y -W -H -enc -eol -opw -upw",
			write: writeRest,
		},
		"pdftohtml": {class: Safe, why: "converts a document", write: writeRest},
		"pdftoppm":  {class: Safe, why: "renders a document", write: writeRest},
		"pdfimages": {class: Safe, why: "extracts a document's images", write: writeRest},
	}
	return m
}

// verbs is a tool whose first operand is a verb: the verbs in reads only
// show, anything else changes (why). With no verb, it shows.
func verbs(why, shows, reads string) *rule {
	r := &rule{class: Dangerous, why: why, sub: map[string]*rule{}, open: true, bare: safe(shows)}
	for v := range strings.FieldsSeq(reads) {
		r.sub[v] = safe(shows)
	}
	return r
}

// dmidecodeDump judges --dump-bin FILE, which writes the tables.
func (w *walker) dmidecodeDump(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		if name, v, ok := strings.Cut(args[i].s, "="); name == "--dump-bin" {
			if !ok && i+1 < len(args) {
				i++
				v = args[i].s
			}
			w.writeTo(v, chain+" --dump-bin", v)
		}
	}
}

// nvidiaSMI judges -f FILE, where nvidia-smi writes what it shows.
func (w *walker) nvidiaSMI(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		if name, v, ok := strings.Cut(args[i].s, "="); name == "-f" || name == "--filename" {
			if !ok && i+1 < len(args) {
				i++
				v = args[i].s
			}
			w.writeTo(v, chain+" -f", v)
		}
	}
}

// nmcli judges nmcli's object and verb: showing, listing and status read;
// connection up/down/add/modify/delete, radio off, networking off and
// device wifi connect change the machine's network.
func (w *walker) nmcli(chain string, args []arg, io ioInfo) {
	ops := scan(&rule{vals: "-f --fields -g --get-values -e --escape -c --colors -m --mode -w --wait"}, args)
	if len(ops) == 0 {
		return
	}
	object := args[ops[0]].s
	verb := ""
	if len(ops) > 1 {
		verb = args[ops[1]].s
	}
	reads := false
	switch {
	case strings.HasPrefix("general", object) && object != "":
		reads = verb == "" || strings.HasPrefix("status", verb) || strings.HasPrefix("permissions", verb) ||
			verb == "hostname" && len(ops) == 2 || strings.HasPrefix("logging", verb) && len(ops) == 2
	case strings.HasPrefix("networking", object) && len(object) > 1:
		reads = verb == "" || strings.HasPrefix("connectivity", verb)
	case strings.HasPrefix("radio", object):
		reads = len(ops) <= 2
	case strings.HasPrefix("connection", object):
		reads = verb == "" || strings.HasPrefix("show", verb)
	case strings.HasPrefix("device", object):
		reads = verb == "" || strings.HasPrefix("status", verb) || strings.HasPrefix("show", verb) ||
			verb == "wifi" && len(ops) > 2 &&
				(strings.HasPrefix("list", args[ops[2]].s) || args[ops[2]].s == "rescan") ||
			verb == "wifi" && len(ops) == 2 || strings.HasPrefix("monitor", verb)
	case strings.HasPrefix("monitor", object):
		reads = true
	}
	if !reads {
		w.res.add(Dangerous, "`"+chain+" "+object+"`: changes network connections")
	}
}

// apachectl checks or shows its configuration with -t, -S, -M, -V or
// configtest; anything else starts, stops or signals the server.
func apachectl() *rule {
	return &rule{
		class: Dangerous,
		why:   "starts, stops or signals the web server",
		flags: []flag{set("-t -S -M -V -v", Safe, "checks or shows its configuration")},
		ops:   []flag{set("configtest -t -S -M -V", Safe, "checks or shows its configuration")},
	}
}

// mlr judges Miller's DSL, whose system and exec run commands and whose
// tee and emit > write files.
func (w *walker) mlr(chain string, args []arg, io ioInfo) {
	for _, a := range args[1:] {
		if strings.Contains(a.s, "system") || strings.Contains(a.s, "exec") || strings.Contains(a.s, "tee >") ||
			strings.Contains(a.s, "emit >") || strings.Contains(a.s, "print >") || strings.Contains(a.s, "dump >") {
			w.res.add(Dangerous, "`"+chain+"`: its program runs commands or writes files")
			return
		}
	}
	w.readerFlags(chain, args, io)
}

// hgUpdate is hg update: --clean throws away the working copy's changes,
// as git checkout -- . does.
func hgUpdate() *rule {
	return &rule{class: Dev, why: "updates the working copy",
		flags: []flag{raise("-C --clean", Dangerous, "throws away local changes")}}
}
