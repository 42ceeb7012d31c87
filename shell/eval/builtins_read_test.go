package eval

import (
	"bytes"
	"context"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/qsh-shell/qsh/internal/needs"
	"github.com/qsh-shell/qsh/internal/testtime"
)

func TestReadAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"reply", `read <<< "  a\\ b  "; echo "[$REPLY]"; read -r <<< "  a\\ b  "; echo "[$REPLY]"`},
		{"names", `read a b c <<< "  one two three four  "; echo "[$a][$b][$c]"`},
		{"fewer-fields", `read a b c <<< "one"; echo "[$a][$b][$c]"`},
		{"escaped-space", `read a b <<< "a\\ b c"; echo "[$a][$b]"`},
		{"escaped-raw", `read -r a b <<< "a\\ b c"; echo "[$a][$b]"`},
		{"continuation", `printf 'a\\\nb c\n' | { read x y; echo "[$x][$y]"; }`},
		{"continuation-raw", `printf 'a\\\nb c\n' | { read -r x y; echo "[$x][$y]"; }`},
		{"backslash-eof", `printf 'a\\' | { read x; echo "$? [$x]"; }`},
		{"backslash-newline-eof", `printf 'x\\\n' | { read a; echo "$? [$a]"; }`},
		{"nul-dropped", `printf 'a\0b\n' | { read x; echo "[$x]"; }`},
		{"eof-partial", `printf 'ab' | { read x; echo "$? [$x]"; }`},
		{"eof-empty", `x=old; read x < /dev/null; echo "$? [$x]"`},
		{"ifs-colon", `IFS=: read a b <<< "1:2:"; echo "[$a][$b]"`},
		{"ifs-colon-double", `IFS=: read a b <<< "1:2::"; echo "[$a][$b]"`},
		{"ifs-colon-rest", `IFS=: read a b <<< "1:2:3:"; echo "[$a][$b]"`},
		{"ifs-empty", `IFS= read a b <<< "  x y  "; echo "[$a][$b]"`},
		{"ifs-mixed", `IFS=" :" read a b <<< " 1 : 2 : "; echo "[$a][$b]"`},
		{"ifs-mixed-empty-field", `IFS=" :" read a b c <<< "1 :: 3"; echo "[$a][$b][$c]"`},
		{"ifs-no-space", `IFS=: read a b <<< "  x  :  y  "; echo "[$a][$b]"`},
		{"ifs-letter", `IFS=x read a b <<< "1x2"; echo "[$a][$b]"`},
		{"ifs-backslash", `IFS='\' read a b <<< '1\2'; echo "[$a][$b]"`},
		{"ifs-restored", `IFS=: read a b <<< "1:2"; echo "[$a][$b]"; read a b <<< "1:2 3"; echo "[$a][$b]"`},
		{"ifs-unset", `unset IFS; read a b <<< $'  1\t 2  3 '; echo "[$a][$b]"`},
		{"all-blank", `read a b <<< "   "; echo "[$a][$b]"`},
		{"array", `IFS=: read -a a <<< "a::b:"; declare -p a`},
		{"array-spaces", `read -a a <<< "  x  y\\ z  "; declare -p a`},
		{"array-raw", `read -r -a a <<< "a\\ b"; declare -p a`},
		{"array-empty", `read -a a <<< ""; declare -p a`},
		{"array-replaces", `a=(1 2 3); read -a a <<< "x"; declare -p a`},
		{"array-with-names", `read -a arr x <<< "1 2"; echo "${arr[@]} [$x]"`},
		{"array-assoc", `declare -A m; read -a m <<< "1 2"; echo $?; declare -p m`},
		{"array-readonly", `readonly ro; read -a ro <<< "1 2"; echo $?`},
		{"array-bad-name", `printf 'a\nb\n' | { read -a 1a; echo $?; read x; echo $x; }`},
		{"array-integer", `declare -ai a; read -a a <<< "1+1 2*3"; declare -p a`},
		{"delim", `read -d x a <<< "1 2x3"; echo "[$a]"`},
		{"delim-empty", `printf 'a b\0c\0' | { read -d '' x; echo "$? [$x]"; read -d '' y; echo "$? [$y]"; }`},
		{"delim-none-found", `read -d "" x <<< "a b"; echo "$? [$x]"`},
		{"delim-escaped", `read -d x a <<< 'a\xb'; echo "[$a]"`},
		{"nchars", `read -n 2 x <<< hello; echo "[$x]"; read -n 3 x <<< "ab"; echo "$? [$x]"`},
		{"nchars-delim", `read -n 5 x <<< $'ab\ncd'; echo "[$x]"`},
		{"nchars-escape", `read -n 2 x <<< "\\abc"; echo "[$x]"`},
		{"nchars-utf8", `read -n 2 x <<< "μνξ"; echo "$? [$x]"`},
		{"nchars-zero", `read -n 0 x <<< hi; echo "$? [$x]"`},
		{"nchars-split", `read -n 4 a b <<< "1 2 3"; echo "[$a][$b]"`},
		{"exact", `read -N 4 x <<< $'ab\ncd'; echo "[$x]"`},
		{"exact-eof", `read -N 4 x <<< "ab"; echo "$? [$x]" ${#x}`},
		{"exact-names", `read -N 3 a b <<< "x y z"; echo "[$a][$b]"`},
		{"exact-escape", `read -N 2 x <<< "a\\bc"; echo "[$x]"`},
		{"exact-nul", `printf 'a\0bc' | { read -N 2 x; echo "[$x]"; }`},
		{"bad-name", `printf 'a\nb\n' | { read 1a; echo $?; read x; echo $x; }`},
		{"bad-first-name", `printf 'a b\nc\n' | { read 1a x; echo "$? [$x]"; read y; echo $y; }`},
		{"bad-second-name", `printf 'a b\nc\n' | { read x 1a; echo "$? [$x]"; read y; echo $y; }`},
		{"bad-subscript", `printf 'a b\nc\n' | { read x "a[1" ; echo "$? [$x]"; read y; echo $y; }`},
		{"bad-middle-name", `read a 1b c <<< "x y z"; echo $? "$a|$c"`},
		{"readonly", `readonly a; read a b <<< "1 2"; echo "$? [$b]"`},
		{"readonly-middle", `readonly b; read a b c <<< "1 2 3"; echo "$? [$a][$c]"`},
		{"elements", `read "a[1]" "a[3]" <<< "x y"; declare -p a`},
		{"element-expanded", `i=4; read "a[i+1]" "a[\$i]" <<< "x y"; declare -p a`},
		{"nameref", `declare -n ref=tgt; read ref <<< hi; echo $tgt`},
		{"integer", `declare -i n; read n <<< "2+3"; echo $n`},
		{"integer-error", `declare -i n; read n <<< "2 3"; echo "not reached $?"`},
		{"integer-array-error", `declare -ai a; read -a a <<< "1 2\\ 3"; echo "not reached $?"`},
		{"local", `f(){ local v; read v <<< in; echo "$v"; }; v=out; f; echo "$v"`},
		{"allexport", `set -a; read ey <<< hi; read -a ea <<< x; printenv ey; declare -p ea`},
		{"temp-ifs", `IFS=, read a b <<< "1,2"; echo "[$a][$b][${IFS-unset}]" | od -c`},
		{"bad-timeout", `read -t abc x; echo $?; read -t -1 x; echo $?; read -t ' 1' x; echo $?; read -t 1.5e0 x <<< hi; echo $?`},
		{"timeouts", `read -t .5 x <<< hi; echo "$? $x"; read -t 1. x <<< hi; echo "$? $x"; read -t +1 x <<< hi; echo "$? $x"`},
		{"timeout-empty", `read -t "" x <<< hi; echo "$? [$x]"`},
		{"timeout-odd", `for t in . + +. 1.2.3 .5. 00.10 99999999999 9999999999999999999999 ' ' 1a; do read -t "$t" x <<< hi; echo "$? [$x]"; done`},
		{"timeout-zero", `read -t 0 < /dev/null; echo $?; read -t 0 <<< ""; echo $?; sleep 1 | { read -t 0; echo $?; }`},
		{"timeout-zero-file", `printf 'a\n' > f; read -t 0 < f; echo $?; : > e; read -t 0 < e; echo $?`},
		{"timeout-zero-reads-nothing", `{ read -t 0 x; echo "$? [$x]"; read y; echo "[$y]"; } <<< hi`},
		{"timeout-expires", `sleep 2 | { read -t 0.1 x; echo $?; }`},
		{"timeout-partial", `{ printf ab; sleep 2; } | { read -t 0.3 x; echo "$? [$x]"; }`},
		{"bad-nchars", `read -n abc x; echo $?; read -n -1 x; echo $?; read -n 99999999999999 x; echo $?`},
		{"nchars-spaces", `read -n " 2 " x <<< hello; echo "$? $x"; read -n +2 x <<< hello; echo "$? $x"`},
		{"fd", `read -u 0 x <<< hi; echo $x; read -u " 0" x <<< hello; echo "$? $x"`},
		{"fd-3", `exec 3<<< "three"; read -u 3 x; echo "$x"; read -u3 y; echo "$? [$y]"`},
		{"bad-fd", `read -u abc x; echo $?; read -u 9 x; echo $?`},
		{"bad-fd-before-reading", `printf 'a\nb\n' | { read -u 9 x; read x; echo $x; }`},
		{"closed-stdin", `read x <&-; echo $?`},
		{"directory", `read x < /; echo $?`},
		{"write-only-fd", `read x 0>/dev/null; echo $?`},
		{"bad-option", `read -z; echo $?; read -a; echo $?`},
		{"prompt-not-tty", `read -p "pr> " x <<< hi; echo $x`},
		{"edit-flags", `read -e x <<< hi; echo $x; read -i init x <<< hi; echo $x; read -ei init x <<< hi; echo $x; read -s x <<< hi; echo $x`},
		{"rest-pipe", `printf 'a\nb\nc\n' | { read x; read y; cat; echo "[$x][$y]"; }`},
		{"rest-file", `printf 'a\nb\nc\n' > f; { read x; cat; } < f; { read -n 1 x; head -c 2; echo; read y; echo "[$x][$y]"; } < f`},
		{"rest-heredoc", "{ read x; cat; } <<EOF\none\ntwo\nEOF"},
		{"rest-herestring", `{ read -n 2 x; cat; } <<< hello; echo "[$x]"`},
		{"while-loop", `printf '1 a\n2 b\n3' | while read n w; do echo "$n=$w"; done`},
		{"while-loop-file", `printf '%s\n' x y z > f; n=0; while read l; do n=$((n+1)); done < f; echo $n`},
		{"loop-reads-all", `seq 1 3000 > f; n=0; while read -r l; do n=$((n+l)); done < f; echo $n`},
		{"crlf", `printf 'a\r\n' | { read x; echo "${#x}"; }`},
		{"long-line", `printf '%*s' 100000 '' | tr ' ' x | { read x; echo ${#x}; }`},
		{"status-in-loop", `i=0; while read -r l; do i=$((i+1)); done <<< $'a\nb'; echo "$i $?"`},
	})
}

func TestMapfileAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"basic", `mapfile a <<< $'x\ny'; declare -p a`},
		{"trim", `printf 'x\ny\n' | { mapfile -t a; declare -p a; }`},
		{"default-name", `mapfile < /dev/null; declare -p MAPFILE; mapfile <<< q; declare -p MAPFILE`},
		{"readarray", `readarray -t a <<< $'1\n2'; echo "${a[@]}"`},
		{"extra-args", `mapfile a b <<< x; echo $?; declare -p a`},
		{"bad-name", `mapfile 1a <<< x; echo $?; mapfile "a[1]" <<< x; echo $?`},
		{"bad-numbers", `mapfile -n x <<< x; echo $?; mapfile -n -1 <<< x; echo $?; mapfile -O x <<< x; echo $?; mapfile -s x <<< x; echo $?`},
		{"bad-quantum", `mapfile -c 0 <<< x; echo $?; mapfile -c x <<< x; echo $?`},
		{"bad-fd", `mapfile -u x <<< x; echo $?; mapfile -u 9 <<< x; echo $?`},
		{"usage", `mapfile -C <<< x; echo $?; mapfile -q; echo $?`},
		{"readonly", `readonly a; mapfile a <<< x; echo $?`},
		{"assoc", `declare -A m; mapfile m <<< x; echo $?`},
		{"origin", `a=(x y z); mapfile -O 1 a <<< $'1\n2'; declare -p a`},
		{"origin-sparse", `a=([5]=x [9]=y); mapfile -t -O 7 a <<< $'1'; declare -p a`},
		{"clears", `a=(x y z); mapfile a <<< 1; declare -p a`},
		{"count-skip", `printf '1\n2\n3\n4\n5\n' | { mapfile -n 2 -s 1 a; declare -p a; cat; }`},
		{"count-zero", `mapfile -n 0 a <<< $'x\ny'; declare -p a`},
		{"count-file", `printf '1\n2\n3\n' > f; { mapfile -n 1 a; cat; } < f; declare -p a`},
		{"callback", `f(){ echo "cb $1 [$2]"; }; printf '1\n2\n3\n4\n5\n' | mapfile -t -C f -c 2 a`},
		{"callback-origin-skip", `f(){ echo "cb $1 [$2]"; }; printf '1\n2\n3\n4\n5\n' | { mapfile -C f -c 2 -O 10 -s 1 a; declare -p a; }`},
		{"callback-default-quantum", `f(){ echo "cb $1 [$2]"; }; printf '1\n2\n' | { mapfile -C f a; echo $?; }`},
		{"callback-command", `mapfile -C "echo hi" -c 1 a <<< $'x\ny'; declare -p a`},
		{"callback-quoting", `mapfile -t -C 'printf "<%s>\n"' -c 1 a <<< $'it'"'"'s $x'`},
		{"callback-exit", `f(){ echo "cb $2"; exit 3; }; mapfile -C f -c 1 a <<< $'x\ny'; echo "not reached"`},
		{"callback-sees-array", `f(){ echo "${#a[@]}"; }; mapfile -C f -c 1 a <<< $'x\ny\nz'`},
		{"nul-delim", `printf 'a\0b\0' | { mapfile -d '' -t a; declare -p a; }`},
		{"nul-delim-kept", `printf '%s\0' 1 3 5 | { mapfile -d '' arr; echo "n=${#arr[@]}"; printf '[%s]\n' "${arr[@]}"; }`},
		{"colon-delim", `printf 'a:b:c' | { mapfile -d : a; declare -p a; }`},
		{"integer", `declare -i a; mapfile a <<< "1+1"; declare -p a`},
		{"empty-line", `mapfile -t a <<< ""; declare -p a`},
		{"crlf", `printf 'x\r\ny\n' | { mapfile -t a; declare -p a; }`},
		{"nul-in-line", `printf 'a\0b\nc\n' | { mapfile -t a; declare -p a; }`},
		{"fd", `exec 4< <(printf 'p\nq\n'); mapfile -t -u 4 a; declare -p a`},
		{"big", `seq 1 20000 | { mapfile -t a; echo "${#a[@]} ${a[19999]}"; }`},
		{"nameref", `declare -n r=t; mapfile -t r <<< $'1\n2'; declare -p t`},
		{"local", `f(){ local -a a; mapfile -t a <<< in; echo "${a[@]}"; }; a=(out); f; echo "${a[@]}"`},
	})
}

// A terminal: the prompt shows, -s hides what is typed, -n returns at
// once without Enter, -t times out, and the modes are put back.
func TestReadTerminal(t *testing.T) {
	t.Parallel()
	ptmx, tty, err := pty.Open()
	if err != nil {
		needs.Missing(t, "no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	var out, errb syncBuffer
	r, err := New(Stdio(tty, &out, &errb), Env(nil))
	if err != nil {
		t.Fatal(err)
	}
	// What the terminal shows, as it comes.
	var shown syncBuffer
	go func() {
		buf := make([]byte, 256)
		for {
			n, err := ptmx.Read(buf)
			shown.Write(buf[:n])
			if err != nil {
				return
			}
		}
	}()
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		if !testtime.Until(10*time.Second, ok) {
			t.Fatalf("waiting for %s; stderr %q, terminal %q", what, errb.String(), shown.String())
		}
	}
	run := func(code string) chan struct{} {
		done := make(chan struct{})
		go func() {
			defer close(done)
			r.RunString(context.Background(), code, "t")
		}()
		return done
	}
	wait := func(done chan struct{}) {
		t.Helper()
		select {
		case <-done:
		case <-time.After(testtime.Scaled(10 * time.Second)):
			t.Fatalf("read did not return; stderr %q", errb.String())
		}
	}

	// -p and -s: the prompt goes to stderr, what is typed is not echoed.
	done := run(`read -s -p "secret> " pw; echo "got=$pw" >&2`)
	waitFor("the prompt", func() bool { return strings.Contains(errb.String(), "secret> ") })
	ptmx.Write([]byte("hunter2\n"))
	wait(done)
	if got := errb.String(); got != "secret> got=hunter2\n" {
		t.Errorf("stderr = %q", got)
	}
	// Echo is back: a line typed now shows.
	done = run(`read line`)
	ptmx.Write([]byte("echo-check\n"))
	wait(done)
	waitFor("the echo", func() bool { return strings.Contains(shown.String(), "echo-check") })
	if strings.Contains(shown.String(), "hunter2") {
		t.Errorf("read -s echoed the secret: %q", shown.String())
	}

	// -n 1 returns on the first key, without Enter.
	errb.Reset()
	done = run(`read -n 1 k; echo "key=$k" >&2`)
	ptmx.Write([]byte("y"))
	wait(done)
	if got := errb.String(); got != "key=y\n" {
		t.Errorf("read -n 1: stderr = %q", got)
	}
	// Canonical mode is back: a line is read whole.
	errb.Reset()
	done = run(`read l; echo "line=$l" >&2`)
	ptmx.Write([]byte("a b\n"))
	wait(done)
	if got := errb.String(); got != "line=a b\n" {
		t.Errorf("read after -n: stderr = %q", got)
	}

	// -t on a terminal times out with 142, keeping what was typed.
	errb.Reset()
	done = run(`read -t 0.3 -d . x; echo "st=$? x=$x" >&2`)
	ptmx.Write([]byte("par"))
	wait(done)
	if got := errb.String(); got != "st=142 x=par\n" {
		t.Errorf("read -t: stderr = %q", got)
	}

	// A trapped signal runs its trap and the read goes on.
	errb.Reset()
	r.RunString(context.Background(), `trap 'echo trapped >&2' USR1`, "t")
	done = run(`read x; echo "x=$x" >&2; trap - USR1`)
	waitFor("the trap", func() bool {
		syscall.Kill(os.Getpid(), syscall.SIGUSR1)
		return strings.Contains(errb.String(), "trapped")
	})
	ptmx.Write([]byte("after\n"))
	wait(done)
	if got := errb.String(); !strings.HasSuffix(got, "x=after\n") {
		t.Errorf("read with a trap: stderr = %q", got)
	}
}

// Ctrl-C in an interactive shell ends a read that waits, and the command
// line with it.
func TestReadInterrupted(t *testing.T) {
	t.Parallel()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	var out, errb syncBuffer
	r, err := New(Interactive(true), Stdio(pr, &out, &errb), Env(nil))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.RunString(context.Background(), `echo ready >&2; read x; echo "after $?"`, "t")
	}()
	if !testtime.Until(10*time.Second, func() bool { return strings.Contains(errb.String(), "ready") }) {
		t.Fatal("the command did not start")
	}
	r.Interrupt()
	select {
	case <-done:
	case <-time.After(testtime.Scaled(10 * time.Second)):
		t.Fatal("Ctrl-C did not end read")
	}
	if out.String() != "" {
		t.Errorf("the command line went on after Ctrl-C: %q", out.String())
	}
}

// syncBuffer is a buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func (s *syncBuffer) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b.Reset()
}
