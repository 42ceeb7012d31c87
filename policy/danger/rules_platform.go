package danger

// platformCommands: macOS's machine tools, embedded boards' toolchains and
// programmers, and the data and security tools a project uses. Their
// read-only forms print the machine's or a file's state; what writes
// the project's files is dev; changing the machine, a chip or a remote
// stays dangerous.
func platformCommands() map[string]*rule {
	shows := func(why string) *rule { return safe(why) }
	fromURL := raise("--git-url --zip-path --additional-urls", Dangerous,
		"installs code from a repository, archive or index the registry does not vouch for")
	return map[string]*rule{
		// macOS: asking the machine how it is.
		"xcode-select": {class: Dangerous, why: "changes the developer directory or installs tools",
			flags: []flag{set("-p --print-path -v --version", Safe, "shows the developer directory")}},
		"tmutil": {class: Dangerous, why: "changes Time Machine's backups or settings", sub: map[string]*rule{
			"status": shows("shows Time Machine's state"), "listlocalsnapshots": shows("lists local snapshots"),
			"listlocalsnapshotdates": shows("lists local snapshots"), "listbackups": shows("lists backups"),
			"latestbackup": shows("shows the latest backup"), "destinationinfo": shows("shows backup disks"),
			"isexcluded": shows("shows whether a path is backed up"), "machinedirectory": shows("shows a path"),
			"version": shows("prints its version"),
			// An attribute on the path itself; -p makes it a setting of
			// the machine.
			"addexclusion": {class: Dev, why: "marks a path as not backed up", write: writeAll,
				flags: []flag{raise("-p -v", Dangerous, "changes the machine's backup settings")}},
			"removeexclusion": {class: Dev, why: "marks a path as backed up again", write: writeAll,
				flags: []flag{raise("-p -v", Dangerous, "changes the machine's backup settings")}},
		}},
		"hdiutil": {class: Dangerous, why: "attaches, changes or burns disk images", sub: map[string]*rule{
			"imageinfo": shows("shows a disk image"), "info": shows("lists attached images"),
			"verify": shows("verifies a disk image"), "pmap": shows("shows a disk image's partitions"),
			"isencrypted": shows("shows a disk image"), "plugins": shows("lists plug-ins"),
			"create": {class: Dev, why: "makes a disk image", write: writeLast,
				vals: "-srcfolder -srcdir -volname -format -size -fs -type -layout -imagekey -encryption " +
					"-srcdevice -megabytes -sectors -fsargs -uid -gid -mode -ov -attach"},
			"convert": {class: Dev, why: "converts a disk image", vals: "-format -imagekey", check: (*walker).outflag},
		}},
		"pmset": {class: Dangerous, why: "changes power settings",
			flags: []flag{set("-g", Safe, "shows power settings")}},
		"networksetup": {class: Dangerous, why: "changes network settings",
			flags: []flag{set("-list* -get* -show* -print* -version -help", Safe, "shows network settings")}},
		"dscl": {class: Dangerous, why: "changes directory records (users, groups, passwords)",
			ops: []flag{raise("*Shadow* *shadow* *Password* *password* AuthenticationAuthority KerberosKeys", Dangerous,
				"reads password hashes or keys")},
			flags: []flag{set("-list -read -readall -readpl -readpli -search -ls", Safe, "shows directory records"),
				raise("-passwd -create -delete -change -append -merge -mcxset -mcxdelete", Dangerous,
					"changes directory records")}},
		"fdesetup": {class: Dangerous, why: "changes disk encryption", sub: map[string]*rule{
			"status": shows("shows disk encryption"), "isactive": shows("shows disk encryption"),
			"list":                        shows("lists users who may unlock the disk"),
			"haspersonalrecoverykey":      shows("shows disk encryption"),
			"hasinstitutionalrecoverykey": shows("shows disk encryption"),
			"supportsauthrestart":         shows("shows disk encryption"),
			"showdeferralinfo":            shows("shows disk encryption"), "version": shows("prints its version")}},
		"nvram": {class: Safe, why: "prints firmware variables",
			flags: []flag{raise("-d -c -f", Dangerous, "changes firmware variables")},
			ops:   []flag{raise("*=*", Dangerous, "sets a firmware variable")}},
		"mdutil": {class: Dangerous, why: "changes or erases the Spotlight index",
			flags: []flag{set("-s -t", Safe, "shows the Spotlight index's state"),
				raise("-i -E -X -d -p -L", Dangerous, "changes or erases the Spotlight index")}},
		// log(1) of macOS: show, stream and stats print the unified log.
		"log": {class: Dangerous, why: "changes the system log", sub: map[string]*rule{
			"show": shows("prints the system log"), "stream": shows("prints the system log"),
			"stats":   shows("prints the system log's statistics"),
			"collect": {class: Dev, why: "saves the system log to a file", check: (*walker).outflag},
		}},
		"profiles": {class: Dangerous, why: "installs or removes configuration profiles",
			sub: map[string]*rule{"list": shows("lists configuration profiles"), "show": shows("shows profiles"),
				"status": shows("shows enrollment"), "version": shows("prints its version")},
			flags: []flag{set("-P -L -C", Safe, "lists configuration profiles")}},
		"systemextensionsctl": {class: Dangerous, why: "changes system extensions",
			sub: map[string]*rule{"list": shows("lists system extensions")}},
		// Embedded boards: building firmware is dev; writing a chip is
		// dangerous, as dfu-util's and flashrom's writes are.
		"pio":        pioRule(),
		"platformio": pioRule(),
		"arduino-cli": {class: Dangerous, why: "changes the board or the tool's setup", sub: map[string]*rule{
			"compile": {class: Dev, why: "compiles a sketch",
				flags: []flag{raise("-u --upload", Dangerous, "writes the board's firmware")}},
			"board": {class: Dangerous, why: "changes boards", sub: map[string]*rule{
				"list": shows("lists connected boards"), "listall": shows("lists known boards"),
				"details": shows("shows a board"), "search": shows("searches known boards")}},
			"core": {class: Dev, why: "installs board support for the tool", flags: []flag{fromURL},
				sub: map[string]*rule{
					"list": shows("lists installed cores"), "search": dev("searches the index")}, open: true},
			"lib": {class: Dev, why: "installs libraries for the tool", flags: []flag{fromURL}, sub: map[string]*rule{
				"list": shows("lists installed libraries"), "search": dev("searches the index")}, open: true},
			"sketch":  dev("makes a sketch"),
			"monitor": dev("reads a board's serial port"),
			"version": shows("prints its version"),
			"config": {class: Dangerous, why: "changes the tool's settings",
				sub: map[string]*rule{"dump": shows("shows the tool's settings")}},
			"upload":          dangerous("writes the board's firmware"),
			"burn-bootloader": dangerous("writes the board's bootloader"),
		}},
		"avrdude": {class: Dev, why: "talks to a microcontroller through a programmer", check: (*walker).avrdude},
		// Data: local databases and dry runs.
		"duckdb": {class: Dev, why: "runs SQL on a local database file", check: (*walker).duckdb},
		"bq": {class: Dangerous, why: "changes BigQuery resources", sub: map[string]*rule{
			"ls": dev(remoteRead), "show": dev(remoteRead), "head": dev(remoteRead),
			"query": {class: Dangerous, why: "runs a query on BigQuery",
				dry: flag{match: "--dry_run --dry_run=true", class: Dev, why: dryRunWhy}}}},
		"kaggle": {class: Dangerous, why: "changes Kaggle datasets, kernels or submissions", sub: map[string]*rule{
			"datasets": {class: Dangerous, why: "publishes or changes datasets", sub: map[string]*rule{
				"list": dev(remoteRead), "files": dev(remoteRead), "metadata": dev(remoteRead),
				"status": dev(remoteRead),
				"download": {class: Dev, why: "downloads a dataset", vals: "-d --dataset -f --file -p --path",
					check: (*walker).kaggleDir}}},
			"competitions": {class: Dangerous, why: "submits to a competition", sub: map[string]*rule{
				"list": dev(remoteRead), "files": dev(remoteRead), "leaderboard": dev(remoteRead),
				"submissions": dev(remoteRead),
				"download": {class: Dev, why: "downloads competition data", vals: "-f --file -p --path",
					check: (*walker).kaggleDir}}},
			"config": {class: Dangerous, why: "changes the tool's settings",
				sub: map[string]*rule{"path": shows("shows where the tool keeps its settings")}}}},
		// Security tools that read files and captures.
		"yara": {class: Safe, why: "matches rules against files", check: (*walker).readerFlags},
		"clamscan": {class: Safe, why: "scans files for malware",
			flags: []flag{raise("--remove --move --copy", Dangerous, "moves or deletes what it finds"),
				raise("-l --log", Dev, "writes a log")}},
		"tshark": {class: Safe, why: "reads a packet capture",
			flags: []flag{set("-i --interface", Dangerous, "captures the machine's network traffic"),
				raise("-w", Dev, "writes a capture")}, check: (*walker).readerFlags},
		"gitleaks": {class: Dangerous, why: "scans for secrets, printing what it finds", sub: map[string]*rule{
			"detect": gitleaksScan(), "git": gitleaksScan(), "dir": gitleaksScan(), "protect": gitleaksScan(),
			"version": shows("prints its version")}},
		"age": {class: Dev, why: "encrypts files", check: (*walker).ageFiles, names: true,
			vals: "-r --recipient -R --recipients-file -i --identity -o --output"},
		// A lane is the project's; one named for testing or building is
		// dev, others may sign, upload or release.
		"fastlane": {class: Dangerous, why: "runs a lane that may sign, upload or release", open: true,
			ops: []flag{set("test tests build lint scan test_* tests_* build_* lint_*", Dev,
				"runs the project's test or build lane")},
			sub: map[string]*rule{
				"match": {class: Dangerous, why: "changes signing certificates and profiles",
					flags: []flag{set("--readonly --readonly=true", Dev, "fetches existing signing certificates")}},
				"lanes": shows("lists lanes"), "list": shows("lists lanes"), "env": dangerous("prints its environment"),
			}},
		"ko": {class: Dangerous, why: "builds and publishes images", sub: map[string]*rule{
			"build": {class: Dangerous, why: "builds and pushes an image",
				flags: []flag{set("--local -L --push=false", Dev, "builds an image into the local daemon")}},
			"resolve": dangerous("builds and pushes images"), "apply": dangerous(remoteEdit),
			"version": shows("prints its version")}},
	}
}

// pioRule: PlatformIO builds and tests firmware in the project; upload
// writes a board, global installs reach the user's tools.
func pioRule() *rule {
	return &rule{class: Dangerous, why: "changes the board or the tool's setup", sub: map[string]*rule{
		"run":   {class: Dev, why: buildWhy, check: (*walker).pioTarget},
		"test":  {class: Dev, why: buildWhy, check: (*walker).pioTarget},
		"check": dev(buildWhy), "ci": dev(buildWhy), "debug": dev("debugs the project's firmware"),
		"device": {class: Dev, why: "talks to a board", sub: map[string]*rule{"list": safe("lists connected boards"),
			"monitor": dev("reads a board's serial port")}},
		"boards": dev("lists boards"),
		"project": {class: Dev, why: "sets up the project",
			sub: map[string]*rule{"config": safe("shows the project's settings")}, open: true},
		"pkg": {class: Dev, why: "manages the project's packages",
			flags: []flag{raise("-g --global", Dangerous, "installs for the user")},
			sub: map[string]*rule{"list": safe("lists packages"), "outdated": dev(remoteRead),
				"publish": dangerous("publishes a package"), "pack": dev("packs a package")}, open: true},
		"lib": {class: Dev, why: "manages the project's libraries",
			flags: []flag{raise("-g --global", Dangerous, "installs for the user")}},
		"system": {class: Dangerous, why: "changes the tool's setup",
			sub: map[string]*rule{"info": safe("shows the tool's setup")}},
		"settings": {class: Dangerous, why: "changes the tool's settings",
			sub: map[string]*rule{"get": safe("shows the tool's settings")}},
		"home":    dev("serves the tool's home page on this machine"),
		"upgrade": dangerous("upgrades the tool"),
	}}
}

// gitleaksScan: what it finds is printed unless --redact hides it.
func gitleaksScan() *rule {
	return &rule{class: Dangerous, why: "prints the secrets it finds",
		flags: []flag{set("--redact --redact=100", Dev, "scans for secrets, printing them redacted"),
			raise("--no-redact", Dangerous, "prints the secrets it finds")},
		check: (*walker).gitleaksReport}
}
