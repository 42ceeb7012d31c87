package danger

import (
	"fmt"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// expandLast walks every statement of src but the last, which must be a
// command, and returns the fields its arguments expand to, holes shown
// as «?».
func expandLast(t *testing.T, src string) string {
	t.Helper()
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	w := newWalker(testWS, testWS.Dir)
	w.src = src
	last := f.Stmts[len(f.Stmts)-1]
	w.stmts(f.Stmts[:len(f.Stmts)-1], input{})
	call, ok := last.Cmd.(*syntax.CallExpr)
	if !ok {
		t.Fatalf("%q: the last statement is no command", src)
	}
	var b strings.Builder
	for _, word := range call.Args[1:] {
		for _, a := range w.fields(word) {
			fmt.Fprintf(&b, "[%s]", strings.ReplaceAll(a.s, hole, "«?»"))
		}
	}
	return b.String()
}

// TestExpandLikeBash: words resolved as bash 5.2 resolves them (each want
// is what `printf '[%s]' WORDS` printed in bash), and what cannot be
// known as holes.
func TestExpandLikeBash(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ src, want string }{
		// Quote removal.
		{`p r\m 'r'm "r"m r''m $'\x72\x6d'`, "[rm][rm][rm][rm][rm]"},
		{`p "a\"b\\c\$d\e" 'a\b' a\\b`, `[a"b\c$d\e][a\b][a\b]`},
		{`x=r\m; p $x`, "[rm]"},
		// Splitting at IFS: whitespace runs, and each other separator.
		{`x='a b  c'; p $x "$x"`, "[a][b][c][a b  c]"},
		{`IFS=:; x=a::b:; p $x`, "[a][][b]"},
		{`IFS=': '; x=' a : b  ::c '; p $x`, "[a][b][][c]"},
		{`IFS=:; x=/usr/local; p ${x//\//:}`, "[][usr][local]"},
		{`IFS=; set -- 'a b' c; p $* $@ "$*"`, "[a b][c][a b][c][a bc]"},
		// Positional parameters and arrays.
		{`set -- a 'b c'; p "$@" $@ "$*" "x$@y"`, "[a][b c][a][b][c][a b c][xa][b cy]"},
		{`set --; p "$@" "x$@" "$@"""`, "[x][]"},
		{`a=(one 'two three' four); p "${a[@]}" "${a[*]}" ${a[1]} ${a[-1]} ${#a[@]} ${!a[@]}`,
			"[one][two three][four][one two three four][two][three][four][3][0][1][2]"},
		{`a=(one two three); p "${a[@]:1}" "${a[@]:1:1}"`, "[two][three][two]"},
		{`a=(x y); p ${a} ${a[0]} ${a[5]:-none} "${a[@]/x/z}" "${a[@]#x}"`, "[x][x][none][z][y][][y]"},
		// Operators.
		{`x=hello; p ${x:1} ${x:1:2} ${x: -2} ${x:0:-1} ${#x}`, "[ello][el][lo][hell][5]"},
		{`x=hello; p ${x^} ${x^^} ${x,,} ${x@U} ${x@Q}`, "[Hello][HELLO][hello][HELLO]['hello']"},
		{`x=/usr/local/bin/rm; p ${x#*/} ${x##*/} ${x%/*} ${x%%/*}`, "[usr/local/bin/rm][rm][/usr/local/bin]"},
		{`x=/usr/local/bin/rm; p ${x/local/} ${x/#\/usr/X} ${x/%rm/ls}`,
			"[/usr//bin/rm][X/local/bin/rm][/usr/local/bin/ls]"},
		{`x=abc; p ${x/?/Z} ${x//[ab]/Z} ${x//[!a]/Z} ${x/[[:alpha:]]/Q} ${x^^[ac]}`, "[Zbc][ZZc][aZZ][Qbc][AbC]"},
		{`x='a*b'; p ${x#"a*"} ${x#a\*} ${x#a*}`, "[b][b][*b]"},
		{`f=rm; e=; p ${f:-x} ${f:+y} ${f-z} ${e:-d} ${e-d} ${e:+a} ${e+a} ${e:=new} $e`,
			"[rm][y][rm][d][a][new][new]"},
		{`x=a; y=x; p ${!y} ${!y:-d}`, "[a][a]"},
		// $'…', braces, tilde, arithmetic, printf.
		{`p $'a\tb\x41\101\u263a\cAb'`, "[a\tbAA☺\x01b]"},
		{`p {a,b}{1,2} {3..1} {01..03} {a..c} {1..10..3} x{,y}z {~,~/x}`,
			"[a1][a2][b1][b2][3][2][1][01][02][03][a][b][c][1][4][7][10][xz][xyz][/home/alice][/home/alice/x]"},
		{`p ~ ~/x ~bob/z "~" \~ '~' x~ ~'x'`, "[/home/alice][/home/alice/x][/home/bob/z][~][~][~][x~][~x]"},
		{`HOME=/tmp/h; p ~/x`, "[/tmp/h/x]"},
		{`p $((1+2*3)) $((7/2)) $((2**10)) $((1<<4)) $((0x10)) $((010)) $((2#101)) $((-5%3)) $((1?2:3))`,
			"[7][3][1024][16][16][8][5][-2][2]"},
		{`n=5; p $((n*2)) $(( n > 3 && n < 10 ))`, "[10][1]"},
		{`p "$(printf '%s-%d' x 5)" $(printf '%05.1f|%x|%o|%c|%5s|%-5s|' 3.14159 255 8 hello ab ab)`,
			"[x-5][003.1|ff|10|h|][ab|ab][|]"},
		{`p "$(printf '%b' 'a\tb\0101\cXYZ')"`, "[a\tbA]"},
		// Not known before running: holes, never guesses.
		{`p $X "$X" ${#X} $((X+1)) ${X[1]} ${X:2} ${!X} ${!X*}`, "[«?»][«?»][«?»][«?»][«?»][«?»][«?»][«?»]"},
		{`p $(date) $((i++)) $((1/0)) "${X:?unset}"`, "[«?»][«?»][«?»][«?»]"},
		{`p pre-$X-post`, "[pre-«?»-post]"},
	} {
		if got := expandLast(t, c.src); got != c.want {
			t.Errorf("%s\n got %s\nwant %s", c.src, got, c.want)
		}
	}
}

// TestPrintfLikeBash: what printf prints, as bash's printf prints it.
func TestPrintfLikeBash(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		format string
		args   []string
		want   string
		ok     bool
	}{
		{`%s\n`, []string{"a", "b"}, "a\nb\n", true},
		{`%s=%s;`, []string{"a", "1", "b"}, "a=1;b=;", true},
		{`%d %i %u %x %X %o`, []string{"-3", "0x10", "7", "255", "255", "8"}, "-3 16 7 ff FF 10", true},
		{`%5d|%-5d|%05d|%+d`, []string{"42", "42", "42", "42"}, "   42|42   |00042|+42", true},
		{`%.3s|%*s|%-*s|`, []string{"abcdef", "4", "x", "3", "y"}, "abc|   x|y  |", true},
		{`%c%c`, []string{"hello", "ok"}, "ho", true},
		{`%d`, []string{"'A"}, "65", true},
		{`%b|`, []string{`a\nb\x41\0101`}, "a\nbAA|", true},
		{`%q|%q|%q`, []string{"a b", "", "it's"}, `a\ b|''|it\'s`, true},
		{`%%|\t|\x41|\101|\e`, nil, "%|\t|A|A|\x1b", true},
		{`%.2f|%e|%g`, []string{"3.14159", "1000", "0.5"}, "3.14|1.000000e+03|0.5", true},
		{`no conversion`, []string{"a", "b"}, "no conversion", true},
		{`%d`, []string{"12abc"}, "", false},
		{`%z`, nil, "", false},
		{`%999999999s`, []string{"x"}, "", false},
	} {
		got, ok := printfText(c.format, c.args)
		if got != c.want || ok != c.ok {
			t.Errorf("printf %q %q = %q %v, want %q %v", c.format, c.args, got, ok, c.want, c.ok)
		}
	}
}

// TestPatternMatch: the patterns of ${x#pat} and the like.
func TestPatternMatch(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		pat, s string
		want   bool
	}{
		{"*", "", true},
		{"*", "a/b", true},
		{"a?c", "abc", true},
		{"a?c", "ac", false},
		{"[a-c]x", "bx", true},
		{"[!a-c]x", "bx", false},
		{"[^a-c]x", "dx", true},
		{"[]]", "]", true},
		{"[[:digit:]]*", "7up", true},
		{`\*`, "*", true},
		{`\*`, "a", false},
		{"[", "[", true},
		{"*.go", "main.go", true},
		{"*.go", "main.gox", false},
		{"a*b*c", "aXbYbZc", true},
	} {
		if got := match(c.pat, c.s); got != c.want {
			t.Errorf("match(%q, %q) = %v, want %v", c.pat, c.s, got, c.want)
		}
	}
}

// TestExpandEvasions: commands hidden behind expansions are found.
func TestExpandEvasions(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{
		`X=r\m; $X -rf ~`,
		`x=XXrm; ${x/#XX/} -rf ~`,
		`x=rmXX; ${x/%XX/} -rf ~`,
		`c=$(printf '%.2s' rmdir); $c -rf ~`,
		`n=1; cmd=(ls rm); ${cmd[n-1+1]} -rf ~`,
		`rm -rf ~{,}`,
		`rm -rf {/tmp/x,~}`,
		`IFS=,; x=rm,-rf,/; $x`,
		`x=RM; ${x,,} -rf ~`,
		`x=abcrm; ${x##*c} -rf ~`,
		`x=rm; y=x; ${!y} -rf ~`,
		`: ${x:=rm}; $x -rf ~`,
		`cat > /tmp/x <<< r\m\ -rf\ ~; bash /tmp/x`,
		`bash -c "$(printf 'r%s -rf ~' m)"`,
	} {
		if v := Classify(cmd, testWS); v.Class != Blocked {
			t.Errorf("Classify(%q) = %v %q, want blocked", cmd, v.Class, v.Reasons)
		}
	}
}
