package danger

// fileCommands is the part of the table (see rules.go) for changing files: creating, copying,
// moving, deleting, archives, editors and in-place formatters.
func fileCommands() map[string]*rule {
	return map[string]*rule{
		"touch": {class: Dev, why: "creates or touches files", write: writeAll},
		"mkdir": {class: Dev, why: "creates directories", write: writeAll},
		"rmdir": {class: Dev, why: "removes empty directories", write: writeAll},
		"cp": {
			class: Dev,
			why:   "copies files",
			check: (*walker).copies,
			write: writeLast,
			vals:  "-t --target-directory -S --suffix",
			ops:   []flag{raise("/dev/null", Dangerous, "truncates the destination")},
		},
		"mv": {
			class: Dev,
			why:   "moves files",
			write: writeAll,
			check: (*walker).mv,
			vals:  "-t --target-directory -S --suffix",
			ops:   []flag{raise("/dev/null", Dangerous, "throws the file away")},
		},
		"ln": {
			class: Dev,
			why:   "creates a link",
			write: writeLast,
			check: (*walker).ln,
			vals:  "-t --target-directory -S --suffix",
		},
		"install": {
			class: Dev,
			why:   "installs files",
			check: (*walker).copies,
			write: writeLast,
			vals:  "-m --mode -o --owner -g --group -t --target-directory -S",
		},
		"tee":    {class: Safe, why: "copies its input", write: writeAll, check: (*walker).tee},
		"chmod":  {class: Dev, why: "changes permissions", check: (*walker).chmod},
		"chown":  {class: Dev, why: "changes owners", check: (*walker).chmod},
		"chgrp":  {class: Dev, why: "changes groups", check: (*walker).chmod},
		"rm":     {class: Safe, why: "deletes files", check: (*walker).rm, noscope: true},
		"unlink": {class: Safe, why: "deletes a file", check: (*walker).rm, noscope: true},
		"shred":  {class: Dangerous, why: "destroys file contents", write: writeAll},
		"truncate": {
			class: Dev,
			why:   "sets the size of files",
			write: writeAll,
			vals:  "-s --size -r --reference",
			check: (*walker).truncate,
		},
		"dd": {class: Safe, why: "copies data", check: (*walker).dd, noscope: true},
		"patch": {
			class: Dev,
			why:   "patches files",
			vals:  "-d --directory -i --input -o --output -p --strip -B --prefix -r --reject-file -z --suffix -D -F -V",
			check: (*walker).patch,
			flags: []flag{set("--dry-run", Safe, "checks a patch")},
		},
		"tar": {class: Safe, why: "packs or unpacks files", check: (*walker).tar, noscope: true},
		// libarchive's tar, with the same letters for what it does.
		"bsdtar": {class: Safe, why: "packs or unpacks files", check: (*walker).tar, noscope: true},
		"unzip": {
			class: Dev,
			why:   "unpacks files",
			flags: []flag{
				set("-l -v -t -Z", Safe, "lists an archive"),
				set("-p -c", Safe, "prints members to standard output"),
				raise("-:", Dangerous, "keeps ../ in member names: files can land outside the target directory"),
			},
			check: (*walker).unzip,
		},
		"zip": {
			class: Dev,
			why:   "packs files",
			write: writeFirst,
			flags: []flag{
				raise("-TT --unzip-command", Dangerous, "runs a program of its choice"),
				set("-sf --show-files", Safe, "lists what it would pack"),
			},
			stdout: "-sf --show-files",
			progs:  "-TT --unzip-command",
			check:  (*walker).zipMove,
		},
		"gzip": {
			class:  Dev,
			why:    "compresses files in place",
			write:  writeAll,
			stdout: "-c --stdout -l --list -t --test",
			flags:  []flag{set("-c --stdout -l --list -t --test", Safe, "writes to standard output")},
		},
		"gunzip": {
			class:  Dev,
			why:    "decompresses files in place",
			write:  writeAll,
			stdout: "-c --stdout -l --list -t --test",
			flags:  []flag{set("-c --stdout -l --list -t --test", Safe, "writes to standard output")},
		},
		"bzip2": {
			class:  Dev,
			why:    "compresses files in place",
			write:  writeAll,
			stdout: "-c --stdout -t",
			flags:  []flag{set("-c --stdout -t", Safe, "writes to standard output")},
		},
		"xz": {
			class:  Dev,
			why:    "compresses files in place",
			write:  writeAll,
			stdout: "-c --stdout -l --list -t",
			flags:  []flag{set("-c --stdout -l --list -t", Safe, "writes to standard output")},
		},
		"zstd":   keepingCompressor("--rm"),
		"pzstd":  keepingCompressor("--rm"),
		"lz4":    keepingCompressor("--rm"),
		"brotli": keepingCompressor("-j --rm"),
		"pigz": {
			class:  Dev,
			why:    "compresses files in place",
			write:  writeAll,
			stdout: "-c --stdout -l --list -t --test",
			flags:  []flag{set("-c --stdout -l --list -t --test", Safe, "writes to standard output")},
		},
		"rpm2cpio": {class: Safe, why: "prints an RPM package's files as a cpio stream"},
		"7z": {
			class: Dev,
			why:   "packs or unpacks files",
			sub: map[string]*rule{
				"l": safe("lists an archive"),
				"t": safe("tests an archive"),
				"x": {class: Dev, why: "unpacks files", check: (*walker).sevenZipOut,
					flags: []flag{set("-so", Safe, "unpacks to standard output")}},
				"e": {class: Dev, why: "unpacks files", check: (*walker).sevenZipOut},
				"a": {
					class: Dev,
					why:   "packs files",
					flags: []flag{raise("-sdel", Dangerous, "deletes the files it packs")},
				},
				"u": {
					class: Dev,
					why:   "updates an archive",
					flags: []flag{raise("-sdel", Dangerous, "deletes the files it packs")},
				},
			},
		},
		"dos2unix": {class: Dev, why: "converts files in place", write: writeAll},
		"unix2dos": {class: Dev, why: "converts files in place", write: writeAll},
		"mktemp":   {class: Dev, why: "creates a temporary file"},
		"split":    dev("splits a file"),
		"csplit":   dev("splits a file"),
		"vim":      vimRule(),
		"vi":       vimRule(),
		"nvim":     vimRule(),
		"ex":       vimRule(),
		"view":     vimRule(),
		"vimdiff":  vimRule(),
		"gvim":     vimRule(),
		"nano":     {class: Dev, why: "edits files", write: writeAll},
		"emacs":    {class: Dev, why: "edits files", write: writeAll, check: (*walker).emacs},
		"gofmt": {
			class: Safe,
			why:   "prints formatted code",
			flags: []flag{raise("-w", Dev, "rewrites files")},
			check: (*walker).inplace,
		},
		"goimports": {
			class: Safe,
			why:   "prints formatted code",
			flags: []flag{raise("-w", Dev, "rewrites files")},
			check: (*walker).inplace,
		},
		"sqlite3": {class: Safe, why: "opens a database file", check: (*walker).sql},
		"mkfifo":  {class: Dev, why: "creates a named pipe", write: writeAll},
		"fallocate": {
			class: Dev,
			why:   "allocates a file",
			write: writeAll,
			vals:  "-l -o --length --offset",
			check: (*walker).fallocate,
			flags: []flag{raise("-p --punch-hole -c --collapse-range -z --zero-range -i --insert-range", Dangerous,
				"removes or zeroes a range of the file's data")},
		},
		"ed": {class: Dev, why: "edits files", check: (*walker).ed},
	}
}

// vimRule: an editor on project files, unless told to run commands.
func vimRule() *rule {
	return &rule{
		class: Dev,
		why:   "edits files",
		vals:  "-c --cmd -S -u -i -T -w -W -U -r -t -q",
		check: (*walker).vim, // and -e, -es: commands from its input
	}
}

// keepingCompressor is the rule of a compressor that keeps its sources
// unless a flag (rm) says to delete them: asked for, that deletion is
// the point, many files at once with -r, and not undone.
func keepingCompressor(rm string) *rule {
	return &rule{
		class:  Dev,
		why:    "compresses or decompresses files",
		vals:   "-D -T --patch-from",
		write:  writeAll,
		stdout: "-c --stdout -l --list -t --test",
		flags: []flag{
			set("-c --stdout -l --list -t --test", Safe, "writes to standard output"),
			raise(rm, Dangerous, "deletes the files it compresses or decompresses"),
		},
	}
}
