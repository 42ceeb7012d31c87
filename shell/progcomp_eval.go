package shell

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/qsh-shell/qsh/shell/completions"
	"github.com/qsh-shell/qsh/shell/eval"
)

// complete, compgen and compopt on the evaluator (see compgen.go for what
// they do, and why in this order): a non-interactive shell runs them
// there; the interactive shell moves onto them with the rest of the
// switch, and compgen.go's interp versions go.

// evalCompletion is the completion state of a shell on the evaluator.
type evalCompletion struct {
	specs compspecs
	// tab is the completion Tab is generating, for compopt; nil
	// elsewhere.
	tab *compCall
}

// builtins are complete, compgen and compopt for the evaluator.
func (c *evalCompletion) builtins() []*eval.Builtin {
	return []*eval.Builtin{
		{Name: "complete", Usage: completions.Usage("complete"), Guarded: true, Run: c.complete},
		{Name: "compgen", Usage: completions.Usage("compgen"), Guarded: true, Run: c.compgen},
		{Name: "compopt", Usage: completions.Usage("compopt"), Guarded: true, Run: c.compopt},
	}
}

// usageError reports a bad command line of a completion builtin.
func usageError(b *eval.B, err error) int {
	ue, ok := err.(*completions.UsageError)
	if !ok {
		b.Errorf("%v", err)
		return 2
	}
	b.Errorf("%s", ue.Msg)
	if ue.Usage {
		fmt.Fprintf(b.Stderr(), "%s: usage: %s\n", b.Args[0], completions.Usage(b.Args[0]))
	}
	return 2
}

func (c *evalCompletion) complete(b *eval.B) int {
	args := b.Args[1:]
	a, err := completions.ParseArgs("complete", args)
	if err != nil {
		return usageError(b, err)
	}
	names := specNames(a)
	switch {
	case a.Remove:
		if len(names) == 0 {
			c.specs.clear()
			return 0
		}
		st := 0
		for _, n := range names {
			if !c.specs.remove(n) {
				b.Errorf("%s: no completion specification", n)
				st = 1
			}
		}
		return st
	case a.Print || len(args) == 0:
		if len(names) == 0 {
			names = c.specs.list()
		}
		st := 0
		for _, n := range names {
			sp, ok := c.specs.get(n)
			if !ok {
				b.Errorf("%s: no completion specification", n)
				st = 1
				continue
			}
			fmt.Fprintln(b.Stdout(), sp.Print(shownName(n)))
		}
		return st
	case len(names) == 0:
		fmt.Fprintf(b.Stderr(), "%s: usage: %s\n", b.Args[0], completions.Usage("complete"))
		return 2
	}
	for _, n := range names {
		c.specs.set(n, a.Spec)
	}
	return 0
}

func (c *evalCompletion) compopt(b *eval.B) int {
	a, err := completions.ParseArgs("compopt", b.Args[1:])
	if err != nil {
		return usageError(b, err)
	}
	on, off := a.Spec.Options, a.Off
	names := specNames(a)
	if len(names) == 0 {
		// Only Tab's functions run as a completion; compgen -F's do not.
		t := c.tab
		if t == nil || t.line == nil {
			b.Errorf("not currently executing completion function")
			return 1
		}
		if on == 0 && off == 0 {
			fmt.Fprintln(b.Stdout(), completions.Spec{Options: t.opts}.PrintOptions(t.cmd))
			return 0
		}
		t.opts = t.opts&^off | on
		return 0
	}
	st := 0
	for _, n := range names {
		sp, ok := c.specs.get(n)
		if !ok {
			b.Errorf("%s: no completion specification", n)
			st = 1
			continue
		}
		if on == 0 && off == 0 {
			fmt.Fprintln(b.Stdout(), sp.PrintOptions(shownName(n)))
			continue
		}
		sp.Options = sp.Options&^off | on
		c.specs.set(n, sp)
	}
	return st
}

func (c *evalCompletion) compgen(b *eval.B) int {
	a, err := completions.ParseArgs("compgen", b.Args[1:])
	if err != nil {
		return usageError(b, err)
	}
	call := &compCall{opts: a.Spec.Options, cmd: "compgen"}
	if len(a.Names) > 0 {
		call.word, call.text = a.Names[0], a.Names[0]
	}
	matches, ok := c.generate(b, a.Spec, call)
	for _, m := range matches {
		fmt.Fprintln(b.Stdout(), m)
	}
	if !ok || len(matches) == 0 {
		return 1
	}
	return 0
}

// generate is what spec generates for call, in bash's order (see
// [Shell.generate]).
func (c *evalCompletion) generate(b *eval.B, spec completions.Spec, call *compCall) (matches []string, ok bool) {
	r := b.R
	for _, a := range actionOrder {
		if spec.Actions&a != 0 {
			matches = append(matches, c.actionNames(r, a, call.word)...)
		}
	}
	if spec.Glob != "" {
		matches = append(matches, globNames(r.Dir(), spec.Glob)...)
	}
	ok = true
	if spec.Words != "" {
		words, wok := wordListEval(b, spec.Words)
		ok = ok && wok
		for _, w := range words {
			if strings.HasPrefix(w, call.word) {
				matches = append(matches, w)
			}
		}
	}
	if spec.Func != "" {
		if call.line == nil {
			fmt.Fprintf(b.Stderr(), "%s: compgen: warning: -F option may not work as you expect\n", shellName(r))
		}
		reply, fok := runCompFuncEval(b, spec.Func, call)
		ok = ok && fok
		matches = append(matches, reply...)
	}
	if spec.Command != "" {
		matches = append(matches, runCompCommandEval(b, spec.Command, call)...)
	}
	if spec.Filter != "" {
		matches = filterMatches(matches, spec.Filter, call.word)
	}
	if spec.Prefix != "" || spec.Suffix != "" {
		for i, m := range matches {
			matches[i] = spec.Prefix + m + spec.Suffix
		}
	}
	home, _ := r.Get("HOME")
	opts := call.opts
	if len(matches) == 0 && opts&completions.DirNames != 0 {
		matches = completions.Files(call.word, r.Dir(), home, true)
	}
	if opts&completions.PlusDirs != 0 {
		matches = append(matches, completions.Files(call.word, r.Dir(), home, true)...)
	}
	if len(matches) == 0 && opts&(completions.Default|completions.BashDefault) != 0 {
		matches = completions.Files(call.word, r.Dir(), home, false)
	}
	return matches, ok
}

// shellName is what the shell's messages start with: $0 as bash's are.
func shellName(r *eval.Runner) string {
	name, _ := r.Get("0")
	if name == "" {
		return "qsh"
	}
	return name
}

// actionNames are the names action a gives for word.
func (c *evalCompletion) actionNames(r *eval.Runner, a completions.Actions, word string) []string {
	home, _ := r.Get("HOME")
	dir := r.Dir()
	switch a {
	case completions.Alias:
		return prefixed(r.AliasNames(), word)
	case completions.ArrayVar:
		return evalVarNames(r, word, func(v *eval.Var) bool { return v.Attr&(eval.AttrIndexed|eval.AttrAssoc) != 0 })
	case completions.Builtin, completions.Enabled:
		return prefixed(r.BuiltinNames(), word)
	case completions.HelpTopic:
		return prefixed(helpTopics, word)
	case completions.Export:
		return evalVarNames(r, word, func(v *eval.Var) bool { return v.Attr&eval.AttrExport != 0 && v.IsSet() })
	case completions.Function:
		return prefixed(r.FuncNames(), word)
	case completions.Hostname:
		hostfile, _ := r.Get("HOSTFILE")
		return completions.Hosts(word, hostfile)
	case completions.Keyword:
		return prefixed(completions.Keywords, word)
	case completions.SetOpt:
		return prefixed(eval.OptionNames(true), word)
	case completions.ShOpt:
		return prefixed(eval.OptionNames(false), word)
	case completions.Signal:
		return prefixed(signalNames(), word)
	case completions.Variable:
		return evalVarNames(r, word, func(v *eval.Var) bool { return v.IsSet() || len(v.Values()) > 0 })
	case completions.Command:
		return evalCommandNames(r, word)
	case completions.File:
		return completions.Files(word, dir, home, false)
	case completions.Directory:
		return completions.Files(word, dir, home, true)
	case completions.User:
		return completions.Users(word)
	case completions.Group:
		return completions.Groups(word)
	case completions.Service:
		return completions.Services(word)
	}
	return nil // jobs (a non-interactive shell lists none), bindings, disabled builtins
}

// evalVarNames are the sorted names of r's variables starting with prefix
// that keep says to.
func evalVarNames(r *eval.Runner, prefix string, keep func(*eval.Var) bool) []string {
	var names []string
	for _, name := range r.VarNames() {
		if strings.HasPrefix(name, prefix) {
			if v := r.Var(name); v != nil && keep(v) {
				names = append(names, name)
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// evalCommandNames is compgen -c (see [Shell.commandNames]).
func evalCommandNames(r *eval.Runner, word string) []string {
	dir := r.Dir()
	home, _ := r.Get("HOME")
	if strings.Contains(word, "/") {
		var out []string
		for _, f := range completions.Files(word, dir, home, false) {
			if isExecutable(dir, f) || isDirPath(absPath(dir, f)) {
				out = append(out, f)
			}
		}
		return out
	}
	out := prefixed(r.AliasNames(), word)
	out = append(out, prefixed(completions.Keywords, word)...)
	out = append(out, prefixed(r.FuncNames(), word)...)
	out = append(out, prefixed(r.BuiltinNames(), word)...)
	path, _ := r.Get("PATH")
	for _, d := range filepath.SplitList(path) {
		if d == "" {
			d = "."
		}
		for _, f := range completions.Files(word, absPath(dir, d), "", false) {
			if isExecutable(absPath(dir, d), f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// evalIn runs code in the scope the builtin was called from, as the eval
// builtin would, and returns its status.
func evalIn(b *eval.B, code string) int {
	ev := b.R.Builtin("eval")
	if ev == nil {
		return 1
	}
	return ev.Run(&eval.B{Args: []string{"eval", code}, Ctx: b.Ctx, R: b.R})
}

// takeVar reads the values of a variable code set, and unsets it.
func takeVar(b *eval.B, name string) []string {
	var vals []string
	if v := b.R.Var(name); v != nil && v.IsSet() {
		vals = v.Values()
	}
	b.R.Unset(name)
	return vals
}

// wordListEval is -W's list: split at $IFS, each word expanded as bash's
// completion does (no file name expansion), in the scope compgen or Tab
// was called from.
func wordListEval(b *eval.B, list string) ([]string, bool) {
	ifs := " \t\n"
	if v, ok := b.R.Get("IFS"); ok {
		ifs = v
	}
	words := completions.SplitWordList(list, ifs)
	if len(words) == 0 {
		return nil, true
	}
	src := "printf '%s\\0'"
	for _, w := range words {
		src += " " + completions.WordSource(w)
	}
	if noglob, _ := b.R.Opt("noglob"); !noglob {
		b.R.SetOpt("noglob", true)
		defer b.R.SetOpt("noglob", false)
	}
	out, st := b.EvalOutput(src)
	if st != 0 {
		return nil, false
	}
	return strings.Split(strings.TrimSuffix(out, "\x00"), "\x00"), true
}

// runCompFuncEval runs a -F function for compgen, with empty COMP_
// variables as bash gives it, and returns its COMPREPLY.
func runCompFuncEval(b *eval.B, fn string, call *compCall) ([]string, bool) {
	if b.R.Func(fn) == nil {
		fmt.Fprintf(b.Stderr(), "%s: completion: function `%s' not found\n", shellName(b.R), fn)
		return nil, false
	}
	evalIn(b, compVars(call))
	args := singleQuote(call.cmd) + " " + singleQuote(call.text) + " " + singleQuote(call.prev)
	if evalIn(b, singleQuote(fn)+" "+args) == 124 {
		// It loaded another compspec for the command, which Tab uses.
		call.retry = true
	}
	reply := takeVar(b, "COMPREPLY")
	for _, n := range []string{"COMP_WORDS", "COMP_CWORD", "COMP_LINE", "COMP_POINT", "COMP_TYPE", "COMP_KEY"} {
		b.R.Unset(n)
	}
	return reply, true
}

// runCompCommandEval runs a -C command in a subshell with the COMP_
// variables exported, and returns its output's lines.
func runCompCommandEval(b *eval.B, cmd string, call *compCall) []string {
	env := "COMP_LINE='' COMP_POINT=0 COMP_TYPE=0 COMP_KEY=0"
	if l := call.line; l != nil {
		env = fmt.Sprintf("COMP_LINE=%s COMP_POINT=%d COMP_TYPE=%d COMP_KEY=9", singleQuote(l.Line), l.Point, call.ctype)
	}
	out, _ := b.EvalOutput(fmt.Sprintf("(export %s; %s %s %s %s)", env, cmd,
		singleQuote(call.cmd), singleQuote(call.text), singleQuote(call.prev)))
	out = strings.TrimRight(out, "\n")
	if out == "" {
		return nil
	}
	return strings.Split(out, "\n")
}
