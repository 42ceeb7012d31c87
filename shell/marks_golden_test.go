package shell

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"mvdan.cc/sh/v3/syntax"
)

var updateMarks = flag.Bool("update", false, "write testdata/marks' expected rewritings from what the shell does now")

// TestMarksGolden pins how the shell rewrites a program before interp
// runs it, for background statements, $! and jobs (see bgtable.go and
// jobmark.go): each testdata/marks/NAME.txtar has a program (in) and what
// it becomes as a command line typed with job control (line), in a -c
// string or script (script), as an eval string (eval) and as a sourced
// file, marked in place (source). A change of the marks shows here whole;
// when it is meant, `go test ./shell -run TestMarksGolden -args -update` writes
// the new expectations, to be read in the diff.
func TestMarksGolden(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "marks")) // the test shells move the cwd
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var in string
			want := map[string]string{}
			for _, f := range ar.Files {
				if f.Name == "in" {
					in = string(f.Data)
				} else {
					want[f.Name] = string(f.Data)
				}
			}
			got := rewritings(t, in)
			if *updateMarks {
				ar.Files = []txtar.File{{Name: "in", Data: []byte(in)}}
				for _, name := range []string{"line", "script", "eval", "source"} {
					ar.Files = append(ar.Files, txtar.File{Name: name, Data: []byte(got[name])})
				}
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			for _, name := range []string{"line", "script", "eval", "source"} {
				if got[name] != want[name] {
					t.Errorf("%s, as %s:\n%s\nbecomes\n%s\nwant\n%s\n(if meant: go test ./shell -run TestMarksGolden -args -update)",
						filepath.Base(file), name, in, got[name], want[name])
				}
			}
		})
	}
}

// rewritings is what the shell makes of program src in each place it runs
// code, as the shell's own entry points do it.
func rewritings(t *testing.T, src string) map[string]string {
	t.Helper()
	print := func(f *syntax.File) string {
		var b strings.Builder
		if err := syntax.NewPrinter().Print(&b, f); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	parse := func(s *Shell) *syntax.File {
		f, st := s.parse(fixed(src), "")
		if st != 0 {
			t.Fatalf("%q does not parse", src)
		}
		return f
	}
	out := map[string]string{}

	line, _, _ := newTestShell(t, nil)
	line.jobs = newJobs(-1, 0, io.Discard, nil)
	out["line"] = print(line.markJobs(parse(line)))

	script, _, _ := newTestShell(t, nil, Interactive(false))
	f := parse(script)
	script.markPids(f)
	out["script"] = print(f)

	eval, _, _ := newTestShell(t, nil)
	eval.jobs = newJobs(-1, 0, io.Discard, nil)
	out["eval"] = strings.Join(eval.markEval([]string{"eval", strings.TrimSuffix(src, "\n")}), " ") + "\n"

	out["source"] = markText(src, "file.sh", false)
	return out
}
