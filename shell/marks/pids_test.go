package marks

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

func printNode(t *testing.T, n syntax.Node) string {
	t.Helper()
	var b strings.Builder
	if err := syntax.NewPrinter(syntax.SingleLine(true)).Print(&b, n); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(b.String())
}

func TestMarkBang(t *testing.T) {
	t.Parallel()
	lookup := `$(__qsh_pid "${__qsh_lastbg-}" 2>/dev/null)`
	unbound := `${!%%*}` // in the shell itself, for set -u
	tests := []struct {
		in, want string
		top      bool
	}{
		{`echo $!`, `echo ` + lookup, false},
		{`echo ${!}`, `echo ` + lookup, false},
		{`echo "pid $!."`, `echo "pid ` + lookup + `."`, false},
		{`echo $(( $! + 1 ))`, `echo $((` + lookup + ` + 1))`, false},
		{`kill -0 $! 2>/dev/null`, `kill -0 ` + lookup + ` 2>/dev/null`, false},
		{`echo ${!:-none}`, `echo $(__qsh_x=` + lookup + ` 2>/dev/null; printf %s "${__qsh_x:-none}" 2>/dev/null)`, false},
		{`echo ${#!}`, `echo $(__qsh_x=` + lookup + ` 2>/dev/null; printf %s "${#__qsh_x}" 2>/dev/null)`, false},
		{`echo $! $(echo "$!")`, `echo ` + lookup + ` $(echo "` + lookup + `")`, false},
		// In the shell itself, set -u may fail on it; not in a
		// subshell, a pipeline, a background statement, a function.
		{`echo "$!" ${!} $(echo $!); cat $! | cat $!`, `echo "` + lookup + unbound + `" ` + lookup + unbound + ` $(echo ` + lookup + `); cat ` + lookup + ` | cat ` + lookup, true},
		{`x=$! && (echo $!); f() { echo $!; }; echo $! & echo ${!:-x}`, `x=` + lookup + unbound + ` && (echo ` + lookup + `); f() { echo ` + lookup + `; }; echo ` + lookup + ` & echo $(__qsh_x=` + lookup + ` 2>/dev/null; printf %s "${__qsh_x:-x}" 2>/dev/null)`, true},
		// Not $!: indirection, a quoted or escaped one, history-free !.
		{`echo ${!x} '$!' \$! !`, `echo ${!x} '$!' \$! !`, false},
	}
	for _, tt := range tests {
		f, err := syntax.NewParser().Parse(strings.NewReader(tt.in), "")
		if err != nil {
			t.Fatal(err)
		}
		changed := markBang(f, tt.top)
		if got := printNode(t, f); got != tt.want || changed != (tt.in != tt.want) {
			t.Errorf("markBang(%q, %v) = %q, %v\nwant %q", tt.in, tt.top, got, changed, tt.want)
		}
		if markBang(f, tt.top) {
			t.Errorf("markBang(%q) marked twice: %q", tt.in, printNode(t, f))
		}
	}
}

func TestMarkPids(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in    string
		first bool
		want  []string // what the printed program contains, in order
	}{
		// The place is the offset+1 of the program's call.
		{in: `sleep 1 &`, want: []string{
			`declare -g __qsh_nextbg=$(__qsh_bg 1 2>/dev/null)`,
			`{ declare -g __qsh_bg=$__qsh_nextbg; __qsh_bgstart 2>/dev/null && : 2>/dev/null; sleep 1; __qsh_bgend 2>/dev/null; } &`,
			`declare -g __qsh_lastbg=$__qsh_nextbg`}},
		// A pipeline's last program; redirections stay on the statement.
		{in: `x; a | b >log &`, want: []string{`__qsh_bg 8 `, `__qsh_bgstart 2>/dev/null && : 2>/dev/null; a | b >log; __qsh_bgend`}},
		// Anything else has none: it gets a stand-in.
		{in: `{ a; b; } &`, want: []string{`__qsh_bg 0 `}},
		{in: `while :; do :; done &`, want: []string{`__qsh_bg 0 `}},
		// An eval string: the first program, places change.
		{in: `a | b &`, first: true, want: []string{`__qsh_bg -1 `}},
		// Nested lists, and a substitution.
		{in: `if x; then y & fi; z=$(w &)`, want: []string{`then declare -g __qsh_nextbg`, `$(declare -g __qsh_nextbg`}},
		// A job's mark sets $? to 0: the statement's first line goes
		// before it, so that $? in the statement is the one before.
		{in: `false; declare -g __qsh_job=$(__qsh_job 'x' 2>/dev/null); x &`, want: []string{
			`false; declare -g __qsh_nextbg=$(__qsh_bg `, `; declare -g __qsh_job=$(__qsh_job`, `{ declare -g __qsh_bg=`}},
		// $! and the statement together.
		{in: `sleep 1 & kill $!`, want: []string{`__qsh_lastbg=$__qsh_nextbg; kill $(__qsh_pid "${__qsh_lastbg-}" 2>/dev/null)${!%%*}`}},
	}
	for _, tt := range tests {
		f, err := syntax.NewParser().Parse(strings.NewReader(tt.in), "")
		if err != nil {
			t.Fatal(err)
		}
		if !markPids(f, tt.first) {
			t.Errorf("markPids(%q) changed nothing", tt.in)
		}
		got := printNode(t, f)
		rest := got
		for _, w := range tt.want {
			i := strings.Index(rest, w)
			if i < 0 {
				t.Errorf("markPids(%q) = %q\nwant it to contain, in order, %q", tt.in, got, tt.want)
				break
			}
			rest = rest[i+len(w):]
		}
		// Marking again changes nothing (a function body seen twice).
		if markPids(f, tt.first) {
			t.Errorf("markPids(%q) marked twice: %q", tt.in, printNode(t, f))
		}
	}
	f, _ := syntax.NewParser().Parse(strings.NewReader(`echo hi; true && false`), "")
	if markPids(f, false) {
		t.Errorf("markPids changed a program without & or $!: %q", printNode(t, f))
	}
}

func TestMayMark(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src  string
		want bool
	}{
		{"a && b || c", false},
		{"a >&2 2>&1 <&3 &>log |& cat &>>log", false},
		{"echo !x ${!x", true},
		{"echo ! hi", false},
		{"a &", true},
		{"a&", true},
		{"a & b", true},
		{"&& &", true},
		{"echo $!", true},
		{"echo ${!}", true},
		{"a&&", false},
	}
	for _, tt := range tests {
		if got := mayMark(tt.src); got != tt.want {
			t.Errorf("mayMark(%q) = %v, want %v", tt.src, got, tt.want)
		}
	}
}

// TestMarkPidsEvalPrinted: a function printed by declare -f and run by
// eval gets the place of its program in the eval string (its first).
func TestMarkPidsEvalPrinted(t *testing.T) {
	t.Parallel()
	f, _ := syntax.NewParser().Parse(strings.NewReader("f() { x; sleep 1 & }"), "")
	markPids(f, false)
	printed := printNode(t, f)
	if !strings.Contains(printed, "__qsh_bg 10 ") {
		t.Fatalf("marked: %q", printed)
	}
	out, changed := markPidsEval(printed)
	if !changed || !strings.Contains(out, "__qsh_bg -1 ") {
		t.Errorf("markPidsEval(%q) = %q, %v; want the place -1", printed, out, changed)
	}
}

func TestMarkPidsEval(t *testing.T) {
	t.Parallel()
	if got, ok := markPidsEval(`echo hi`); ok || got != `echo hi` {
		t.Errorf("markPidsEval(echo hi) = %q, %v", got, ok)
	}
	if got, ok := markPidsEval(`echo a && echo b`); ok || got != `echo a && echo b` {
		t.Errorf("markPidsEval(&&) = %q, %v", got, ok)
	}
	got, ok := markPidsEval(`sleep 1 & echo $!`)
	if !ok || !strings.Contains(got, `__qsh_bg -1 `) || !strings.Contains(got, `echo $(__qsh_pid`) {
		t.Errorf("markPidsEval = %q, %v", got, ok)
	}
	if _, err := syntax.NewParser().Parse(strings.NewReader(got), ""); err != nil {
		t.Errorf("markPidsEval made %q: %v", got, err)
	}
}

func TestProgramPlace(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want int
	}{
		{`sleep 1`, 1},
		{`  sleep 1`, 3},
		{`a | b`, 5},
		{`a | b | c`, 9},
		{`a |& b`, 6},
		{`x=1`, 0},
		{`a && b`, 0},
		{`(a)`, 0},
		{`f() { :; }`, 0},
	}
	for _, tt := range tests {
		f, err := syntax.NewParser().Parse(strings.NewReader(tt.in), "")
		if err != nil {
			t.Fatal(err)
		}
		if got := programPlace(f.Stmts[0]); got != tt.want {
			t.Errorf("programPlace(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestMarkTrap(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{`echo hi`, `echo hi`},
		{`kill $!`, `kill ` + bangLookup},
		{`kill ${!}  ;echo "[$!]" '$!'`, `kill ` + bangLookup + `  ;echo "[` + bangLookup + `]" '$!'`},
		{`echo ${!:-x} ${!y}`, `echo ${!:-x} ${!y}`}, // left as they are
		{`if then`, `if then`}, // a syntax error: left for the trap to report
	}
	for _, tt := range tests {
		got := Trap(tt.in)
		if got != tt.want {
			t.Errorf("Trap(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if back := Untrap(got); back != strings.ReplaceAll(tt.in, "${!}", "$!") {
			t.Errorf("Untrap(%q) = %q, want %q", got, back, tt.in)
		}
	}
}

// TestMarkPidsText: a sourced file's marks keep its lines where they are,
// and each statement's place is its program's offset in the new text.
func TestMarkPidsText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in    string
		progs []string // the program of each statement marked, in order; "" none
	}{
		{"sleep 1 &\necho $!\n", []string{"sleep"}},
		{"a | b >log &  # c\nkill ${!}\n", []string{"b"}},
		{"if x; then\n  y & fi\n", []string{"y"}},
		{"case $1 in a) sleep 2 & ;; b) c & ;& esac\n", []string{"sleep", "c"}},
		{"(sleep 3 &)\n", []string{"sleep"}},
		{"cat <<EOF &\nbody $!\nEOF\necho done\n", []string{"cat"}},
		{"{ sleep 4 & } &\n", []string{"", "sleep"}},
		{"f() { sleep 5 & echo ${!:-none}; }\n", []string{"sleep"}},
		{"x=1 sleep 6 & y=$!\n", []string{"sleep"}},
		{"x=$(sleep 7 &) && z &\nw", []string{"", "sleep"}},
		{"! false &\n>log sleep 8 2>&1 &\ntime sleep 9 &\n", []string{"false", "sleep", ""}},
		{"echo $! ${#!}\n", nil},
		// Marks printed by declare -f: their place is the old text's.
		{"f() {\n\tdeclare -g __qsh_nextbg=$(__qsh_bg 0000000999 2>/dev/null)\n\t{\n\t\tdeclare -g __qsh_bg=$__qsh_nextbg\n\t\t__qsh_bgstart 2>/dev/null && : 2>/dev/null\n\t\tsleep 1\n\t\t__qsh_bgend 2>/dev/null\n\t} &\n\tdeclare -g __qsh_lastbg=$__qsh_nextbg\n}\n", []string{"sleep"}},
		{"echo no marks && true\n", nil},
		{"if then & $!\n", nil}, // a syntax error: as written
	}
	marks := regexp.MustCompile(`__qsh_bg ([0-9]+) `)
	for _, tt := range tests {
		out, changed := markPidsText(tt.in, "f.sh")
		if !strings.Contains(tt.in, "$!") && tt.progs == nil || strings.Contains(tt.in, "if then") {
			if changed || out != tt.in {
				t.Errorf("markPidsText(%q) = %q, %v; want it unchanged", tt.in, out, changed)
			}
			continue
		}
		if !changed {
			t.Errorf("markPidsText(%q) changed nothing", tt.in)
			continue
		}
		if strings.Count(out, "\n") != strings.Count(tt.in, "\n") {
			t.Errorf("markPidsText(%q) moved lines: %q", tt.in, out)
		}
		if _, err := syntax.NewParser().Parse(strings.NewReader(out), ""); err != nil {
			t.Errorf("markPidsText(%q) = %q: %v", tt.in, out, err)
		}
		if strings.Contains(out, "$!") || strings.Contains(out, "${!}") {
			t.Errorf("markPidsText(%q) left a $!: %q", tt.in, out)
		}
		var got []string
		for _, m := range marks.FindAllStringSubmatch(out, -1) {
			place, _ := strconv.Atoi(m[1])
			prog := ""
			if place > 0 {
				prog, _, _ = strings.Cut(out[place-1:], " ")
			}
			got = append(got, prog)
		}
		if strings.Join(got, ",") != strings.Join(tt.progs, ",") {
			t.Errorf("markPidsText(%q): places at %q, want %q\n%s", tt.in, got, tt.progs, out)
		}
		if again, changed := markPidsText(out, "f.sh"); changed {
			t.Errorf("markPidsText marked %q twice: %q", tt.in, again)
		}
	}
}

// TestMarkBackgroundPrinted: a function printed by declare -f at the
// prompt, with its job's and $!'s marks, and run again by eval: no second
// job mark, the job's text is the statement's, and $!'s place is anew.
func TestMarkBackgroundPrinted(t *testing.T) {
	t.Parallel()
	f, _ := syntax.NewParser().Parse(strings.NewReader("f() { sleep 1 & }"), "")
	markBackground(f)
	markPids(f, false)
	var b strings.Builder
	syntax.NewPrinter().Print(&b, f)
	f2, err := syntax.NewParser().Parse(strings.NewReader(b.String()), "")
	if err != nil {
		t.Fatal(err)
	}
	markBackground(f2)
	markPids(f2, true)
	got := printNode(t, f2)
	if n := strings.Count(got, "__qsh_job '"); n != 1 {
		t.Errorf("%d job marks, want 1: %q", n, got)
	}
	if !strings.Contains(got, "__qsh_job 'sleep 1'") {
		t.Errorf("the job's text is not the statement's: %q", got)
	}
	if !strings.Contains(got, "__qsh_bg -1 ") {
		t.Errorf("$!'s place is not anew: %q", got)
	}
}
