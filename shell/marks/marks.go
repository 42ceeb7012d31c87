// Package marks rewrites a program before interp runs it, so that the
// shell learns what interp does not tell it: which background statement a
// program runs in ($!, see pids.go) and which job (jobs.go). It is syntax
// only; the shell's builtins named here (__qsh_bg, __qsh_job…) do the
// rest at run time.
package marks

import (
	"slices"
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

// Text is the edits that mark the background statements and $! of f,
// parsed from src, a sourced file's text, in place: interp reads and
// parses such a file itself, and each line keeps its number (see
// [Apply]). Call it only when [MayNeed] says src may need one.
func Text(f *syntax.File, src string) []Edit { return pidEdits(f, src) }

// FuncText is the edits that mark, for job control, the bodies of the
// functions that f, a sourced file's program, defines: as [File] marks
// those of a command line, when it defines them (see [NoJobVar],
// [MixedVar]). The shell calls it when it has, or is about to have, job
// control. They are insertions, which may fall inside another edit of
// the same text: leave those out (see [Inside]).
func FuncText(f *syntax.File, programs Programs) []Edit { return funcEdits(f, programs) }

// Inside reports whether e, an insertion, falls inside one of edits, so
// that [Apply] would find them overlapping.
func Inside(e Edit, edits []Edit) bool {
	return slices.ContainsFunc(edits, func(o Edit) bool { return o.Off < e.Off && e.Off < o.End })
}
