package eval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/internal/needs"
)

// Behaviours fixed against bash, each a case that runs in bash and
// in-process and must print and exit alike (see bash_test.go).

func TestTypeAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"relative-entries", `mkdir d d/sub bin; touch d/plain; printf '#!/bin/sh\necho hi\n' > bin/x; chmod +x bin/x; cp bin/x y
PATH=d:bin:; type -t sub; type sub; type x y; command -v x y; command -V x y; type -p x y
PATH=.:bin; type y; command -v y; command -V y; hash; y; hash; type y; command -v y; command -V y; hash -l
hash -t y; type -P y x; echo $?; type -a y; type -t /bin/ls ./y; type -P ls; hash -t ls`},
		{"not-executable", `mkdir d; touch d/plain; PATH=d:/usr/bin; type -a plain; echo $?; command -v plain; plain; echo $?; hash`},
		{"tilde-entry", `mkdir tbin; printf '#!/bin/sh\necho hi\n' > tbin/zz; chmod +x tbin/zz; PATH="~/tbin:/usr/bin"; type zz; zz; type -a zz`},
		{"last-flag-wins", `f() { :; }; type -tp f ls; type -pt f ls; type -Pt ls; type -tP ls; echo $?`},
		{"builtin-p", `type -p cd echo; echo $?; type -P cd; echo $?`},
		{"command-v-status", `command -v nosuch echo; echo $?; command -v nosuch; echo $?; command -V nosuch echo; echo $?`},
		{"command-p", `hash -r; command -p -v ls; command -pV ls; hash; PATH=/nowhere; command -p ls /dev/null; echo $?`},
		{"alias-needs-expand", `alias ll='ls -l'; type -t ll; echo $?; command -v ll; echo $?; shopt -s expand_aliases; type -t ll; command -v ll`},
		{"posix-special", `set -o posix; type export cd`},
		{"absolute", `type /bin/sh /nonexistent; echo $?; type -t /bin/sh; command -v /bin/sh /nonexistent; echo $?`},
		{"builtin-flags", `builtin -x; echo $?; builtin -- echo hi; builtin`},
	})
}

func TestHashAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"order", `hash ls cat sed awk grep tr sort head tail wc cut id env; hash; hash -l`},
		{"hits", `hash ls; type ls; hash -t ls; ls >/dev/null; ls >/dev/null; hash`},
		{"needs-arg", `hash -d; echo $?; hash -t; echo $?; hash -r; hash; hash -l; echo $?`},
		{"p-dir", `hash -p /tmp foo; echo $?; hash -p /bin/ls 'a b'; hash -l; hash -t 'a b' ls; echo $?`},
		{"function-builtin", `f() { :; }; hash f cd; echo $?; hash`},
		{"disabled", `set +h; hash -r; echo $?; set -h; hash; echo $?`},
		{"unset-path", `hash ls; unset PATH; hash; PATH=/usr/bin:/bin; hash cat; hash`},
		{"gone", `cp /bin/true t; hash -p $PWD/t t; rm t; t; echo $?`},
		{"exec-denied", `mkdir d; touch d/plain; PATH=$PWD/d; plain; echo $?; ./d/plain; echo $?; ./d; echo $?`},
		{"bad-interpreter", `printf '#!/nonexistent/sh\n' > s; chmod +x s; ./s; echo $?; PATH=.; s; echo $?`},
	})
}

// exec's failures, in subshells so that nothing replaces the test's
// process if one started.
func TestExecErrorsAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"dir", `(exec /tmp); echo $?`},
		{"not-found", `(exec nosuch); echo $?`},
		{"not-found-path", `(exec ./nosuch/x); echo $?; (exec .//nosuch); echo $?; (exec d/../nosuch); echo $?`},
		{"denied", `mkdir d; touch d/plain; (exec ./d/plain); echo $?; (PATH=$PWD/d; exec plain); echo $?; (exec d/./plain); echo $?`},
		{"no-interpreter", `printf "#!/nonexistent/sh\n" > s; chmod +x s; (exec ./s); echo $?`},
		{"dir-in-cwd", `mkdir d; (exec d); echo $?`},
		{"execfail", `shopt -s execfail; exec /tmp; echo $?; exec nosuch; echo $?; exec ./nosuch; echo $?; exec -x; echo $?`},
		{"main-shell-exits", `exec nosuch; echo not-here`},
		{"main-shell-dir", `exec /tmp; echo not-here`},
		{"script", `printf 'echo from script "$0" "$1"\n' > s; chmod +x s; (exec ./s a); echo $?`},
	})
}

func TestTestBuiltinAgainstBash(t *testing.T) {
	var cases []bashCase
	for i, c := range []string{
		`test a =~ a`, `test a -a b c`, `[ 1 -eq 1 -a ]`, `[ a b c d e ]`, `[ a = a -x b ]`, `[ \( a b ]`,
		`[ \( a = a b ]`, `[ -t ]`, `test -t 0 x y`, `[ 1 -eq " 2" ]`, `[ 1 -eq "2 " ]`, `[ 1 -eq +2 ]`,
		`[ 1 -eq 0x1 ]`, `[ a -lt b ]`, `test ! ! a`, `test -o`, `test -o noclobber`, `test -o nosuch`,
		`[ a \< b ]`, `test a -nt`, `test -a a -a`, `test \( \)`, `test ! \( a \) -a b`, `test -z -a -z`,
		`test x -a \( -z \)`, `test ! -a`, `test -n -o -z`, `test ! = !`, `test \( ! \)`, `test ! ! ! -z x`,
		`test -t x`, `test -t 99`, `test a -o b -a ""`, `test "" -o "" -o x`, `[ ! ]`, `[ ]`, `[ -e ]`,
		`test \( a -a \( b -o "" \) \)`, `test -e / -a -d / -a ! -f /`, `test 9223372036854775808 -gt 1`,
		`test -v PATH -a -v NOPE`, `test -R x`, `[ ! "" -a a ]`, `[ 1 -ef 1 ]`, `test / -ef /.`,
	} {
		cases = append(cases, bashCase{string(rune('a'+i%26)) + "-" + itoaTest(i), c + `; echo "$?"`})
	}
	checkAgainstBash(t, cases)
}

func itoaTest(i int) string { return string(rune('0'+i/10)) + string(rune('0'+i%10)) }

// Signals and traps run in a helper process: kill $$ reaches the process
// the evaluator runs in.
func TestTrapAgainstBash(t *testing.T) {
	checkAgainstBashIn(t, []bashCase{
		{"kill-l", `kill -l 0 EXIT sigexit 1 129 32 33 64 65 -1 x; echo $?; trap -l | tail -1; kill -l | head -1`},
		{"kill-l-posix", `set -o posix; kill -l; trap -l | head -2; kill -l 9`},
		{"trap-args", `trap foo; echo $?; trap -x; echo $?; trap -- -- USR1; trap -p USR1; trap -p NOSUCH; echo $?`},
		{"trap-number-first", `trap 'echo a' USR1 INT HUP; trap 1 INT; trap -p; trap 0; trap INT; trap -p`},
		{"trap-posix", `set -o posix; trap 'echo a' USR1; trap "" INT; trap; trap -p | head -4; trap -p | tail -3; trap USR1; echo $?`},
		{"trap-ignored-quoting", `trap "" USR1; trap "it's" USR2; trap -p`},
		{"untrapped-term-runs-exit-trap", `trap 'echo exit-trap $?' EXIT; kill -TERM $$; echo after`},
		{"untrapped-usr1", `trap 'echo exit-trap' EXIT; kill -USR1 $$; echo after`},
		{"ignored-then-default", `trap '' USR2; kill -USR2 $$; echo ignored; trap - USR2; kill -USR2 $$; echo not-here`},
		{"trapped-each-time", `n=0; trap 'n=$((n+1))' USR1; for i in 1 2 3; do kill -USR1 $$; done; echo $n`},
		{"kill-0-self", `kill -0 $$; echo $?; kill -s 0 $$; echo $?`},
		{"trap-in-trap", `trap 'echo usr1; kill -USR2 $$; echo back' USR1; trap 'echo usr2' USR2; kill -USR1 $$; echo end`},
	}, runInHelper)
}

func TestPosixSpecialUsageAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"trap", `set -o posix; trap USR1; echo $?`},
		{"export", `set -o posix; export -x; echo $?`},
		{"shift", `set -o posix; shift 5; echo $?`},
		{"unset", `set -o posix; unset -x; echo $?`},
		{"set", `set -o posix; set -o nosuch; echo $?`},
		{"command", `set -o posix; command trap USR1; echo $?`},
		{"not-posix", `trap USR1; echo $?; export -x; echo $?`},
	})
}

func TestNounsetAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"top", `set -u; echo $nosuch; echo after`},
		{"subshell", `set -u; (echo $nosuch; echo in); echo st=$?`},
		{"subst", `set -u; x=$(echo $nosuch; echo in); echo st=$? "$x"`},
		{"group", `set -u; { echo $nosuch; echo in; }; echo st=$?`},
		{"function", `set -u; f() { echo $nosuch; echo in; }; f; echo st=$?`},
		{"pipe", `set -u; echo $nosuch | cat; echo st=$?`},
		{"question", `set -u; : ${nosuch?}; echo st=$?`},
		{"question-sub", `set -u; (: ${nosuch?}); echo st=$?`},
		{"question-msg", `(: ${nosuch?x}); echo st=$?`},
		{"line2", `set -u
echo $nosuch`},
		{"array", `set -u; a=(); echo "${a[@]}"; echo "${#a[@]}"; echo ${a[0]}; echo st=$?`},
		{"positional", `set -u; echo "$@"; echo $1; echo after`},
	})
}

func TestSetAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"listing-quotes", `_a=""; _b=x; _c='~x'; _d='a~b'; _e='#x'; _f='a#b'; _g='p:~'; _h='x=~'; _i='a^b'; _j=$'\x01'
set | grep '^_[a-j]='`},
		{"dash", `set -- a b; set -; echo $#; set -x; set - ; echo $- ; set - c; echo $# $1`},
		{"plus-o", `set +o | head -5; set -o | head -3`},
		{"bad-option", `set -o nosuch; echo $?; set +o nosuch; echo $?; set -Z; echo $?; shopt -s nosuch; echo $?`},
	})
}

func TestOptionListsAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"set-o", `set -o`},
		{"set+o", `set +o`},
		{"shopt", `shopt`},
		{"shopt-p", `shopt -p`},
		{"shopt-op", `shopt -op; shopt -o`},
		{"shopt-s-u", `shopt -s; echo; shopt -u | head -5; shopt -ps | head -3`},
		{"vars", `echo $- "$SHELLOPTS"; echo "$BASHOPTS"`},
		{"after", `set -euf -o pipefail; shopt -s extglob nullglob; echo $- "$SHELLOPTS"; echo "$BASHOPTS"; shopt -p extglob nullglob; shopt -q extglob; echo $?`},
		{"shopt-errors", `shopt -p nosuch extglob; echo $?; shopt -q nosuch; echo $?; shopt -s -u extglob; echo $?; shopt -x; echo $?`},
		{"shopt-o-names", `shopt -s -o errexit; echo $-; shopt -o errexit nounset; shopt -so nosuch; echo $?`},
		{"readonly-shellopts", `SHELLOPTS=x; echo $?; BASHOPTS=y; echo $?`},
	})
}

func TestReadonlyAssignAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"plain", `readonly x=1; x=2; echo st=$?`},
		{"before-command", `readonly x=1; x=2 true; echo st=$?`},
		{"subshell", `readonly x=1; (x=2; echo in); echo st=$?`},
		{"function", `readonly x=1; f() { x=2; echo in; }; f; echo st=$?`},
		{"append", `readonly x=1; x+=2 ; echo st=$?`},
		{"declare", `readonly x=1; declare x=2; echo st=$?; x=(1); echo st=$?`},
		{"shellopts", `SHELLOPTS=x; echo $?`},
		{"bashopts", `(BASHOPTS=y; echo $?); echo $?`},
		{"for", `readonly x=1; for x in a; do echo in; done; echo st=$?`},
		{"read", `readonly x=1; read x <<< a; echo st=$?`},
		{"arith", `readonly x=1; (( x = 2 )); echo st=$?; let x=3; echo st=$?`},
	})
}

func TestReadonlyArithAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"for", `readonly x=1; for ((x=0; x<1; x++)); do :; done; echo $?`},
		{"elem", `declare -a y; readonly y; ((y[1]=2)); echo $?`},
		{"expansion", `readonly x=1; echo $((x=3)); echo $?`},
	})
}

func TestSliceEmptyAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"empty-offset", `x=abc; echo "[${x::0}]" "[${x::2}]" "[${0::0}]"`},
		{"empty-length", `x=abc; echo "[${x: :1}]" "[${x:1:}]"; set -- a b c; echo "[${@::2}]" "[${@:1:}]"; a=(p q); n=1; echo "[${a[@]:0:}]" "[${x:$n:}]" "[${x:n+1:}]"`},
	})
}

// Syntax errors as bash words them, and what runs before them. Left
// out: [[ ]]'s own messages, `! !` (bash takes it), and errors inside
// backquotes (bash parses them only when it runs them).
func TestSyntaxErrorsAgainstBash(t *testing.T) {
	var cases []bashCase
	for i, code := range []string{
		`echo )`,
		`echo a; echo )`,
		`foo$identity('z')`,
		`f$x() { echo body; }`,
		`export A-B=1`,
		`echo "unclosed`,
		`echo 'unclosed`,
		"echo `unclosed",
		`echo $(unclosed`,
		`if true; then echo`,
		`if true; fi`,
		`fi`,
		`done`,
		`then`,
		`while true; do echo; od`,
		`case x in a) echo;; esac; esac`,
		`for 1 in a; do :; done`,
		`echo ${x`,
		`echo $((1+`,
		`(echo a`,
		`{ echo a`,
		`echo a |`,
		`echo a &&`,
		`echo a ||`,
		`| echo`,
		`&& echo`,
		`; echo`,
		`;;`,
		`echo a;;`,
		`echo a & ;`,
		`f() echo`,
		`f()`,
		`x=(a b`,
		`echo <`,
		`echo >`,
		`cat <<EOF
abc`,
		`echo a >&`,
		`a=(1 2)) `,
		`echo ${a[}`,
		`{ }`,
		`( )`,
		`if ; then :; fi`,
		`while ; do :; done`,
		`echo a
)`,
		`echo $(echo ))`,
		`function { :; }`,
		`case`,
		`case x`,
		`case x in`,
		`for`,
		`for x`,
		`for x in`,
		`select`,
		`echo a 2>`,
		`echo ((`,
		`((1+`,
		`(( `,
		`echo $[1+`,
		`echo a } `,
		`}`,
		"echo a\necho \"x\ny",
		"echo \"x\n\n\n",
		"if true; then\n",
		"if true; then\necho\n\n",
		"echo $(a\nb",
		"echo ${x\n",
		"x=(a\n",
		"echo <\n",
		"echo a |\n",
		"f()\n",
		"cat <<EOF\nabc\n",
		"cat <<EOF\nabc",
		"cat <<EOF\nabc\n\n",
		"echo a\n((1+\n",
		"echo a\n(echo\n\n",
		"echo 1; echo 2 )\necho 3",
		"echo 1\necho 2; echo )",
		"cat <<'E'\nx $y\n",
		"cat <<-E\n\tx\n",
		"f$x() { echo body; }; echo $?",
		"for 1 in a; do :; done; echo $?; for a-b in x; do :; done; echo $?; select 1 in a; do :; done; echo $?",
		"cat <<-E\n\tx $HOME\n\t\ty\n  \tz\nE\ncat <<-\"E\"\n\tq\n\tE\n",
		"alias x='echo aliased'; x 1\nx 2",
		"shopt -s expand_aliases; alias x='echo aliased'; x 1\nx 2",
		"shopt -s expand_aliases\nif true; then\n alias y='echo y'\n y 1\nfi\ny 2",
		"shopt -s expand_aliases; alias z='echo z'; eval 'z 1'; f() { z 2; }; f",
		"export A-B=1 C=2; echo $? $C; local a-b=1; echo $?",
		"eval \"echo )\"; echo $?",
		"eval \"if\"; echo $?",
		"f() { eval \"if\"; }; f; echo $?",
		"echo \"echo )\" > f; . ./f; echo $?",
		"echo \"echo \\\"\" > f; . ./f; echo $?",
		"x=$(echo \")\"; echo a",
	} {
		cases = append(cases, bashCase{"e" + itoaTest(i), code})
	}
	checkAgainstBash(t, cases)
}

func TestDebugTrapAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"pipeline", `trap "echo T \$BASH_COMMAND >&2" DEBUG; echo a | cat; echo b`},
		{"compound", `trap 'echo T $BASH_COMMAND >&2' DEBUG; (echo a; echo b); x=$(echo c); { echo d; echo e; } | cat; f() { echo f; }; f | cat; echo g`},
		{"in-trap", `trap 'echo "[$BASH_COMMAND]"' USR1; f() { kill -USR1 $$; }; trap 'echo "<$BASH_COMMAND>"' EXIT; echo x`},
		{"err-trap", `trap 'echo "err: $BASH_COMMAND"' ERR; false; ls /nonexistent 2>/dev/null; echo end`},
	})
}

func TestBashCommandAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"redirections", `trap 'printf "[%s]\n" "$BASH_COMMAND" >&2' DEBUG; echo   a    "b  c" >/dev/null; echo x 2>/dev/null >&2; echo y 2>&1 >>/dev/null </dev/null; echo z &>/dev/null; x=1   y=2 true
echo $((1 +  2)) >| /dev/null 3<>/dev/null 4>&- {fd}>/dev/null; exec {fd}>&-`},
		{"heredoc", `trap 'printf "[%s]\n" "$BASH_COMMAND" >&2' DEBUG; cat <<EOF >/dev/null
hi $x
EOF
cat <<-"E" 2>&1
	x
	E
echo a <<<"here" 5>&1 >&- <&-`},
		{"words", `trap 'printf "[%s]\n" "$BASH_COMMAND" >&2' DEBUG; echo a 2>&1; echo "$(date +%s   )"  ; a[1]=2; f=(1 2); echo ${a[@]} # comment
echo a\
b`},
	})
}

func TestClosedStdoutAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"echo", `echo a >&-; echo st=$?`},
		{"printf", `printf x >&-; echo st=$?; printf '' >&-; echo st=$?`},
		{"read-only", `echo a 1</dev/null; echo st=$?`},
		{"stderr", `ls /nonexistent 2>&-; echo st=$?; echo b 2>&-`},
		{"cat-after", `cat <<-"E" 2>&1
	x
	E
echo a >&-; echo st=$?`},
	})
}

// Gaps the issue named, closed.
func TestGapsAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"quoted-compound", "declare -a x='(1 2 3)'; declare -p x; declare -A m='([a]=1)'; declare -p m; declare -a y='[2]=z'; declare -p y; y2='(4 5)'; declare -a y2; declare -p y2; declare -a z=\"($(echo 7) 8)\"; declare -p z; declare w='(1 2)'; declare -p w"},
		{"procsubst-closed", `echo hello > >(cat); wait; echo done; for i in 1 2 3; do cat <(echo $i); done; f() { cat "$1"; }; f <(echo fn); diff <(echo a) <(echo a) && echo same; while read l; do echo "r $l"; done < <(printf '1\n2\n')`},
		{"local-dash", `f() { local -; set -e; set -o pipefail; shopt -s extglob; echo "$- $SHELLOPTS"; }; f; echo "$- $SHELLOPTS"; shopt -p extglob; g() { local - x=1; set -u; echo "$x $-"; }; g; echo "$-"; local -; echo $?`},
		{"bad-subscript", `a=(1 2); echo "${a[-3]}" "${a[@]:0:1}"; x=$((a[-3])); echo $x; [[ -v a[-3] ]]; echo $?; b=5; echo "${b[-2]}"`},
		{"source-missing", `. nosuch; echo $?; source ./nosuch; echo $?; . /tmp; echo $?; mkdir d; . d; echo $?; set -o posix; . nosuch; echo $?`},
		{"localvar-unset", `shopt -s localvar_unset; x=g; f() { local x=l; unset x; echo "[${x-unset}]"; }; f; g() { local x=l; h; echo "[${x-unset}]"; }; h() { unset x; }; g`},
		{"localvar-unset-off", `x=g; f() { local x=l; unset x; echo "[${x-unset}]"; }; f; g() { local x=l; h; echo "[${x-unset}]"; }; h() { unset x; }; g`},
		{"set-v", `set -v; echo a; x=1 # c
echo b
set +v; echo c`},
		{"bang-pipeline", `sleep 0 | sleep 0 & p=$!; wait; jobs -l >/dev/null; echo ok`},
		{"nul-arg", `printf 'a\0b' > f; x=$(cat f); echo "${#x}"; printf '%s\n' "$(printf 'x\0y')"`},
		{"umask-sub", `umask 022; (umask 077; umask); umask; x=$(umask 0; umask); echo $x; umask`},
		{"ulimit-sub", `(ulimit -n 64; ulimit -n); ulimit -n >/dev/null; echo ok`},
		{"command-v-statuses", `command -v ls >/dev/null; echo $?; command -v nosuch; echo $?; command -v; echo $?; command -V; echo $?`},
	})
}

func TestVerboseAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"lines", "set -v\n# c\neval \"echo x\"\necho \"a\nb\"\ncat <<E\nbody\nE\necho end # t\n\n# last"},
		{"same-line", "set -v; echo a; x=1 # c\necho b\nset +v; echo c\necho d"},
		{"source", "printf 'echo s1\\n# sc\\necho s2' > f; set -v; . ./f; echo after"},
		{"function", "set -v\nf() {\n  echo in\n}\nf; f"},
		{"heredoc-two", "set -v\ncat <<A; cat <<B\n1\nA\n2\nB\necho z"},
	})
}

// eval reads a line at a time. (Its line numbers are left out: bash
// counts an eval's lines on from the line it is on and keeps the count
// after it, which qsh does not copy.)
func TestEvalLinesAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"before-error", `eval "echo a
echo )" 2>/dev/null; echo st=$?; eval "echo b; echo )" 2>/dev/null; echo st=$?`},
		{"bad-subst", `eval 'echo ${x&}
echo after' 2>/dev/null; echo out $?`},
		{"alias-next-line", `shopt -s expand_aliases; eval 'alias e=echo; e 1
e 2' 2>/dev/null`},
		{"status", `eval 'false'; echo $?; eval ''; echo $?; false; eval ' '; echo $?`},
		{"return", `f() { eval 'return 3'; echo no; }; f; echo $?`},
		// eval's text starts on the eval's line: LINENO, and the line of
		// its syntax errors (shunit2's tests compare such messages).
		{"lineno", `:
eval $'echo $LINENO\necho $LINENO'
eval $'\n\necho "x'
echo $LINENO`},
		{"lineno-func", `eval $'\n\ng() {\n echo $LINENO\n}'
g; f() { eval 'echo $LINENO'; }
f`},
	})
}

// A here-document or here-string shares its offset with the programs
// that inherit it, as bash's file does: a program that reads none of it
// leaves the rest to the loop around it.
func TestHereDocSharedAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"loop-program", `while read -r a b; do /bin/true; printf '%s,' "$a"; done <<E
one 1
two
three 3
E
echo`},
		{"loop-expr", `while read -r a; do v=$(expr "$a" : '\([0-9]*\)'); (expr 1 : 1 >/dev/null); echo "$a $v"; done <<E
1x
y
22
E`},
		{"here-string", `while read a; do env true; echo "$a"; done <<< $'a\nb\nc'`},
		{"read-then-cat", `{ read x; echo "[$x]"; cat; read y; echo "[$y]"; } <<E
1
2
3
E`},
		{"head-then-read", `{ head -n1; read x; echo "[$x]"; } <<E
1
2
3
E`},
		{"large-file", `{ head -n1; read -r x; echo "[$x]"; } <<E
$(seq 16000)
E`},
		{"fd3", `exec 3<<E
a
b
E
sh -c 'read l <&3; echo "sh $l"'; read -u3 l; echo "[$l]"; exec 3<&-`},
	})
}

func TestCoprocAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"coproc-default", `coproc { read x; echo "got $x"; }; echo hi >&"${COPROC[1]}"; read y <&"${COPROC[0]}"; echo "$y"; [ -n "$COPROC_PID" ] && echo pid; wait`},
		{"coproc-named", `coproc NAME { echo out; }; read l <&"${NAME[0]}"; echo "$l"; [ "$NAME_PID" -gt 0 ] && echo ok; wait`},
		{"coproc-simple", `coproc cat; echo x >&${COPROC[1]}; exec {COPROC[1]}>&-; read r <&${COPROC[0]}; echo $r; wait`},
		{"fds", `exec 2>err; coproc cat; echo ${COPROC[@]}; coproc X { cat; }; echo ${X[@]}; declare -p COPROC | sed 's/"[0-9][0-9]*"/N/'; kill $COPROC_PID $X_PID; wait 2>/dev/null; sed 's/\[[0-9]*:/[N:/' err`},
		{"array-fd", `exec {a[1]}>f; echo x >&${a[1]}; exec {a[1]}>&-; cat f; declare -p a | sed 's/[0-9][0-9]*"/N"/'; declare -A m; exec {m[k]}>g; echo y >&${m[k]}; exec {m[k]}>&-; cat g`},
		{"not-inherited", `coproc cat; ls -l /proc/self/fd 2>/dev/null | grep -c ' 6[0-3] ->'; exec {COPROC[1]}>&-; wait`},
		{"bad-name", `coproc a-b { :; }; echo $?`},
	})
}

func TestBackgroundPidAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"pipeline-last", `true | sh -c 'echo $$ > p' & wait; [ "$(cat p)" = "$!" ] && echo same`},
		{"simple", `sh -c 'echo $$ > p' & wait; [ "$(cat p)" = "$!" ] && echo same`},
		{"three", `true | true | sh -c 'echo $$ > p' & wait; [ "$(cat p)" = "$!" ] && echo same`},
	})
}

// A program killed by a signal, reported as bash does (the process ID
// hidden). Left out: a background job's report at wait, and a subshell
// bash ends by exec'ing its last program, which bash reports as the
// subshell.
func TestSignaledAgainstBash(t *testing.T) {
	var cases []bashCase
	for _, s := range []string{"KILL", "ABRT", "USR1", "QUIT", "ALRM", "TERM", "INT", "PIPE", "SEGV", "HUP"} {
		cases = append(cases, bashCase{s, `exec 2>err; sh -c 'kill -` + s + ` $$'; echo st=$?; sed 's/ [0-9][0-9]* / PID /' err`})
	}
	cases = append(cases,
		bashCase{"pipeline-first", `exec 2>err; sh -c 'kill -KILL $$' | cat; echo st=$?; sh -c 'kill -TERM $$' | cat; cat err`},
		bashCase{"redirs", `exec 2>err; sh -c 'kill -KILL $$' >/dev/null   2>&1; sed 's/ [0-9][0-9]* / PID /' err`},
	)
	checkAgainstBash(t, cases)
}

func TestArithErrorsAgainstBash(t *testing.T) {
	var cases []bashCase
	// `)` and `(1` are left out: unbalanced parentheses are syntax
	// errors whose token the parser places elsewhere than bash.
	for i, e := range []string{`1+`, `1 2`, `08`, `2#3`, `1/0`, `x[`, `1 +* 2`, `1 ? 2`, `a=`, `++`, `1=2`, `0x`, `64#_`, `65#1`, `1 ** -1`, `"1"`, `$x+`, `1,`, `~`, `!`, `1 < < 2`} {
		cases = append(cases, bashCase{"e" + itoaTest(i), `x=; echo $((` + e + `)); echo st=$?`})
		cases = append(cases, bashCase{"c" + itoaTest(i), `x=; (( ` + e + ` )); echo st=$?`})
	}
	cases = append(cases,
		bashCase{"let-quoted", `let '1 +'; echo $?; let "x = 1 + 2" 'y=x*2'; echo $x $y; let; echo $?`},
		bashCase{"let-words", `x=3; let x+=1 y=x; echo $x $y; let 'a b'; echo $?`},
		bashCase{"constant-in-expr", `(( 1 + 08 )); (( 08 + 1 )); (( 2#3 + 1 )); echo $(( 1 + 08 ))`},
	)
	checkAgainstBash(t, cases)
}

// Programs Debian ships in bash, run as `bash FILE ARGS` where they
// change nothing, and compared: 43 runs of 33 programs (issue 21's bar is
// 25 of 30 behaving as in bash); each is skipped where it is not
// installed.
func TestRealScriptsAgainstBash(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
	}{
		{"/usr/bin/ldd", []string{"--help"}},
		{"/usr/bin/ldd", []string{"--version"}},
		{"/usr/bin/ldd", []string{"--nosuch"}},
		{"/usr/bin/ldd", nil},
		{"/usr/bin/ldd", []string{"/nonexistent"}},
		{"/usr/bin/memusage", []string{"--help"}},
		{"/usr/bin/memusage", []string{"--nosuch"}},
		{"/usr/bin/sotruss", []string{"--help"}},
		{"/usr/bin/sotruss", []string{"--version"}},
		{"/usr/bin/tzselect", []string{"--help"}},
		{"/usr/bin/tzselect", []string{"--version"}},
		{"/usr/sbin/service", []string{"--help"}},
		{"/usr/sbin/service", []string{"--version"}},
		{"/usr/sbin/blkdeactivate", []string{"-h"}},
		{"/usr/sbin/e2scrub", []string{"-h"}},
		{"/usr/sbin/update-java-alternatives", []string{"--help"}},
		{"/usr/lib/git-core/git-subtree", []string{"-h"}},
		{"/usr/lib/git-core/git-quiltimport", []string{"-h"}},
		{"/usr/lib/git-core/git-request-pull", nil},
		{"/usr/lib/git-core/git-merge-octopus", nil},
		{"/usr/lib/git-core/git-submodule", []string{"-h"}},
		{"/usr/lib/git-core/git-bisect", []string{"-h"}},
		{"/usr/lib/git-core/git-mergetool", []string{"--tool-help"}},
		{"/usr/lib/git-core/git-difftool--helper", nil},
		{"/usr/bin/gcore", []string{"-h"}},
		{"/usr/bin/migrate-pubring-from-classic-gpg", []string{"--help"}},
		{"/usr/bin/pg_virtualenv", []string{"--help"}},
		{"/usr/sbin/e2scrub_all", []string{"-h"}},
		{"/usr/sbin/make-ssl-cert", nil},
		{"/usr/sbin/update-java-alternatives", []string{"-l"}},
		{"/usr/sbin/update-ca-certificates", []string{"--help"}},
		{"/usr/lib/perf-core/perf-archive", []string{"--help"}},
		{"/usr/share/doc/util-linux/examples/getopt-example.bash", []string{"-a", "--c-long=x", "-b", "y", "z"}},
		{"/usr/share/doc/util-linux/examples/getopt-example.bash", []string{"--nosuch"}},
		{"/usr/lib/systemd/user-environment-generators/90gpg-agent", nil},
		{"/usr/bin/gettext.sh", nil},
		{"/usr/bin/lesspipe", []string{"/etc/hostname"}},
		{"/usr/bin/which", []string{"ls", "sh", "nosuch"}},
		{"/usr/bin/zdiff", []string{"/etc/hostname", "/etc/hostname"}},
		{"/usr/bin/zgrep", []string{"root", "/etc/passwd"}},
		{"/usr/bin/gunzip", []string{"--help"}},
		{"/usr/bin/xzdiff", []string{"/etc/hostname", "/etc/hostname"}},
		{"/usr/bin/xzgrep", []string{"root", "/etc/passwd"}},
	} {
		if _, err := os.Stat(c.name); err != nil {
			continue
		}
		t.Run(filepath.Base(c.name)+"-"+strings.Join(c.args, "_"), func(t *testing.T) {
			t.Parallel()
			runScriptBoth(t, c.name, c.args...)
		})
	}
}

// bash-completion's library, sourced with complete and compopt (package
// shell's builtins) as functions that do nothing, its helpers called.
func TestBashCompletionLibAgainstBash(t *testing.T) {
	const lib = "/usr/share/bash-completion/bash_completion"
	needs.File(t, lib, "bash-completion")
	pre := `complete() { :; }; compopt() { :; }; compgen() { :; }; . ` + lib + ` >/dev/null 2>&1; echo sourced $?
`
	var cases []bashCase
	for i, c := range []string{
		`f() { local a b; _upvars -v a 1 -a2 b x y; echo "$a ${b[*]}"; }; f`,
		`f() { local cur prev words cword; COMP_WORDS=(git commit -m "a b"); COMP_CWORD=3; COMP_LINE='git commit -m "a b"'; COMP_POINT=${#COMP_LINE}; _get_comp_words_by_ref cur prev words cword; echo "[$cur] [$prev] ${#words[@]} $cword"; }; f`,
		`f() { local cur prev words cword split; COMP_WORDS=(cmd --opt=val); COMP_CWORD=1; COMP_LINE='cmd --opt=val'; COMP_POINT=${#COMP_LINE}; _init_completion -s; echo "[$cur] [$prev] $split"; }; f`,
		`f() { local cur prev words cword; COMP_WORDS=(cmd a -b c d); COMP_CWORD=4; COMP_LINE='cmd a -b c d'; COMP_POINT=${#COMP_LINE}; _get_comp_words_by_ref cur prev words cword; _count_args; echo $args; }; f`,
		`cur=--foo=bar; prev=x; _split_longopt; echo "$? [$cur] [$prev]"`,
		`COMPREPLY=(a:b:c a:b:d); cur=a:b:; COMP_WORDBREAKS=' :'; __ltrim_colon_completions "$cur"; echo "${COMPREPLY[@]}"`,
		`_quote_readline_by_ref "a b'c" q; echo "$q"; _quote_readline_by_ref '~/x' q; echo "$q"`,
		`cur='~ro'; _tilde "$cur"; echo $?; cur='$HO'; _variables; echo $? "${COMPREPLY[@]}"`,
		`declare -F | grep -c .; declare -F _init_completion`,
		`type _have 2>&1 | head -3; have ls && echo have`,
		`f() { local -a arr; __bash_comp_words=(a b); _comp__reassemble_words 2>/dev/null; echo $?; }; f; echo "$BASH_COMPLETION_VERSINFO"`,
	} {
		cases = append(cases, bashCase{"c" + itoaTest(i), pre + c})
	}
	checkAgainstBash(t, cases)
}

// Common bash idioms from scripts, one line each.
func TestIdiomsAgainstBash(t *testing.T) {
	var cases []bashCase
	for i, code := range []string{
		`SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"; [ -d "$SCRIPT_DIR" ] && echo ok`,
		`set -euo pipefail; IFS=$'\n\t'; a=(x y); echo "${a[@]}"`,
		`declare -A m=([b]=2 [a]=1 [c]=3); for k in "${!m[@]}"; do echo "$k=${m[$k]}"; done | sort`,
		`while IFS=: read -r user _ uid _; do [ "$uid" = 0 ] && echo "$user"; done < /etc/passwd`,
		`mapfile -t lines < <(printf '%s\n' a b c); echo "${#lines[@]} ${lines[-1]}"`,
		`x="  trim me  "; x="${x#"${x%%[![:space:]]*}"}"; x="${x%"${x##*[![:space:]]}"}"; echo "[$x]"`,
		`s="a,b,c"; IFS=, read -ra parts <<< "$s"; printf '<%s>' "${parts[@]}"; echo`,
		`printf -v pad '%*s' 5 ''; echo "[${pad// /-}]"`,
		`f() { local -n ref=$1; ref+=(z); }; arr=(a); f arr; echo "${arr[@]}"`,
		`[[ "abc123" =~ ^([a-z]+)([0-9]+)$ ]] && echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]}"`,
		`echo "${PATH//:/ }" | wc -w | tr -d ' ' | grep -q . && echo ok`,
		`v=hello; echo "${v^^} ${v^} ${v:1:3} ${v: -2} ${#v} ${v/l/L} ${v//l/L}"`,
		`usage() { echo "usage: $0 [-h]" >&2; exit 2; }; OPTIND=1; set -- -a x -b; while getopts ":a:b" o; do echo "$o ${OPTARG-}"; done`,
		`trap 'echo cleanup' EXIT; tmp=$(mktemp -d); rmdir "$tmp"; echo made`,
		`command -v git >/dev/null 2>&1 || echo "no git"; type -P bash >/dev/null && echo has-bash`,
		`readarray -d '' files < <(printf 'a\0b\0'); echo "${#files[@]}"`,
		`shopt -s nullglob; f=(*.nonexistent); echo "${#f[@]}"`,
		`shopt -s extglob; x=foo123; echo "${x##+([a-z])}"`,
		`echo {a..e..2} {1..10..3} {z..w}`,
		`printf '%q\n' "a b" 'it'"'"'s' $'tab\t'`,
		`x=$'line1\nline2'; echo "${x@Q}"; declare -p x`,
		`a=(3 1 2); IFS=$'\n' sorted=($(sort <<<"${a[*]}")); unset IFS; echo "${sorted[*]}"`,
		`f() { echo "$FUNCNAME ${#FUNCNAME[@]} $LINENO"; }; f`,
		`case "foo.tar.gz" in *.tar.gz) echo tgz;; *.gz) echo gz;; esac`,
		`(( i = 0 )); while (( i++ < 3 )); do printf '%d' "$i"; done; echo`,
		`exec 3< <(echo from-fd3); read -r l <&3; echo "$l"; exec 3<&-`,
		`echo "$((16#ff)) $((2**10)) $((-7 / 2)) $((-7 % 3)) $((1 << 62))"`,
		`str="a b  c"; set -f; set -- $str; set +f; echo $#`,
		`diff <(echo a) <(echo b) >/dev/null; echo $?`,
		`var=; echo "${var:-default} ${var:=set} $var ${unset_var+isset}"`,
		`printf '%s\n' "${!BASH@}" | head -3`,
		`x=5; y=x; echo "${!y}"; declare -n z=x; z=7; echo $x`,
		`declare -i n=10; n+=5; n='n*2'; echo $n`,
		`f() { return 7; }; f || echo "rc=$?"`,
		`echo $(( $(echo 3) + 4 )); echo "$(( ${#PWD} > 0 ))"`,
		`local_test() { local IFS=,; echo "$*"; }; local_test a b c`,
		`t=$(date +%s); [[ $t =~ ^[0-9]+$ ]] && echo numeric`,
		`x=(a b c); unset 'x[1]'; echo "${!x[@]} ${x[@]}"; x+=(d); echo "${!x[@]}"`,
		`printf '%(%Y)T\n' 0 | grep -c 1970`,
		`echo ${BASH_VERSINFO[0]} >/dev/null; [[ ${BASH_VERSION%%.*} -ge 4 ]] && echo modern`,
	} {
		cases = append(cases, bashCase{"i" + itoaTest(i), code})
	}
	checkAgainstBash(t, cases)
}

// More idioms: tracing, errexit, traps, callers, errors.
func TestIdioms2AgainstBash(t *testing.T) {
	var cases []bashCase
	for i, code := range []string{
		`set -x; a=1; echo "$a"; f() { echo in; }; f; [[ $a == 1 ]]; (( a++ )); for i in 1; do :; done; set +x`,
		`PS4='+ ${LINENO}: '; set -x; echo a; set +x`,
		`set -e; f() { false; echo after-false; }; f || echo caught; if f; then :; fi; echo end`,
		`set -e; false && true; echo survived; ! true; echo survived2; (false); echo not-here`,
		`set -E; trap 'echo "ERR at $LINENO: $BASH_COMMAND"' ERR; f() { false; }; f; echo done`,
		`f() { caller; caller 0; g; }; g() { caller 0; caller 1; }; f`,
		`printf 'f() { echo "${BASH_SOURCE[0]##*/} ${BASH_LINENO[0]} ${FUNCNAME[1]}"; }\n' > lib.sh; . ./lib.sh; f`,
		`cd /nonexistent; echo $?; cd; echo $? "$PWD" | sed "s|$HOME|H|"`,
		`a=(1 2); echo ${a[5]}; echo "${a[-3]}"; echo st=$?`,
		`nosuchcmd; echo $?; f() { nosuchcmd2; }; f; echo $?`,
		`x=1; readonly x; unset x; echo $?; declare -p x`,
		`declare -f f 2>/dev/null; f() { cat <<EOF
  body $1
EOF
}; declare -f f`,
		// time's report is the shell's, not the command's; its digits
		// are the machine's speed.
		`{ time true 2>/dev/null; } 2>&1 | sed 's/[0-9]/N/g'; TIMEFORMAT='%R'; { time sleep 0; } 2>&1 | grep -c '^0'`,
		`read -t 0.01 x < <(sleep 1); echo $?`,
		`sleep 0.1 & sleep 0.05 & wait -n; echo $?; wait`,
		`echo "${@:-none}"; set -- a b c; echo "${@:2}" "${*:1:2}" "$#"`,
		`shift 2; echo "$@"; shift 5; echo $?`,
		`printf '%d %5.2f %-5s| %x %o %e %c %b\n' 42 3.14159 ab 255 8 1234.5 xyz 'a\tb'`,
		`printf '%s\n' 1 2 3 | while read -r n; do echo $((n*n)); done`,
		`echo $'\x41\u00e9\101' | od -An -c | tr -s ' '`,
		`IFS= read -r -d '' body <<'EOF' || true
multi
line
EOF
printf '%s' "$body"`,
		`x='a*b'; [[ axxb == $x ]] && echo glob; [[ axxb == "$x" ]] || echo literal`,
		`shopt -s nocasematch; [[ ABC == abc ]] && echo nocase; case ABC in abc) echo case-nocase;; esac`,
		`arr=([0]=a [5]=b); echo "${#arr[@]} ${!arr[@]}"; declare -p arr`,
		`declare -a x='(1 2 3)'; echo "${x[1]}"`,
		`echo $((2**63)) $((9223372036854775807 + 1)) $(( -2**63 / -1 )) 2>&1`,
		`eval 'echo $((' 2>&1; echo st=$?`,
		`f() { local x=1; g; }; g() { echo "${x-unset}"; local x=2; }; x=0; f; echo $x`,
		`alias ll='ls -l'; shopt -s expand_aliases
ll_test() { ll /dev/null >/dev/null && echo alias-in-func; }; ll_test`,
	} {
		cases = append(cases, bashCase{"j" + itoaTest(i), code})
	}
	checkAgainstBash(t, cases)
}

func TestXtraceAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		// (Pipelines and process substitutions trace from processes
		// that run at once: their order varies in bash too.)
		{"levels", `set -x; (echo a); x=$(echo b); y=$( (echo c) ); z=$(echo $(echo d))`},
		{"compound", `set -x; (( x = 1 )); for i in 1 2; do :; done; case a in a) :;; esac; let "x=1" y=2; declare -i z=3; f() { :; }; f a "b c"`},
		{"test", `set -x; a="x y"; [[ $a == "x y" ]]; [[ $a == x* ]]; [[ -z $a ]]; [[ $a ]]; [[ $a =~ ^x ]]; [[ 1 -lt 2 ]]; [[ ! -e /nonexistent ]]; [[ ( -n a ) ]]; [[ -n a && -z "" ]]`},
	})
}

func TestXtraceQuotingAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"words", "set -x; echo a=b x~y '#c' 'a#b' '~x' 'a:~b' '=x' '{a}' 'a,b' '[x]' '%x' '^x' 'a!b' $'t\\tx' '' $'nl\\nx' $'\\x01' \"it's\""},
		{"assign", "set -x; a='x y' b= c=$'\\x01' d=\"it's\"; e=(1 '2 3')"},
		{"assign-before", "set -x; a=1 b= true; a+=x; declare c= d=\"\""},
	})
}

// Builtins and expansions as scripts use them.
func TestIdioms3AgainstBash(t *testing.T) {
	var cases []bashCase
	for i, code := range []string{
		`x=1; echo "${x@A}"; a=(1 'b c'); echo "${a[@]@Q}"; declare -A m=([k]=v); echo "${m[@]@A}"; echo "${a@a} ${m@a}"`,
		`printf -v 'arr[1]' '%s' hi; declare -p arr; declare -A h; printf -v 'h[k k]' x; declare -p h`,
		`declare -A h=([a]=1); [[ -v h[a] ]] && echo yes; [[ -v h[b] ]] || echo no; unset 'h[a]'; declare -p h`,
		`set -o noclobber; echo a > f; echo b > f; echo $?; echo c >| f; cat f`,
		`echo x > /nonexistent/dir/f; echo $?; cat < /nonexistent; echo $?`,
		`cd /tmp; cd /; cd - ; cd -; echo $?`,
		`umask 027; umask -S; umask -p; umask -S -p`,
		`set -- a b c; echo "${@/#/x-}" "${*/%/-y}"; IFS=,; echo "$*"; unset IFS`,
		`IFS=' :'; x='  a::b  c '; set -- $x; echo $#; for w; do printf '[%s]' "$w"; done; echo`,
		`read -r -a arr <<< "  one  two three "; echo "${#arr[@]} ${arr[2]}"`,
		`shopt -s lastpipe; echo hi | read v; echo "$v"`,
		`f() { local -; set -e; echo "$-"; }; f; echo "$-" | grep -c e`,
		`OPTIND=1; set -- -x -a; while getopts "a:" o; do echo "o=$o OPTARG=${OPTARG-}"; done`,
		`OPTIND=1; set -- -a; while getopts ":a:" o; do echo "o=$o OPTARG=${OPTARG-}"; done`,
		`printf '%s|' "${undefined[@]}"; echo; a=(); echo "${#a[@]} ${a[@]+set}"`,
		`echo $'a\'b' "a\"b" 'a\nb' $"x"`,
		`x=abcdef; echo "${x:2:-1} ${x: -3:2} ${x:10} [${x:1:0}]"`,
		`echo "${x#*c}" "${x%%[ce]*}" "${x/#a/A}" "${x/%f/F}" "${x//[bd]/-}"`,
		`declare -u up=abc; declare -l lo=ABC; up+=def; echo "$up $lo"`,
		`declare -i i=3; i+=4*2; echo $i; declare -p i`,
		`exec 4>&1; echo to4 >&4; exec 4>&-; echo x >&4; echo $?`,
		`echo hello > >(cat); wait; sleep 0.1`,
		`printf '%s\n' {1..3} | { read a; read b; echo "$a$b"; }`,
		`v=$(printf 'a\n\n\n'); echo "[${v}]"; w=$'\n\n'; echo "[${#w}]"`,
		`echo $(( 10 > 5 ? 1 : 0 )) $(( 2 ** 3 ** 2 )) $(( 1 == 1 && 0 || 3 ))`,
		`a=(5 3 9); max=${a[0]}; for n in "${a[@]}"; do (( n > max )) && max=$n; done; echo $max`,
		`trap 'echo int' INT; trap -p INT; trap - INT; trap -p INT; echo done`,
		`for ((i=0, j=10; i<3; i++, j--)); do echo -n "$i$j "; done; echo`,
		`until [[ $k == xxx ]]; do k+=x; done; echo $k`,
		`select x in a b; do echo $x; break; done <<< "2"`,
		`case "$HOME" in /*) echo abs;; *) echo rel;; esac`,
		`x=${y:-$(echo fallback)}; echo $x; : ${z:=assigned}; echo $z`,
		`echo "${!#}" "$#"; set -- p q; echo "${!#}"`,
		`printf '%-10s|%5d|%05.1f\n' name 42 3.14159`,
		`hash -r; type -t cd ls if`,
	} {
		cases = append(cases, bashCase{"k" + itoaTest(i), code})
	}
	checkAgainstBash(t, cases)
}

// Errors scripts meet, and more builtins.
func TestIdioms4AgainstBash(t *testing.T) {
	var cases []bashCase
	for i, code := range []string{
		`cd a b; echo $?; exit abc; echo not`,
		`return 3; echo $?; break; echo $?; continue 2; echo $?`,
		`f() { break; }; for i in 1 2; do f; echo $i; done`,
		`declare -A m; m=(a b); declare -p m; declare -a x; declare -A x; echo $?`,
		`unset -f nosuch; echo $?; unset -v 'a[' ; echo $?; unset 1; echo $?`,
		`read x <&5; echo $?; echo a >&5; echo $?`,
		`shopt -s failglob; echo *.nosuch; echo st=$?`,
		`shopt -s globstar; mkdir -p d/e; touch d/e/f.txt d/g.txt; echo d/**/*.txt; echo **/`,
		`shopt -s dotglob; touch .hid; echo *; shopt -u dotglob; GLOBIGNORE='*.txt'; touch a.txt b.sh; echo *`,
		`FUNCNEST=3; f() { f; }; f; echo st=$?`,
		`set -u; a=(); echo "${a[@]}" "${#a[@]}"; echo "${a[0]}"`,
		`trap 'echo exit $?' EXIT; (exit 3); sh -c 'exit 4'; exit 5`,
		`(trap 'echo sub-exit' EXIT; echo in-sub); echo after`,
		`f() { trap 'echo ret' RETURN; }; f; f; g() { :; }; g; h() { f; echo h; }; h`,
		`set -o errtrace; trap 'echo err in $FUNCNAME' ERR; f() { false; }; f`,
		`x=$(exit 7); echo $?; x=$(false) y=$(true); echo $?`,
		`printf '%q\n' '' 'a b' $'x\ny' 'é' '$v' '~h' 'a=b'`,
		`read -n 3 x <<< abcdef; echo $x; read -N 2 y <<< $'a\nb'; echo "$y" | od -c | head -1`,
		`IFS= read -r line <<< '  spaced  '; echo "[$line]"; read -r line <<< '  spaced  '; echo "[$line]"`,
		`echo -e 'a\tb\x41\0101\c not' ; echo -n x; echo -E 'a\tb'`,
		`printf '%s %s\n' a b c; printf '%d\n' 12abc; echo st=$?; printf '%d\n' "'A"`,
		`x=(a b c); echo "${x[@]:1}" "${x[*]: -1}" "${#x[1]}" "${x[@]/b/B}"`,
		`declare -n ref=undefined_target; ref=5; echo $undefined_target; declare -p ref`,
		`a=1; f() { local a; a=2; declare -p a; }; f; declare -p a`,
		`export -n PATH; env | grep -c ^PATH=; export PATH`,
		`set -- "a b" c; for x in "$@"; do echo "[$x]"; done; for x in $@; do echo "<$x>"; done`,
		`echo "$(echo "nested $(echo "deep")")"`,
		`arr=(); arr+=("x y"); arr[5]=z; echo "${!arr[@]}" "${#arr[@]}"`,
		`v=10; (( v > 5 )) && echo big || echo small; [[ $v -gt 5 && $v -lt 20 ]] && echo range`,
		`s="hello world"; echo "${s^}" "${s^^o}" "${s,,}"`,
		`echo $RANDOM | grep -cE '^[0-9]+$'; RANDOM=42; a=$RANDOM; RANDOM=42; b=$RANDOM; [ $a = $b ] && echo seeded`,
		`echo ${#BASH_VERSINFO[@]}; [[ -n $BASHPID && $BASHPID != $( echo $BASHPID ) ]] && echo diffpid`,
	} {
		cases = append(cases, bashCase{"m" + itoaTest(i), code})
	}
	checkAgainstBash(t, cases)
}

// time, jobs, wait, and functions printed.
func TestIdioms5AgainstBash(t *testing.T) {
	var cases []bashCase
	for i, code := range []string{
		`{ time true; } 2>&1 | sed 's/[0-9]/N/g'`,
		`TIMEFORMAT='r=%R u=%U s=%S p=%P %%'; { time true; } 2>&1 | sed 's/[0-9][0-9]*/N/g'`,
		`TIMEFORMAT='%3lR %1R %0R'; { time true; } 2>&1 | sed 's/[0-9]/N/g'`,
		`{ time -p true; } 2>&1 | sed 's/[0-9]/N/g'`,
		`{ time; echo st=$?; } 2>&1 | sed 's/[0-9]/N/g'`, // bash times its own start: the figures vary
		`{ time ( exit 3 ); } 2>/dev/null; echo st=$?`,
		`sleep 0.2 & jobs; jobs -p | grep -c .; wait; jobs`,
		`sleep 0.3 & p=$!; kill $p; wait $p; echo st=$?`,
		`(sleep 0.1; exit 5) & wait -n; echo st=$?; wait -n; echo st=$?`,
		`true & wait $!; echo $?; wait 999999; echo $?`,
		`f() { sleep 0.1; return 4; }; f & wait %1; echo $?`,
		`disown -a; echo $?; fg; echo $?; bg; echo $?`,
		`ulimit -c 0; ulimit -c; ulimit -Sc`,
		`declare -f | head -3; f() { local x=1; if [[ $x ]]; then echo "$x"; fi; }; declare -f f; type f`,
		`g() { cat <<-EOF
	tab $1
	EOF
}; declare -f g; g x`,
		`h() ( echo sub ); declare -f h; h`,
		`k() { for i in 1 2; do case $i in 1) echo one ;; *) echo other ;; esac; done; }; declare -f k`,
	} {
		cases = append(cases, bashCase{"n" + itoaTest(i), code})
	}
	checkAgainstBash(t, cases)
}

// declare, export and readonly listings.
func TestIdioms6AgainstBash(t *testing.T) {
	var cases []bashCase
	for i, code := range []string{
		`declare -r r1=1; declare -x x1=2; declare -i i1=3; declare -l l1=A; declare -u u1=b; declare -a a1=(1); declare -A A1=([k]=v); declare -n n1=x1; declare -t t1=5; declare -p r1 x1 i1 l1 u1 a1 A1 n1 t1`,
		`export -p | grep -E '^declare -x (x2|HOME)=' ; x2=1; export x2; export -p | grep x2; readonly -p | grep -c r2; readonly r2=1; readonly -p | grep r2`,
		`declare -ix both=4; declare -p both; declare +x both; declare -p both; declare -p nosuch; echo $?`,
		`f() { declare -g G=1; local L=2; declare -p L; }; f; declare -p G; declare -p L 2>&1 | sed 's/line [0-9]*/line N/'`,
		`declare -a s='x'; declare -p s; s+=(y); declare -p s; declare -A t; t+=([a]=1 [b]=2); declare -p t`,
		`a=(x); a[3]=y; declare -p a; unset 'a[0]'; declare -p a; a=(); declare -p a; unset a; declare -p a 2>&1 | sed 's/line [0-9]*/line N/'`,
		`declare -F | wc -l; f() { :; }; g() { :; }; declare -F; declare -F f nosuch; echo $?`,
		`v='a'\''b"c$d e\f'; declare -p v; printf '%q\n' "$v"; echo "${v@Q}"`,
		`declare -p BASH_VERSINFO | sed 's/=.*//' ; declare -p PIPESTATUS 2>&1 | sed 's/=.*//'`,
		`declare -i n; n=abc; echo $n; n=2+3; echo $n; n+=x; echo $n`,
	} {
		cases = append(cases, bashCase{"p" + itoaTest(i), code})
	}
	checkAgainstBash(t, cases)
}

// set -e as scripts rely on it.
func TestErrexitAgainstBash(t *testing.T) {
	var cases []bashCase
	for i, code := range []string{
		`set -e; f() { false; echo in-f; }; f && echo and; echo after`,
		`set -e; f() { false; echo in-f; }; if f; then echo then; fi; f || true; echo after; f; echo not`,
		`set -e; x=$(false); echo "survived $?"`,
		`set -e; local_f() { local x=$(false); echo "local masks $?"; }; local_f`,
		`set -e; false | true; echo pipe-ok; set -o pipefail; false | true; echo not`,
		`set -e; (false; echo in-sub); echo not`,
		`set -e; { false; echo in-group; } || echo rescued; echo after`,
		`set -e; while false; do :; done; until true; do :; done; echo loops`,
		`set -e; [[ -z x ]]; echo not-reached-by-bash`,
		`set -e; (( 0 )); echo not`,
		`set -e; trap 'echo trapped' EXIT; false; echo not`,
		`set -e; shopt -s inherit_errexit; x=$(false; echo still); echo "[$x]"`,
		`set -e; ! false; echo negated; false || echo or`,
		`set -eu; f() { echo "${1:-none}"; }; f; echo "${undefined:-default}"; echo $undefined`,
		`set -e; : ${x?}`,
		`set -e; echo $((y+z)); set -u; echo $((q+1))`,
	} {
		cases = append(cases, bashCase{"e" + itoaTest(i), code})
	}
	checkAgainstBash(t, cases)
}

func TestNulBytesAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"read", `printf 'a\0b\n' | { read x; printf '%s' "$x" | od -An -c; }`},
		{"read-d", `printf 'a\0b\0' | { while read -r -d '' x; do echo "[$x]"; done; }`},
		{"mapfile", `printf 'a\0b\n' | { mapfile -t l; printf '%s' "${l[0]}" | od -An -c; }`},
		{"printf-arg", `printf '%s|' "$(printf 'x\0y')" a$'\0'b; echo`},
		{"program-arg", `x=$'a\0b'; /bin/echo "$x" "c$x"`},
	})
}

// No value holds a NUL byte: bash cuts $'…' at one and drops them from a
// command substitution's output, with a warning.
func TestNulBytesCutAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"ansi-c", `printf '%s|' $'a\0b'c x; echo`},
		{"ansi-c-length", `s=$'\0'; echo ${#s}; test -n $'\0'; echo $?`},
		{"subst", `x=$(printf 'a\0b'); echo ${#x} "$x"`},
		{"subst-only-nul", `x=$(printf '\0'); echo "[${#x}]"`},
		{"catfile", `printf 'a\0b\n' > f; x=$(< f); echo "$x"`},
		{"printf-format", `printf $'x\0z' | od -An -c`},
	})
}

// Errors bash reports and goes on after, or ends a script with.
func TestErrorsAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"shift-extra", `set -- a b c; shift 1 extra; echo not reached`},
		{"shift-extra-func", `f(){ shift 1 2; echo in; }; f; echo after`},
		{"continue-extra", `for i in a; do continue 1 x; done; echo not reached`},
		{"break-extra", `for i in a; do break 1 x; done; echo not reached`},
		{"return-extra", `f(){ return 1 2; }; f; echo not reached`},
		{"exit-extra", `trap 'echo trap $?' EXIT; exit 3 4; echo not reached`},
		{"ps4-bad-subst", `PS4='+${x'; set -x; echo one; echo status=$?`},
		{"ps4-arith", `PS4='+$(( 1 / 0 )) '; set -x; echo one; echo status=$?`},
	})
}

// set -x repeats PS4's first character for command substitutions only.
func TestXtraceDepthAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"depth", `set -x; (echo a); x=$(echo b); f(){ echo f; }; f; (echo $(echo $(echo d)))`},
	})
}
