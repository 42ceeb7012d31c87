package danger

import (
	"maps"

	"github.com/qsh-shell/qsh/internal/lazy"
)

// This file is the classifier's knowledge: which forms of which commands
// are read-only, dev work or dangerous. It is split by domain, one file
// each (rules_git.go, rules_pkg.go …, see domains); the code in judge.go
// and checks.go reads it.
//
// A rule gives a command (or one of its subcommands) a class and the reason
// the user reads. Flags and operands can raise that class (or, with set,
// replace it); sub holds subcommands; bare applies when there are no
// operands; write says which operands are files the command writes (judged
// by path: workspace, outside, raw disk …); check names code in checks.go
// for what a table cannot say (rm's targets, curl's host, find -exec …).

// kind says how a command runs other commands.
type kind uint8

const (
	kindPlain  kind = iota
	kindWrap        // runs the rest of its arguments as a command: sudo, env, timeout …
	kindShell       // runs shell code from -c, a script file or its input: bash, sh …
	kindInterp      // runs code from -c/-e, a script file or its input: python, node …
	kindEval        // runs its arguments joined as shell code: eval
	// kindRun runs the rest of its arguments as a command of the project's
	// environment: bundle exec, poetry run. An unknown command is the
	// project's own tool.
	kindRun
)

// writeMode says which operands a command writes.
type writeMode uint8

const (
	writeNone  writeMode = iota
	writeAll             // every operand (touch, mkdir, tee)
	writeLast            // the destination (cp, ln, install)
	writeFirst           // the archive (zip)
	writeRest            // every operand but the first: ddrescue IN OUT MAP
)

type rule struct {
	class Class
	why   string
	kind  kind
	// vals are flags whose value is the next argument, so it is not taken
	// for an operand or subcommand ("-C -c" for git).
	vals string
	// vals2 are flags whose value is the next two arguments (jq
	// --rawfile NAME FILE).
	vals2 string
	code  string // shells and interpreters: flags whose value is code
	skip  int    // wrappers: operands before the command (timeout's duration)
	joins bool   // wrappers: the command is the arguments joined as shell code (watch)
	// assigns: wrappers skip NAME=value operands (env).
	assigns bool
	sub     map[string]*rule
	open    bool // an operand not in sub is an ordinary operand, not an unknown subcommand
	bare    *rule
	bareMax int // bare also applies with up to this many operands (git config KEY)
	flags   []flag
	ops     []flag
	write   writeMode
	check   check
	// whole: check sees the subcommand and its arguments too, not only
	// the options before it (git's work tree matters by what the
	// subcommand does with it).
	whole bool
	// suffixes: the rule also applies to name.x and versioned names
	// (mkfs.ext4, python3.12).
	suffixes bool
	// noscope: an approval never covers this command by name alone.
	noscope bool
	// progs are flags whose value is a command line the program runs
	// (zip -TT, sort --compress-program): judged for what is worse than
	// dangerous.
	progs string
	// local: the rule also applies to the project's own copy of the
	// program (./gradlew, bin/rails, python manage.py, php artisan).
	local bool
	// names: what the command prints of its operands is at most their
	// names, sizes, counts or hashes (wc, sha256sum, git add, echo), or
	// its operands are not files at all: a secret file among them is not
	// shown. contents are flags that make it show them after all (git log
	// -p); for a command that shows contents, namesWith are flags that
	// make it print only names or counts (grep -l, grep -c).
	names     bool
	contents  string
	namesWith string
	// pattern: the first operand is a pattern, not a file (grep), unless
	// one of the flags in patternFlags gives it (-e, -f).
	pattern      bool
	patternFlags string
	// hoist: options may stand before the subcommand and still be its own
	// (npm --location=global install): the subcommand's rule sees them.
	hoist bool
	// stdout are flags that make a command that writes its operands in
	// place write to standard output instead (gzip -c), or only list or
	// test them: the operands are then read, not written.
	stdout string
	// alone are flags that, given alone, only print the version or help
	// (mkfs.ext4 -V; with a device, -V is mkfs's verbose).
	alone string
	// shows says why what the command prints discloses secrets: judged
	// dangerous unless a filter reduces its output to names (masks.go).
	shows string
	// dry: flags that make the command a dry run (git push -n, kubectl
	// --dry-run=client): it changes nothing, and its class is dry.class.
	dry flag
}

// flag matches arguments: for flags, `-f` (also inside `-xdf`) and
// `--force` (also `--force=x`); for operands, exact words or patterns.
type flag struct {
	match string
	class Class
	why   string
	set   bool   // replaces the rule's class instead of raising it
	not   string // operands that match does not cover after all
}

func safe(why string) *rule      { return &rule{class: Safe, why: why} }
func dev(why string) *rule       { return &rule{class: Dev, why: why} }
func dangerous(why string) *rule { return &rule{class: Dangerous, why: why} }
func blocked(why string) *rule   { return &rule{class: Blocked, why: why} }

// named marks a rule whose command shows only names, counts or hashes of
// its operands (see rule.names).
func named(r *rule) *rule {
	r.names = true
	return r
}

// allNamed marks every rule of a table, subcommands too, as named: the
// operands of package managers are packages, not files to show.
func allNamed(m map[string]*rule) map[string]*rule {
	for _, r := range m {
		namedAll(r)
	}
	return m
}

// namedAll marks r, its subcommands and its bare form named.
func namedAll(r *rule) *rule {
	r.names = true
	for _, s := range r.sub {
		namedAll(s)
	}
	if r.bare != nil {
		namedAll(r.bare)
	}
	return r
}

// dryRunWhy is what a dry run does.
const dryRunWhy = "a dry run: reports what it would do, changes nothing"

// withDry marks every rule of a table whose class is worse than dev as
// having the dry-run flags spec: what such a run reads stays dev.
func withDry(m map[string]*rule, spec string) map[string]*rule {
	for _, r := range m {
		if r.class > Dev || len(r.flags) > 0 {
			r.dry = flag{match: spec, class: Dev, why: dryRunWhy}
		}
	}
	return m
}

// dryRule gives r the dry-run flags spec (see withDry).
func dryRule(r *rule, spec string) *rule {
	r.dry = flag{match: spec, class: Dev, why: dryRunWhy}
	return r
}

func raise(match string, c Class, why string) flag { return flag{match: match, class: c, why: why} }
func set(match string, c Class, why string) flag {
	return flag{match: match, class: c, why: why, set: true}
}

// Reasons reused across the table.
const (
	readOnly   = "only reads"
	remoteRead = "reads remote state through a recognised CLI"
	remoteEdit = "changes remote state"
	buildWhy   = "builds or tests the project"
)

// destroyNames are script and target names that say they destroy data;
// testNames say a target tests or previews instead (make test-destroy,
// npm run check:reset, make plan-destroy).
const (
	destroyNames = "*drop* *reset* *destroy* *purge* *wipe* *truncate* *nuke* *teardown* *flush*"
	testNames    = "test* *-test *-test-* *_test *_test_* *:test *:test:* tests* *-tests check* *-check *:check " +
		"*dry-run* *dryrun* plan-* *-plan preview* *-preview lint*"
)

// destroys is the flag for a script or target whose name says it
// destroys data.
func destroys(why string) flag {
	return flag{match: destroyNames, class: Dangerous, why: why, not: testNames}
}

// commands is the table: every command the classifier recognises. It is
// built on first use (see package lazy); init only names its builder, which the
// checks the table refers to lead back to.
var commands lazy.Value[map[string]*rule]

func init() { commands.Build = commandTable }

// domains are the parts of the table, one file each (rules_git.go …).
func domains() []func() map[string]*rule {
	return []func() map[string]*rule{
		readCommands, fileCommands, shellCommands, buildCommands, packageCommands, gitCommands,
		containerCommands, remoteCommands, networkCommands, systemCommands, inspectCommands,
		devToolCommands, platformCommands,
	}
}

func commandTable() map[string]*rule {
	m := make(map[string]*rule, 720)
	for _, d := range domains() {
		maps.Copy(m, d())
	}
	return m
}
