package prompt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRender(t *testing.T) {
	t.Parallel()
	base := Data{User: "ann", Host: "box.example.org", Dir: "/home/ann/src", Home: "/home/ann"}
	with := func(f func(*Data)) Data { d := base; f(&d); return d }
	tests := []struct {
		name string
		d    Data
		want string
	}{
		{"plain", base, "~/src $ "},
		{"home", with(func(d *Data) { d.Dir = "/home/ann" }), "~ $ "},
		{"outside home", with(func(d *Data) { d.Dir = "/etc" }), "/etc $ "},
		{"home prefix is not home", with(func(d *Data) { d.Dir = "/home/annex" }), "/home/annex $ "},
		{"ssh", with(func(d *Data) { d.SSH = true }), "ann@box ~/src $ "},
		{"branch", with(func(d *Data) { d.GitBranch = "main" }), "~/src (main) $ "},
		{"status", with(func(d *Data) { d.Status = 127 }), "~/src [127] $ "},
		{"fast", with(func(d *Data) { d.Duration = 2 * time.Second }), "~/src $ "},
		{"slow", with(func(d *Data) { d.Duration = 2500 * time.Millisecond }), "~/src 2.5s $ "},
		{"minutes", with(func(d *Data) { d.Duration = 65 * time.Second }), "~/src 1m05s $ "},
		{"hours", with(func(d *Data) { d.Duration = 2*time.Hour + 3*time.Minute }), "~/src 2h03m $ "},
		{"root", with(func(d *Data) { d.Root = true; d.Dir = "/root"; d.Home = "/root" }), "~ # "},
		{"empty", Data{}, "? $ "},
		{"all", with(func(d *Data) {
			d.SSH, d.GitBranch, d.Status, d.Duration = true, "feat/x", 1, 3*time.Second
		}), "ann@box ~/src (feat/x) [1] 3s $ "},
		{"colour", with(func(d *Data) { d.Color = true; d.Status = 2 }),
			"\x1b[34;1m~/src\x1b[0;22m \x1b[31;1m[2]\x1b[0;22m \x1b[1m$\x1b[22m "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Render(tt.d); got != tt.want {
				t.Errorf("Render = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRenderNoEscapesWithoutColor(t *testing.T) {
	t.Parallel()
	d := Data{User: "u", Host: "h", Dir: "/x", SSH: true, GitBranch: "b", Status: 1, Duration: time.Minute}
	if got := Render(d); strings.ContainsRune(got, '\033') {
		t.Errorf("Render with Color false has escapes: %q", got)
	}
	d.Color = true
	if got := Render(d); !strings.ContainsRune(got, '\033') {
		t.Errorf("Render with Color true has no escapes: %q", got)
	}
}

func TestColorEnabled(t *testing.T) {
	t.Parallel()
	tests := []struct {
		env  map[string]string
		tty  bool
		want bool
	}{
		{map[string]string{"TERM": "xterm-256color"}, true, true},
		{map[string]string{"TERM": "xterm-256color"}, false, false},
		{map[string]string{"TERM": "xterm", "NO_COLOR": "1"}, true, false},
		{map[string]string{"TERM": "dumb"}, true, false},
		{map[string]string{}, true, true},
	}
	for _, tt := range tests {
		getenv := func(k string) string { return tt.env[k] }
		if got := ColorEnabled(getenv, tt.tty); got != tt.want {
			t.Errorf("ColorEnabled(%v, %v) = %v, want %v", tt.env, tt.tty, got, tt.want)
		}
	}
}

// show is a prompt as the line editor gets it when the shell's expansion
// has nothing to do.
func show(ps string, d Data) string { return Visible(Unquote(Decode(ps, d))) }

func TestEscapes(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 5, 26, 21, 5, 9, 0, time.UTC)
	d := Data{User: "ann", Host: "box.example.org", Dir: "/home/ann/src/qsh", Home: "/home/ann",
		Now: now, Jobs: 2, Version: "1.2.3"}
	tests := []struct {
		ps1, want string
	}{
		{`\u@\h:\w\$ `, "ann@box:~/src/qsh$ "},
		{`\H`, "box.example.org"},
		{`\W`, "qsh"},
		{`a\nb`, "a\nb"},
		{`\t`, "21:05:09"},
		{`\T`, "09:05:09"},
		{`\@`, "09:05 PM"},
		{`\A`, "21:05"},
		{`\d`, "Tue May 26"},
		{`\D{%Y-%m-%d %H}`, "2026-05-26 21"},
		{`\D{}`, "21:05:09"},
		{`\Dx \D{`, `\Dx \D{`},
		{`\j`, "2"},
		{`\s \v \V`, "qsh 1.2 1.2.3"},
		{`\e[1m`, "\x1b[1m"},
		{`\\`, `\`},
		{`\101\0`, "A\x00"},
		{`\q`, `\q`},
		{`end\`, `end\`},
		{`\a`, "\a"},
		{`\[\e[32m\]\u\[\e[0m\]`, "\x1b[32mann\x1b[0m"},
		{`\[\033[1;34m\]x`, "\x1b[1;34mx"},
		{`\[\e]0;\u@\h\a\]$ `, "$ "}, // a title sequence would confuse readline's width count
		{`\[\e[1m`, "\x1b[1m"},       // unclosed \[ hides the rest
		{`a\]b`, "ab"},               // stray \] is ignored
		{`cost $ 5 $`, "cost $ 5 $"},
	}
	for _, tt := range tests {
		if got := show(tt.ps1, d); got != tt.want {
			t.Errorf("%q shows as %q, want %q", tt.ps1, got, tt.want)
		}
	}
}

func TestEscapeDirs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		dir, home, w, W string
		root            bool
	}{
		{"/home/ann", "/home/ann", "~", "~", false},
		{"/home/ann", "/home/ann/", "~", "~", false},
		{"/", "/home/ann", "/", "/", false},
		{"/usr/lib", "/", "/usr/lib", "lib", false},
		{"/root/x", "/root", "~/x", "x", true},
	}
	for _, tt := range tests {
		d := Data{Dir: tt.dir, Home: tt.home, Root: tt.root}
		sign := "$"
		if tt.root {
			sign = "#"
		}
		if got, want := show(`\w|\W|\$`, d), tt.w+"|"+tt.W+"|"+sign; got != want {
			t.Errorf("escapes in %s (home %s) = %q, want %q", tt.dir, tt.home, got, want)
		}
	}
}

func TestGitBranch(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write := func(rel, content string) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mkdir := func(rel string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(root, rel), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write("repo/.git/HEAD", "ref: refs/heads/main\n")
	mkdir("repo/a/b/c")
	write("slash/.git/HEAD", "ref: refs/heads/feat/login\n")
	write("detached/.git/HEAD", "0123456789abcdef0123456789abcdef01234567\n")
	write("other/.git/HEAD", "ref: refs/remotes/origin/x\n")
	write("garbage/.git/HEAD", "not a head\n")
	mkdir("nohead/.git")
	// A worktree: .git is a file pointing into the main repository.
	write("repo/.git/worktrees/wt/HEAD", "ref: refs/heads/topic\n")
	write("wt/.git", "gitdir: "+filepath.Join(root, "repo/.git/worktrees/wt")+"\n")
	mkdir("wt/sub")
	// A submodule: a relative gitdir.
	write("repo/.git/modules/lib/HEAD", "fedcba9876543210fedcba9876543210fedcba98\n")
	write("repo/lib/.git", "gitdir: ../.git/modules/lib\n")
	write("badfile/.git", "nonsense\n")
	mkdir("plain/dir")

	tests := []struct{ dir, want string }{
		{"repo", "main"},
		{"repo/a/b/c", "main"},
		{"slash", "feat/login"},
		{"detached", "0123456"},
		{"other", "refs/remotes/origin/x"},
		{"garbage", ""},
		{"nohead", ""},
		{"wt/sub", "topic"},
		{"repo/lib", "fedcba9"},
		{"badfile", ""},
		{"missing/dir", ""},
	}
	for _, tt := range tests {
		if got := GitBranch(filepath.Join(root, tt.dir)); got != tt.want {
			t.Errorf("GitBranch(%s) = %q, want %q", tt.dir, got, tt.want)
		}
	}
}

func BenchmarkRender(b *testing.B) {
	d := Data{User: "u", Host: "h", Dir: "/home/u/src", Home: "/home/u", GitBranch: "main", Color: true, Status: 1}
	for b.Loop() {
		Render(d)
	}
}

// stripSGR removes ESC [ … m the way readline v0.1.3 does before it measures
// a prompt's width.
func stripSGR(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\033' && i+1 < len(s) && s[i+1] == '[' {
			if j := strings.IndexByte(s[i+2:], 'm'); j >= 0 {
				i += j + 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// TestColourCostsNoWidth checks that the coloured prompt, as readline
// measures it, is exactly the plain one: the cursor lands where it should.
func TestColourCostsNoWidth(t *testing.T) {
	t.Parallel()
	d := Data{User: "u", Host: "h.x", Dir: "/home/u/src", Home: "/home/u", SSH: true,
		GitBranch: "main", Status: 1, Duration: time.Minute}
	plain := Render(d)
	d.Color = true
	if got := stripSGR(Render(d)); got != plain {
		t.Errorf("coloured prompt measures as %q, plain is %q", got, plain)
	}
	ps1 := `\[\e[32m\]\u@\h\[\e[0m\]:\[\e]0;title\a\]\w\$ `
	if got, want := stripSGR(show(ps1, d)), "u@h:~/src$ "; got != want {
		t.Errorf("expanded PS1 measures as %q, want %q", got, want)
	}
}

func TestDirTrim(t *testing.T) {
	t.Parallel()
	// As bash 5.2 shows them with PROMPT_DIRTRIM=2.
	tests := []struct{ dir, want string }{
		{"/usr/share/doc/fzf/examples", ".../fzf/examples"},
		{"/home/ann/a/b/c", "~/a/b/c"},
		{"/home/ann/a/b/c/d", "~/.../c/d"},
		{"/usr/share", "/usr/share"},
		{"/home/ann", "~"},
	}
	for _, tt := range tests {
		d := Data{Dir: tt.dir, Home: "/home/ann", DirTrim: 2}
		if got := show(`\w`, d); got != tt.want {
			t.Errorf("\\w in %s = %q, want %q", tt.dir, got, tt.want)
		}
	}
}

func TestDecode(t *testing.T) {
	t.Parallel()
	d := Data{User: "ann", Host: "box", Dir: "/tmp/$(rm -rf x)`y`", Home: "/home/ann"}
	tests := []struct {
		ps, want, visible string
	}{
		// The escapes' text is quoted for the shell's expansion; the
		// rest is left to it.
		{`\u:\w\$ `, "ann:/tmp/\\$(rm -rf x)\\`y\\`\\$ ", "ann:/tmp/$(rm -rf x)`y`$ "},
		{`[$(__git_ps1 "%s")] \$ `, `[$(__git_ps1 "%s")] \$ `, `[$(__git_ps1 "%s")] $ `},
		{`\\ $HOME \q`, `\\ $HOME \\q`, `\ $HOME \q`},
		{`\[\e[1m\]x\[\e]0;t\a\]`, "\x01\x1b[1m\x02x\x01\x1b]0;t\a\x02", "\x1b[1mx"},
		{`\[\e[1m`, "\x01\x1b[1m", "\x1b[1m"},
		{`a\]b`, "a\x02b", "ab"},
	}
	title := Decode(`\[\e]0;\u@\h\a\e[1m\]x\[\e]2;t\e\\\]$ `, d)
	if got := Titles(title); got != "\x1b]0;ann@box\a\x1b]2;t\x1b\\" {
		t.Errorf("Titles(%q) = %q", title, got)
	}
	if got := Visible(title); got != "\x1b[1mx$ " {
		t.Errorf("Visible(%q) = %q", title, got)
	}
	for _, tt := range tests {
		got := Decode(tt.ps, d)
		if got != tt.want {
			t.Errorf("Decode(%q) = %q, want %q", tt.ps, got, tt.want)
		}
		if v := Visible(Unquote(got)); v != tt.visible {
			t.Errorf("Visible(Unquote(Decode(%q))) = %q, want %q", tt.ps, v, tt.visible)
		}
	}
}
