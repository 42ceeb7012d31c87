package rewrite

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// Golden tests: program in, program out.
func TestText(t *testing.T) {
	tests := []struct{ in, out string }{
		{"echo hi\n", "echo hi\n"},
		{"for ((i = 0; i < 3; i++)); do false; done\n",
			`{ declare __qsh_ls=0; for ((i = 0; i < 3; i++)); do declare __qsh_ls=0; false; declare __qsh_ls=$?; done; __qsh_status "$__qsh_ls" 2>/dev/null && declare __qsh_ls=0; }` + "\n"},
		{"for ((;;))\ndo\n  x\ndone >out\n",
			"{ declare __qsh_ls=0; for ((;;))\ndo declare __qsh_ls=0;\n  x\ndeclare __qsh_ls=$?; done; __qsh_status \"$__qsh_ls\" 2>/dev/null && declare __qsh_ls=0; } >out\n"},
		{"for i in a b; do false; done\n", "for i in a b; do false; done\n"},
		{`[[ $w == +($x) ]]`, `[[ $w == $(__qsh_pat "$w" p '+(' p "$x" p ')' 2>/dev/null) ]]`},
		{`[[ ${a[i]} != -!(-*)[hvo] && -n $b ]]`, `[[ ${a[i]} != $(__qsh_pat "${a[i]}" p '-' p '!(' p '-*' p ')' p '[hvo]' 2>/dev/null) && -n $b ]]`},
		{`[[ x == @(a|b) ]]`, `[[ x == @(a|b) ]]`},
		{`[[ $w == -@(-kill|!(-*)[ks]) ]]`, `[[ $w == $(__qsh_pat "$w" p '-' p '@(' p '-kill|!(-*)[ks]' p ')' 2>/dev/null) ]]`},
		{`[[ "$w" == @("a b"|$c*) ]]`, `[[ "$w" == $(__qsh_pat "$w" p '@(' l "a b" p '|' p "$c" p '*' p ')' 2>/dev/null) ]]`},
		{"case $prev in\n--help | -!(-*)[hvo]) x ;;\nesac\n",
			"case $prev in\n--help | $(__qsh_pat \"$prev\" p '-' p '!(' p '-*' p ')' p '[hvo]' 2>/dev/null)) x ;;\nesac\n"},
		{"case 'it''s' in !(x)) ;; esac", `case 'it''s' in $(__qsh_pat 'it''s' p '!(' p 'x' p ')' 2>/dev/null)) ;; esac`},
		{`[[ a\ b == !(x) ]]`, `[[ a\ b == $(__qsh_pat 'a b' p '!(' p 'x' p ')' 2>/dev/null) ]]`},
		{"for ((i=0; i<2; i++)); do [[ $i == !(1) ]]; done",
			`{ declare __qsh_ls=0; for ((i=0; i<2; i++)); do declare __qsh_ls=0; [[ $i == $(__qsh_pat "$i" p '!(' p '1' p ')' 2>/dev/null) ]]; declare __qsh_ls=$?; done; __qsh_status "$__qsh_ls" 2>/dev/null && declare __qsh_ls=0; }`},
		{"if (( x", "if (( x"}, // does not parse: unchanged
		{"f() { :; } && echo one", "{ f() { :; }; } && echo one"},
		{`f() { local -i n="$?" m=2*x k; declare -ri r=4; }`, `f() { local  n=$(("$?")) m=$((2*x)) k; declare -r r=$((4)); }`},
		{"declare -i; local -ia a=(1 2); typeset -il x+=1", "declare -i; local -a a=(1 2); typeset -l x=$((x+(1)))"},
		{`declare -i y="2*3" z='1+2' w="$v"`, `declare  y=$((2*3)) z=$((1+2)) w=$(("$v"))`},
		{"declare -g +x PROMPT_COMMAND; export -n X", "declare -g  PROMPT_COMMAND; export -n X"},
		{`for i in ${a[@]+"${!a[@]}"}; do :; done`,
			`{ __qsh_repl __qsh_r1 keys '' -- a 2>/dev/null; for i in ${a[@]+"${__qsh_r1[@]}"}; do :; done; }`},
		{`echo "${!m[*]}" ${!p*} ${!x}`, `{ __qsh_repl __qsh_r1 keys '' -- m 2>/dev/null; echo "${__qsh_r1[*]}" ${!p*} ${!x}; }`},
		{"declare -F f >/dev/null && typeset -f -F g", "builtin declare -F f >/dev/null && builtin typeset -f -F g"},
		{`declare -F "$1"; declare -f`, `builtin declare -F "$1"; builtin declare -f`},
		{"declare -fx f; declare -a f=(1); local -f f; declare f=1", "declare -fx f; declare -a f=(1); local -f f; declare f=1"},
		{`printf '<%s>' ${w+"${w[@]}"} ${w:+"${w[@]}"} "${w+"${w[@]}"}" ${w+"${v[@]}"}`,
			`printf '<%s>' "${w[@]}" "${w[@]}" "${w+"${w[@]}"}" ${w+"${v[@]}"}`},
		{`x=$(echo ${a+"${a[@]}"})`, `x=$(echo "${a[@]}")`},
		{`COMPREPLY=("${COMPREPLY[@]/#/$prefix}")`,
			`{ __qsh_repl __qsh_r1 '#' "$prefix" -- "${COMPREPLY[@]}" 2>/dev/null; COMPREPLY=("${__qsh_r1[@]}"); }`},
		{`x && echo ${p/%.pub/} "${a[*]/#-/+}"`,
			`x && { __qsh_repl __qsh_r1 '%' '' p '.pub' -- "${p}" 2>/dev/null; { __qsh_repl __qsh_r2 '#' '+' p '-' -- "${a[@]}" 2>/dev/null; echo ${__qsh_r1} "${__qsh_r2[*]}"; }; }`},
		{`echo "${sigs[@]/#${1-}SIG/${1-}}" ${x//#/y} ${1/#a}`,
			`{ __qsh_repl __qsh_r1 '#' "${1-}" p "${1-}" p 'SIG' -- "${sigs[@]}" 2>/dev/null; { __qsh_repl __qsh_r2 '#' '' p 'a' -- "${1}" 2>/dev/null; echo "${__qsh_r1[@]}" ${x//#/y} ${__qsh_r2}; }; }`},
		{`f() { a; b=("${c[@]/#/$p}"); d; }`, `f() { a; { __qsh_repl __qsh_r1 '#' "$p" -- "${c[@]}" 2>/dev/null; b=("${__qsh_r1[@]}"); }; d; }`},
		{`a=(${a[@]##*/?(:)}); echo ${b%.@(gz|xz)} ${c//+(x)/y} ${d#x}`,
			`{ __qsh_repl __qsh_r1 '#' '' p '*/?(:)' -- "${a[@]}" 2>/dev/null; a=(${__qsh_r1[@]}); }; { __qsh_repl __qsh_r2 '%s' '' p '.@(gz|xz)' -- "${b}" 2>/dev/null; { __qsh_repl __qsh_r3 '//' 'y' p '+(x)' -- "${c}" 2>/dev/null; echo ${__qsh_r2} ${__qsh_r3} ${d#x}; }; }`},
		{`local r="@(a|b)" s=x; c=${c##$r} d=${d%$s}`,
			`local r="@(a|b)" s=x; { __qsh_repl __qsh_r1 '#' '' p "$r" -- "${c}" 2>/dev/null; c=${__qsh_r1} d=${d%$s}; }`},
		{`line=${line#*"$match"} y=${y%"abc"} z=${z#'[x]'}`,
			`{ __qsh_repl __qsh_r1 '#s' '' p '*' l "$match" -- "${line}" 2>/dev/null; { __qsh_repl __qsh_r2 '#s' '' l '[x]' -- "${z}" 2>/dev/null; line=${__qsh_r1} y=${y%"abc"} z=${__qsh_r2}; }; }`},
		{"local -A m=([-x]=1 [a-b]=2 [c]=3 ['q']=4)", "local -A m=(['-x']=1 ['a-b']=2 [c]=3 ['q']=4)"},
		{"declare -a m=([i-1]=1)", "declare -a m=([i-1]=1)"},
		{"_c()\n{\n  x\n} &&\n    complete -D -F _c\n", "{ _c()\n{\n  x\n}; } &&\n    complete -D -F _c\n"},
		{"a && f() { :; } >log || b", "a && { f() { :; } >log; } || b"},
		{"f() { :; }\necho", "f() { :; }\necho"},
	}
	for _, tt := range tests {
		got, _ := Text(tt.in, "")
		if got != tt.out {
			t.Errorf("Text(%q):\n got %q\nwant %q", tt.in, got, tt.out)
		}
	}
}

// What Text changed reads back as written.
func TestOriginal(t *testing.T) {
	for _, src := range []string{
		"[[ $w == +($x) ]]",
		`[[ "$w" == @("a b"|$c*) || $v != -!(-*)[hvo] ]]`,
		"case $prev in --help | -!(-*)[hvo]) x ;; esac",
	} {
		out, ok := Text(src, "")
		if !ok {
			t.Fatalf("Text(%q) changed nothing", src)
		}
		f, err := syntax.NewParser().Parse(strings.NewReader(out), "")
		if err != nil {
			t.Fatal(err)
		}
		var got string
		switch c := f.Stmts[0].Cmd.(type) {
		case *syntax.TestClause:
			got = printed(&syntax.TestClause{X: OriginalTest(c.X)})
		case *syntax.CaseClause:
			for _, it := range c.Items {
				for _, p := range it.Patterns {
					if s, ok := PatternSource(p); ok {
						got = s
					}
				}
			}
			src = "-!(-*)[hvo]"
		}
		if got != src {
			t.Errorf("%q: rewritten %q, read back %q", src, out, got)
		}
	}
	f, _ := syntax.NewParser().Parse(strings.NewReader(func() string {
		s, _ := Text("! for ((;;)); do x; done >out &", "")
		return s
	}()), "")
	st := Unwrap(f.Stmts[0])
	if _, ok := st.Cmd.(*syntax.ForClause); !ok || !st.Negated || !st.Background || len(st.Redirs) != 1 {
		t.Errorf("Unwrap: %s", printed(st))
	}
}

// What Text writes parses, whenever what it got did: the shell runs it
// without parsing it twice.
func FuzzText(f *testing.F) {
	for _, src := range []string{
		"for ((i = 0; i < 3; i++)); do false; done >out &",
		`[[ ${a[i]} != -!(-*)[hvo] && -n $b ]]`,
		"case $p in --help | -!(-*)[hvo]) x ;; esac",
		"f() { :; } && echo one",
		"declare -F f; typeset -fF",
		"local -i n=$? m; declare -ir x=1+2",
		`for i in ${a[@]+"${!a[@]}"}; do echo "${!b[*]}"; done`,
		"local -A m=([-x]=1 [a-b]=2)",
		`COMPREPLY=("${COMPREPLY[@]/#/$prefix}"); echo ${a%.@(gz|xz)} | cat`,
		`x=$(echo ${a+"${a[@]}"}) y=${b##*/?(:)}`,
		"if [[ $x == +($y) ]]; then for ((;;)); do break; done; fi",
		`while [[ ${x/#a/b} ]]; do :; done; cat <<EOF
${y/%z/w}
EOF`,
	} {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if _, err := syntax.NewParser().Parse(strings.NewReader(src), ""); err != nil {
			return
		}
		out, changed := Text(src, "")
		if !changed {
			return
		}
		if _, err := syntax.NewParser().Parse(strings.NewReader(out), ""); err != nil {
			t.Errorf("Text(%q) = %q, which does not parse: %v", src, out, err)
		}
		if strings.Count(out, "\n") != strings.Count(src, "\n") {
			t.Errorf("Text(%q) = %q moved lines", src, out)
		}
	})
}
