package shell

import (
	"bytes"
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/internal/needs"
)

// tabShell is a shell that ran setup, for Tab tests.
func tabShell(t testing.TB, setup string) (*Shell, *bytes.Buffer) {
	t.Helper()
	var out bytes.Buffer
	if tt, ok := t.(*testing.T); ok {
		tt.Chdir(tt.TempDir()) // the shell moves the process's cwd; restore it after
	}
	s, err := New(Stdio(nil, &out, &out), Environ([]string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH")}), Interactive(true))
	if err != nil {
		t.Fatal(err)
	}
	s.run(context.Background(), setup, "setup")
	return s, &out
}

const bashCompletion = "/usr/share/bash-completion/bash_completion"

func TestTabBashCompletion(t *testing.T) {
	needs.File(t, bashCompletion, "bash-completion")
	s, out := tabShell(t, "source "+bashCompletion)
	cands, replace, ok := s.tabComplete("apt-get insta", 13, false)
	if !ok || replace != 5 || !slices.Equal(cands, []string{"install "}) {
		t.Errorf("apt-get insta<Tab>: %q %d %v; output %q", cands, replace, ok, out)
	}
}

// BenchmarkSourceBashCompletion is what sourcing bash-completion costs at
// start-up.
func BenchmarkSourceBashCompletion(b *testing.B) {
	needs.File(b, bashCompletion, "bash-completion")
	for b.Loop() {
		tabShell(b, "source "+bashCompletion)
	}
}

// BenchmarkTabBashCompletion is one Tab through bash-completion: the first
// of a session, which loads apt-get's completions, and the next ones.
func BenchmarkTabBashCompletion(b *testing.B) {
	needs.File(b, bashCompletion, "bash-completion")
	b.Run("first", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			s, _ := tabShell(b, "source "+bashCompletion)
			b.StartTimer()
			if cands, _, _ := s.tabComplete("apt-get insta", 13, false); len(cands) != 1 {
				b.Fatalf("candidates %q", cands)
			}
		}
	})
	b.Run("next", func(b *testing.B) {
		s, _ := tabShell(b, "source "+bashCompletion)
		s.tabComplete("apt-get insta", 13, false)
		for b.Loop() {
			if cands, _, _ := s.tabComplete("apt-get insta", 13, false); len(cands) != 1 {
				b.Fatalf("candidates %q", cands)
			}
		}
	})
}

// TestTab: what Tab offers with a compspec. The expectations are bash
// 5.2's, read on a pty (what one Tab put on the line).
func TestTab(t *testing.T) {
	setup := `cd "$DIR"; mkdir d1; touch 'sp ace' 'x$y' plain
complete -f cmdf
complete -W "install inst" cmdw
complete -o nospace -W "install" cmdn
complete -W "sp\ ace" cmdq
complete -d cmdd
f() { :; }
complete -o default -F f cmdD
g() { COMPREPLY=("sp ace"); }
complete -o filenames -F g cmdF
h() { seen="<$1|$2|$3> <$COMP_CWORD|$COMP_LINE|$COMP_POINT|${COMP_WORDS[*]}|$COMP_TYPE|$COMP_KEY>"; }
complete -F h cmdh
`
	tests := []struct {
		line  string
		cands []string
		ok    bool
	}{
		{"cmdf sp", []string{`sp\ ace `}, true},
		{"cmdf d", []string{"d1/"}, true},
		{`cmdf "sp`, []string{`sp ace" `}, true},
		{`cmdf 'sp`, []string{`sp ace' `}, true},
		{"cmdf x", []string{`x\$y `}, true},
		{"cmdw in", []string{"inst ", "install "}, true},
		{"cmdn in", []string{"install"}, true},
		{"cmdq sp", []string{"sp ace "}, true},
		{"cmdd sp", nil, true},
		{"cmdD zz", nil, false}, // qsh's own completion answers
		{"cmdF sp", []string{`sp\ ace `}, true},
		{"nocompspec x", nil, false},
	}

	dir := t.TempDir()
	s, out := tabShell(t, "DIR="+singleQuote(dir)+"\n"+setup)
	for _, tt := range tests {
		cands, _, ok := s.tabComplete(tt.line, len(tt.line), false)
		if !slices.Equal(cands, tt.cands) || ok != tt.ok {
			t.Errorf("%s<Tab>: %q %v, want %q %v", tt.line, cands, ok, tt.cands, tt.ok)
		}
	}
	// The function's arguments and COMP_ variables, with the cursor
	// inside the line (COMPREPLY's matches come sorted, readline's order).
	for cursor, want := range map[int]string{
		11: "<cmdh|b|=> <3|cmdh a=b c|8|cmdh a = b c|9|9>", // x; cmdh a=b| c
		12: "<cmdh||b> <4|cmdh a=b c|9|cmdh a = b c|9|9>",  // x; cmdh a=b |c
	} {
		s.tabComplete("x; cmdh a=b c", cursor, false)
		if got := s.Var("seen"); got != want {
			t.Errorf("cmdh, cursor at %d: %q, want %q", cursor, got, want)
		}
	}
	s.tabComplete("cmdh ", 5, true)
	if got := s.Var("seen"); got != "<cmdh||cmdh> <1|cmdh |5|cmdh |63|9>" {
		t.Errorf("cmdh, second Tab: %q", got)
	}
	if out.Len() > 0 {
		t.Errorf("output: %q", out)
	}
	s.RunString(context.Background(), "shopt -u progcomp")
	if _, _, ok := s.tabComplete("cmdf sp", 7, false); ok {
		t.Errorf("Tab with progcomp off used a compspec")
	}
}

// An error that abandons a completion function's command line costs the
// Tab; the shell goes on, in its own scope.
func TestTabError(t *testing.T) {
	s, out := tabShell(t, `f() { local v=in; echo "${nosuch?gone}"; }; complete -F f cmd; v=top`)
	if cands, _, _ := s.tabComplete("cmd x", 5, false); len(cands) != 0 {
		t.Errorf("a Tab that failed offered %q", cands)
	}
	if !strings.Contains(out.String(), "nosuch: gone") {
		t.Errorf("output %q", out)
	}
	out.Reset()
	s.run(context.Background(), "echo v=$v; local x=1", "")
	if got := out.String(); !strings.HasPrefix(got, "v=top\n") || !strings.Contains(got, "local") {
		t.Errorf("after the error: %q", got)
	}
}
