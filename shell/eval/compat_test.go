package eval

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Differences docs/COMPATIBILITY.md once listed, each now as bash does.
func TestCompatAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"exit-in-while-condition", `while false || exit; do :; done; echo not reached`},
		{"return-in-until-condition", `f() { until false || return; do :; done; }; f; echo $?; while break; do :; done; echo $?`},
		{"nounset-declared-array-length", `set -u; declare -a a; echo ${#a[@]}; echo not reached`},
		{"nounset-declared-assoc-length", `set -u; declare -A m; echo ${#m[*]}; echo not reached`},
		{"nounset-empty-array-length", `set -u; a=(); declare -A m=(); b=(1); unset 'b[0]'; echo ${#a[@]} ${#m[@]} ${#b[@]}`},
		{"nounset-missing-array-length", `set -u; echo ${#nosuch[@]}; echo not reached`},
		{"cdpath-root", `cd /; CDPATH=/; cd tmp; pwd; CDPATH=/usr/; cd lib; pwd`},
		{"posix-sets-posixly-correct", `set -o posix; echo ${POSIXLY_CORRECT-unset}; set +o posix; echo ${POSIXLY_CORRECT-unset}`},
		{"bad-subscript-assignment", `a[-1]=x; echo not reached`},
		{"bad-subscript-in-function", `f() { a=(1); a[-5]=x; echo not reached; }; f; echo not reached`},
		{"bad-subscript-declare", `declare a[-1]=x 2>/dev/null; echo after $?; a=(1); read 'a[-3]' <<< v; echo after $?`},
	})
}

// The alternatives of an extended glob are words: their expansions and
// quotes work, each alone.
func TestExtGlobAlternativesAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"variable", `shopt -s extglob
touch foo.cc foo.h foo. foo.hh; ext=cc; echo foo.?($ext|h)`},
		{"substitution", `shopt -s extglob
touch _One _OneOne _TwoTwo _OneTwo; echo _+(One|$(echo Two))`},
		{"quoted-metacharacters", `shopt -s extglob
touch '_[:]' '_*' '_?' x; echo @('_[:]'|'_*'|'_?'); echo @(nested|'_?'|@('_[:]'|'_*'))`},
		{"quoted-bar", `shopt -s extglob
touch '__|' foo; echo @('foo'|__\||bar); echo @('foo'|'__|'|bar)`},
		{"not-a-word-alone", `shopt -s extglob
touch __aa '__<>' __# '__&&'; echo @(__aa|'__<>'|__#|__&&|)`},
		{"case-pattern", `shopt -s extglob
a=x b='y*'; for w in x 'y*' yz; do case $w in @($a|$b)) echo "$w in";; *) echo "$w out";; esac; done`},
		{"double-quoted-variable", `shopt -s extglob
v='a|b'; [[ 'a|b' == @("$v"|c) ]] && echo lit; [[ a == @("$v"|c) ]] || echo not-split`},
	})
}

func TestExtGlobAlternatives(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"a|b", []string{"a", "b"}},
		{"", []string{""}},
		{"a|", []string{"a", ""}},
		{"'a|b'|c", []string{"'a|b'", "c"}},
		{`"a|b"|c`, []string{`"a|b"`, "c"}},
		{`a\|b|c`, []string{`a\|b`, "c"}},
		{"$(echo a|tr a b)|c", []string{"$(echo a|tr a b)", "c"}},
		{"${x/a|b/c}|d", []string{"${x/a|b/c}", "d"}},
		{"@(a|b)|c", []string{"@(a|b)", "c"}},
	} {
		got := extGlobAlternatives(c.in)
		if strings.Join(got, "\x00") != strings.Join(c.want, "\x00") {
			t.Errorf("extGlobAlternatives(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestFailglobErrexitAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"failglob-errexit", "set -e\nshopt -s failglob\necho *.ZZ\necho not reached"},
		{"failglob-errexit-condition", "set -e\nshopt -s failglob\nif echo *.ZZ; then :; fi\necho not reached"},
		{"failglob-errexit-or", "set -e\nshopt -s failglob\necho *.ZZ || echo handled\necho not reached"},
		{"failglob-goes-on", "shopt -s failglob\necho *.ZZ\necho next $?"},
		{"arith-error-errexit-goes-on", "set -e\necho $((1/0))\necho after"},
	})
}

func TestGlobIgnoreClassesAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"classes", `touch _testing.py pyproject.toml 20231114.log .env 'has space.docx'
GLOBIGNORE=[[:alnum:]]*; echo *.*
GLOBIGNORE=[![:alnum:]]*; echo *.*
GLOBIGNORE=*[[:space:]]*; echo *.*
GLOBIGNORE=[[:digit:]_.]*; echo *.*
GLOBIGNORE='*.py:[[:digit:]]*'; echo *.*`},
	})
}

func TestSplitGlobIgnore(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a:b", "a|b"},
		{"[[:alnum:]]*:*.o", "[[:alnum:]]*|*.o"},
		{"[]:]x:y", "[]:]x|y"},
		{`a\:b:c`, `a\:b|c`},
		{"[:x", "[|x"},
	} {
		if got := strings.Join(splitGlobIgnore(c.in), "|"); got != c.want {
			t.Errorf("splitGlobIgnore(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestIndirectUnsetAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"with-operators", "echo \"[${!u-d}]\"\necho next $?\necho \"[${!u:+d}]\"\necho next $?\n(echo ${!u=d}); echo $? ${u-unset}"},
		{"set-names", "x=u; echo \"[${!x-d}]\"; declare -a e; echo \"[${!e-d}]\"; hooks=(a); a=1; echo ${!hooks+\"${!hooks}\"}"},
	})
}

func TestPrefixAssignmentsInOrderAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"program", `FOO=foo BAR="[$FOO][$BAZ]" BAZ=baz env | grep -E '^(FOO|BAR|BAZ)=' | sort`},
		{"function", `f(){ echo "$BAR $X"; }; FOO=foo BAR="[$FOO]" X=1 X+=2 f; echo "[$FOO]"`},
		{"readonly", `readonly R=1; R=2 S=$R env | grep ^S=`},
		{"exported-while-expanding", `f(){ echo "$B"; }; A=1 B=$(env | grep -c ^A=) f; A=1 B=$(env | grep -c ^A=) env | grep ^B=`},
		{"failed-expansion", "f(){ :; }; A=1 B=${nosuch?gone} f; echo \"[$A]\""},
	})
}

func TestAssignmentLikeTildeAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"arguments", `HOME=/h; echo x=~ --prefix=~/local a=~:~/b "q=~" x=~nosuchuser 1x=~ a:~ -I~/inc x+=~/a x=a~ x=~/*.nomatch`},
		{"quoted-and-split", `HOME=/h; v="1 2"; printf '<%s>' x=~/$v "x"=~ x="~" x\=~; echo`},
		{"posix", "set -o posix\nHOME=/h; echo x=~"},
		{"for-words", `HOME=/h; for i in x=~ y=~:~; do echo $i; done`},
		{"array-elements-keep-theirs", `HOME=/h; a=(b=~ c=~:~); declare -a q=(z=~); a+=(w=~); f() { local -a l=(y=~); echo ${l[@]}; }; f; echo ${a[@]} ${q[@]}`},
	})
}

// A script that is not UTF-8 (Latin-1 here) runs as in bash: its bytes
// reach values, patterns, here-documents and programs unchanged.
func TestRawBytesAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"comment", "# caf\xe9\necho ok"},
		{"words", "echo \xe9t\xe9 \"\xe9\" '\xe9' | od -An -c"},
		{"length-and-ops", "x=caf\xe9; echo ${#x} ${x%\xe9} ${x/\xe9/e}"},
		{"patterns", "[[ caf\xe9 == caf? ]] && echo glob; case \xe9 in \xe9) echo case;; esac; [[ caf\xe9 == *\xe9 ]] && echo lit"},
		{"here-documents", "cat <<EOF | od -An -c\n\xe9 $((1+1))\nEOF\ncat <<'EOF' | od -An -c\n\xe9\nEOF"},
		{"function-and-eval", "f() { printf '%s\\n' \"\xe9\"; }; f | od -An -c; eval \"echo \xe9\" | od -An -c"},
		{"latin1-function-name", "caf\xe9() { echo in-f; }; caf\xe9; declare -F | od -An -c"},
		{"latin1-alias-name", "shopt -s expand_aliases\nalias b\xe9='echo al'\nb\xe9"},
		{"shown-again", "f() { echo \xe9; }; declare -f f | od -An -c; trap 'echo \"$BASH_COMMAND\" | od -An -c' DEBUG; : \xe9"},
		{"file-name", "touch f\xe9; for f in f*; do printf '%s' \"$f\" | od -An -c; done; rm f\xe9"},
	})
}

func TestRawBytesRoundTrip(t *testing.T) {
	for _, s := range []string{"", "plain", "caf\xe9", "\xff\xfe\x80", "mixed é and \xe9", "\xf4\x8f\xbe"} {
		e := EscapeRawBytes(s)
		if !utf8.ValidString(e) {
			t.Errorf("EscapeRawBytes(%q) = %q, not UTF-8", s, e)
		}
		if got := UnescapeRawBytes(e); got != s {
			t.Errorf("UnescapeRawBytes(EscapeRawBytes(%q)) = %q", s, got)
		}
	}
}
