package eval

import "testing"

func TestGetoptsAgainstBash(t *testing.T) {
	show := `; echo "$? [$o] [${OPTARG-unset}] $OPTIND"`
	checkAgainstBash(t, []bashCase{
		{"usage", `getopts; echo $?; getopts a; echo $?`},
		{"bad-option", `getopts -x a b; echo $?`},
		{"double-dash", `getopts -- ab o -a` + show},
		{"bad-name", `getopts ab 1o -a; echo "$? $OPTIND"`},
		{"element-name", `getopts ab "o[1]" -a; echo $?`},
		{"readonly-name", `readonly o; getopts ab o -a; echo "$? $OPTIND"`},
		{"illegal", `getopts ab o -x` + show},
		{"illegal-silent", `getopts :ab o -x` + show},
		{"missing-arg", `getopts a: o -a` + show},
		{"missing-arg-silent", `getopts :a: o -a` + show},
		{"opterr", `OPTERR=0; getopts a o -x` + show + `; OPTERR=0; getopts a: o -a` + show},
		{"colon-option", `getopts ":" o -:` + show},
		{"not-an-option", `OPTARG=x; getopts a o b` + show},
		{"end-dashes", `getopts a o -- b` + show},
		{"lone-dash", `getopts a o -` + show},
		{"empty-arg", `getopts a: o -a ""` + show},
		{"loop", `while getopts "ab:c" o -ab1 -c -b 2 rest; do echo "$o [${OPTARG-}] $OPTIND"; done; echo "end $OPTIND"`},
		{"grouped", `while getopts "abc" o -abc -a; do echo "$o $OPTIND"; done; echo "end $? $OPTIND"`},
		{"grouped-arg", `while getopts "ab:" o -ab -a; do echo "$o [${OPTARG-}] $OPTIND"; done`},
		{"positional", `set -- -x -y val z; while getopts xy: o; do echo "$o ${OPTARG-}"; done; shift $((OPTIND-1)); echo "$@"`},
		{"reset", `set -- -a -b; getopts ab o; OPTIND=1; getopts ab o; echo $o $OPTIND`},
		{"reset-mid-word", `set -- -ab -c; getopts abc o; echo $o; OPTIND=1; getopts abc o; echo "$o $OPTIND"`},
		{"optind-past", `OPTIND=5; getopts a o -a` + show},
		{"optind-garbage", `OPTIND=x; getopts a o -a` + show + `; OPTIND=0; getopts a o -a` + show},
		{"local-optind", `f(){ local OPTIND; getopts a o -a; echo "in $OPTIND"; }; getopts ab o -ab; f; getopts ab o -ab; echo "$o $OPTIND"`},
		{"function-in-loop", `f(){ local OPTIND=1 o; getopts x o -x; echo "f $o"; }; while getopts ab o -ab; do echo $o; f; done; echo "end $OPTIND"`},
		{"subshell-mid-word", `getopts ab o -ab; (getopts ab o -ab; echo "sub $o"); getopts ab o -ab; echo "$o $OPTIND"`},
		{"in-function", `f(){ local o OPTIND=1; while getopts "n:v" o; do echo "$o=${OPTARG-}"; done; shift $((OPTIND-1)); echo "rest $*"; }; f -v -n 3 x; f -n4`},
		{"name-dollar0", `getopts a o -z; getopts a: o -a`},
		{"silent-loop", `while getopts ":a:b" o -b -x -a; do case $o in \?) echo "bad $OPTARG";; :) echo "needs $OPTARG";; *) echo "$o";; esac; done`},
		{"unset-optarg", `OPTARG=stale; getopts a o -a; echo "${OPTARG-unset}"`},
		{"nameref-name", `declare -n r=t; getopts a r -a; echo "$t"`},
	})
}
