package shell

import (
	"context"
	"runtime"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/shell/marks"
)

// What an interactive qsh tells the scripts it sources about itself, so
// that the lines tools ask people to paste into their rc file take the
// branch they take in bash: `[[ $- == *i* ]]` guards fzf's key bindings
// and Debian's bashrc, BASH_VERSINFO picks fzf's `bind -x` bindings, and
// bash-preexec (under starship, atuin) refuses to load without
// BASH_VERSION.

// bashVersion is the bash whose features the hooks and bindings follow
// (PROMPT_COMMAND arrays came in 5.1).
const bashVersion = "5.2.0"

// setBashVersion sets BASH_VERSION and BASH_VERSINFO, for interactive
// shells; see [Shell.Identify]. The assignment is built, not parsed:
// this runs before every interactive first prompt.
func (s *Shell) setBashVersion(ctx context.Context) {
	lit := func(v string) *syntax.Word { return &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: v}}} }
	major, rest, _ := strings.Cut(bashVersion, ".")
	minor, patch, _ := strings.Cut(rest, ".")
	var elems []*syntax.ArrayElem
	for _, v := range []string{major, minor, patch, "1", "qsh", machType()} {
		elems = append(elems, &syntax.ArrayElem{Value: lit(v)})
	}
	assigns := []*syntax.Assign{
		{Name: &syntax.Lit{Value: "BASH_VERSION"}, Value: lit(bashVersion + "(1)-qsh")},
		{Name: &syntax.Lit{Value: "BASH_VERSINFO"}, Array: &syntax.ArrayExpr{Elems: elems}},
	}
	// What bash sets besides, unless the environment has it: the
	// machine (completion scripts ask `[[ $OSTYPE == *linux* ]]`), and
	// the word breaks, which they change (git's adds a colon when there
	// is none: without the rest, it would be just that).
	arch, _, _ := strings.Cut(machType(), "-")
	ostype := runtime.GOOS + "-gnu"
	if runtime.GOOS == "darwin" {
		ostype = "darwin"
	}
	for _, v := range []struct{ name, value string }{{"OSTYPE", ostype}, {"HOSTTYPE", arch},
		{"MACHTYPE", machType()}, {"COMP_WORDBREAKS", " \t\n\"'@><=;|&(:"}} {
		if _, ok := s.runner.Vars[v.name]; !ok && !s.runner.Env.Get(v.name).IsSet() {
			assigns = append(assigns, &syntax.Assign{Name: &syntax.Lit{Value: v.name},
				Value: &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Dollar: true, Value: v.value}}}})
		}
	}
	s.runner.Run(ctx, &syntax.CallExpr{Assigns: assigns})
}

// Identify makes an interactive shell look like an interactive bash to
// what it runs from now on: $- has an i and BASH_VERSION is set. A login
// shell calls it after the profile: Debian's ~/.profile sources
// ~/.bashrc when BASH_VERSION is set, and that file is bash's.
func (s *Shell) Identify(ctx context.Context) {
	if !s.interactive {
		return
	}
	s.identified = true
	s.sources.mu.Lock()
	s.sources.dashI = true
	s.sources.mu.Unlock()
	s.setBashVersion(ctx)
}

// machType is bash's MACHTYPE for the machine qsh was built for.
func machType() string {
	arch := map[string]string{"amd64": "x86_64", "arm64": "aarch64", "386": "i686"}[runtime.GOARCH]
	if arch == "" {
		arch = runtime.GOARCH
	}
	if runtime.GOOS == "darwin" {
		return arch + "-apple-darwin"
	}
	return arch + "-pc-" + runtime.GOOS + "-gnu"
}

// $- is interp's, which knows no i: each plain $- (or ${-}) of what an
// interactive shell runs is followed by the letter, in the syntax tree
// of a command line or an eval string and in the text of a sourced file.

// mayHaveDash reports whether src may expand $-.
func mayHaveDash(src string) bool {
	return strings.Contains(src, "$-") || strings.Contains(src, "${-")
}

// isPlainDash reports whether part is $- or ${-}.
func isPlainDash(part syntax.WordPart) bool {
	pe, ok := part.(*syntax.ParamExp)
	return ok && pe.Param != nil && pe.Param.Value == "-" && !pe.Excl && pe.Exp == nil && !pe.Length &&
		!pe.Width && pe.Slice == nil && pe.Repl == nil && pe.Names == 0 && pe.Index == nil
}

// markDash puts an i after each plain $- in node, and reports whether
// there was one.
func markDash(node syntax.Node) bool {
	var lists []*[]syntax.WordPart
	syntax.Walk(node, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Word:
			if slices.ContainsFunc(n.Parts, isPlainDash) {
				lists = append(lists, &n.Parts)
			}
		case *syntax.DblQuoted:
			if slices.ContainsFunc(n.Parts, isPlainDash) {
				lists = append(lists, &n.Parts)
			}
		}
		return true
	})
	for _, l := range lists {
		var out []syntax.WordPart
		for _, part := range *l {
			out = append(out, part)
			if isPlainDash(part) {
				out = append(out, &syntax.Lit{Value: "i"})
			}
		}
		*l = out
	}
	return len(lists) > 0
}

// markDashText is markDash on a file's text, in place: lines keep their
// numbers. The text comes back unchanged when it has no $- or does not
// parse (interp reports the error then).
func markDashText(src, name string) string {
	if !mayHaveDash(src) {
		return src
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(src), name)
	if err != nil {
		return src
	}
	out, _ := marks.Apply(src, name, dashEdits(f), true)
	return out
}

// dashEdits are the edits that mark the $- of f (see [markText]).
func dashEdits(f *syntax.File) []marks.Edit {
	var edits []marks.Edit
	syntax.Walk(f, func(n syntax.Node) bool {
		if pe, ok := n.(*syntax.ParamExp); ok && isPlainDash(pe) {
			end := int(pe.End().Offset())
			edits = append(edits, marks.Edit{Off: end, End: end, Text: "i"})
		}
		return true
	})
	return edits
}

// markDashEval is markDash on an eval string.
func markDashEval(src string) (string, bool) {
	if !mayHaveDash(src) {
		return src, false
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil || !markDash(f) {
		return src, false
	}
	var b strings.Builder
	if syntax.NewPrinter().Print(&b, f) != nil {
		return src, false
	}
	return b.String(), true
}
