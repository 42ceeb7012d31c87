package histexpand

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/internal/needs"
	"github.com/qsh-shell/qsh/internal/testtime"
)

// A diffCase is a line expanded against a history, in bash and here.
type diffCase struct {
	hist    []string
	line    string
	extglob bool
	chars   string // histchars; "" leaves it unset
}

var diffHist = []string{
	"echo a b c",
	`printf '%s\n' "x y" z >out.txt 2>&1`,
	"ls -l /tmp/foo.txt | grep foo; cat a.b/c.d",
	"git commit -m 'fix the bug' && git push",
}

// fixedDiffCases are the cases the manual's HISTORY EXPANSION section
// describes, and the corners found while writing the package.
func fixedDiffCases() []diffCase {
	lines := []string{
		"!!", "!$", "!^", "!*", "!-2", "!-4", "!-5", "!1", "!4", "!5", "!0", "!ec", "!ls", "!nope",
		"!?foo?", "!?foo", "!?foo?:%", "!?o?:%", "!?l?:%", "!??", "!?fix", "!%", "!:%",
		"!!:0", "!!:1", "!!:2", "!!:9", "!!:1-2", "!!:2-", "!!:2*", "!!:*", "!!:-2", "!!:^", "!!:$", "!!:^-$",
		"!!:1^", "!!:36", "!!:0-36", "!!:3-1", "!!:x", "!!:", "!!:Q", "!:1", "!ls:2", "!ls-l", "!ls$", "!-2$", "!!2",
		"!$:h", "!$:t", "!$:r", "!$:e", "!!:t:r", "!!:h:h", "!!:e:e", "!!:r:r", "!!:q", "!!:x", "!!:p", "!!:s/a/X/",
		"!!:s/o/0/", "!!:gs/o/0/", "!!:Gs/o/0/", "!!:s/o/[&]/", "!!:s/o/\\&/", "!!:s/o/0", "!!:s|o|0|", "!!:s", "!!:s/",
		"!!:s/zzz/y/", "!!:&", "!!:g&", "!!:s//Q/", "!!:as/o/0/", "!!:gt", "!?foo?:s//F/",
		"^foo^bar^", "^foo^bar", "^o^0^ x", "^zzz^y^", "^^x", "^foo", "x ^foo^bar^",
		"!#", "x !#", "x !#:0", "x y !#:1", "a !#:$:s/a/b/", "!#:p",
		"a 'b!' c", "a '!!' c", `a "!!" c`, `a "b!" c`, `a "!"`, `"!!`, `'!!`, `a \!! b`, `a \\!! b`, `a \\!!`, `a \\!! !!`,
		`$'a\'!!'`, `echo "$(echo '!!')"`, "echo `echo '!!'`", `echo "$(echo '!!')" !!`,
		"x !", "x ! y", "x !=y", "x !(y)", "!(y) x", "a[!x]", "a[!x] !!", "${!x}", "${!x} !!", "echo $!", "echo $!x", "echo $! !!",
		"x !;", "x !|", "x !&", "x !<", "x !)", "x #!!", "x#!!", "x '#' !!", `x "#!!"`, "# !!",
		"!!!!", "!!:$!!:0", "abc!$!$", "!ec:1-$:gs/ /_/", "!-1:q:p", "!!:$:s/foo/bar/:t:r",
		"!!:s/a/b/:s/c/d/", "!!:gs/t/T/:&", "!!:Gs/i/I/", "!!:G&",
		"!!:sé/e/", "!!:sécommit", "!!:s/é/e/", "é !!:$", "!é",
	}
	var cases []diffCase
	for _, l := range lines {
		cases = append(cases, diffCase{hist: diffHist, line: l})
	}
	cases = append(cases,
		diffCase{line: "!!"},
		diffCase{line: "!$"},
		diffCase{line: "^a^b"},
		diffCase{hist: []string{""}, line: "!$"},
		diffCase{hist: []string{"   "}, line: "x !$ !*"},
		diffCase{hist: diffHist, line: "x !(y)", extglob: true},
		diffCase{hist: diffHist, line: "!(y)", extglob: true},
		diffCase{hist: diffHist, line: "x !(y) !!", extglob: true},
		diffCase{hist: diffHist, line: "%% %$ !! ^a", chars: "%^#"},
		diffCase{hist: diffHist, line: "@foo@bar@", chars: "!@#"},
		diffCase{hist: diffHist, line: "x ;!! !!", chars: "!^;"},
		diffCase{hist: diffHist, line: "x #!!", chars: "!^;"},
		diffCase{hist: []string{"echo a # b c", "cat <<<x 2>&1 >|y &>z <&3- <(a b) $(c d) @(e f)", `a "b c" 'd e' \f\ g`}, line: "!1:$ !2:* !3:*"},
		diffCase{hist: []string{"x 1>a 22b 3", "a $() b", "a $(b) c)", "f(x) y;;z"}, line: "!1:* | !2:* | !3:* | !4:*"},
	)
	return cases
}

// randomDiffCases are lines put together from pieces that matter to
// expansion; the seed is fixed so a failure repeats.
func randomDiffCases(n int) []diffCase {
	pieces := []string{
		"!", "!!", "!$", "!^", "!*", "!-1", "!-2", "!2", "!e", "!l", "!?o?", "!?b", "!#", "!%",
		":0", ":1", ":$", ":^", ":*", ":1-2", ":2-", "-", ":h", ":t", ":r", ":e", ":q", ":x", ":p", ":s/o/0/", ":gs/a/A/",
		":&", ":g&", ":G&", ":s/x/&&/", "^", "^o^0^",
		" ", " ", " ", "a", "foo", "x.y/z", "'", "\"", "\\", "$", "(", ")", "[", "]", "{", "}", "#", ";", "|", "=", "`", "?", "&", "<",
		"\t", "é", ":s/é/e/", "\r",
	}
	words := []string{
		"echo", "a", "o", "foo.txt", "/a/b.c/d", "'b c'", `"d e"`, `"f 'g" h`, "x|y", ";", ";;", "&&", "2>&1", ">", ">>",
		"<<<", "<<-", "&>", ">|", "<&3-", "12", "3<x", "$(f g)", "$(f (g) h)", "<(h i)", "@(i|j)", "$()", "#c", "x#y",
		`\ `, "`k l`", "!x", "${a}", "(", ")", "\t", "\n", "é.ü/ß", "s/é/",
	}
	chars := []string{"", "", "", "%^#", "!^;", "!@#", "!^", "!"}
	r := rand.New(rand.NewSource(27))
	var cases []diffCase
	for range n {
		c := diffCase{hist: diffHist, extglob: r.Intn(4) == 0, chars: chars[r.Intn(len(chars))]}
		if r.Intn(2) == 0 {
			c.hist = nil
			for k := r.Intn(4) + 1; k > 0; k-- {
				var b strings.Builder
				for w := r.Intn(6) + 1; w > 0; w-- {
					b.WriteString(words[r.Intn(len(words))])
					b.WriteString([]string{" ", " ", "", "  "}[r.Intn(4)])
				}
				c.hist = append(c.hist, b.String())
			}
		}
		var b strings.Builder
		for k := r.Intn(8) + 1; k > 0; k-- {
			p := pieces[r.Intn(len(pieces))]
			if c.chars != "" && r.Intn(3) == 0 {
				p = strings.NewReplacer("!", c.chars[:1], "^", c.chars[min(1, len(c.chars)-1):min(2, len(c.chars))]).Replace(p)
			}
			b.WriteString(p)
		}
		c.line = b.String()
		cases = append(cases, c)
	}
	return cases
}

// TestAgainstBash expands each case in bash 5.2 and here, in order, one
// State for all (bash remembers searches and substitutions between lines
// too). bash's `history -p` gives the expansion; a line it refuses, or one
// here marked :p, is then typed to an interactive bash, which prints the
// message or the line on its standard error.
func TestAgainstBash(t *testing.T) {
	bash := needs.Tool(t, "bash")
	if v, err := exec.Command(bash, "--norc", "-c", "echo $BASH_VERSION").Output(); err != nil || !strings.HasPrefix(string(v), "5.2") {
		needs.Missing(t, "the cases are bash 5.2's; this bash is %q", v)
	}
	cases := append(fixedDiffCases(), randomDiffCases(8000)...)

	var ours []result
	all := len(cases)
	for {
		ours = expandAll(cases)
		// bash takes for ever over these (a :G whose replacement
		// adds a word to replace next); leave them out, and expand again
		// from the start as what they remembered is gone too.
		k := slices.IndexFunc(ours, func(r result) bool { return errors.Is(r.err, errTooLong) })
		if k < 0 {
			break
		}
		cases = slices.Delete(cases, k, k+1)
	}

	// Pass 1: history -p prints each expansion, or fails.
	stdout, _ := runBash(t, bash, "set +H\n"+script(cases, func(k int, c diffCase) string {
		return fmt.Sprintf("printf '@@%d\\n'; history -p -- %s 2>/dev/null; printf '@@rc%%s\\n' $?\n", k, quote(c.line))
	}))
	expanded, failed := parsePass1(t, stdout, len(cases))

	// Pass 2: the lines bash refused, and those marked :p here, typed.
	typed := make([]bool, len(cases))
	for k := range cases {
		typed[k] = failed[k] || ours[k].printOnly
	}
	_, stderr := runBash(t, bash, "set -H\n"+script(cases, func(k int, c diffCase) string {
		if !typed[k] {
			return fmt.Sprintf("history -p -- %s >/dev/null 2>&1\n", quote(c.line))
		}
		return fmt.Sprintf("printf '@@%d\\n' >&2\n%s\n", k, c.line)
	}))
	said := parsePass2(stderr)

	bad := 0
	for k, c := range cases {
		o := ours[k]
		var want, got string
		switch {
		case failed[k]:
			want = "error " + strings.TrimPrefix(said[k], "bash: ")
		case typed[k]:
			want = fmt.Sprintf("%q printed", said[k])
		default:
			want = fmt.Sprintf("%q", expanded[k])
		}
		switch {
		case o.err != nil:
			got = "error " + o.err.Error()
		case o.printOnly:
			got = fmt.Sprintf("%q printed", o.out)
		default:
			got = fmt.Sprintf("%q", o.out)
		}
		if got != want {
			if bad++; bad <= 20 {
				t.Errorf("case %d %q (extglob %v, histchars %q):\n got %s\nbash %s", k, c.line, c.extglob, c.chars, got, want)
			}
		}
	}
	if bad > 20 {
		t.Errorf("… and %d more", bad-20)
	}
	t.Logf("%d cases, %d differ; %d left out (bash does not end)", len(cases), bad, all-len(cases))
}

type result struct {
	out       string
	printOnly bool
	err       error
}

// expandAll expands the cases in order as bash does, one State for all.
func expandAll(cases []diffCase) []result {
	st := &State{}
	ours := make([]result, len(cases))
	chars := "!^#"
	for k, c := range cases {
		// A histchars shorter than three keeps the characters in effect
		// before it; unset is the defaults.
		if c.chars == "" {
			chars = "!^#"
		} else {
			chars = c.chars + chars[len(c.chars):]
		}
		out, p, err := Expand(c.line, c.hist, Options{Extglob: c.extglob, Chars: chars, State: st})
		ours[k] = result{out, p, err}
	}
	return ours
}

// script makes the input of an interactive bash that sets up each case's
// options and history, then runs what run returns on the line that fills
// the history (that line leaves the history, the next ones do not).
func script(cases []diffCase, run func(k int, c diffCase) string) string {
	var b strings.Builder
	for k, c := range cases {
		if c.extglob {
			b.WriteString("shopt -s extglob\n")
		} else {
			b.WriteString("shopt -u extglob\n")
		}
		if c.chars != "" {
			fmt.Fprintf(&b, "histchars=%s\n", quote(c.chars))
		} else {
			b.WriteString("unset histchars\n")
		}
		if len(c.hist) == 0 {
			// history -s after history -c on one line adds nothing.
			b.WriteString("history -c; ")
		} else {
			b.WriteString("history -c\n")
		}
		for _, h := range c.hist {
			fmt.Fprintf(&b, "history -s %s; ", quote(h))
		}
		b.WriteString(run(k, c))
	}
	return b.String()
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func runBash(t *testing.T, bash, input string) (string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testtime.Scaled(60*time.Second))
	defer cancel()
	// Without line editing, bash does not echo the lines it reads.
	cmd := exec.CommandContext(ctx, bash, "--norc", "--noprofile", "--noediting", "-i")
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "HISTFILE=/dev/null", "TMPDIR="+cmd.Dir, "LC_ALL=C.UTF-8", "PS1=", "PS2=")
	cmd.Stdin = strings.NewReader(input)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil && ctx.Err() != nil {
		t.Fatalf("bash: %v", err)
	}
	return stdout.String(), stderr.String()
}

func parsePass1(t *testing.T, out string, n int) (expanded []string, failed []bool) {
	t.Helper()
	expanded, failed = make([]string, n), make([]bool, n)
	seen := 0
	k := -1
	var text []string
	for _, l := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(l, "@@rc"); ok && k >= 0 {
			expanded[k] = strings.Join(text, "\n")
			failed[k] = rest != "0"
			seen++
			k = -1
			continue
		}
		if rest, ok := strings.CutPrefix(l, "@@"); ok {
			if v, err := strconv.Atoi(rest); err == nil {
				k, text = v, nil
				continue
			}
		}
		if k >= 0 {
			text = append(text, l)
		}
	}
	if seen != n {
		t.Fatalf("bash answered %d cases of %d; its output ends %q", seen, n, out[max(0, len(out)-500):])
	}
	return expanded, failed
}

// parsePass2 returns what bash wrote after each marker: the message or
// the printed line, which may have newlines.
func parsePass2(errOut string) map[int]string {
	said := map[int]string{}
	k := -1
	for _, l := range strings.Split(errOut, "\n") {
		if rest, ok := strings.CutPrefix(l, "@@"); ok {
			if v, err := strconv.Atoi(rest); err == nil {
				k = v
				continue
			}
		}
		if k < 0 {
			continue
		}
		if prev, ok := said[k]; ok {
			said[k] = prev + "\n" + l
		} else {
			said[k] = l
		}
	}
	for k, v := range said {
		said[k] = strings.TrimSuffix(strings.TrimSuffix(v, "\n"), "\nexit") // bash says exit at the end
	}
	return said
}
