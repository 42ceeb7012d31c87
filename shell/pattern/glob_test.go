package pattern

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// makeTree builds the directory the glob tests expand in: hidden files and
// directories, nested directories, symbolic links to a directory, to a file
// and to nothing, a link back up (a cycle for whoever follows links), and
// names with a space, parentheses and a non-ASCII letter.
func makeTree(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{"b/d/f/g", ".hd/x", "u", "B2"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"a", ".a", "A", "ab.c", "ab.h", "sp ace", "x-y", "é", "x(y)", "[ab]",
		"b/c", "b/.c", "b/d/e", "b/d/f/g/h", ".hd/f", "u/f", "B2/z"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"link": "b", "dangling": "nowhere", "filelink": "a", "b/d/up": "../.."} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// globPatterns all hold a pattern character, so that bash expands them.
var globPatterns = []string{
	"*", ".*", "?", "*/", "b/*", "./b/*", "b//*", "b//*/", "b/*//", "b///d/*", "*/c", "*/nosuch", "nosuch/*",
	"a*/", "?ink/", "dang*", "dang*/", "*/.", "*/..", "b/./*", "b/../a*", "b/.*", "[ab]", "[ab]*",
	"x(*", "*ace", `\b/*`, `b\/*`, "*/*/*", "*/*/*/*", "[.]a", `\.*`, ".?", ".[.]", "..*", "?/..",
	"[A-Z]*", "[[:upper:]]*", "é*", "?/d/*", "*.[ch]", "b/d/*/", "*/d/up/*", "link/*", "B/*", "LINK/?",
	"**", "**/", "b/**", "b/**/", "**/e", "**/h", "b/**/h", "**/**/h", "link/**", "**/c", "b**",
	"**/*.c", "**/.c", "**/.*", "nosuch/**", "**/d", "**/d/", "*/**/", "b/**/**", "**/d/**", "b/d/**/",
	"*/*/**", "**/*/", ".hd/**", "*//**", "b//**/", "**//", "*//", "**/**/", "b/**/**/", "b/**/.*",
	"u/**", "**/.", "b/**/.", "**/..", "./**/*", "./*/**", "b/./**", "link/**/", "**/up/*", "**/link/*",
	"b/d/up/**/h", "b/**/*/", "./**/*/", "**/*", "./**/c", "b/**/c", "b/**/A", "b/**/*", "*/**/c",
	"*/**/A", "b*/**/A", "**/**/c", "b/**/**/A", "**/**/A", "b/d/**/*", "**/u", "**/u/", "**/link",
	"**/up/", "**/e/", "**/dangling", "**/dangling/", "b/**/up/", "**/.*/", "*/**",
	"@(a|b)", "@(.a|b)", "?(.)a", "*(.)a", "!(x)", "!(.a)", ".!(x)", "+(.)a", "@(.)*", "!(a*)",
	"@(!(a))", "b/!(c)", "b/.!(c)", "b/@(.c|d)", "@(b|u)/*", "!(b)/*", "@(b/c)", "!(x).a", "*(a|A)",
	"b/**//c", "*///*", "*/d//*", "*//d/*", "b//d/*/*", "*/d//**", "\\**", "*\\.c", "*(x).a",
	"@(x|).a", "?(x).a", "@(*).a", ".*/", "./.*", "*/.*", "b/.[a-z]", "[!.]*", "[^a-z]*",
	"{DIR}/b/*", "{DIR}//b/*", "{DIR}/**/h", "{DIR}/*/", "{DIR}/b/**",
}

type globOpts struct {
	name     string
	opt      GlobOptions
	ignore   string // GLOBIGNORE
	noSkip   bool
	patterns []string // nil: globPatterns
}

var globOptionSets = []globOpts{
	{name: "default"},
	{name: "dotglob", opt: GlobOptions{Dot: true}},
	{name: "globstar", opt: GlobOptions{GlobStar: true}},
	{name: "globstar dotglob", opt: GlobOptions{GlobStar: true, Dot: true}},
	{name: "nocaseglob", opt: GlobOptions{NoCase: true}},
	{name: "extglob", opt: GlobOptions{ExtGlob: true}},
	{name: "extglob dotglob", opt: GlobOptions{ExtGlob: true, Dot: true}},
	{name: "extglob nocaseglob", opt: GlobOptions{ExtGlob: true, NoCase: true}},
	{name: "noskipdots", noSkip: true},
	{name: "noskipdots dotglob", noSkip: true, opt: GlobOptions{Dot: true}},
	{name: "noskipdots extglob", noSkip: true, opt: GlobOptions{ExtGlob: true}},
	{name: "GLOBIGNORE a*", ignore: "a*"},
	{name: "GLOBIGNORE", ignore: "*", patterns: []string{"*/*", "*"}},
	{name: "GLOBIGNORE b/*", ignore: "b/*", patterns: []string{"*/*", "b/*", "*"}},
	{name: "GLOBIGNORE */f:[ab]", ignore: "*/f:[ab]", patterns: []string{"*/*", "?", "*"}},
	{name: "GLOBIGNORE .hd*", ignore: ".hd*", patterns: []string{"*/*", ".*", "*"}},
	{name: "GLOBIGNORE ?hd/f", ignore: "?hd/f:b*c:b/?c", patterns: []string{"*/*"}},
	{name: "GLOBIGNORE *a", ignore: "*a:*c", patterns: []string{"*", "*/*"}},
	{name: "GLOBIGNORE [.]a", ignore: "[.]a:.hd[/]f:b/[.]c", patterns: []string{"*", "*/*"}},
	{name: "GLOBIGNORE l*", ignore: "l*", patterns: []string{"l*/", "l*"}},
	{name: "GLOBIGNORE link/", ignore: "link/", patterns: []string{"l*/", "l*"}},
	{name: "GLOBIGNORE ./a", ignore: "./a", patterns: []string{"./?", ".?"}},
	{name: "GLOBIGNORE dotglob", ignore: "b/*", opt: GlobOptions{Dot: true}, patterns: []string{"*/*"}},
	{name: "GLOBIGNORE nocaseglob", ignore: "A*:B", opt: GlobOptions{NoCase: true}, patterns: []string{"a*", "?"}},
	{name: "GLOBIGNORE extglob", ignore: "@(a|b)", opt: GlobOptions{ExtGlob: true}, patterns: []string{"?"}},
	{name: "GLOBIGNORE globstar", ignore: "b/d*", opt: GlobOptions{GlobStar: true}, patterns: []string{"b/**"}},
}

// The script expands each pattern as an unquoted expansion does (no word
// splitting), and prints the count and the names NUL-terminated.
const globScript = `
field() { IFS= read -r line && printf -v "$1" '%b' "$line"; }
shopt -s nullglob
IFS=
while field pat; do
	set -- $pat
	printf '%s\0' "$#" "$@"
done
`

func bashGlob(t *testing.T, dir string, o globOpts, patterns []string) [][]string {
	bash := needBash(t)
	var setup strings.Builder
	for opt, on := range map[string]bool{"dotglob": o.opt.Dot, "globstar": o.opt.GlobStar,
		"nocaseglob": o.opt.NoCase, "extglob": o.opt.ExtGlob, "globskipdots": !o.noSkip} {
		if on {
			fmt.Fprintf(&setup, "shopt -s %s\n", opt)
		} else {
			fmt.Fprintf(&setup, "shopt -u %s\n", opt)
		}
	}
	if o.ignore != "" {
		fmt.Fprintf(&setup, "GLOBIGNORE=%s\n", shellQuote(o.ignore))
	}
	var in bytes.Buffer
	for _, p := range patterns {
		in.WriteString(bashField(p))
	}
	cmd := bashCmd(bash, setup.String()+globScript, dir)
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bash: %v: %s", err, tail(stderr.String()))
	}
	fields := strings.Split(string(out), "\x00")
	var res [][]string
	for len(fields) > 1 {
		n, err := strconv.Atoi(fields[0])
		if err != nil || n+1 > len(fields) {
			t.Fatalf("bash's output is not count and names: %q", tail(string(out)))
		}
		res = append(res, fields[1:1+n])
		fields = fields[1+n:]
	}
	if len(res) != len(patterns) {
		t.Fatalf("bash expanded %d patterns of %d", len(res), len(patterns))
	}
	return res
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func TestGlobAgainstBash(t *testing.T) {
	t.Parallel()
	needBash(t)
	dir := makeTree(t)
	for _, o := range globOptionSets {
		t.Run(o.name, func(t *testing.T) {
			patterns := o.patterns
			if patterns == nil {
				patterns = globPatterns
			}
			patterns = slices.Clone(patterns)
			for i, p := range patterns {
				patterns[i] = strings.ReplaceAll(p, "{DIR}", dir)
			}
			want := bashGlob(t, dir, o, patterns)
			opt := o.opt
			opt.SkipDots = !o.noSkip
			if o.ignore != "" {
				opt.Ignore = strings.Split(o.ignore, ":")
			}
			for i, pat := range patterns {
				if !HasMeta(pat, ExtGlob) {
					t.Fatalf("%q has no pattern character: bash would not expand it", pat)
				}
				got, err := Glob(context.Background(), dir, pat, opt)
				if err != nil {
					t.Fatalf("Glob(%q): %v", pat, err)
				}
				if len(want[i]) == 0 {
					want[i] = nil
				}
				if !slices.Equal(got, want[i]) {
					t.Errorf("Glob(%q)\n got %q\nbash %q", pat, got, want[i])
				}
			}
		})
	}
}

// TestGlob checks what needs no bash: the errors, the bounds, and what a
// pattern without pattern characters does.
func TestGlob(t *testing.T) {
	t.Parallel()
	dir := makeTree(t)
	ctx := context.Background()
	for _, c := range []struct {
		pat  string
		opt  GlobOptions
		want []string
	}{
		{"nomatch*", GlobOptions{}, nil},
		{"a", GlobOptions{}, []string{"a"}},         // no pattern character: it exists
		{"b/c/", GlobOptions{}, nil},                // not a directory
		{`x\(y\)`, GlobOptions{}, []string{"x(y)"}}, // quoted
		{"b/d/up/b/d/up/b/c", GlobOptions{}, []string{"b/d/up/b/d/up/b/c"}},
		{"*", GlobOptions{Ignore: []string{"*"}}, nil},
		{"**/h", GlobOptions{GlobStar: true}, []string{"b/d/f/g/h"}},
	} {
		got, err := Glob(ctx, dir, c.pat, c.opt)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("Glob(%q) = %q, %v; want %q", c.pat, got, err, c.want)
		}
	}
	if _, err := Glob(ctx, "relative", "*", GlobOptions{}); err == nil {
		t.Error("Glob with a relative directory: no error")
	}
	if got, err := Glob(ctx, "relative", dir+"/b/*", GlobOptions{}); err != nil || len(got) != 2 {
		t.Errorf("an absolute pattern needs no directory: %q, %v", got, err)
	}
	var quoted string // "$dir/b"/*, every character of the quoted part quoted
	for _, c := range dir + "/b" {
		quoted += `\` + string(c)
	}
	quoted += "/*"
	if got, err := Glob(ctx, "/", quoted, GlobOptions{}); err != nil || !slices.Equal(got, []string{dir + "/b/c", dir + "/b/d"}) {
		t.Errorf("Glob(%q) = %q, %v", quoted, got, err)
	}
	if _, err := Glob(ctx, dir, "**", GlobOptions{GlobStar: true, Max: 5}); err != ErrTooMany {
		t.Errorf("Glob past Max: %v, want ErrTooMany", err)
	}
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Glob(canceled, dir, "**", GlobOptions{GlobStar: true}); err != context.Canceled {
		t.Errorf("Glob with a canceled context: %v", err)
	}
}

func TestSplitPath(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		pat     string
		lead    string
		comps   []component
		dirOnly bool
	}{
		{"a", "", []component{{"a", ""}}, false},
		{"/a//b/", "/", []component{{"a", "//"}, {"b", ""}}, true},
		{"//a", "//", []component{{"a", ""}}, false},
		{`a\/b`, "", []component{{"a", "/"}, {"b", ""}}, false},
		{`a\\/b`, "", []component{{`a\\`, "/"}, {"b", ""}}, false},
		{"a///", "", []component{{"a", ""}}, true},
		{`\/a\/b*`, "/", []component{{"a", "/"}, {"b*", ""}}, false},
		{`a\\\/b`, "", []component{{`a\\`, "/"}, {"b", ""}}, false},
	} {
		lead, comps, dirOnly := splitPath(c.pat)
		if lead != c.lead || !slices.Equal(comps, c.comps) || dirOnly != c.dirOnly {
			t.Errorf("splitPath(%q) = %q, %q, %v", c.pat, lead, comps, dirOnly)
		}
	}
}
