package danger

// readCommands is the part of the table (see rules.go) for reading files and text: listers, pagers,
// search, filters and converters.
// grepRule is grep and its variants: the first operand is the pattern
// unless -e or -f gives it; -l, -c and -q print no lines.
func grepRule() *rule {
	return &rule{
		class:        Safe,
		why:          "searches",
		namesWith:    grepNames,
		pattern:      true,
		patternFlags: "-e -f --regexp --file",
		vals: "-e -f -m -A -B -C -d -D --regexp --file --max-count --after-context --before-context --context " +
			"--label --binary-files --devices --directories --color --colour --include --exclude --exclude-dir",
	}
}

// grepNames are grep's flags that print only names or counts of matches,
// or nothing.
const grepNames = "-l -L -c -q --files-with-matches --files-without-match --count --quiet --silent"

func readCommands() map[string]*rule {
	return map[string]*rule{
		"ls":   safe("lists files"),
		"dir":  safe("lists files"),
		"vdir": safe("lists files"),
		"exa":  safe("lists files"),
		"eza":  safe("lists files"),
		"lsd":  safe("lists files"),
		"cat":  safe(readOnly),
		"tac":  safe(readOnly),
		"head": safe(readOnly),
		"tail": safe(readOnly),
		"less": {
			class: Safe,
			why:   readOnly,
			vals:  "-o -O -k -b -h -j -p -P -t -T -x -y -z -#",
			check: (*walker).less,
		},
		"more":    safe(readOnly),
		"bat":     safe(readOnly),
		"batcat":  safe(readOnly),
		"wc":      named(safe("counts")),
		"nl":      safe(readOnly),
		"od":      safe(readOnly),
		"xxd":     {class: Safe, why: readOnly, check: (*walker).second, vals: "-c -g -l -s -o -n -C"},
		"hexdump": safe(readOnly),
		"strings": safe(readOnly),
		"file":    safe("identifies files"),
		"stat":    safe("shows file metadata"),
		"du":      safe("shows disk use"),
		"df":      safe("shows disk space"),
		"tree":    {class: Safe, why: "lists files", check: (*walker).outflag},
		"grep":    grepRule(),
		"egrep":   grepRule(),
		"fgrep":   grepRule(),
		"zgrep":   grepRule(),
		"ag": {
			class:        Safe,
			why:          "searches",
			flags:        []flag{raise("--pager", Dangerous, "runs a pager program")},
			namesWith:    "-l -L -c -g --count --files-with-matches --files-without-matches",
			pattern:      true,
			patternFlags: "-g --list-file-types",
			vals: "-G --file-search-regex -A -B -C -m --max-count --depth --pager --ignore -p --path-to-ignore " +
				"-g",
		},
		"ack": {
			class:        Safe,
			why:          "searches",
			flags:        []flag{raise("--pager", Dangerous, "runs a pager program")},
			pattern:      true,
			patternFlags: "-f -g --match",
			vals:         "-A -B -C -m --max-count --match -g --pager --type --ignore-dir --ignore-file",
		},
		"rg": {
			class:        Safe,
			why:          "searches",
			flags:        []flag{raise("--pre", Dangerous, "runs a preprocessor program on each file")},
			namesWith:    "-l -c -q --files --files-with-matches --files-without-match --count --count-matches --quiet",
			pattern:      true,
			patternFlags: "-e -f --regexp --file --files --type-list",
			vals: "-e -f -g -t -T -m -A -B -C -j -M -E -d -r --regexp --file --glob --iglob --type --type-not " +
				"--max-count --after-context --before-context --context --threads --max-columns --encoding " +
				"--max-depth --maxdepth --type-add --colors --color --sort --sortr --pre --pre-glob --replace " +
				"--path-separator --max-filesize --ignore-file --engine --context-separator --field-match-separator",
		},
		"sort": {
			class: Safe,
			why:   "sorts",
			flags: []flag{
				raise("-o --output", Dev, "writes its output to a file"),
			},
			progs: "--compress-program",
			check: (*walker).sortOut,
		},
		"uniq": {
			class: Safe,
			why:   "filters lines",
			check: (*walker).second,
			vals:  "-f -s -w --skip-fields --skip-chars --check-chars",
		},
		"cut":       safe("cuts fields"),
		"paste":     safe("joins lines"),
		"join":      safe("joins files"),
		"comm":      safe("compares files"),
		"tr":        safe("translates characters"),
		"fold":      safe("wraps lines"),
		"fmt":       safe("formats text"),
		"column":    safe("formats columns"),
		"expand":    safe("converts tabs"),
		"unexpand":  safe("converts tabs"),
		"rev":       safe("reverses lines"),
		"shuf":      {class: Safe, why: "shuffles lines", check: (*walker).outflag},
		"seq":       named(safe("prints numbers")),
		"diff":      {class: Safe, why: "compares files", namesWith: "-q --brief"},
		"cmp":       {class: Safe, why: "compares files", names: true, contents: "-l -b --verbose --print-bytes"},
		"sdiff":     {class: Safe, why: "compares files", check: (*walker).outflag},
		"colordiff": safe("compares files"),
		"diff3":     safe("compares files"),
		"look":      safe("searches"),
		"md5sum":    named(safe("hashes")),
		"sha1sum":   named(safe("hashes")),
		"sha256sum": named(safe("hashes")),
		"sha512sum": named(safe("hashes")),
		"b2sum":     named(safe("hashes")),
		"cksum":     named(safe("hashes")),
		"shasum":    named(safe("hashes")),
		"md5":       named(safe("hashes")),
		"base64":    safe("encodes"),
		"base32":    safe("encodes"),
		"iconv":     {class: Safe, why: "converts encodings", check: (*walker).outflag},
		"zcat":      safe(readOnly),
		"bzcat":     safe(readOnly),
		"xzcat":     safe(readOnly),
		"zless":     safe(readOnly),
		"jq":        jqRule(),
		"exiftool":  {class: Safe, why: "shows a file's metadata", check: (*walker).exiftool},
		// ldd runs the program's loader, which an untrusted binary can
		// make run code: the project's own binary is dev, a system one
		// trusted, any other dangerous.
		"ldd":  {class: Safe, why: "lists a program's libraries", check: (*walker).ldd},
		"gojq": jqRule(),
		"yq": {
			class: Safe,
			why:   "filters YAML",
			ops: []flag{
				raise(
					"*env(* *strenv(*",
					Dangerous,
					"reads environment variables, which may include secrets",
				),
			},
			flags: []flag{raise("-i --inplace", Dev, "edits files in place")},
			check: (*walker).yq,
		},
		"xmllint": {class: Safe, why: "checks XML", check: (*walker).outflag},
		"csvlook": safe(readOnly),
		"tldr":    named(safe("shows help")),
		"man": {
			class: Safe,
			why:   "shows a manual",
			check: (*walker).pager,
			names: true, // manual pages by name
			flags: []flag{raise("-H --html", Dangerous, "runs a program of its choice")},
		},
		"info":     {class: Safe, why: "shows a manual", check: (*walker).outflag},
		"help":     named(safe("shows help")),
		"realpath": safe("resolves paths"),
		"readlink": safe("resolves links"),
		"basename": named(safe("prints a name")),
		"dirname":  named(safe("prints a name")),
		"pwd":      safe("prints the directory"),
		"locate":   named(safe("searches the file index")),
		"whereis":  named(safe("finds programs")),
		"which":    named(safe("finds programs")),
		"type":     named(safe("describes commands")),
		"hash": {
			class: Safe,
			why:   "shows the command cache",
			flags: []flag{raise("-p", Dangerous, "points a command name at another program")},
		},
		"find": {class: Safe, why: "lists files", check: (*walker).find, noscope: true},
		"fd":   {class: Safe, why: "lists files", check: (*walker).fd, noscope: true},
	}
}

// jqRule: jq only prints, but its program can print the environment.
func jqRule() *rule {
	return &rule{
		class: Safe,
		why:   "filters JSON",
		vals:  "-f --from-file --indent",
		vals2: "--arg --argjson --slurpfile --rawfile --argfile",
		// The first operand is the filter, the rest are files.
		pattern:      true,
		patternFlags: "-f --from-file",
		check:        (*walker).jqScript,
	}
}
