package marks

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

var update = flag.Bool("update", false, "write testdata/golden's expected rewritings from what the package does now")

// TestGolden pins how a program is rewritten before interp runs it, for
// background statements, $! and jobs: each testdata/golden/NAME.txtar has
// a program (in) and what it becomes as a command line typed with job
// control (line), in a -c string or script (script), as an eval string
// with job control (eval) and as a sourced file with job control, marked
// in place (source).
// A change of the marks shows here whole; when it is meant,
// `go test ./shell/marks -run TestGolden -args -update` writes the new
// expectations, to be read in the diff.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "golden", "*.txtar"))
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
			if *update {
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
					t.Errorf("%s, as %s:\n%s\nbecomes\n%s\nwant\n%s\n(if meant: go test ./shell/marks -run TestGolden -args -update)",
						filepath.Base(file), name, in, got[name], want[name])
				}
			}
		})
	}
}

// rewritings is what program src becomes in each place the shell runs
// code, through the package's entry points.
func rewritings(t *testing.T, src string) map[string]string {
	t.Helper()
	parse := func() *syntax.File {
		f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
		if err != nil {
			t.Fatalf("%q does not parse: %v", src, err)
		}
		return f
	}
	print := func(f *syntax.File) string {
		var b strings.Builder
		if err := syntax.NewPrinter().Print(&b, f); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	// As a shell with no aliases nor functions says.
	programs := func(name string) bool { return !interp.IsBuiltin(name) }
	out := map[string]string{}

	f := parse()
	File(f, programs)
	out["line"] = print(f)

	f = parse()
	File(f, nil)
	out["script"] = print(f)

	eval := strings.TrimSuffix(src, "\n")
	if marked, ok := Eval(eval, programs); ok {
		eval = marked
	}
	out["eval"] = "eval " + eval + "\n"

	out["source"] = src
	if MayNeed(src, programs) {
		f, err := syntax.NewParser().Parse(strings.NewReader(src), "file.sh")
		if err != nil {
			t.Fatal(err)
		}
		edits, check := Source(f, src, programs)
		out["source"], _ = Apply(src, "file.sh", edits, check)
	}
	return out
}
