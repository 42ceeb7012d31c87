package eval

import (
	"bufio"
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// FuzzEval runs random bash in a runner that starts no programs: the
// evaluator must never panic (an internal error would say so on stderr)
// and never hang past its context.
func FuzzEval(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 2000 {
			return
		}
		if _, err := Parse(src, "fuzz"); err != nil {
			return
		}
		dir := t.TempDir()
		var errb strings.Builder
		// No signals: kill -9 -1 is a builtin.
		noop := func(b *B) int { return 1 }
		r, err := New(Stdio(strings.NewReader("input\n"), io.Discard, &errb), Dir(dir),
			Env([]string{"PATH=/nonexistent", "HOME=" + dir, "TMP=" + dir, "TMPDIR=" + dir}), ShellName("fuzz"),
			ProcessLimits(false), // ulimit -f 0 would stop the fuzzer writing
			Builtins(&Builtin{Name: "kill", Run: noop}, &Builtin{Name: "suspend", Run: noop}))
		if err != nil {
			t.Fatal(err)
		}
		// No programs: a fuzzer must not run rm.
		r.WrapExec(func(ExecHandler) ExecHandler {
			return func(ctx context.Context, c *Call) int { return 127 }
		})
		// No writes outside dir: a seed's `cat > $TMP/bin/tr` once
		// replaced /usr/bin/tr.
		r.WrapOpen(func(next OpenHandler) OpenHandler {
			return func(ctx context.Context, path string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
				if flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_TRUNC|os.O_APPEND) != 0 && path != "/dev/null" &&
					!strings.HasPrefix(filepath.Clean(path), dir+"/") {
					return nil, os.ErrPermission
				}
				return next(ctx, path, flag, perm)
			}
		})
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		done := make(chan struct{})
		go func() {
			defer close(done)
			r.RunString(ctx, src, "fuzz")
			r.RunExitTrap()
			cancel() // background statements end with the run
			r.sess.bgWG.Wait()
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("still running 20 s after a 2 s deadline: %q", src)
		}
		if strings.Contains(errb.String(), "internal error") {
			t.Fatalf("%q: %s", src, errb.String())
		}
	})
}

// fuzzSeeds are the lines of shspec's cases when the corpus is beside the
// repository, and a few of the shell's own otherwise.
func fuzzSeeds(f *testing.F) []string {
	seeds := []string{
		`a=(1 2 3); ((a[1]++)); echo "${a[@]}"`,
		`declare -A m=(k v k2 v2); echo "${!m[@]}"`,
		`f(){ local x; echo "[$x]"; }; x=outer; f`,
		`set -- a b; shift -1; echo ${@:1:2}`,
		`x='1+1'; echo $((x*2)) ${x/1/2} ${x#*+}`,
		`for ((i=0;i<3;i++)); do echo $i; done | while read l; do echo $l; done`,
		`case x in [a-z]) echo y;; *) echo n;; esac`,
		`trap 'echo t' EXIT; (exit 3); echo $?`,
		`exec 3>&1; echo hi >&3; exec 3>&-`,
		`declare -n r=a; a=(1 2); r[1]=9; echo ${a[@]}`,
		`echo {1..5..2} {a,b}{c,d} ${#x} ${x:-y} ${x:=z} $x`,
		`[[ ! a && b ]] || echo no; [[ x =~ ^(x)$ ]] && echo ${BASH_REMATCH[1]}`,
	}
	if fl := flag.Lookup("test.fuzz"); fl == nil || fl.Value.String() == "" {
		return seeds // the corpus's thousand cases only seed a fuzzing run
	}
	dir := filepath.Join("..", "..", "..", "shared", "shspec", "spec")
	files, _ := filepath.Glob(filepath.Join(dir, "*.test.sh"))
	for _, name := range files {
		fh, err := os.Open(name)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(fh)
		var cur strings.Builder
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, "####") {
				if cur.Len() > 0 && cur.Len() < 1000 {
					seeds = append(seeds, cur.String())
				}
				cur.Reset()
				continue
			}
			if strings.HasPrefix(line, "## ") || strings.Contains(line, "$SH") {
				continue
			}
			cur.WriteString(line + "\n")
		}
		fh.Close()
	}
	return seeds
}
