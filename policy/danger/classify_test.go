package danger

import (
	"bufio"
	"os"
	"slices"
	"strings"
	"testing"
)

// testWS is the workspace the labelled commands are judged in.
var testWS = Workspace{Dir: "/home/alice/proj", Home: "/home/alice"}

type labelled struct {
	class Class
	alt   []Class // other classes a careful reviewer could give
	cmd   string
	note  string
	line  int
}

func parseClass(s string) (Class, bool) {
	for c := Safe; c <= Blocked; c++ {
		if c.String() == s {
			return c, true
		}
	}
	return 0, false
}

func readTable(t testing.TB) []labelled {
	f, err := os.Open("testdata/commands.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []labelled
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.SplitN(line, "\t", 3)
		if len(parts) < 2 {
			t.Fatalf("commands.tsv:%d: want class<TAB>command<TAB>note", n)
		}
		// The class column is CLASS or CLASS/ALT…: the label first, then
		// classes where reasonable people differ.
		names := strings.Split(parts[0], "/")
		c, ok := parseClass(names[0])
		if !ok {
			t.Fatalf("commands.tsv:%d: unknown class %q", n, parts[0])
		}
		l := labelled{class: c, cmd: parts[1], line: n}
		for _, a := range names[1:] {
			ac, ok := parseClass(a)
			if !ok {
				t.Fatalf("commands.tsv:%d: unknown alt class %q", n, a)
			}
			l.alt = append(l.alt, ac)
		}
		if len(parts) == 3 {
			l.note = parts[2]
		}
		out = append(out, l)
	}
	return out
}

// TestCommands checks the classifier against the labelled table and the
// goals of the issue: nothing dangerous or blocked is let through as safe
// or dev, every blocked command is blocked, and most safe and dev
// commands keep their class.
func TestCommands(t *testing.T) {
	table := readTable(t)
	if len(table) < 400 {
		t.Fatalf("the table has %d commands, want at least 400", len(table))
	}
	total := map[Class]int{}
	kept := map[Class]int{}
	for _, l := range table {
		v := Classify(l.cmd, testWS)
		total[l.class]++
		if v.Class == l.class || slices.Contains(l.alt, v.Class) {
			kept[l.class]++
			continue
		}
		switch {
		case l.class >= Dangerous && v.Class < Dangerous:
			t.Errorf("commands.tsv:%d: %s classified %s, want %s (%s)\n\t%q", l.line, l.cmd, v.Class, l.class, l.note, v.Reasons)
		case l.class == Blocked:
			t.Errorf("commands.tsv:%d: %s classified %s, want blocked (%s)\n\t%q", l.line, l.cmd, v.Class, l.note, v.Reasons)
		case l.class == Dangerous && v.Class == Blocked:
			t.Logf("commands.tsv:%d: stricter: %s classified blocked, labelled dangerous\n\t%q", l.line, l.cmd, v.Reasons)
		default:
			t.Logf("commands.tsv:%d: %s classified %s, labelled %s (%s)\n\t%q", l.line, l.cmd, v.Class, l.class, l.note, v.Reasons)
		}
	}
	for c := Safe; c <= Blocked; c++ {
		t.Logf("%-9s %3d/%3d kept (%.1f%%)", c, kept[c], total[c], 100*float64(kept[c])/float64(max(total[c], 1)))
	}
	goal := func(c Class, pct float64) {
		if total[c] == 0 {
			t.Errorf("no %s commands in the table", c)
			return
		}
		if got := 100 * float64(kept[c]) / float64(total[c]); got < pct {
			t.Errorf("%.1f%% of %s commands classified %s, want at least %.0f%%", got, c, c, pct)
		}
	}
	goal(Safe, 90)
	goal(Dev, 85)
	goal(Blocked, 100)
}

func TestReasons(t *testing.T) {
	tests := []struct {
		cmd  string
		want string // a reason must contain this
	}{
		{"rm -rf ~", "`rm -r` on `~`: deletes the home directory"},
		{"rm -rf /", "`rm -r` on `/`"},
		{"frobnicate", "unknown command `frobnicate`"},
		{"git push --force", "`git push --force`"},
		{"echo hi > /dev/sda", "`> /dev/sda`"},
		{"ls 'unterminated", "does not parse"},
		{"curl https://example.com", "example.com"},
		{"cat .env", "`.env`"},
		// The home directory reads as ~, whoever the user is.
		{"cat /home/alice/.aws/credentials", "`~/.aws/credentials`: reads a file that may hold secrets (`~/.aws`"},
	}
	for _, tt := range tests {
		v := Classify(tt.cmd, testWS)
		found := false
		for _, r := range v.Reasons {
			if strings.Contains(r, tt.want) {
				found = true
			}
		}
		if !found {
			t.Errorf("Classify(%q) reasons %q, want one containing %q", tt.cmd, v.Reasons, tt.want)
		}
	}
}

func TestTilde(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"`/home/alice/.ssh` holds keys", "`~/.ssh` holds keys"},
		{"`rm -r` on `/home/alice`: deletes", "`rm -r` on `~`: deletes"},
		{"`dd of=/home/alice/x`", "`dd of=~/x`"},
		{"`/home/alice2/x` and /x/home/alice", "`/home/alice2/x` and /x/home/alice"},
		{"(/home/alice/a, /home/alice/b)", "(~/a, ~/b)"},
	} {
		if got := tilde(tt.in, "/home/alice"); got != tt.want {
			t.Errorf("tilde(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParseError(t *testing.T) {
	v := Classify("echo $(", testWS)
	if v.Class != Dangerous || len(v.Reasons) == 0 || !strings.Contains(v.Reasons[0], "does not parse") {
		t.Fatalf("got %v %q, want dangerous with the parser's message", v.Class, v.Reasons)
	}
}

// TestMultiline covers forms the one-line table cannot hold.
func TestMultiline(t *testing.T) {
	tests := []struct {
		cmd  string
		want Class
	}{
		{"cat <<EOF | sh\nrm -rf /\nEOF", Blocked},
		{"cat <<'EOF'\nrm -rf /\nEOF", Safe},
		{"cat <<EOF\n$(rm -rf ~)\nEOF", Blocked},
		{"cat <<'EOF'\n$(rm -rf ~)\nEOF", Safe},
		{"cat > notes.txt <<'EOF'\nhello\nEOF", Dev},
		{"bash <<'EOF'\ngo test ./...\nEOF", Dev},
		{"python3 <<'EOF'\nimport shutil\nshutil.rmtree('/')\nEOF", Blocked},
		{"go build ./...\ngo test ./...", Dev},
		{"if true\nthen\n  rm -rf ~\nfi", Blocked},
	}
	for _, tt := range tests {
		if v := Classify(tt.cmd, testWS); v.Class != tt.want {
			t.Errorf("Classify(%q) = %v %q, want %v", tt.cmd, v.Class, v.Reasons, tt.want)
		}
	}
}

// TestConcurrent: Classify shares nothing between calls; run it with
// -race to check.
func TestConcurrent(t *testing.T) {
	table := readTable(t)
	want := make([]Class, len(table))
	for i, l := range table {
		want[i] = Classify(l.cmd, testWS).Class
	}
	done := make(chan bool)
	for g := 0; g < 4; g++ {
		go func(g int) {
			defer func() { done <- true }()
			for i := g; i < len(table); i += 4 {
				if got := Classify(table[i].cmd, testWS).Class; got != want[i] {
					t.Errorf("%q: %v in parallel, %v alone", table[i].cmd, got, want[i])
				}
			}
		}(g)
	}
	for range 4 {
		<-done
	}
}

// TestOddWorkspaces: a workspace at / or at home must not make system or
// start-up files part of the project.
func TestOddWorkspaces(t *testing.T) {
	tests := []struct {
		ws   Workspace
		cmd  string
		want Class
	}{
		{Workspace{Dir: "/", Home: "/home/alice"}, "echo x > /etc/passwd", Dangerous},
		{Workspace{Dir: "/", Home: "/home/alice"}, "rm -rf usr", Blocked},
		{Workspace{Dir: "/usr", Home: "/home/alice"}, "touch bin/x", Dangerous},
		{Workspace{Dir: "/home/alice", Home: "/home/alice"}, "echo x >> .bashrc", Dangerous},
		{Workspace{Dir: "/home/alice", Home: "/home/alice"}, "echo x > .ssh/authorized_keys", Dangerous},
		{Workspace{Dir: "/home/alice", Home: "/home/alice"}, "rm -rf ./*", Blocked},
		{Workspace{Dir: "/home/alice", Home: "/home/alice"}, "touch notes.txt", Dev},
		{Workspace{Dir: "/home/alice", Home: "/home/alice"}, "echo x >> .config/qsh/permissions", Dangerous},
		{Workspace{Dir: "/home/alice", Home: "/home/alice"}, "cp p ~/.config/qsh/permissions", Dangerous},
		{Workspace{Dir: "/home/alice/dotfiles", Home: "/home/alice"}, "echo x >> .bashrc", Dev},
		{Workspace{}, "touch x", Dangerous},
		{Workspace{}, "rm -rf ~", Blocked},
	}
	for _, tt := range tests {
		if v := Classify(tt.cmd, tt.ws); v.Class != tt.want {
			t.Errorf("Classify(%q) in %+v = %v %q, want %v", tt.cmd, tt.ws, v.Class, v.Reasons, tt.want)
		}
	}
}

// TestDeepNesting: nesting deeper than the bounds is dangerous, said so,
// and fast; a blocked command within them is still found.
func TestDeepNesting(t *testing.T) {
	deep := []string{
		"echo " + strings.Repeat("$(", 4000) + "ls" + strings.Repeat(")", 4000),
		"echo " + strings.Repeat(`"$(`, 4000) + "ls" + strings.Repeat(`)"`, 4000),
		strings.Repeat("if true; then ", 4000) + "ls" + strings.Repeat("; fi", 4000),
		strings.Repeat("{ ", 300) + "ls" + strings.Repeat("; }", 300),
	}
	for _, cmd := range deep {
		v := Classify(cmd, testWS)
		if v.Class != Dangerous || !strings.Contains(strings.Join(v.Reasons, " "), "too deep") {
			t.Errorf("%.40s…: %v %q, want dangerous, too deep", cmd, v.Class, v.Reasons)
		}
	}
	within := "echo " + strings.Repeat("$(", 150) + "rm -rf ~" + strings.Repeat(")", 150)
	if v := Classify(within, testWS); v.Class != Blocked {
		t.Errorf("rm -rf ~ inside 150 $(…): %v %q, want blocked", v.Class, v.Reasons)
	}
}

// TestLinearWalk: the statements walked grow linearly with nesting depth
// for every shape of BenchmarkNested (a statement walked again at each
// level made 400 nested $(…) take a second).
func TestLinearWalk(t *testing.T) {
	walked := func(src string) int {
		w := newWalker(testWS, testWS.Dir)
		start := w.shared.budget
		w.script(src)
		return start - w.shared.budget
	}
	for _, s := range nestings {
		small, large := walked(s.make(50)), walked(s.make(150))
		if large > 4*max(small, 1) {
			t.Errorf("%s: %d statements walked for 50 levels, %d for 150: not linear", s.name, small, large)
		}
	}
}
