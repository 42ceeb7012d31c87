package eval

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// funcShape is a function definition and whether bash's printed text of
// it re-sources to the same function (where bash's own text does not, qsh
// prints what bash prints all the same).
type funcShape struct {
	name, def string
	unstable  string // why bash's text does not round-trip
}

// funcShapes are the shapes FuncText must print as bash 5.2 does: every
// command kind, nesting, here-documents, quoting, redirections. Each
// defines f.
var funcShapes = []funcShape{
	{name: "simple", def: `f() { echo a; echo b; }`},
	{name: "newlines", def: "f() {\n  a\n  b\n\n  c\n}"},
	{name: "comments", def: "f() { # c\n  echo a # trailing\n  # whole line\n  echo b\n}"},
	{name: "and-or", def: `f() { a && b || c; ! a; a && ! b; }`},
	{name: "pipes", def: `f() { x | y |& z; ! a | b; grep a f |` + "\n" + `  sort |` + "\n" + `  uniq -c; }`},
	{name: "background", def: "f() { a & b & }"},
	{name: "background-list", def: "f() { a; b & c; d &\ne; }"},
	{name: "if", def: `f() { if a; then b; fi; }`},
	{name: "if-else", def: `f() { if a; then b; else c; fi; }`},
	{name: "elif", def: `f() { if a; then b; elif c; then d; elif e; then :; else g; fi; }`},
	{name: "if-multi-cond", def: `f() { if a; b; then c; fi; if ! a; then :; fi; if a & then b; fi; }`},
	{name: "while-until", def: `f() { while a; do b; done; until a; do b; c; done; while a; b; do :; done; }`},
	{name: "for-in", def: `f() { for i in a b "c d"; do echo $i; done; for i; do :; done; for i in; do :; done; }`},
	{name: "c-for", def: `f() { for ((i=0; i<3; i++)); do echo; done; for ((;;)); do break; done; for (( i = 0 ; i < 2 ; i++ )); do :; done; for (( ; i<1 ; )); do :; done; }`},
	{name: "select", def: `f() { select x in a b; do echo $x; break; done; select y; do :; done; }`},
	{name: "case", def: `f() { case $x in a) echo a;; b|c) echo b;& d) echo d;;& *) ;; esac; }`},
	{name: "case-shapes", def: "f() { case \"$x\" in (a) ;; 'b'|\"c\") echo;;& ?*) e;& esac; case x\nin x) a; b;; esac; case y in esac; case z in z) q\n  esac; }"},
	{name: "case-comments", def: "f() {\n case $x in # c\n  # before\n  (a) b; ;; # after\n  c) # in\n   d\n   ;;\n  # before esac\n esac\n}"},
	{name: "group-subshell", def: `f() { (a; b); { c; d; }; ( e ); }`},
	{name: "nested", def: `f() { while :; do { case $a in x) if a; then (b; c) | d; fi ;; esac; } 2>&1 | cat; done; }`},
	{name: "arith", def: `f() { (( x = 1 + 2 )); ((y++)); ((  x  +  1  )); echo $((  a + b )) $[1+2] $((2**10)) $(( (1+2)*3 )); let x=1 y++ "z = 3"; }`},
	{name: "test", def: `f() { [[ -n $x && ( $y == z* || ! -f a ) ]]; [[ $a =~ ^a(b)$ ]]; [[ a ]]; [[ ! a && b ]]; [[ ! ! a ]]; [[ ! ( a ) ]]; [[ a < b ]]; [[ a -nt b || -v x ]]; }`},
	{name: "test-regex", def: `f() { [[ $x =~ "q"(a|b)\ c ]]; [[ $x =~ ^([0-9]+)\.([0-9]+)$ ]] && echo "${BASH_REMATCH[1]}"; [ -f x ] && . x; }`},
	{name: "redirections", def: `f() { echo >f 2>>g <h 3<>i 4>&1 5<&0 >&- 2>&- >|k &>l &>>m <<<"str" {fd}>n 2>&1- 1<&3-; }`},
	{name: "redirections-fds", def: `f() { echo 1>f 0<g <&3- >&$fd {v}>&3 {v}<&0 2<&1 1>>f 0<&4 5>&- 4<&- <&- 0<&- >&file 2>&$fd <&$fd 3>&"$x" <> rw 0<>rw2 1>&$x 0<&$x >&2- <&3 0<<<x 3<<<y 1>|f {fd}<&-; }`},
	{name: "redirect-first", def: `f() { >out echo hi; a=1 >f; 2>&1 a=1 b c; > only; }`},
	{name: "compound-redirect", def: `f() { { a; b; } >out 2>&1; (c) <in; if a; then b; fi >x; while :; do :; done <y; for i in 1; do :; done 2>/dev/null; }`},
	{name: "heredoc", def: "f() { cat <<EOF\nhello $x\nEOF\ncat <<-'E2' >out\n\ttab\n\tE2\necho after; }"},
	{name: "heredoc-quoting", def: "f() { cat <<\\E\nx\nE\ncat <<E\"F\"\ny\nEF\ncat << 'E' \nsp\nE\ncat <<\"it's\"\nq\nit's\n}"},
	{name: "heredoc-body", def: "f() { cat <<E\n$(  echo   a ) line\\\ncont `  echo  b  `\nE\ncat <<-E\n\tfoo\\\n\tbar\n\t\ttabbed\n\tE\n}"},
	{name: "heredoc-pipe", def: "f() { cat <<A | grep x\nline\nA\necho next; }"},
	{name: "heredoc-and", def: "f() { cat <<A && echo ok; echo two\nbody\nA\ncat <<B || echo no\nb\nB\n}"},
	{name: "heredoc-background", def: "f() { cat <<A & echo x; echo y\nb\nA\n}"},
	{name: "heredoc-two", def: "f() { cat <<A <<B\na\nA\nb\nB\ncat <<C; cat <<D\nc\nC\nd\nD\n}"},
	{name: "heredoc-list", def: "f() { a; cat <<E; c; d\nbody\nE\ncat <<F; e; g\nx\nF\n}"},
	{name: "heredoc-compound", def: "f() { if true; then cat <<X\nin if\nX\nfi; while read l; do echo $l; done <<EOF\n$(echo a)\nEOF\n}"},
	{name: "heredoc-nested", def: "f() { x; if a; then cat <<A; else cat <<B; fi; y\na\nA\nb\nB\n{ cat <<C\nc\nC\n} | x; echo y; }"},
	{name: "heredoc-loop-cond", def: "f() { while cat <<A\nb\nA\ndo echo; done; x; until cat <<B; do :; done; y\nb\nB\n}"},
	{name: "heredoc-if-cond", def: "f() { if cat <<A; then :; fi; echo x; echo y\nb\nA\n}",
		unstable: "bash prints the body after the then part's first command"},
	{name: "heredoc-async", def: "f() { x; a <<E & b\ne\nE\na & cat <<F & d; e\nf\nF\n}",
		unstable: "bash puts the & after the body, at the start of a line"},
	{name: "heredoc-redirect-resets", def: "f() { /tmp/x <<'E';\nx\nE\nb &>>log | y\nc; }"},
	{name: "heredoc-subst", def: "f() { x=$(cat <<E\nsub\nE\n); echo \"$x\"; echo \"$(cat <<F\nin $(echo x)\nF\n)\"; }"},
	{name: "heredoc-body-redirect", def: "f() { cat; } <<E\nbody\nE"},
	{name: "quoting", def: `f() { echo 'a'\''b' "a\"b" a\ b \$x "\$x" "` + "`echo x`" + `" "$(echo ")")" '$(x)' "${a:-"b c"}" ${a:+'d e'} "${a//\//_}" 'x` + "\n" + `y' "multi` + "\n" + `line"; }`},
	{name: "ansi-c", def: `f() { echo $'it\'s' $'tab\there' $'a\x01b' $'\u00e9' $'\"\?\\' $'\q' $'\0end' "${x:-$'a'}" $'\'' $'a'"b"$'c' $"str" $"l $x" a$'b'c "$'d'" ${x:-$'e'}; }`},
	{name: "ansi-c-places", def: `f() { x=$'f'; [[ $'g' == $'h' ]]; case $'j' in $'k') ;; esac; echo $(( $'1' )); (( $'2' )); }`},
	{name: "continuations", def: "f() { echo a \\\n  b; echo \"a\\\nb\" ${x:-a\\\nb} 'c\\\nd' `echo \\\ny`; }"},
	{name: "params", def: `f() { echo "${x}" "${x[@]:1:2}" "${!p*}" "${x/a/$(echo b)}" ${x[ 1 + 2 ]} ${#x} ${x//a/b} "${a[@]/#/-}" "${x,,}" "${x^^}" "${x@Q}" "${!ref}" ${x#*/}; }`},
	{name: "subst", def: `f() { echo $(ls;   pwd) "$(date)" ` + "`echo back`" + ` <(cat) >(cat); x=$(  echo  hi  ); y=$( (a; b) ); z=$( ((x)) ); w=$(<file); v=$( < file ); u=$(); }`},
	{name: "subst-compound", def: `f() { x=$(if a; then b; c; else d; fi); y=$(for i in 1 2; do echo $i; done); z=$(case $x in a) echo;; esac); w=$(while a; do b; done); v=$({ a; b; }); }`},
	{name: "subst-lists", def: "f() { x=$(a | b && c || d; e & f &); y=$(a\nb; c\n{ d\ne; }\n( f\ng )\n); z=$(! a | b; time c; a && ! b); w=$(a &\nb); }"},
	{name: "subst-nested-func", def: `f() { x=$(g() { echo; }; g); y=$( [[ -n $x ]] && (( y++ )) ); z="$(echo "$(echo in)")"; }`},
	{name: "procsubst", def: `f() { cat <( ((x)) ) <( (x) ) >( ((y)) ) <(  cat  ) >( cat;  cat ) <(((x))) <((a);   b) <(echo   x;   (a)); }`},
	{name: "multiline-subst", def: "f() {\n  x=$(\n    for f in *; do\n      echo $f\n      echo b\n    done\n  )\n  y=$(\n    if a; then\n      b\n      c\n    fi\n    d\n  )\n}"},
	{name: "assignments", def: "f() { a+=x; a[1]=y; b[k]+=z; a=(\n  1   # c\n  [2]=3\n); c=([a]=1 [b]=2); d=(); a+=(x y); e=; g+=; x=1 y=2 cmd arg; declare -A m=([\"a b\"]=1 [$k]=2 [x]=); }"},
	{name: "declarations", def: `f() { declare -a a=(1 2  3); local -r x=1 y; export a=b c; readonly q; typeset -i n=1; local v=$((1+2)) w; local q=$(  cmd  ); declare -g G; }`},
	{name: "time-negation", def: "f() { time a | b; time -p c; time; time { a; }; ! { a; }; ! time a; time a & }",
		unstable: "bash prints ! time a as time ! a, which the parser does not read"},
	{name: "function-keyword", def: `function f { echo k; }`},
	{name: "function-keyword-parens", def: `function   f  (  )   {  echo  spaced  ;  }`},
	{name: "nested-functions", def: `f() { function inner { echo in; }; inner2() { echo x; }; g() ( echo sub ); h() [[ -n x ]]; m() { :; } > out; }`},
	{name: "deep-functions", def: `f() { g() { h() { echo deep; }; }; }`},
	{name: "body-subshell", def: `f() ( echo sub; echo two )`},
	{name: "body-if", def: `f() if a; then b; fi`},
	{name: "body-test", def: `f() [[ -n x ]]`},
	{name: "body-arith", def: `f() (( x++ ))`},
	{name: "body-loops", def: `f() for x in a; do :; done`},
	{name: "body-while", def: `f() while :; do :; done`},
	{name: "body-case", def: `f() case x in x) ;; esac`},
	{name: "body-redirect", def: `f() { :; } > out`},
	{name: "body-subshell-redirect", def: `f() ( : ) 2>&1`},
	{name: "words", def: `f() { echo ~ ~/x ~root/y x~ "~" a=~/b {a,b}{c,d} {1..10} x{,y} *.txt a?b [ab]c; PATH=~/bin:$PATH cmd; }`},
	{name: "extglob", def: "shopt -s extglob\nf() { echo @(a|b) !(x) +(y) *(z) ?(w); [[ $x == @(1|2) ]]; case $x in +([0-9])) ;; esac; }"},
	{name: "realistic", def: `f() {
    local dir
    dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd) || return 1
    [[ -f $dir/conf ]] && . "$dir/conf"
    while IFS= read -r line || [[ -n $line ]]; do
        case $line in
            \#*|'') continue ;;
            *=*) printf -v "${line%%=*}" '%s' "${line#*=}" ;;
        esac
    done < <(grep -v '^$' "$dir/conf")
    a || { echo fail >&2; return 1; }
    ( cd /tmp && ls ) &
    wait
    trap 'rm -f "$tmp"' EXIT
    exec 3>&1 4>&2
    eval "$(ssh-agent -s)" >/dev/null
    for x in "${arr[@]}"; do
        if (( x > 3 )); then
            echo big
        elif [[ $x == 1 ]]; then
            echo small
        fi
    done
    cat <<< "$(date)"
}`},
	{name: "getopts", def: "f() {\n    if [ $# -eq 0 ]; then\n        cat <<-EOF >&2\n\t\tusage: $0 [-h] file\n\t\tEOF\n        return 2\n    fi\n    while getopts \":hv:\" opt; do\n        case $opt in\n            h) usage; exit 0;;\n            \\?) echo \"bad -$OPTARG\" >&2; exit 1;;\n        esac\n    done\n    shift $((OPTIND - 1))\n}"},
	{name: "names", def: "my-func() { :; }\na.b() { :; }\nf() { my-func; a.b; }"},
}

// TestFuncTextAgainstBash prints each shape with declare -f and type in
// bash and in qsh.
func TestFuncTextAgainstBash(t *testing.T) {
	cases := make([]bashCase, 0, len(funcShapes)+1)
	for _, s := range funcShapes {
		cases = append(cases, bashCase{s.name, s.def + "\ndeclare -f f; type f"})
	}
	cases = append(cases, bashCase{"listing", "b() { :; }; a() { b | c; }\ndeclare -f"})
	checkAgainstBash(t, cases)
}

// parseFunc parses src and returns its function f (or its first).
func parseFunc(t testing.TB, src string) *Func {
	t.Helper()
	p, err := Parse(src, "")
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	var fn *Func
	syntax.Walk(p.File, func(n syntax.Node) bool {
		if d, ok := n.(*syntax.FuncDecl); ok && d.Name != nil && (fn == nil || d.Name.Value == "f") {
			fn = &Func{Name: d.Name.Value, Body: d.Body, src: src}
		}
		return true
	})
	if fn == nil {
		t.Fatalf("no function in %q", src)
	}
	return fn
}

// TestFuncTextRoundTrip re-parses what FuncText prints: printing that
// gives the same text again.
func TestFuncTextRoundTrip(t *testing.T) {
	for _, s := range funcShapes {
		t.Run(s.name, func(t *testing.T) {
			if s.unstable != "" {
				t.Skip(s.unstable)
			}
			once := FuncText(parseFunc(t, s.def))
			twice := FuncText(parseFunc(t, once))
			if once != twice {
				t.Errorf("printed:\n%s\nprinted again:\n%s", once, twice)
			}
		})
	}
}

// TestFuncTextPrintWithoutSource prints trees whose source is not known
// (built or parsed elsewhere): the layout is bash's, the words the
// parser's printer's.
func TestFuncTextPrintWithoutSource(t *testing.T) {
	for _, c := range []struct{ def, want string }{
		{"f() { echo a; if b; then c; fi; }", "f () \n{ \n    echo a;\n    if b; then\n        c;\n    fi\n}\n"},
		{"f() ( x | y && z )", "f () \n{ \n    ( x | y && z )\n}\n"},
		{"f() { cat <<E; b\nbody\nE\n}", "f () \n{ \n    cat <<E\nbody\nE\n\n    b\n}\n"},
		{"f() { for ((i=0;i<2;i++)); do a[i]=1; done; }", "f () \n{ \n    for ((i = 0; i < 2; i++))\n    do\n        a[i]=1;\n    done\n}\n"},
	} {
		fn := parseFunc(t, c.def)
		fn.src = ""
		if got := FuncText(fn); got != c.want {
			t.Errorf("%q:\ngot  %q\nwant %q", c.def, got, c.want)
		}
		// A source that does not match the tree is as good as none.
		fn.src = strings.Repeat("x", len(c.def))
		if got := FuncText(fn); got != c.want {
			t.Errorf("%q with another source:\ngot  %q\nwant %q", c.def, got, c.want)
		}
	}
}

// FuzzFuncText prints every function parsed from random text: it must
// never panic, with the source or without it.
func FuzzFuncText(f *testing.F) {
	for _, s := range funcShapes {
		f.Add(s.def)
	}
	f.Fuzz(func(t *testing.T, src string) {
		p, err := Parse(src, "")
		if err != nil {
			return
		}
		syntax.Walk(p.File, func(n syntax.Node) bool {
			if d, ok := n.(*syntax.FuncDecl); ok {
				fn := &Func{Name: "f", Body: d.Body, src: src}
				FuncText(fn)
				fn.src = ""
				FuncText(fn)
			}
			return true
		})
	})
}
