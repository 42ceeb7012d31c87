package completions

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tree builds a directory tree under a temp dir: names ending in / are
// directories, names ending in * are executable files.
func tree(t testing.TB, names ...string) string {
	t.Helper()
	root := t.TempDir()
	for _, n := range names {
		p := filepath.Join(root, strings.TrimSuffix(n, "*"))
		switch {
		case strings.HasSuffix(n, "/"):
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
		default:
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			mode := os.FileMode(0o644)
			if strings.HasSuffix(n, "*") {
				mode = 0o755
			}
			if err := os.WriteFile(p, nil, mode); err != nil {
				t.Fatal(err)
			}
		}
	}
	return root
}

func testEnv(t *testing.T) Env {
	root := tree(t,
		"home/docs/", "home/Documents/", "home/.hidden", "home/notes.txt",
		"work/src/", "work/main.go", "work/my file.txt", "work/my dir/x", "work/a'b", `work/q"uote`,
		"work/$cash", "work/.env", "work/run.sh*", "work/sub/deep/f", "work/a=b",
		"bin/gofmt*", "bin/gosh*", "bin/notexec", "bin2/gofmt*", "bin2/grep*",
		"work/repo/.git/HEAD", "work/repo/src/",
	)
	if err := os.Symlink(filepath.Join(root, "work/src"), filepath.Join(root, "work/srclink")); err != nil {
		t.Fatal(err)
	}
	gitFiles := map[string]string{
		"work/repo/.git/refs/heads/main":            "x",
		"work/repo/.git/refs/heads/feat/login":      "x",
		"work/repo/.git/refs/remotes/origin/HEAD":   "x",
		"work/repo/.git/refs/remotes/origin/remote": "x",
		"work/repo/.git/packed-refs":                "# pack-refs with: peeled\nabc refs/heads/fix-bug\nabc refs/tags/v1\n^abc\n",
		"work/repo/.git/config":                     "[core]\n[remote \"origin\"]\n\turl = x\n[remote \"up\"]\n",
	}
	for p, c := range gitFiles {
		p = filepath.Join(root, p)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return Env{
		Dir:       filepath.Join(root, "work"),
		Home:      filepath.Join(root, "home"),
		Path:      filepath.Join(root, "bin") + ":" + filepath.Join(root, "bin2") + "::relative",
		Builtins:  []string{"cd", "echo", "exit", "gobuiltin"},
		Functions: []string{"gofn"},
		Aliases:   []string{"ll", "gst"},
		Vars:      []string{"HOME", "HOSTNAME", "PATH", "GOPATH"},
		Commands:  &Commands{},
	}
}

func TestComplete(t *testing.T) {
	env := testEnv(t)
	root := filepath.Dir(env.Dir)
	tests := []struct {
		line    string
		want    []string
		replace int
	}{
		// command names
		{"go", []string{"gobuiltin ", "gofmt ", "gofn ", "gosh "}, 2},
		{"gr", []string{"grep "}, 2},
		{"ec", []string{"echo "}, 2},
		{"l", []string{"ll "}, 1},
		{"notex", nil, 5},
		{"ls | gr", []string{"grep "}, 2},
		{"true && gr", []string{"grep "}, 2},
		{"a; gr", []string{"grep "}, 2},
		{"echo $(gr", []string{"grep "}, 2},
		{"echo `gr", []string{"grep "}, 2},
		{"sudo gr", []string{"grep "}, 2},
		{"sudo -u root gr", []string{"grep "}, 2},
		{"env A=1 B=2 gr", []string{"grep "}, 2},
		{"FOO=1 gr", []string{"grep "}, 2},
		{"if gr", []string{"grep "}, 2},
		{"wh", []string{"while "}, 2},
		// paths
		{"cat ma", []string{"main.go "}, 2},
		{"cat my", []string{`my\ dir/`, `my\ file.txt `}, 2},
		{`cat my\ f`, []string{`my\ file.txt `}, 5},
		{`cat "my f`, []string{`"my file.txt" `}, 5},
		{`cat 'my f`, []string{`'my file.txt' `}, 5},
		{`cat a`, []string{`a\'b `, `a=b `}, 1},
		{`cat 'a`, []string{`'a'\''b' `, `'a=b' `}, 2},
		{`cat "q`, []string{`"q\"uote" `}, 2},
		{`cat q`, []string{`q\"uote `}, 1},
		{`cat \$`, []string{`\$cash `}, 2},
		{`cat my\`, []string{`my\ dir/`, `my\ file.txt `}, 3},
		{"cat .e", []string{".env "}, 2},
		{"cat sub/", []string{"deep/"}, 0},
		{"cat sub/d", []string{"deep/"}, 1},
		{"cat sub/deep/", []string{"f "}, 0},
		{"cat srcl", []string{"srclink"}, 4}, // a second Tab adds the /
		{"cat srclink", []string{"srclink/"}, 7},
		{"cat ../ho", []string{"home/"}, 2},
		{"cat " + root + "/wo", []string{"work/"}, 2},
		{"cat ~", []string{"~/"}, 1},
		{"cat ~/", []string{".hidden ", "Documents/", "docs/", "notes.txt "}, 0}, // match-hidden-files
		{"cat ~/.", []string{"./", "../", ".hidden "}, 1},
		{"cat ~/do", []string{"docs/"}, 2},
		{"cat ~/.h", []string{".hidden "}, 2},
		{"cat nothing", nil, 0},
		{"cat missing/x", nil, 0},
		{"cd s", []string{"src/", "srclink", "sub/"}, 1},
		{"cd m", []string{`my\ dir/`}, 1},
		{"./r", []string{"repo/", "run.sh "}, 1},
		{"export P=ma", []string{"main.go "}, 2},
		{"./m", []string{`my\ dir/`}, 1},
		{"~", []string{"~/"}, 1},
		{"cat < ma", []string{"main.go "}, 2},
		{"echo x >ma", []string{"main.go "}, 2},
		{"ls 2>&1 ma", []string{"main.go "}, 2},
		{"FOO=ma", []string{"main.go "}, 2},
		{"FOO=sub/d", []string{"deep/"}, 1},
		{"ls --file=ma", []string{"main.go "}, 2},
		{"cat a=", []string{"a=b "}, 2},
		// variables
		{"echo $HO", []string{"$HOME", "$HOSTNAME"}, 3},
		{"echo ${HO", []string{"${HOME}", "${HOSTNAME}"}, 4},
		{"echo x$GO", []string{"$GOPATH"}, 3},
		{`echo "$PA`, []string{"$PATH"}, 3},
		{`echo '$PA`, nil, 0},
		{`echo \$PA`, nil, 0},
		{"echo $HOME/x", nil, 0},
		// comments
		{"echo # ma", nil, 0},
		{"echo # x\ncat ma", []string{"main.go "}, 2},
		// git
		{"git ch", []string{"checkout ", "cherry-pick "}, 2},
		{"git -C repo sw", []string{"switch "}, 2},
		{"git add ma", []string{"main.go "}, 2},
		{"git checkout -- ma", []string{"main.go "}, 2},
	}
	for _, tt := range tests {
		got, replace := Complete(tt.line, len(tt.line), env)
		if !slices.Equal(got, tt.want) || (tt.want != nil && replace != tt.replace) {
			t.Errorf("Complete(%q) = %q, %d; want %q, %d", tt.line, got, replace, tt.want, tt.replace)
		}
	}
}

func TestCompleteGitBranches(t *testing.T) {
	env := testEnv(t)
	env.Dir = filepath.Join(env.Dir, "repo", "src")
	tests := []struct {
		line string
		want []string
	}{
		{"git checkout ", []string{"feat/login ", "fix-bug ", "main ", "remote "}},
		{"git switch f", []string{"feat/login ", "fix-bug "}},
		{"git merge ", []string{"feat/login ", "fix-bug ", "main "}},
		{"git rebase -i m", []string{"main "}},
		{"git push ", []string{"origin ", "up "}},
		{"git push origin ", []string{"feat/login ", "fix-bug ", "main "}},
		{"git push -u origin ma", []string{"main "}},
		{"git --no-pager log ", []string{"feat/login ", "fix-bug ", "main "}},
		{"sudo git branch -d fi", []string{"fix-bug "}},
	}
	for _, tt := range tests {
		got, replace := Complete(tt.line, len(tt.line), env)
		word := tt.line[strings.LastIndexByte(tt.line, ' ')+1:]
		if !slices.Equal(got, tt.want) || replace != len(word) {
			t.Errorf("Complete(%q) = %q, %d; want %q, %d", tt.line, got, replace, tt.want, len(word))
		}
	}
}

func TestCompleteWorktreeRefs(t *testing.T) {
	root := tree(t, "main/.git/refs/heads/trunk", "main/.git/worktrees/wt/HEAD", "wt/")
	os.WriteFile(filepath.Join(root, "main/.git/worktrees/wt/commondir"), []byte("../..\n"), 0o644)
	os.WriteFile(filepath.Join(root, "wt/.git"), []byte("gitdir: ../main/.git/worktrees/wt\n"), 0o644)
	got, _ := Complete("git switch ", 11, Env{Dir: filepath.Join(root, "wt")})
	if want := []string{"trunk "}; !slices.Equal(got, want) {
		t.Errorf("branches in a worktree = %q, want %q", got, want)
	}
}

// TestCompleteCursor checks that only the text before the cursor counts.
func TestCompleteCursor(t *testing.T) {
	env := testEnv(t)
	line := "cat ma | wc -l"
	got, replace := Complete(line, 6, env)
	if !slices.Equal(got, []string{"main.go "}) || replace != 2 {
		t.Errorf("Complete mid-line = %q, %d", got, replace)
	}
	for _, cursor := range []int{-5, 0, 100} {
		Complete(line, cursor, env) // must not panic
	}
}

func TestCommandsRefresh(t *testing.T) {
	dir := tree(t, "a/one*", "b/two*", "b/.hidden*", "b/data")
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	var c Commands
	if got := c.Names(a + ":" + b + ":" + a); !slices.Equal(got, []string{"one", "two"}) {
		t.Fatalf("Names = %q", got)
	}
	if got := c.Names(b); !slices.Equal(got, []string{"two"}) {
		t.Errorf("after PATH change, Names = %q", got)
	}
	if err := os.WriteFile(filepath.Join(b, "three"), nil, 0o755); err != nil {
		t.Fatal(err)
	}
	// The directory's mtime changed with the new file.
	if got := c.Names(b); !slices.Equal(got, []string{"three", "two"}) {
		t.Errorf("after a new file, Names = %q", got)
	}
	// A directory that appears later on PATH is noticed too.
	late := filepath.Join(dir, "late")
	if got := c.Names(b + ":" + late); !slices.Equal(got, []string{"three", "two"}) {
		t.Errorf("with a missing dir, Names = %q", got)
	}
	tree(t) // no-op; keep helpers honest
	os.Mkdir(late, 0o755)
	os.WriteFile(filepath.Join(late, "four"), nil, 0o755)
	if got := c.Names(b + ":" + late); !slices.Equal(got, []string{"four", "three", "two"}) {
		t.Errorf("after the dir appeared, Names = %q", got)
	}
}

func TestReadline(t *testing.T) {
	env := testEnv(t)
	r := Readline{Env: func() Env { return env }}
	line := []rune("cat my")
	got, n := r.Do(line, len(line))
	want := []string{`\ dir/`, `\ file.txt `}
	if n != 2 || len(got) != len(want) {
		t.Fatalf("Do = %q, %d", got, n)
	}
	for i := range got {
		if string(got[i]) != want[i] {
			t.Errorf("Do[%d] = %q, want %q", i, string(got[i]), want[i])
		}
	}
	// Runes, not bytes: a multi-byte name before the cursor.
	os.WriteFile(filepath.Join(env.Dir, "héllo wörld"), nil, 0o644)
	line = []rune("cat hél")
	got, n = r.Do(line, len(line))
	if n != 3 || len(got) != 1 || string(got[0]) != `lo\ wörld ` {
		t.Errorf("Do(%q) = %q, %d", string(line), got, n)
	}
	// No Env at all must not panic.
	Readline{}.Do([]rune("ec"), 2)
}

func BenchmarkCompleteCommand(b *testing.B) {
	env := Env{Path: os.Getenv("PATH"), Commands: &Commands{}, Dir: b.TempDir()}
	Complete("g", 1, env)
	for b.Loop() {
		Complete("g", 1, env)
	}
}

// TestIgnoreCase: with completion-ignore-case, names match in any case and
// a candidate is the name as it is, in place of the typed word.
func TestIgnoreCase(t *testing.T) {
	env := testEnv(t)
	env.IgnoreCase = true
	tests := []struct {
		line string
		want []string
	}{
		{"ls ../home/doc", []string{"docs/", "Documents/"}},
		{"ls ../home/DOCU", []string{"Documents/"}},
		{`ls "../home/DOCU`, []string{`Documents/`}},
		{"ls MAIN", []string{"main.go "}},
		{"GOFM", []string{"gofmt "}},
	}
	for _, tt := range tests {
		got, replace := Complete(tt.line, len(tt.line), env)
		slices.Sort(got)
		slices.Sort(tt.want)
		if !slices.Equal(got, tt.want) {
			t.Errorf("Complete(%q) = %q (replace %d), want %q", tt.line, got, replace, tt.want)
		}
	}
	env.IgnoreCase = false
	if got, _ := Complete("ls MAIN", 7, env); len(got) != 0 {
		t.Errorf("without IgnoreCase: %q", got)
	}
}

func TestReplacement(t *testing.T) {
	tests := []struct {
		cands []string
		typed string
		want  string
		ok    bool
	}{
		{[]string{"main.go "}, "ma", "", false},              // readline adds it
		{[]string{"Documents/"}, "docu", "Documents/", true}, // another case
		{[]string{"src/a.go "}, "**", "src/a.go ", true},     // fzf's choice
		{[]string{"docs/", "Documents/"}, "do", "", false},   // readline lists them
		{[]string{"zzz1", "zzz2"}, "a", "zzz", true},
		{[]string{"x", "y"}, "a", "", false},
		{nil, "a", "", false},
	}
	for _, tt := range tests {
		got, ok := Replacement(tt.cands, tt.typed)
		if got != tt.want && tt.ok || ok != tt.ok {
			t.Errorf("Replacement(%q, %q) = %q, %v; want %q, %v", tt.cands, tt.typed, got, ok, tt.want, tt.ok)
		}
	}
	if got, n := Suffixes([]string{"Documents/", "docs/", "x"}, "do"); n != 2 || len(got) != 2 || string(got[0]) != "cuments/" {
		t.Errorf("Suffixes = %q, %d", got, n)
	}
}

// TestReadlineVariables: the readline variables that change what a
// candidate is, as bash 5.2 completes with each set.
func TestReadlineVariables(t *testing.T) {
	tests := []struct {
		line string
		set  func(*Env)
		want []string
	}{
		{"cat srcl", func(e *Env) { e.MarkSymlinkedDirs = true }, []string{"srclink/"}},
		{"cat sub/d", func(e *Env) { e.NoMarkDirs = true }, []string{"deep"}},
		{"cd s", func(e *Env) { e.NoMarkDirs = true }, []string{"src", "srclink", "sub"}},
		{"cat ~/", func(e *Env) { e.HideDotFiles = true }, []string{"Documents/", "docs/", "notes.txt "}},
		{"cat ~/.h", func(e *Env) { e.HideDotFiles = true }, []string{".hidden "}},
		{"cat RUN-", func(e *Env) { e.IgnoreCase, e.MapCase = true, true }, []string{"run_x.sh "}},
		{"cat run-", func(e *Env) { e.IgnoreCase = true }, nil},
		{"cat run-", func(e *Env) { e.MapCase = true }, nil}, // only with ignore-case, as readline
	}
	for _, tt := range tests {
		env := testEnv(t)
		os.WriteFile(filepath.Join(env.Dir, "run_x.sh"), nil, 0o644)
		tt.set(&env)
		got, _ := Complete(tt.line, len(tt.line), env)
		if !slices.Equal(got, tt.want) {
			t.Errorf("Complete(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
}
