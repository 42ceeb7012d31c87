package eval

import "testing"

// What bats-core (1.13, run with qsh as its bash) showed qsh doing
// unlike bash: cmd/qsh's TestBatsSuite runs bats itself.
func TestBatsGapsAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		// bats keeps empty arrays safe under set -u with "${a[@]+"${a[@]}"}":
		// an unset "$@"-like operand of + gives no word, not an empty one.
		{"alt-empty-array-no-word", `a=(); f(){ echo $#; }; f "${a[@]+x}"; f "${a[@]:+x}"; set --; f "${@+x}"; f "${a[@]+"${a[@]}"}"; x=("${a[@]+${a[@]}}"); declare -p x`},
		{"alt-empty-array-words", `a=(); b=(1); f(){ echo $#; }; f "${a[@]-}"; f "${a[*]+x}"; f "${b[@]+}"; f "${a[@]+x}y"; f "${a[@]:-}"; u=; f "${u+}"; y="${a[@]+x}"; echo "[$y]"`},
		// bats reads its failure trace from what its DEBUG trap saw: for a
		// pipeline's simple commands bash runs it in the shell, before
		// each element starts, and sets BASH_COMMAND there.
		{"debug-trap-pipeline-in-shell", `trap 'n=$((n+1)); echo "dbg $BASH_SUBSHELL $BASH_COMMAND"' DEBUG; echo a | wc -l; trap - DEBUG; echo "n=$n"`},
		{"debug-trap-pipeline-functrace", `set -T; trap 'echo "dbg $BASH_COMMAND" >&2' DEBUG; g() { true; }; echo | g; trap - DEBUG`},
		{"bash-command-after-pipeline", `set -E; trap 'echo "ERR $BASH_COMMAND"' ERR; echo | false; echo | grep -q x; false | true; echo | { false; true; }; f() { return 3; }; echo | f; true`},
		{"err-trap-not-in-pipeline-element", `set -eE; trap 'echo "ERR $BASH_SUBSHELL $BASH_COMMAND"' ERR; t() { true; echo abc | grep -q xyz; echo never; }; t`},
		{"debug-trap-traced-function-entry", `trap 'echo "dbg ${FUNCNAME[*]} : $BASH_COMMAND"' DEBUG; g() { true; }; g; set -T; g; h(){ g; }; h; declare -ft g; set +T; g; trap - DEBUG`},
		{"debug-trap-function-entry-lineno", "trap 'echo \"dbg $LINENO ${BASH_LINENO[*]} ${FUNCNAME[*]}: $BASH_COMMAND\"' DEBUG\nset -T\n\ng()\n{\n\n  true\n}\ng\nf() { true; }\nf\ntrap - DEBUG"},
		// bats --trace writes to an fd a test may close: the message
		// names the line in the function the DEBUG trap called.
		{"lineno-in-function-called-by-trap", "f() {\n  echo \"in f $LINENO\"\n  echo x >&7\n}\ntrap f DEBUG\ntrue\ntrap - DEBUG\ntrap 'f; echo \"top $LINENO\"' ERR\nfalse\n"},
		// bats-assert's failure traces name the line a multi-line call
		// is on: bash's is where the command's second word ends.
		{"lineno-multiline-simple-command", "f() { echo \"called from ${BASH_LINENO[0]}\"; }\nf \"a\nb\nc\"\necho \"x\ny\" $LINENO\nf a \\\n b\ntrap 'echo \"dbg $LINENO\"' DEBUG\necho \"p\nq\"\ntrap - DEBUG\ng() { false; }\ntrap 'echo \"err $LINENO\"' ERR\ng \"\n\"\nfalse \"\n\n\"\nif true\nthen f \"\n\"; fi\nf $(echo \"\n\")\n"},
		{"lineno-multiline-second-word", "f() { echo \"${BASH_LINENO[0]}\"; }\nf a \"b\nc\"\nf \\\n a\nf \\\n \"a\nb\"\nx=\"1\n2\" f\nf >/dev/stdout \"a\nb\"\n\"f\" \\\n\\\n a\necho \\\n$LINENO\nf\nf \"a\nb\" c \"d\ne\"\n"},
		{"lineno-multiline-declare", "f() {\n  local x=\"a\nb\" y\n  echo $LINENO\n  local \\\n    z=\"1\n2\"\n  echo \"$LINENO\"\n}\ntrap 'echo dbg $LINENO' DEBUG\nset -T\nf\nnope \"a\nb\" 2>&1\ntrue"},
		// bats's run captures "$@" 2>&1: one pipe for both, in order.
		{"subst-2to1-keeps-order", `for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do x=$(sh -c 'echo out; echo err >&2' 2>&1); echo $x; done | uniq -c`},
	})
}
