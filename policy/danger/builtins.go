package danger

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/policy/secret"
)

// Builtins whose arguments are code: bash evaluates an array subscript as
// an arithmetic expression, with expansions, wherever a builtin takes a
// variable name (printf -v, read, declare, unset, test -v) or evaluates
// one (let, (( )), [[ -eq ]]), so a quoted 'a[$(cmd)]' runs cmd. So does
// prompt expansion (${v@P}); ${!v} reads the variable v names.

// subscriptCode judges a variable name a builtin is given: code in its
// subscript runs.
func (w *walker) subscriptCode(name, what string) {
	i := strings.IndexByte(name, '[')
	if i < 0 {
		return
	}
	sub := name[i+1:]
	if j := strings.LastIndexByte(sub, ']'); j >= 0 {
		sub = sub[:j]
	}
	w.arithCode(sub, what)
}

// arithCode judges text bash evaluates as arithmetic: command
// substitutions in it run.
func (w *walker) arithCode(text, what string) {
	if !strings.Contains(text, "$(") && !strings.Contains(text, "`") && !strings.Contains(text, "<(") {
		return
	}
	w.res.add(Dangerous, "`"+what+"`: bash evaluates the subscript, and runs the commands in it")
	w.nested(": "+text, input{})
}

// arithVars judges the variables an arithmetic expression reads: bash
// evaluates their values as expressions too (x='a[$(cmd)]'; (( x ))).
func (w *walker) arithVars(node syntax.Node, what string) {
	syntax.Walk(node, func(n syntax.Node) bool {
		name := ""
		switch n := n.(type) {
		case *syntax.ParamExp:
			if n.Param != nil {
				name = n.Param.Value
			}
		case *syntax.Word:
			name = n.Lit()
		case *syntax.CmdSubst, *syntax.ProcSubst:
			return false
		}
		if v, ok := w.vars[name]; ok && name != "" {
			w.arithCode(v, what)
		}
		return true
	})
}

// testArith judges [[ … ]]: -eq and the other arithmetic comparisons
// evaluate their operands, -v evaluates a subscript.
func (w *walker) testArith(x syntax.TestExpr) {
	syntax.Walk(x, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.BinaryTest:
			switch n.Op {
			case syntax.TsEql, syntax.TsNeq, syntax.TsLss, syntax.TsLeq, syntax.TsGtr, syntax.TsGeq:
				for _, side := range []syntax.TestExpr{n.X, n.Y} {
					if word, ok := side.(*syntax.Word); ok {
						w.arithCode(w.literal(word), "[[ "+w.text(word)+" -eq … ]]")
						w.arithVars(word, "[[ "+w.text(word)+" -eq … ]]")
					}
				}
			}
		case *syntax.UnaryTest:
			if n.Op == syntax.TsVarSet {
				if word, ok := n.X.(*syntax.Word); ok {
					w.subscriptCode(w.literal(word), "[[ -v "+w.text(word)+" ]]")
				}
			}
		}
		return true
	})
}

// paramCode judges parameter expansions that read further: ${!v} reads
// the variable v names, ${v@P} expands v's value as a prompt, which runs
// its command substitutions.
func (w *walker) paramCode(n *syntax.ParamExp) {
	if n.Param == nil {
		return
	}
	name := n.Param.Value
	if n.Excl && n.Names == 0 && n.Index == nil {
		target, known := w.vars[name]
		switch {
		case !known || hasHole(target):
			w.res.add(Dangerous, "`${!"+name+"}`: reads a variable whose name is not known before running")
		case secret.Var(target):
			w.discloses("`${!" + name + "}`: reads the secret `" + target + "`")
		}
	}
	if n.Exp != nil && n.Exp.Op == syntax.OtherParamOps && n.Exp.Word != nil && n.Exp.Word.Lit() == "P" {
		v, known := w.vars[name]
		if !known || hasHole(v) {
			w.res.add(Dangerous, "`${"+name+"@P}`: expands a value not known before running as a prompt, "+
				"which runs its commands")
			return
		}
		if strings.Contains(v, "$(") || strings.Contains(v, "`") {
			w.res.add(Dangerous, "`${"+name+"@P}`: prompt expansion runs the commands in the value")
			w.nested(": "+v, input{})
		}
	}
}

// printfVar judges printf -v NAME: NAME's subscript is evaluated.
func (w *walker) printfVar(chain string, args []arg, io ioInfo) {
	for i := 1; i+1 < len(args); i++ {
		if args[i].s == "-v" {
			name := args[i+1].s
			w.subscriptCode(name, "printf -v "+args[i+1].text)
			// printf -v NAME FORMAT ARGS…: NAME holds what printf would
			// print, when that is known.
			val := hole
			if rest := args[i+2:]; len(rest) > 0 && !slices.ContainsFunc(rest, func(a arg) bool { return hasHole(a.s) }) {
				ss := make([]string, len(rest))
				for j, a := range rest {
					ss[j] = a.s
				}
				if out, ok := printfText(ss[0], ss[1:]); ok {
					val = out
				}
			}
			if syntax.ValidName(name) {
				w.vars[name] = val
				w.hijack(name, val, "printf -v "+args[i+1].text)
			}
			return
		}
		if !strings.HasPrefix(args[i].s, "-") {
			return
		}
	}
}

// complete judges complete and compgen: -C runs a command to complete
// (compgen runs it now), -F a function.
func (w *walker) complete(chain string, args []arg, io ioInfo) {
	for i := 1; i+1 < len(args); i++ {
		if args[i].s == "-C" {
			w.res.add(Dangerous, "`"+chain+" -C`: runs a command to produce completions")
			w.nested(args[i+1].s, input{})
		}
	}
}

// bind judges bind -x 'KEYSEQ: COMMAND': the command runs on the key.
func (w *walker) bind(chain string, args []arg, io ioInfo) {
	for i := 1; i+1 < len(args); i++ {
		if args[i].s == "-x" {
			if _, cmd, ok := strings.Cut(args[i+1].s, ":"); ok {
				w.nested(strings.Trim(strings.TrimSpace(cmd), `"'`), input{})
			}
		}
	}
}

// testVar judges test and [: -v NAME evaluates NAME's subscript.
func (w *walker) testVar(chain string, args []arg, io ioInfo) {
	for i := 1; i+1 < len(args); i++ {
		if args[i].s == "-v" {
			w.subscriptCode(args[i+1].s, chain+" -v "+args[i+1].text)
		}
	}
}
