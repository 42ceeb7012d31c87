package eval

import "testing"

// The main shell's umask is the process's, which the runners of parallel
// cases would share: these run one at a time.
func TestUmaskAgainstBash(t *testing.T) {
	for _, c := range []bashCase{
		{"show", `umask 022; umask; umask -S; umask -p; umask -p -S; umask -Sp`},
		{"extremes", `umask 0; umask -S; umask 777; umask -S; umask 7777; umask`},
		{"octal-errors", `umask 022; umask 8; echo $?; umask 0778; echo $?; umask 1234567; echo $?; umask`},
		{"symbolic", `umask u=rwx,g=rx,o=; umask; umask g+w; umask; umask o-r; umask; umask a=r; umask`},
		{"symbolic-no-who", `umask 022; umask +x; umask; umask =; umask; umask =rw; umask`},
		{"symbolic-errors", `umask 022; umask u+s; echo $?; umask u=X; echo $?; umask go=u; echo $?; umask x; echo $?; umask u=rwxq; echo $?; umask u=r-w; echo $?; umask ug=rw+x; echo $?; umask`},
		{"symbolic-missing-op", `umask u=rx,; echo $?; umask u; echo $?; umask ,; echo $?; umask ''; echo $?`},
		{"options", `umask -x; echo $?; umask 022 033; echo $?; umask; umask -S 027; echo $?; umask`},
		{"files", `umask 027; touch f; mkdir d; stat -c '%a %n' f d`},
		{"redirection", `umask 077; echo x > f; stat -c %a f`},
		{"subshell", `umask 022; (umask 077; umask); umask; (umask 000; touch g); stat -c %a g`},
		{"pipeline", `umask 022; umask 077 | cat; umask`},
	} {
		t.Run(c.name, func(t *testing.T) { checkAgainstBash(t, []bashCase{c}) })
	}
}

func TestUlimitAgainstBash(t *testing.T) {
	checkAgainstBashIn(t, []bashCase{
		// Open files is set first: Go raises its own soft limit, which
		// programs it starts do not get.
		{"all", `ulimit -Sn 1000; ulimit -a`},
		{"all-hard", `ulimit -Ha | grep -v 'open files'`},
		{"all-with-flag", `ulimit -Sn 999; ulimit -a -n | grep open`},
		{"one", `ulimit -Sc 0; ulimit -c; ulimit -Sc 10; ulimit -c; ulimit -Hc`},
		{"several", `ulimit -St 100 -Sc 20; ulimit -t -c; ulimit -c -t`},
		{"default-is-f", `ulimit -Sf 2000; ulimit; ulimit -Sf unlimited; ulimit`},
		{"operand", `ulimit -St 77; ulimit -St 55 66; echo $?; ulimit -t`},
		{"joined", `ulimit -St50; ulimit -t; ulimit -Sct 40; ulimit -t`},
		{"hard-soft-words", `ulimit -St 100; ulimit -St hard; ulimit -t; ulimit -St 50; ulimit -Ht soft; ulimit -Ht`},
		{"soft-above-hard", `ulimit -Ht 100; ulimit -St 200; echo $?; ulimit -Ht 90; echo $?; ulimit -t`},
		{"raise-hard", `ulimit -Ht 100; ulimit -Ht 200; echo $?; ulimit -Ht`},
		{"unlimited", `ulimit -St 10; ulimit -St unlimited; echo $?; ulimit -t`},
		{"errors", `ulimit -n abc; echo $?; ulimit -f 36028797018963968; echo $?; ulimit -p 10; echo $?; ulimit -n -1; echo $?`},
		{"bad-options", `ulimit -T; echo $?; ulimit -b 1; echo $?; ulimit -z; echo $?`},
		{"bad-optional-arg", `ulimit -nc; echo $?`},
		{"pipe-size", `ulimit -p; ulimit -Hp`},
		{"subshell", `ulimit -St 100; (ulimit -St 50; ulimit -t); ulimit -t; (ulimit -Ht 60; ulimit -Ht); ulimit -Ht`},
		{"pipeline", `ulimit -Sc 30; ulimit -c | cat; ulimit -Sc 20 | cat; ulimit -c`},
		{"programs-get-it", `ulimit -Sc 1234; sh -c 'ulimit -c'; (ulimit -Sc 99; sh -c 'ulimit -c'); sh -c 'ulimit -c'`},
		{"posix-blocks", `ulimit -Sf 100; set -o posix; ulimit -f; ulimit -Sf 100; set +o posix; ulimit -f`},
		{"double-dash", `ulimit -St 100; ulimit -- ; ulimit -t -- 70; echo $?; ulimit -t`},
		{"shell-itself", `ulimit -Sf 1; { echo xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; head -c 2000 /dev/zero; } > big 2>/dev/null; echo $?; wc -c < big`},
		{"subshell-not-itself", `(ulimit -Sf 1; head -c 2000 /dev/zero > a 2>/dev/null; echo $?) 2>&1 | sed 's/[0-9][0-9]* F/N F/'; head -c 2000 /dev/zero > b; wc -c < b`},
	}, runInHelper) // the main shell's limits are the process's: a helper's
}

// In a helper: times shows the process's CPU time, which in the test's
// own process passes ten seconds (a digit more than bash's).
func TestTimesAgainstBash(t *testing.T) {
	checkAgainstBashIn(t, []bashCase{
		// Digit runs, not digits: the children's time of an in-process shell is
		// the test process's, which a busy machine makes run past 9 s.
		{"shape", `times | sed -E 's/[0-9]+/N/g'`},
		{"args-ignored", `times x | wc -l`},
	}, runInHelper)
}
