package danger

import (
	"path"
	"strings"

	"github.com/qsh-shell/qsh/internal/lazy"
)

// Programs the table does not name are judged by their family when their
// name says which: a family is a kind of tool whose job is to read the
// files it is given and report (binary inspectors, graph renderers,
// linters, build systems). The name is the program's with a toolchain's
// prefix and a version dropped (x86_64-linux-gnu-objdump, llvm-nm-17);
// the family's rule says what its members do with their operands, and a
// screen of flags catches what turns a reader into a writer or a runner
// (-o FILE, --fix, --exec) in members the family did not list one by one.
// Anything else stays unknown, and dangerous.

// family is a kind of tool and the names that belong to it.
type family struct {
	rule *rule
	// names are the members; suffixes are name endings that make one
	// (tflint, ktlint: lint).
	names, suffixes string
}

// familyList is families, built once: every program the table does not
// name is looked up in it.
var familyList = lazy.Value[[]family]{Build: families}

// familyNames maps each member's name to its family's rule.
var familyNames = lazy.Value[map[string]*rule]{Build: func() map[string]*rule {
	m := map[string]*rule{}
	for _, f := range familyList.Get() {
		for n := range strings.FieldsSeq(f.names) {
			m[n] = f.rule
		}
	}
	return m
}}

// familyRule is the rule of the family a program the table does not name
// belongs to, or nil.
func familyRule(name string) *rule {
	base := toolName(name)
	if r := familyNames.Get()[base]; r != nil {
		return r
	}
	if base != name && strings.Contains(name, "-") {
		// arm-none-eabi-objcopy is objcopy for another machine.
		if r := commands.Get()[base]; r != nil {
			return r
		}
	}
	for _, f := range familyList.Get() {
		for s := range strings.FieldsSeq(f.suffixes) {
			if strings.HasSuffix(base, s) && len(base) > len(s) {
				return f.rule
			}
		}
	}
	return nil
}

// toolName drops what tells builds of one tool apart: a version
// (objdump-2.42, nm17), a toolchain's prefix (aarch64-linux-gnu-,
// llvm-, eu- for elfutils).
func toolName(name string) string {
	name = versionSuffix.Get().ReplaceAllString(name, "")
	if familyNames.Get()[name] != nil {
		return name // rebar3, buck2, premake5: the digit is the name's
	}
	name = strings.TrimRight(name, "0123456789")
	for _, p := range []string{"llvm-", "eu-"} {
		if rest, ok := strings.CutPrefix(name, p); ok && familyNames.Get()[rest] != nil {
			return rest
		}
	}
	if i := strings.LastIndexByte(name, '-'); i > 0 {
		prefix, rest := name[:i], name[i+1:]
		for _, t := range []string{"linux", "none", "elf", "eabi", "w64", "mingw", "apple", "darwin", "android",
			"unknown", "gnu", "musl", "wasi", "freebsd"} {
			if strings.Contains(prefix, t) {
				return rest
			}
		}
	}
	return name
}

// readerFlags is the check of every family's rule: the flags that make a
// reader write a file, rewrite its operands, run a program or reach the
// network, whatever the member, and operands that are URLs.
// ldd judges the programs ldd is given by where they are.
func (w *walker) ldd(chain string, args []arg, io ioInfo) {
	for _, i := range scan(&rule{}, args) {
		p, ok := w.abs(args[i].s)
		switch {
		case ok && (binDirs.Get()[path.Dir(p)] || under(p, "/usr/lib") || under(p, "/lib")):
			// A system program's loader: what the system runs anyway.
		case ok && w.inside(p):
			w.res.add(Dev, "`"+chain+" "+args[i].text+"`: its loader may run the project's program")
		default:
			w.res.add(Dangerous, "`"+chain+" "+args[i].text+"`: may run a program from outside the workspace")
		}
	}
}

// exiftool judges exiftool: tag assignments (-Artist=x, -all=) and
// -tagsFromFile rewrite the files, or write -o's.
func (w *walker) exiftool(chain string, args []arg, io ioInfo) {
	writes, out := false, ""
	for i := 1; i < len(args); i++ {
		a := args[i].s
		switch {
		case (a == "-o" || a == "-out") && i+1 < len(args):
			out = args[i+1].s
			i++
		case a == "-@":
			w.res.add(Dangerous, "`"+chain+" -@`: takes its arguments from a file")
			i++
		case strings.HasPrefix(a, "-") && (strings.Contains(a, "=") || strings.Contains(a, "<")) ||
			a == "-tagsFromFile" || a == "-geotag" || a == "-overwrite_original" ||
			a == "-overwrite_original_in_place" || a == "-delete_original" || a == "-delete_original!":
			writes = true
		}
	}
	switch {
	case out != "":
		w.writeTo(out, chain+" -o", out)
	case writes:
		for _, i := range scan(&rule{}, args) {
			w.writeTo(args[i].s, chain, args[i].text)
		}
	}
}

func (w *walker) readerFlags(chain string, args []arg, io ioInfo) {
	rewrites := false
	for i := 1; i < len(args); i++ {
		a := args[i].s
		name, v, hasV := strings.Cut(a, "=")
		next := func() string {
			if !hasV && i+1 < len(args) {
				i++
				return args[i].s
			}
			return v
		}
		switch {
		case name == "-o" || name == "--output" || name == "--out" || name == "--outfile" ||
			name == "--out-file" || name == "--output-file" || name == "--output-dir" || name == "--outdir":
			out := next()
			w.writeTo(out, chain+" "+name, out)
		case strings.HasPrefix(a, "-o") && len(a) > 2 && !strings.HasPrefix(a, "--") && chain != "ld" &&
			strings.ContainsAny(a[2:], "./"):
			// dot -Tpng -ograph.png; ffprobe -of csv is a format.
			w.writeTo(a[2:], chain+" -o", a[2:])
		case name == "--fix" || name == "--write" || name == "--in-place" || name == "--inplace" ||
			name == "--overwrite" || name == "--apply" || name == "--replace":
			rewrites = true
		case name == "--exec" || name == "--command" || name == "--shell" || name == "--pager" ||
			name == "--editor" || name == "--plugin" || name == "--load" || name == "--eval" || name == "--hook" ||
			name == "--browser" || name == "--pre" || name == "--post" || name == "--run":
			w.res.add(Dangerous, "`"+chain+" "+name+"`: runs a program or code of its choice")
		case name == "--bind_all" || name == "--bind-all" || name == "--listen-all" || name == "--public":
			w.res.add(Dangerous, "`"+chain+" "+name+"`: listens on every network interface")
		case name == "--upload" || name == "--publish" || name == "--push" || name == "--deploy" ||
			name == "--server" || name == "--url" || name == "--remote":
			w.res.add(Dangerous, "`"+chain+" "+name+"`: reaches the network")
		case !strings.HasPrefix(a, "-") && strings.Contains(a, "://"):
			if host, ok := urlHost(a); !ok || !localHost(host) {
				w.res.add(Dangerous, "`"+chain+" "+args[i].text+"`: reads from the network")
			}
		}
	}
	if rewrites {
		for _, i := range scan(&rule{}, args) {
			w.writeTo(args[i].s, chain, args[i].text)
		}
	}
}
