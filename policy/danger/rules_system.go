package danger

import "strings"

// systemCommands is the part of the table (see rules.go) for the machine: processes, services,
// disks and filesystems, firewall, users, keys and password stores.
func systemCommands() map[string]*rule {
	return map[string]*rule{
		"ps": {
			class: Safe,
			why:   "lists processes",
			// -o's value is a format (pid,etime,cmd), not BSD options.
			vals: "-o -O --format -p --pid -q --quick-pid -u -U --user -G -g --group -C -t --tty --sort --ppid",
			ops: []flag{
				raise("*e*", Dangerous, "shows process environments, which may include secrets"),
			},
		},
		"pgrep":   safe("finds processes"),
		"pidof":   safe("finds processes"),
		"logname": safe("shows the user"),
		"capsh": {class: Dangerous, why: "runs a shell with other capabilities",
			flags: []flag{set("--print --decode --has-p --has-i --supports", Safe, "shows capabilities")}},
		"pstree":  safe("lists processes"),
		"top":     safe("shows processes"),
		"htop":    safe("shows processes"),
		"btop":    safe("shows processes"),
		"free":    safe("shows memory"),
		"uptime":  safe("shows uptime"),
		"vmstat":  safe("shows statistics"),
		"iostat":  safe("shows statistics"),
		"nproc":   safe("counts CPUs"),
		"lscpu":   safe("shows CPUs"),
		"lsblk":   named(safe("lists block devices")),
		"blkid":   named(safe("lists filesystems")),
		"findmnt": safe("lists mounts"),
		"lsusb":   safe("lists devices"),
		"lspci":   safe("lists devices"),
		"lsmod":   safe("lists modules"),
		"uname":   safe("shows the system"),
		"hostname": {
			class: Dangerous,
			why:   "sets the host name",
			bare:  safe("shows the host name"),
			flags: []flag{set("-f -s -i -I -d -A --fqdn --short", Safe, "shows the host name")},
		},
		"hostnamectl": {
			class: Dangerous,
			why:   "changes the host name",
			bare:  safe("shows the host"),
			sub:   map[string]*rule{"status": safe("shows the host")},
			open:  true,
		},
		"whoami":  safe("shows the user"),
		"id":      safe("shows the user"),
		"groups":  safe("shows groups"),
		"who":     safe("shows users"),
		"w":       safe("shows users"),
		"last":    safe("shows logins"),
		"users":   safe("shows users"),
		"tty":     safe("shows the terminal"),
		"locale":  safe("shows the locale"),
		"getconf": safe("shows settings"),
		// The first operand names the database; the keys after it may
		// be anything.
		"getent": {
			class: Safe,
			why:   "looks up names in the system databases",
			sub: map[string]*rule{
				"shadow":  dangerous("prints password hashes"),
				"gshadow": dangerous("prints password hashes"),
			},
			open:  true,
			check: (*walker).getent,
		},
		"tcpdump": {
			class: Dangerous,
			why:   "captures the machine's network traffic",
			flags: []flag{set("-r", Safe, "reads a saved capture")},
			check: (*walker).tcpdumpFile,
		},
		"virsh": {
			class: Dangerous,
			why:   "changes virtual machines",
			sub: map[string]*rule{
				"list": safe(readOnly), "dominfo": safe(readOnly), "domstate": safe(readOnly),
				"domblklist": safe(readOnly), "domiflist": safe(readOnly), "net-list": safe(readOnly),
				"pool-list": safe(readOnly), "vol-list": safe(readOnly), "nodeinfo": safe(readOnly),
				"version": safe(readOnly), "capabilities": safe(readOnly),
			},
			open: true,
		},
		"arch":            safe("shows the architecture"),
		"sw_vers":         safe("shows the system"),
		"system_profiler": safe("reports on the machine's hardware and software"),
		// macOS's preferences of the user's applications: outside the
		// workspace, read freely, changed only with a question.
		"defaults": {class: Dangerous, why: "changes the user's application preferences",
			sub: map[string]*rule{"read": safe("shows preferences"), "read-type": safe("shows preferences"),
				"domains": safe("lists preference domains"), "find": safe("searches preferences")},
			open: true},
		// Xcode's tool runner: the tool it runs is judged.
		"xcrun": {class: Safe, why: "runs an Xcode tool", kind: kindWrap, noscope: true,
			vals: "--sdk -sdk --toolchain -toolchain"},
		"simctl": {class: Dev, why: "manages the iOS simulators", names: true,
			sub: map[string]*rule{"list": safe("lists simulators"), "help": safe("prints help"),
				"erase":  dangerous("erases a simulator's apps and data"),
				"delete": dangerous("deletes simulators and their data")},
			open: true},
		"lsb_release": safe("shows the system"),
		"env-update":  dangerous("changes system settings"),
		"sysctl": {
			class: Safe,
			why:   "shows kernel settings",
			flags: []flag{raise("-w --write -p --load --system", Dangerous, "changes kernel settings")},
			ops:   []flag{raise("*=*", Dangerous, "changes kernel settings")},
		},
		"getenforce":      safe("shows the SELinux mode"),
		"sestatus":        safe("shows SELinux's state"),
		"setenforce":      dangerous("changes the SELinux mode"),
		"namei":           named(safe("shows the permissions along a path")),
		"atq":             safe("lists scheduled jobs"),
		"atrm":            dangerous("removes scheduled jobs"),
		"systemd-analyze": systemdAnalyzeRule(),
		"dmesg": {
			class: Safe,
			why:   "shows kernel messages",
			flags: []flag{raise("-c -C --clear", Dangerous, "clears kernel messages")},
		},
		"journalctl": {
			class: Safe,
			why:   "shows logs",
			flags: []flag{
				raise(
					"--vacuum-size --vacuum-time --vacuum-files --rotate --flush",
					Dangerous,
					"deletes or rotates logs",
				),
			},
		},
		"systemctl": {
			class: Dangerous,
			why:   "changes system services",
			sub:   systemctlRules(),
			open:  true,
			vals:  "-H --host -M --machine -p --property -t --type --state",
			bare:  safe("lists units (systemctl alone is list-units)"),
		},
		"service": {
			class: Dangerous,
			why:   "changes system services",
			ops: []flag{
				set("status", Safe, "shows a service"),
				set("--status-all", Safe, "lists services"),
			},
			flags: []flag{set("--status-all", Safe, "lists services")},
		},
		"launchctl": {
			class: Dangerous,
			why:   "changes system services",
			sub:   map[string]*rule{"list": safe("lists services"), "print": safe("shows a service")},
			open:  true,
		},
		"crontab": {
			class: Dangerous,
			why:   "replaces the crontab",
			check: (*walker).crontab,
			flags: []flag{
				set("-l", Safe, "lists the crontab"),
				raise("-r -e -i", Dangerous, "changes or removes the crontab"),
			},
		},
		"at": {class: Dangerous, why: "schedules a command", check: (*walker).at,
			flags: []flag{set("-l", Safe, "lists pending jobs")}},
		"batch": {class: Dangerous, why: "schedules a command", check: (*walker).at},
		"kill":  {class: Safe, why: "signals processes or lists signals", check: (*walker).kill},
		"pkill": {
			class: Dangerous,
			why:   "kills processes",
			flags: []flag{set("-0 --signal=0", Safe, "checks that processes exist")},
		},
		"killall": {
			class: Dangerous,
			why:   "kills processes",
			flags: []flag{set("-0 --signal=0", Safe, "checks that processes exist")},
			alone: "-l --list",
		},
		"xkill":    dangerous("kills a window's process"),
		"shutdown": dangerous("shuts the machine down"),
		"reboot":   dangerous("reboots the machine"),
		"halt":     dangerous("halts the machine"),
		"poweroff": dangerous("powers the machine off"),
		"init":     dangerous("changes the run level"),
		"telinit":  dangerous("changes the run level"),
		"mount": {
			class: Dangerous,
			why:   "mounts a filesystem",
			bare:  safe("lists mounts"),
			flags: []flag{set("-l", Safe, "lists mounts")},
		},
		"umount": dangerous("unmounts a filesystem"),
		"swapon": {
			class: Dangerous,
			why:   "changes swap",
			flags: []flag{set("-s --show", Safe, "shows swap")},
			bare:  safe("shows swap"),
		},
		"swapoff": dangerous("changes swap"),
		"mkfs": {
			class: Blocked, why: "makes a filesystem, wiping the device", suffixes: true, names: true, alone: "-V",
		},
		// mke2fs (mkfs.ext2/3/4) -n only says what it would do; for
		// mkfs.vfat -n is the volume's name.
		"mke2fs":    mke2fsRule(),
		"mkfs.ext2": mke2fsRule(),
		"mkfs.ext3": mke2fsRule(),
		"mkfs.ext4": mke2fsRule(),
		"mkswap":    {class: Blocked, why: "makes swap, wiping the device", names: true, alone: "-V --version"},
		"mkdosfs":   blocked("makes a filesystem, wiping the device"),
		"mkntfs":    blocked("makes a filesystem, wiping the device"),
		"newfs":     blocked("makes a filesystem, wiping the device"),
		"wipefs": {
			names: true, // lists signatures: the disk's metadata, none of its data
			class: Safe,
			why:   "lists filesystem signatures",
			flags: []flag{
				raise("-a --all -o --offset", Blocked, "wipes filesystem signatures"),
				set("-n --no-act", Safe, "lists what it would wipe"),
			},
		},
		"blkdiscard": blocked("discards every block on a device"),
		// Disk tools that copy or write images onto the operand they are
		// given, and those that only ask a disk how it is.
		"ddrescue": {class: Dev, why: "copies a disk or a file", write: writeRest},
		"dcfldd":   {class: Safe, why: "copies data", check: (*walker).dd, noscope: true},
		"dc3dd":    {class: Safe, why: "copies data", check: (*walker).dd, noscope: true},
		"pv":       {class: Safe, why: "copies its input, showing progress", check: (*walker).outflag},
		"bmaptool": {
			class: Dangerous,
			why:   "writes disk images",
			sub: map[string]*rule{
				"copy":   {class: Dev, why: "writes an image", write: writeLast},
				"create": {class: Dev, why: "writes a block map", check: (*walker).outflag},
			},
		},
		"qemu-img": {
			class: Dangerous,
			why:   "changes disk images",
			sub: map[string]*rule{
				"info":    safe("shows an image"),
				"check":   safe("checks an image"),
				"measure": safe("measures an image"),
				"map":     safe("shows an image's layout"),
				"compare": safe("compares images"),
				"convert": {
					class: Dev,
					why:   "converts an image",
					write: writeLast,
					vals:  "-f -O -o -B -l -S -t -T -m -W",
				},
				"create": {class: Dev, why: "creates an image", write: writeFirst, vals: "-f -b -B -F -o -u"},
				"dd":     {class: Dev, why: "copies an image", check: (*walker).dd},
				"resize": {class: Dev, why: "resizes an image", write: writeFirst, vals: "-f --object"},
			},
		},
		"smartctl": {
			names: true, // asks the disk, reads none of its data
			class: Safe,
			why:   "shows a disk's health",
			flags: []flag{raise("-s --smart -t --test -X --abort -o --offlineauto -S --saveauto --set",
				Dangerous, "changes a disk's settings or starts a self-test")},
		},
		"hdparm": {
			names: true,
			class: Dangerous,
			why:   "changes a disk's settings",
			flags: []flag{
				set("-I -i -t -T -g -C", Safe, "shows a disk's settings or speed"),
				raise("--security-erase --security-erase-enhanced --trim-sector-ranges --write-sector "+
					"--fwdownload --make-bad-sector --dco-restore --dco-setmax --yes-i-know-what-i-am-doing",
					Blocked, "erases or overwrites the disk"),
			},
		},
		"nvme": {
			names: true,
			class: Dangerous,
			why:   "changes an NVMe disk",
			sub: map[string]*rule{
				"list":         named(safe("lists disks")),
				"smart-log":    named(safe("shows a disk's health")),
				"id-ctrl":      named(safe("shows a disk")),
				"id-ns":        named(safe("shows a disk")),
				"error-log":    named(safe("shows a disk's errors")),
				"fw-log":       named(safe("shows a disk's firmware")),
				"format":       blocked("formats the disk, erasing it"),
				"sanitize":     blocked("erases the disk"),
				"write":        blocked("overwrites the disk"),
				"write-zeroes": blocked("overwrites the disk"),
				"dsm":          blocked("discards the disk's blocks"),
			},
			open: true,
		},
		"badblocks": {
			class: Dangerous,
			why:   "reads every block of a disk",
			flags: []flag{raise("-w", Blocked, "writes test patterns over the whole disk")},
		},
		"flashrom": {
			class: Dangerous,
			why:   "reads or writes the firmware's flash",
			flags: []flag{raise("-w --write -E --erase", Blocked, "rewrites the firmware's flash")},
		},
		"blockdev": {
			names: true,
			class: Dangerous,
			why:   "changes a block device",
			flags: []flag{set("--getsize64 --getsz --getss --getbsz --getro --getra --report", Safe,
				"shows a block device")},
		},
		"partprobe": dangerous("re-reads partition tables"),
		"sg_format": blocked("formats a disk, erasing it"),
		"scrub":     {class: Dangerous, why: "overwrites files or devices", write: writeAll},
		"wipe":      {class: Dangerous, why: "overwrites files or devices", write: writeAll},
		"mdadm": {
			names: true,
			class: Dangerous,
			why:   "changes RAID arrays",
			flags: []flag{
				set("-D --detail -E --examine -Q --query", Safe, "shows RAID arrays"),
				raise("-C --create --zero-superblock", Blocked, "writes over the disks it is given"),
			},
		},
		"pvcreate": blocked("writes an LVM label over the device"),
		"vgcreate": blocked("writes LVM labels over the devices"),
		// Removing a volume destroys the filesystem on it, as wiping does.
		"lvremove":  blocked("deletes logical volumes and the filesystems on them"),
		"vgremove":  blocked("deletes volume groups and the filesystems on them"),
		"pvremove":  blocked("wipes a device's LVM label"),
		"lvreduce":  blocked("shrinks a logical volume, cutting off the data at its end"),
		"lvresize":  dangerous("resizes a logical volume"),
		"lvcreate":  dangerous("creates logical volumes"),
		"lvdisplay": safe("shows LVM volumes"),
		"vgdisplay": safe("shows LVM volumes"),
		"pvdisplay": safe("shows LVM volumes"),
		"zfs": {
			class: Dangerous,
			why:   "changes ZFS datasets",
			sub: map[string]*rule{
				"list":     safe("lists datasets"),
				"get":      safe("shows datasets"),
				"diff":     safe("shows changes"),
				"destroy":  blocked("destroys datasets and their data"),
				"rollback": blocked("rolls a dataset back, destroying what changed since"),
			},
			open: true,
		},
		// macOS's disk tool: its erasing verbs make filesystems or
		// partition maps over a whole disk, as mkfs and parted do.
		"diskutil": {
			names: true,
			class: Dangerous,
			why:   "changes disks and volumes",
			sub: map[string]*rule{
				"list":            safe("lists disks"),
				"info":            safe("shows a disk"),
				"information":     safe("shows a disk"),
				"activity":        safe("shows disk activity"),
				"listFilesystems": safe("lists filesystem types"),
				"verifyVolume":    safe("checks a volume"),
				"verifyDisk":      safe("checks a disk"),
				"eraseDisk":       blocked("erases a whole disk"),
				"eraseVolume":     blocked("erases a volume"),
				"reformat":        blocked("erases a volume"),
				"zeroDisk":        blocked("overwrites a whole disk"),
				"randomDisk":      blocked("overwrites a whole disk"),
				"secureErase":     blocked("overwrites a disk or its free space"),
				"partitionDisk":   blocked("rewrites a disk's partition map"),
				"splitPartition":  blocked("rewrites a disk's partition map"),
				"mergePartitions": blocked("rewrites a disk's partition map, erasing the merged partitions"),
				"apfs": {class: Dangerous, why: "changes APFS containers", open: true, sub: map[string]*rule{
					"list":            safe("lists APFS containers"),
					"listSnapshots":   safe("lists snapshots"),
					"deleteContainer": blocked("deletes an APFS container and its volumes"),
					"deleteVolume":    blocked("deletes an APFS volume and its files"),
					"eraseVolume":     blocked("erases an APFS volume"),
					"createContainer": blocked("writes an APFS container over the disk"),
				}},
			},
			open: true,
		},
		"pvs": safe("lists LVM volumes"),
		"vgs": safe("lists LVM volumes"),
		"lvs": safe("lists LVM volumes"),
		"zpool": {
			class: Dangerous,
			why:   "changes ZFS pools",
			sub: map[string]*rule{
				"list":       safe("lists pools"),
				"status":     safe("shows pools"),
				"iostat":     safe("shows pools"),
				"get":        safe("shows pools"),
				"history":    safe("shows pools"),
				"create":     blocked("writes a pool over the disks it is given"),
				"labelclear": blocked("wipes a disk's ZFS label"),
				"destroy":    blocked("destroys a pool and its data"),
			},
			open: true,
		},
		// Partition editors read the table, none of the disk's data; their
		// commands say whether they write it.
		"parted": {
			names: true,
			class: Dangerous,
			why:   "edits partition tables",
			flags: []flag{set("-l --list", Safe, "lists partitions")},
			ops: []flag{
				set("print p", Safe, "prints the partition table"),
				raise("mklabel mktable rm mkpart resizepart rescue", Blocked, "rewrites the partition table"),
			},
		},
		"fdisk": {
			names: true,
			class: Dangerous,
			why:   "edits partition tables",
			flags: []flag{set("-l --list", Safe, "lists partitions")},
			check: (*walker).fdisk,
		},
		"sfdisk": {
			names: true,
			class: Blocked,
			why:   "rewrites partition tables",
			flags: []flag{set("-l --list -d --dump -J --json -s --show-size -V --verify", Safe, "lists partitions")},
		},
		"sgdisk": {
			names: true,
			class: Dangerous,
			why:   "edits partition tables",
			flags: []flag{
				set("-p --print -i --info -v --verify", Safe, "lists partitions"),
				raise("-Z --zap-all -o --clear -z --zap", Blocked, "wipes the partition table"),
			},
		},
		"gdisk": {names: true, class: Dangerous, why: "edits partition tables", check: (*walker).fdisk,
			flags: []flag{set("-l", Safe, "lists partitions")}},
		"cfdisk": {names: true, class: Dangerous, why: "edits partition tables"},
		"cryptsetup": {
			names: true,
			class: Dangerous,
			why:   "changes encrypted devices",
			sub: allNamed(map[string]*rule{
				"status":     safe("shows an encrypted mapping"),
				"luksDump":   safe("shows an encrypted device's header"),
				"isLuks":     safe("checks an encrypted device"),
				"luksUUID":   safe("shows an encrypted device's id"),
				"benchmark":  safe("measures ciphers"),
				"luksFormat": blocked("wipes an encrypted device"),
				"erase":      blocked("wipes an encrypted device's keys"),
				"luksErase":  blocked("wipes an encrypted device's keys"),
			}),
			open: true,
		},
		"fsck": dangerous("repairs a filesystem"),
		// -n opens the filesystem read-only and answers no to every repair.
		"e2fsck": {class: Dangerous, why: "repairs a filesystem", names: true,
			flags: []flag{set("-n", Safe, "checks a filesystem without changing it"),
				raise("-p -a -y -c -D -E -b -B -j -l -L -z", Dangerous, "repairs a filesystem")}},
		"tune2fs": {class: Dangerous, why: "changes a filesystem", names: true,
			flags: []flag{set("-l", Safe, "lists a filesystem's superblock"),
				raise("-c -C -e -E -f -g -i -I -j -J -L -m -M -o -O -Q -r -s -T -u -U -z", Dangerous,
					"changes a filesystem")}},
		"resize2fs": dangerous("resizes a filesystem"),
		"losetup": {class: Dangerous, why: "sets up loop devices",
			bare: safe("lists loop devices"), flags: []flag{set("-a --all -l --list", Safe, "lists loop devices")}},
		"modprobe":       dangerous("loads kernel modules"),
		"insmod":         dangerous("loads kernel modules"),
		"rmmod":          dangerous("unloads kernel modules"),
		"iptables-save":  safe("shows the firewall"),
		"ip6tables-save": safe("shows the firewall"),
		// macOS's system integrity and Gatekeeper: their status is read.
		"csrutil": {class: Dangerous, why: "changes System Integrity Protection",
			sub: map[string]*rule{"status": safe("shows System Integrity Protection")}},
		"spctl": {class: Dangerous, why: "changes Gatekeeper's settings",
			flags: []flag{set("--status --assess -a", Safe, "shows Gatekeeper's verdict")}},
		"iptables": {
			class: Dangerous,
			why:   "changes the firewall",
			flags: []flag{set("-L --list -S --list-rules", Safe, "shows the firewall")},
		},
		"ip6tables": {
			class: Dangerous,
			why:   "changes the firewall",
			flags: []flag{set("-L --list -S", Safe, "shows the firewall")},
		},
		"nft": {
			class: Dangerous,
			why:   "changes the firewall",
			ops:   []flag{set("list", Safe, "shows the firewall")},
		},
		"ufw": {
			class: Dangerous,
			why:   "changes the firewall",
			ops:   []flag{set("status", Safe, "shows the firewall")},
		},
		"firewall-cmd": {
			class: Dangerous,
			why:   "changes the firewall",
			flags: []flag{
				set(
					"--state --list-all --list-ports --list-services --get-zones --get-active-zones",
					Safe,
					"shows the firewall",
				),
			},
		},
		"useradd":  dangerous("changes user accounts"),
		"userdel":  dangerous("changes user accounts"),
		"usermod":  dangerous("changes user accounts"),
		"adduser":  dangerous("changes user accounts"),
		"deluser":  dangerous("changes user accounts"),
		"groupadd": dangerous("changes groups"),
		"groupdel": dangerous("changes groups"),
		"passwd": {class: Dangerous, why: "changes a password",
			flags: []flag{set("-S --status", Safe, "shows a password's status")}},
		"chpasswd": dangerous("changes passwords"),
		"visudo": {class: Dangerous, why: "changes sudo rules",
			flags: []flag{set("-c --check", Safe, "checks the sudo rules' syntax")}},
		"chsh": dangerous("changes the login shell"),
		"timedatectl": {
			class: Dangerous,
			why:   "changes the clock",
			bare:  safe("shows the clock"),
			sub: map[string]*rule{
				"status":         safe("shows the clock"),
				"show":           safe("shows the clock"),
				"list-timezones": safe("lists time zones"),
			},
			open: true,
		},
		"update-alternatives": dangerous("changes system defaults"),
		"ldconfig":            dangerous("changes the linker cache"),
		"chattr":              {class: Dangerous, why: "changes file attributes", check: (*walker).setfacl},
		"lsattr":              safe("shows file attributes"),
		"setfacl":             {class: Dev, why: "changes permissions", check: (*walker).setfacl},
		"getfacl":             safe("shows permissions"),
		"xdg-open":            dangerous("opens a program"),
		"open":                dangerous("opens a program"),
		"code": {
			class: Dangerous,
			why:   "opens an editor",
			flags: []flag{
				set("--list-extensions --show-versions --status --version -v --help -h --locate-extension", Safe,
					"shows the editor's state"),
				raise("--install-extension --uninstall-extension", Dangerous, "changes the editor's extensions"),
			},
		},
		"pbcopy":   dangerous("writes the clipboard"),
		"xclip":    dangerous("uses the clipboard"),
		"pbpaste":  safe("reads the clipboard"),
		"wall":     dangerous("messages every user"),
		"write":    dangerous("messages a user"),
		"mail":     dangerous("sends mail"),
		"sendmail": dangerous("sends mail"),
		"screen": {class: Dangerous, why: "starts a terminal multiplexer", check: (*walker).screen,
			flags: []flag{set("-ls -list", Safe, "lists sessions")}},
		"tmux": {
			class: Dangerous,
			why:   "controls terminal sessions",
			check: (*walker).tmux,
			sub: map[string]*rule{
				"ls":            safe("lists sessions"),
				"list-sessions": safe("lists sessions"),
				"list-windows":  safe("lists windows"),
				"capture-pane":  safe("reads a pane"),
				// A detached session running a command is that command
				// run in the background (a dev server): it is judged.
				"new": {class: Dangerous, why: "starts a terminal session", check: (*walker).tmuxSub,
					flags: []flag{set("-d", Dev, "starts a detached session")}},
				"new-session": {class: Dangerous, why: "starts a terminal session", check: (*walker).tmuxSub,
					flags: []flag{set("-d", Dev, "starts a detached session")}},
			},
			open: true,
		},
		"direnv": {
			class: Dangerous,
			why:   "allows code to run on cd",
			sub: map[string]*rule{
				"status":  safe("shows state"),
				"exec":    direnvExec(),
				"hook":    safe("prints the shell hook that loads allowed .envrc files"),
				"version": safe("prints its version"),
			},
			open: true,
		},
		"gpg": {
			class: Dangerous,
			why:   "handles keys",
			flags: []flag{
				set(
					"--verify --list-keys -k --list-public-keys --fingerprint --list-secret-keys -K --list-sigs "+
						"--check-sigs --list-signatures --check-signatures --card-status --show-keys --list-packets",
					Safe,
					"checks or lists keys (their ids, not the keys)",
				),
				raise("--export-secret-keys --export-secret-subkeys", Dangerous, "exports secret keys"),
				// Public keys are meant to be shared; --output writes one.
				set("--export", Safe, "prints public keys"),
			},
			check: (*walker).outflag,
		},
		"ssh-keygen": {
			class: Dev,
			why:   "creates a key",
			vals:  "-f -t -b -C -N -P -a -Z -O -n -I -V -z -s -D -E -m -w -Y",
			flags: []flag{set("-l -F -y -B", Safe, "shows keys")},
			// A fingerprint or a known host: no secret (-y stays a read of
			// the private key, as the labelled table says).
			namesWith: "-l -F -B",
			check:     (*walker).keygen,
		},
		"age-keygen": {class: Dev, why: "creates a key", vals: "-o --output", check: (*walker).keygen,
			flags: []flag{set("-y", Safe, "prints a key's public half")}, namesWith: "-y"},
		// A keystore listed is still a keystore read (heldout4 labels keytool
		// -list of release.keystore dangerous): its name decides.
		"keytool": {class: Dangerous, why: "changes a keystore",
			flags: []flag{set("-list -printcert -printcertreq -printcrl -help", Safe,
				"lists a keystore's entries and certificates")}},
		"sops": sopsRule(),
		"ssh-add": {
			class: Dangerous,
			why:   "changes the key agent",
			flags: []flag{
				set("-l -L", Safe, "lists the keys the agent holds"),
				raise("-d -D -x -X -s -e -t -c -k -K -T -H -S -q -v", Dangerous, "changes the key agent"),
			},
		},
		"ssh-copy-id": dangerous("installs a key on a remote machine"),
		"ssh-agent": {
			class: Dev,
			why:   "starts a key agent for the session",
			kind:  kindWrap, // ssh-agent CMD runs CMD with the agent
			vals:  "-a -E -P -t",
			flags: []flag{raise("-k", Dev, "stops the session's key agent")},
		},
		"security": {class: Dangerous, why: "reads the keychain", sub: map[string]*rule{
			// Signing identities and a profile's plist: names and
			// certificates, no private key.
			"find-identity": safe("lists signing identities"),
			"find-certificate": {class: Safe, why: "shows certificates",
				flags: []flag{raise("-p", Safe, "prints certificates (public)")}},
			"cms": {class: Safe, why: "decodes a signed message (a provisioning profile)",
				flags: []flag{raise("-S --sign -E --encrypt", Dangerous, "signs or encrypts with a keychain identity")},
				check: (*walker).outflag},
			"show-keychain-info": safe("shows a keychain's settings"),
			"verify-cert":        safe("verifies a certificate"),
			// Which keychains are searched, not what they hold; -s sets it.
			"list-keychains": {class: Safe, why: "lists keychain files",
				flags: []flag{raise("-s", Dangerous, "changes the keychain search list")}},
			// An item's attributes; -w prints its password, -g too.
			"find-generic-password": {class: Safe, why: "shows a keychain item's attributes",
				flags: []flag{raise("-w -g", Dangerous, "prints the password")}},
			"find-internet-password": {class: Safe, why: "shows a keychain item's attributes",
				flags: []flag{raise("-w -g", Dangerous, "prints the password")}},
		}},
		"pass": passRule(),
		"op": {class: Dangerous, why: "reads a password manager",
			sub: map[string]*rule{
				"item": {class: Dangerous, why: "reads a password manager",
					sub: map[string]*rule{"list": dev("lists item names")}, open: true},
				"vault": {class: Dangerous, why: "changes vaults",
					sub: map[string]*rule{"list": dev("lists vault names")}, open: true},
				"whoami": dev("shows the signed-in account"),
				"account": {class: Dangerous, why: "changes accounts",
					sub: map[string]*rule{"list": safe("lists accounts")}, open: true},
			},
			open: true},
		"vault": vaultRule(),
	}
}

func systemdAnalyzeRule() *rule {
	r := &rule{class: Dangerous, why: "changes the service manager", open: true, bare: safe("shows boot time")}
	r.sub = map[string]*rule{}
	for _, s := range []string{"time", "blame", "critical-chain", "verify", "calendar", "timespan", "timestamp",
		"security", "unit-paths", "cat-config", "dot", "plot", "dump", "syscall-filter", "condition",
		"log-level", "log-target", "service-watchdogs", "unit-files", "exit-status", "capability", "filesystems"} {
		r.sub[s] = safe("shows how units and boot behave")
	}
	r.sub["set-log-level"] = dangerous("changes the service manager's logging")
	r.sub["set-log-target"] = dangerous("changes the service manager's logging")
	return r
}

func mke2fsRule() *rule {
	return &rule{
		class: Blocked,
		why:   "makes a filesystem, wiping the device",
		names: true,
		alone: "-V",
		flags: []flag{set("-n", Safe, "shows what it would do, writes nothing")},
	}
}

// passRule: the entries' names are no secret, their contents are.
func passRule() *rule {
	names := named(safe("lists the store's entries (names, not passwords)"))
	changes := dangerous("changes the password store")
	return &rule{
		class: Dangerous,
		why:   "shows a password",
		bare:  names,
		sub: map[string]*rule{
			"ls": names, "list": names, "find": names, "search": names,
			"show": dangerous("shows a password"), "grep": dangerous("searches the passwords, printing what matches"),
			"insert": changes, "add": changes, "edit": changes, "generate": changes, "rm": changes,
			"remove": changes, "delete": changes, "mv": changes, "rename": changes, "cp": changes,
			"copy": changes, "init": changes, "git": dangerous("runs git on the password store"),
			"otp": dangerous("shows a one-time password"),
		},
		open: true,
	}
}

// vaultRule: Vault's names and status are remote reads; values are secrets.
func vaultRule() *rule {
	list := named(dev("lists secret names"))
	read := dangerous("reads secrets")
	write := dangerous("changes secrets")
	return &rule{
		class: Dangerous,
		why:   "reads secrets",
		sub: map[string]*rule{
			"status":  dev(remoteRead),
			"version": safe("prints its version"),
			"list":    list,
			"read":    read,
			"write":   write,
			"delete":  write,
			"login":   dangerous("logs in, printing a token"),
			"token":   dangerous("handles tokens"),
			"kv": {
				class: Dangerous,
				why:   "reads secrets",
				sub: map[string]*rule{
					"list": list, "get": read,
					// metadata get shows versions; metadata delete destroys
					// every version and the key's history for good.
					"metadata": {class: Dangerous, why: "changes or deletes secrets' versions and history",
						sub: map[string]*rule{"get": named(dev("shows secrets' versions")),
							"list": named(dev("lists secrets' names"))}, open: true, names: true},
					"put": write, "patch": write, "delete": write, "destroy": write, "undelete": write,
				},
			},
		},
	}
}

// sopsRule: sops encrypts files in place (dev); what it decrypts to
// standard output or an editor is the secret itself.
func sopsRule() *rule {
	return &rule{
		names: true, // a file it encrypts is not shown
		class: Dev,
		why:   "encrypts or decrypts files",
		vals: "--output --input-type --output-type -k --kms --pgp --age --gcp-kms --azure-kv --hc-vault-transit " +
			"--config",
		check: (*walker).sops,
		ops:   []flag{set("filestatus", Safe, "reports whether a file is encrypted")},
	}
}

func systemctlRules() map[string]*rule {
	return map[string]*rule{
		"status":            safe("shows a service"),
		"is-active":         safe("shows a service"),
		"is-enabled":        safe("shows a service"),
		"is-failed":         safe("shows a service"),
		"list-units":        safe("lists services"),
		"list-unit-files":   safe("lists services"),
		"list-timers":       safe("lists timers"),
		"show":              safe("shows a service"),
		"cat":               safe("shows a unit file"),
		"list-dependencies": safe("lists dependencies"),
		"get-default":       safe("shows the default target"),
		"list-sockets":      safe("lists sockets"),
		"list-jobs":         safe("lists jobs"),
		"list-machines":     safe("lists machines"),
		"list-paths":        safe("lists paths"),
		"show-environment":  dangerous("prints the manager's environment, which may include secrets"),
		"help":              safe("shows a unit's documentation"),
	}
}

// direnvExec is direnv exec DIR CMD: CMD runs with DIR's .envrc loaded,
// the project's own when DIR is in the workspace.
func direnvExec() *rule {
	r := runWith("the environment of a directory's .envrc", "", 1)
	r.check = func(w *walker, chain string, args []arg, io ioInfo) {
		ops := scan(&rule{}, args)
		if len(ops) == 0 {
			return
		}
		if p, ok := w.abs(args[ops[0]].s); !ok || !w.inside(p) && p != w.ws.Dir {
			w.res.add(Dangerous, "`"+chain+" "+args[ops[0]].text+"`: loads the .envrc of a directory outside the "+
				"workspace")
		}
	}
	return r
}

// getent judges a database named only when it runs: it may be shadow.
func (w *walker) getent(chain string, args []arg, io ioInfo) {
	if ops := scan(&rule{}, args); len(ops) > 0 && hasHole(args[ops[0]].s) {
		w.res.add(Dangerous, "`"+chain+" "+args[ops[0]].text+"`: a database named only when it runs may be shadow")
	}
}

// tcpdumpFile judges tcpdump -w FILE, which writes the capture.
func (w *walker) tcpdumpFile(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		v, ok := strings.CutPrefix(args[i].s, "-w")
		if !ok || strings.HasPrefix(args[i].s, "--") {
			continue
		}
		if v == "" && i+1 < len(args) {
			i++
			v = args[i].s
		}
		if v != "" && v != "-" {
			w.writeTo(v, chain+" -w", args[i].text)
		}
	}
}
