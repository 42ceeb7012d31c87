package eval

import "testing"

// More differences from bash 5.2, each checked here against bash itself.

// set -x shows a declaration's words expanded, each compound assignment
// on a line of its own before the command, and export's and readonly's
// assignments again after it; the assignments before a command are
// expanded and traced before its redirections are made.
func TestXtraceDeclarationsAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"export-readonly", `set -x; export A=1 B C="a b"; readonly R=2; A=1; export A+=x; export E=; readonly Q=$A`},
		{"declare-array", `set -x; declare -a x=(1 2); declare -a x+=(c); declare -a e=(); declare -a q=("it's" "") y2=3`},
		{"declare-keys", `set -x; k=kk; i=5; declare -a x=([1+1]=a [$((2+3))]=b [i++]=c [$k]=d); declare -p x i; declare -A h=([$k]=v [a"b"]=2 ["q r"]=3)`},
		{"local", `set -x; f(){ local v=$(echo hi) w=1; local -a q=(a "b c"); declare -A h=([k]=v); local e=; }; f`},
		{"words-first", `a=0; declare a=1 b=$a; echo $b; set -x; f(){ declare h=([x]=1); declare -p h; }; f`},
		{"quoted-words", `set -x; declare x[1]=q; declare -a "s=(1 2)"; export -a zz=(1); readonly a=1 b=(2) c=3`},
		{"no-subscript", `set -x; readonly "x[1]=2"; export y[1]=3; export 1b=3 C=4; export -A h=([a]=1); declare -p h`},
		{"temp-before-redir", `set -x; A=1 true 2>/dev/null; A=$(echo sub >&2) B=2 true 2>/dev/null; f(){ :; }; A=1 f 2>/dev/null`},
		{"declaration-before-redir", `set -x; declare x=1 2>/dev/null; export y=2 2>/dev/null; local 2>/dev/null; (( 1 )) 2>/dev/null; declare -p x >out; cat out`},
		{"declaration-redir-fails", `declare x=1 >/nonexistent/f; echo $? $x`},
		{"temp-not-in-redir", `A=x; echo X >x; echo Y >y; A=y cat <$A`},
	})
}

// (( )) with nothing inside is 0, so status 1, not a syntax error; set -x
// shows what was inside.
func TestEmptyArithCommandAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"bare", `(()); echo $?; if (());then echo yes; else echo no; fi; (())||echo or`},
		{"traced", "set -x; (()); ((  )); (( ))\necho $LINENO"},
		{"after-placeholder", `declare -A h=([a b]=1); (()); echo $? "${h[a b]}"`},
		{"line-end", "(())\necho $?"},
	})
}

// The EXIT trap runs where exit or set -e ended the shell: inside the
// function, its FUNCNAME and locals there.
func TestExitTrapInFunctionAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"errexit", `trap "echo \${FUNCNAME[@]}-" EXIT; f(){ false; }; set -e; f`},
		{"errexit-nested", `trap 'echo ${FUNCNAME[@]}- $x' EXIT; f(){ local x=1; g; }; g(){ false; }; set -e; f; echo not-here`},
		{"exit", `trap 'echo ${FUNCNAME[@]}- $x $?' EXIT; f(){ local x=1; exit 3; }; f; echo not-here`},
		{"trap-status", `trap 'echo in-trap; exit 5' EXIT; f(){ exit 3; }; f`},
		{"subshell", `f(){ trap 'echo sub ${FUNCNAME[@]}' EXIT; exit 2; }; (f); echo $?; trap 'echo top ${FUNCNAME[@]}' EXIT; f`},
		{"return-trap", `trap 'echo ret' RETURN; trap 'echo exit ${FUNCNAME[@]}' EXIT; f(){ exit 1; }; f`},
	})
}

// With extdebug on when a function is called or a file sourced, its
// arguments are pushed on BASH_ARGV and their count on BASH_ARGC.
func TestExtdebugArgStackAgainstBash(t *testing.T) {
	show := `echo "${BASH_ARGC[@]} / ${BASH_ARGV[@]}"`
	checkAgainstBash(t, []bashCase{
		{"functions", `f(){ ` + show + `; g x "y z"; ` + show + `; }; g(){ ` + show + `; }; shopt -s extdebug; ` + show + `; f a b; ` + show + `; g`},
		{"off-at-call", `g(){ ` + show + `; }; h(){ shopt -s extdebug; g 1; }; h q; declare -p BASH_ARGV BASH_ARGC`},
		{"off", `f(){ ` + show + `; }; f a b`},
		{"lazy-base", `f(){ ` + show + `; }; f a b; ` + show + `; set -- y; ` + show},
		{"base-at-shopt", `shopt -s extdebug; f(){ ` + show + `; }; set -- z; f a`},
		{"source-no-extdebug", `echo '` + show + `' >s.sh; set -- w; . ./s.sh v`},
		{"source", `echo '` + show + `; f(){ ` + show + `; }; f 1' >s.sh; shopt -s extdebug; source ./s.sh s1 s2; . ./s.sh; set -- a b; ` + show},
	})
}

// A cycle of namerefs refers to nothing, with a warning.
func TestCircularNamerefAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"expand", `declare -n a=b b=a; echo $a; echo "[$a]" $?`},
		{"three", `declare -n a=b b=c c=a; echo "[$a]"; echo "[$b]"`},
		{"assign", "declare -n a=b b=a; a=1; echo $?\necho next $?"},
		{"self", `declare -n a=a; echo $?`},
		{"set-v", `declare -n a=b b=a; [[ -v a ]]; echo $?`},
		{"for", `declare -n a=b b=a; for a in 1; do echo x; done; echo $?`},
		{"arith", `declare -n a=b b=a; (( a=2 )) 2>/dev/null; echo $?`}, // bash warns twice
		{"printf-v", `declare -n a=b b=a; printf -v a x; echo $?`},
		{"default-assign", "declare -n a=b b=a; echo ${a:=3}; echo $?\necho next"},
		{"declare-p", `declare -n a=b b=a; declare -p a b`},
	})
}

// set -k: assignment words anywhere in a simple command go into its
// environment, not its arguments.
func TestKeywordOptionAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"echo", `set -k; echo a=1 b "c=2" d\=3 e=$HOME f g+=h`},
		{"env", `set -k; printenv m m=4; sh -c 'echo $x $y' x=1 y="a b"`},
		{"function", `set -k; f(){ echo "$# $* [$y]"; }; f 1 y=3 2; echo "[$y]"`},
		{"not-expanded", `set -k; x=a=1; echo $x; for i in a=1; do echo $i; done`},
		{"cmdsubst", `set -k; echo a=$(echo hi) b; cd x=1; echo $?`},
		{"xtrace", `set -kx; echo a=1 b >/dev/null`},
		{"redirect", `set -k; echo x=1 >/dev/null b=2; echo done`},
		{"off", `set -k; set +k; echo a=1`},
		{"listed", `ZZ=1 export -p | grep -c ZZ; ZZ=1 declare -p | grep -c ZZ; ZZ=1 declare | grep -c ZZ; ZZ=1 set | grep -c '^ZZ'; ZZ=1 declare -p ZZ; ZZ=1 declare -x | grep -c ZZ; f(){ declare -p ZZ; }; ZZ=1 f`},
		{"declare", `set -k; declare -x a=1 b=2 2>/dev/null | grep -c '^declare -x'; declare -p a b`},
		{"local", `set -k; f(){ local v=1 w; declare -p v w; }; f`},
		{"export-array", `set -k; declare -a arr=(1 2) z=3 | grep -c PIPESTATUS; declare -p arr z`},
		{"declare-xtrace", `set -kx; declare a=1 b; echo q=`},
		{"export-env", `set -k; export E=5 >/dev/null; declare -p E; export F; F=6 printenv F`},
	})
}

// In a UTF-8 locale IFS holds characters: a multibyte one splits where
// that character is, and a byte that is no UTF-8 only where that byte
// stands alone.
func TestMultibyteIFSAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"split", `IFS=é; x="aébéc"; printf "<%s>" $x; echo; IFS="éx"; z="1x2é3"; printf "<%s>" $z; echo; a=(${z}); echo ${#a[@]}`},
		{"lone-byte", `x="aébéc"; y=$'a\xc3b'; IFS=$'\xc3'; printf "<%s>" $x $y; echo; IFS=é; y=$'a\xa9b'; printf "<%s>" $y; echo`},
		{"continuation-byte", `x="aébéc"; IFS=$'\xa9'; printf "<%s>" $x; echo`},
		{"white-and-multi", `IFS="é "; w=" 1 é 2 é"; printf "<%s>" $w; echo; IFS="€:"; v="a€€b:c€"; printf "<%s>" $v; echo`},
		{"join", `IFS=é; set -- a b; echo "$*"; a=(x y); echo "${a[*]}"; printf "<%s>" $*; echo`},
		{"literal-split", `IFS=é; for w in $(echo "1é2"); do echo "[$w]"; done`},
		{"c-locale", `LC_ALL=C; IFS=é; x="aébéc"; printf "<%s>" $x; echo; set -- a b; echo "$*" | od -An -c; IFS=$'\xc3'; printf "<%s>" $x; echo; read -r p q <<< "$x"; echo "$p|$q"`},
		{"locale-change", `IFS=é; x="aébéc"; printf "<%s>" $x; echo; LC_ALL=C; printf "<%s>" $x; echo; LC_ALL=; LANG=C.UTF-8; printf "<%s>" $x; echo; unset LC_ALL LANG; printf "<%s>" $x; echo`},
		{"read", `IFS=é; read -r p q r <<< "aébéc"; echo "$p|$q|$r"; read -ra arr <<< "1é2éé3"; declare -p arr; IFS=$'\xc3'; read -r p q <<< "aébéc"; echo "$p|$q"`},
	})
}
