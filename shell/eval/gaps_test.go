package eval

import "testing"

// Gaps found by running material nobody wrote for qsh (the spec corpus,
// Debian's bash programs), fixed from bash's manual and checked here
// against bash with cases of our own.

// (( and $(( are arithmetic only when their parentheses close together;
// otherwise bash reads two nested ( — zdiff's `((gzip …) …)` is one.
func TestNestedSubshellParensAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"cmd", `((echo a) ); echo $?`},
		{"cmd-redir", `((echo a; echo b >&2) 2>&1) | tr a-z A-Z`},
		{"cmdsub", `x=$((echo 1) ); echo "$x"; y="$((echo 2 || echo 3)2>/dev/null)"; echo "$y"`},
		{"or-list", `if ! ((test a = b) || (test c = d)); then echo neither; fi`},
		{"multi-line", "((echo 1\necho 2\n) )\necho 3"},
		{"backquote", "v=`((echo in) ; (echo two) ) | head -n 1`; echo $v"},
		{"function", `f() { ((echo a) ); }; declare -f f; f`},
		{"still-arith", `(( (1+2)*3 == 9 )); echo $?; echo $(( (2) ))`},
		{"arith-error", `(( 1 + )); echo $?`},
	})
}

// The ERR trap is not inherited by functions, subshells and command
// substitutions unless errtrace (set -E) is on; a trap a function sets
// stays after it returns.
func TestErrTrapInheritanceAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"function-hidden", `trap 'echo err' ERR; f() { false; trap -p ERR; echo in-f; }; f; trap -p ERR`},
		{"function-status", `trap 'echo err' ERR; f() { false; }; f; echo $?`},
		{"function-own-trap", `trap 'echo outer' ERR; f() { trap 'echo inner' ERR; false; }; f; false; trap -p ERR`},
		{"errtrace-function", `set -E; trap 'echo err $LINENO' ERR; f() { false; true; }; f`},
		{"subshell", `trap 'echo err' ERR; (false; echo sub); (trap -p ERR; false)`},
		{"errtrace-subshell", `set -E; trap 'echo err' ERR; (false; echo sub); (false)`},
		{"errtrace-async", `set -E; trap 'echo err' ERR; { false; echo async; } & wait`},
		{"errtrace-cmdsubst", `set -E; trap 'echo err' ERR; x=$(false; echo y); echo "[$x]"`},
		{"functrace-subshell", `set -T; trap 'echo dbg' DEBUG; (:); trap - DEBUG; set +T; trap 'echo dbg' DEBUG; (:)`},
	})
}

// An assignment to a readonly variable abandons the rest of the line (of
// a -c string or an eval's text), not the shell; posix mode ends it.
func TestReadonlyAbandonsLineAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"same-line", `readonly x=1; x=2; echo not-here`},
		{"next-line", "readonly x=1\nx=2; echo not-here\necho next $?"},
		{"eval", `readonly x=1; eval 'x=2; echo not-here'; echo after $?`},
		{"subshell", "readonly x=1; (x=2; echo not-here); echo $?"},
		{"function", "readonly x=1; f() { x=3; echo not-here; }\nf\necho next $?"},
		{"append", "readonly -a a=(1)\na+=(4); echo not-here\necho \"${a[@]}\""},
		{"prefix", `readonly x=1; x=2 true; echo $?`},
		{"posix", "set -o posix; readonly x=1\nx=2\necho not-here"},
		{"posix-subshell", "set -o posix\nreadonly x=1\n(x=2); echo $?\nx=3\necho not-here"},
	})
}

// Builtins that only print report a failed write and fail, as bash's do.
func TestBuiltinWriteErrorsAgainstBash(t *testing.T) {
	var cases []bashCase
	for i, c := range []string{`type echo`, `declare -p PATH`, `alias a=b; alias`, `set`, `export -p`, `hash`,
		`help cd`, `shopt`, `set -o`, `readonly -p`, `enable`, `type -a ls`, `trap 'echo' INT; trap`, `umask`,
		`echo x`, `printf x`, `declare -p nosuch`, `type ls | true`} {
		cases = append(cases, bashCase{"w" + itoaTest(i), c + ` >/dev/full; echo "$?"`})
	}
	checkAgainstBash(t, cases)
}

// local alone lists the running function's locals, nothing else.
func TestLocalListAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"list", `g() { local a=1 b; local c=(1 2); local; echo --; local -p; local -p a; }; g`},
		{"none", `f() { local -p; echo "[$?]"; }; f`},
		{"nested", `f() { local x=1; g; }; g() { local y=2; local; }; f`},
	})
}

// What bats (a bash test framework) needs of the shell that runs it.
func TestBatsNeedsAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		// export -f passes functions to child shells, as bats' own
		// bats_readlinkf reaches its libexec scripts.
		{"export-f", `f() { echo "hi $1"; local x=1; }; export -f f; bash -c 'f there; declare -F f'; export -nf f; bash -c f 2>/dev/null; echo $?`},
		{"export-f-env", `f() { echo hi; }; export -f f; env | grep -c '^BASH_FUNC_f%%=() {'`},
		// A caller's readonly local may be shadowed, a readonly global not.
		{"readonly-local-shadow", `g() { local -ir w=2; echo g$w; }; f() { local -ir w=1; g; echo $w; }; f; f`},
		{"readonly-global-shadow", `readonly w=1; f() { local w=2; echo $w; }; f; echo $?`},
		// IFS before a command holds when a DEBUG trap split words first.
		{"debug-trap-ifs", `trap 'a=($x)' DEBUG; IFS=: read -r -a arr <<<"a:b c"; declare -p arr; x=$'a b\nc'; IFS=$'\n' read -d '' -r -a arr <<<"$x"; declare -p arr`},
	})
}

// Inside double quotes, single quotes in a ${…} default or alternate word
// are characters; in a pattern they still quote.
func TestQuotedDefaultWordAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"default", `echo "${un:-'g h'}" "${un-'a'}" ${un:-'b c'}; y=1; echo "${y:+'c'}" ${y:+'d'}`},
		{"pattern", `x=abc; echo "${x#'a'}" "${x/'b'/'X'}" "${x%'c'}" "${x//'b'}"`},
		{"ansi-c", `echo "${un:-$'a\tb'}"`},
		{"error", `echo "${un:?'m'}"`},
	})
}

// A failed redirection of exec alone fails the command; only posix mode
// ends the shell.
func TestExecRedirFailureAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"fallback", `exec 3<missing || echo fallback; echo after $?`},
		{"status", `exec 3<missing; echo after $?`},
		{"function", `f(){ exec 3<missing; echo in $?; }; f; echo after`},
		{"subshell", `(exec 3<missing; echo sub $?); echo after $?`},
		{"write", `exec 3>nodir/x || echo fb; echo done`},
		{"posix", `set -o posix; exec 3<missing; echo after $?`},
	})
}

// set -n reads commands and runs none, not even the EXIT trap.
func TestNoexecAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"same-line", `set -n; echo hi`},
		{"next-line", "set -n\necho hi\nexit 3"},
		{"function", `f(){ set -n; echo in; }; f; echo out`},
		{"exit-trap", `trap 'echo t' EXIT; false; set -n; echo x`},
		{"syntax", "set -n\necho a\nfi"},
	})
}

// Variables bash sets that a -c string sees.
func TestStartVarsAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"versinfo-machine", `[ "${BASH_VERSINFO[5]}" = "$MACHTYPE" ] && echo same`},
		{"histcmd", `declare -p HISTCMD; HISTCMD=5; echo $HISTCMD; unset HISTCMD; echo "[$HISTCMD]"`},
		{"bash-argv", `declare -p BASH_ARGV BASH_ARGC`},
		{"suspend", `suspend; echo $?`},
	})
}

// A command substitution reads until every writer is gone: a background
// job started in it and still holding its output is waited for.
func TestSubstWaitsForWritersAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"group", `x=$( { sleep 0.1; echo bg; } & ); echo "[$x]"`},
		{"and-list", `x=$(sleep 0.1 && echo late &); echo "[$x]"`},
		{"stderr-writer", `x=$(sleep 0.1 && echo late >&2 &); echo "[$x]"`},
		{"subshell", `x=$( (echo a; echo b) & echo c; wait); echo "$x" | sort`},
	})
}

// ${!ref} of a nameref is its target's name; unset of a[@] empties an
// indexed array and is the key @ of an associative one.
func TestNamerefIndirectAndUnsetAllAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"nameref-indirect", `a=x; declare -n r=a; echo ${!r} ${!r/a/b} ${!r:-d} "${!r@Q}"`},
		{"nameref-elem", `b=(1 2); declare -n z=b[1]; echo ${!z}`},
		{"nameref-unset", `declare -n e; echo "[${!e}]"; echo not-here`},
		{"unset-all-indexed", `a=(1 2); unset "a[@]"; declare -p a; b=(3); unset b[*]; declare -p b`},
		{"unset-all-keeps-attrs", `declare -ai n=(1); unset 'n[@]'; n+=(3); declare -p n`},
		{"unset-all-assoc", `declare -A h=([k]=1 [@]=2 [*]=3); unset "h[@]"; declare -p h; unset "h[*]"; declare -p h`},
		{"unset-all-scalar", `x=1; unset "x[@]"; echo $?; declare -p x`},
	})
}

// A leading ~ of ${x/p/rep}'s replacement is expanded, quoted or not.
func TestReplacementTildeAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"tilde", `x=abc; echo ${x/b/~} "${x/b/~}" ${x//b/~/d} ${x/b/\~} "${x/b/"~"}" ${x/b/a~}`},
		{"home-ampersand", `HOME='/h/&'; x=abc; echo ${x/b/~} "${x/b/~}"`},
		{"no-patsub", `shopt -u patsub_replacement; HOME=/h; x=abc; echo ${x/b/~} "${x/b/~}"`},
	})
}

// Empty arithmetic is 0; a key with blanks is one key. The parser refuses
// both; lenient.go makes them text it takes.
func TestEmptyArithAndBlankKeysAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"empty-arith", `echo $(()) $(( )) "$(( ))" $[ ]; (( )); echo $?; a[$(( ))]=1; declare -p a`},
		{"empty-arith-lines", "echo $((\t))\necho $LINENO"},
		{"assoc-blank-keys", `declare -A h=([a b]=1 ["c d"]=2 [e\ f]=3 [x]=4); declare -p h`},
		{"assoc-blank-append", `declare -A h; h+=([p q]=5); echo "${h[p q]}" ${h[p q]:-no} ${#h[p q]} ${h[no such]-unset}`},
		{"indexed-blank-arith", `a=([1 + 1]=x [ 3 ]=y); declare -p a; echo ${a[1 + 1]}`},
	})
}

// exec's redirections before one that failed are undone.
func TestExecRedirUndoAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"undo-earlier", `exec 4>/dev/null 3<missing; echo $?; echo x >&4 && echo four-open`},
		{"same-fd-twice", `exec 3>a 3>b; echo x >&3; cat a b; exec 3>c 3<missing; echo y >&3; cat b c`},
		{"kept", `exec 3>a 4>&3; echo x >&4; exec 3>&-; echo y >&4; cat a`},
	})
}
