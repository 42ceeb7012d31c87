// Package marks rewrites a program before interp runs it, so that the
// shell learns what interp does not tell it: which background statement a
// program runs in ($!, see pids.go) and which job (jobs.go). It is syntax
// only; the shell's builtins named here (__qsh_bg, __qsh_job…) do the
// rest at run time.
//
// One entry point for each form in which interp gets code: [File] for a
// program the shell parsed, [Eval] for an eval string, [Source] (then
// [Apply]) for a sourced file's text, which interp parses itself, and
// [Trap] for an EXIT trap's. A function is marked with the code that
// defines it, not later in interp's table of functions (Runner.Funcs, its
// own state, which mvdan.cc/sh marks for removal in v4).
package marks

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Programs reports whether a simple command named name runs a program: it
// is not a builtin, a function or an alias. The shell knows; marks asks
// it for the pipelines that the shell runs part of (see [MixedVar]). nil
// means the shell has no job control: only $! is marked.
type Programs func(name string) bool

// File marks program f in place, as parsed from a command line, a -c
// string, a script or the shell's own hooks: its background statements
// and $!, and with job control (programs not nil) its jobs, the
// substitutions that run no job (see [NoJobVar]) and its mixed pipelines
// (see [MixedVar]). It reports whether it changed anything.
func File(f *syntax.File, programs Programs) bool {
	if programs == nil {
		return markPids(f, false)
	}
	markMixed(f, programs)
	noJobs := markNoJobs(f)
	// Before markPids, as the job's text is the statement as written.
	bg := markBackground(f)
	return markPids(f, false) || bg || noJobs
}

// Eval is [File] for an eval string, which interp parses itself: the
// string comes back marked, and ok is false when it needed no mark. Its
// pipelines are not marked as mixed (see [MixedVar]) but for those of the
// functions it defines, marked here once and for all.
func Eval(src string, programs Programs) (out string, ok bool) {
	if programs != nil {
		if s, ok2 := markJobsEval(src, programs); ok2 {
			src, ok = s, true
		}
	}
	if s, ok2 := markPidsEval(src); ok2 {
		src, ok = s, true
	}
	return src, ok
}

// markJobsEval marks the jobs and no-job substitutions of an eval string,
// and the mixed pipelines of the functions it defines.
func markJobsEval(src string, programs Programs) (string, bool) {
	if !strings.ContainsAny(src, "&$`<>|") {
		return src, false
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil {
		return src, false
	}
	mixed := false
	eachFunc(f, func(body *syntax.Stmt) { mixed = markMixed(body, programs) || mixed })
	noJobs := markNoJobs(f)
	if !markBackground(f) && !noJobs && !mixed {
		return src, false
	}
	var b strings.Builder
	if syntax.NewPrinter().Print(&b, f) != nil {
		return src, false
	}
	return b.String(), true
}

// MayNeed reports whether src, a sourced file's text, may need a mark
// (see [Source]): it has a `&` that is not part of &&, >&, <&, &> or |&,
// or a $!, or with job control (programs) a function with a substitution
// or a pipeline. A quick look, so that most files are not parsed twice.
func MayNeed(src string, programs Programs) bool {
	return mayMark(src) || programs != nil && mayDefineFuncs(src)
}

func mayDefineFuncs(src string) bool {
	return (strings.Contains(src, "()") || strings.Contains(src, "function")) && strings.ContainsAny(src, "|`$<>")
}

// Source is the edits that mark f, parsed from src, a sourced file's
// text, in place: interp reads and parses such a file itself, and each
// line keeps its number (see [Apply]). Its background statements and $!
// are marked, and with job control (programs) the bodies of the
// functions it defines, as [File] marks those of a command line (its
// other commands are left as they are). check says whether Apply should
// parse the text again: the marks of background statements are checked
// so; a function's marks are assignments before simple commands, which
// keep any text whole.
func Source(f *syntax.File, src string, programs Programs) (edits []Edit, check bool) {
	if mayMark(src) {
		edits = pidEdits(f, src)
	}
	check = len(edits) > 0
	if programs != nil {
		edits = append(edits, funcEdits(f, programs)...)
	}
	return edits, check
}
