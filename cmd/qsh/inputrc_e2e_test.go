package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/qsh-shell/qsh/internal/needs"
	"github.com/qsh-shell/qsh/shell/shelltest"
)

// The readline variables of ~/.inputrc that change Tab, each typed in
// bash and in qsh on a terminal: what bash shows is what qsh must.

// completionHome is a home with d/ holding a file of each kind that
// completion lists differently, r/ two names with a long common prefix,
// and inputrc as ~/.inputrc.
func completionHome(t *testing.T, inputrc string) string {
	t.Helper()
	home := t.TempDir()
	d := filepath.Join(home, "d")
	for _, dir := range []string{"d/dirA", "r"} {
		os.MkdirAll(filepath.Join(home, dir), 0o755)
	}
	for _, f := range []string{"d/file1", "d/.hidden1", "r/report-2024.txt", "r/report-2025.txt"} {
		os.WriteFile(filepath.Join(home, f), nil, 0o644)
	}
	os.WriteFile(filepath.Join(d, "exe1"), []byte("#!/bin/sh\n"), 0o755)
	os.Symlink("dirA", filepath.Join(d, "linkdir"))
	os.Symlink("file1", filepath.Join(d, "linkfile"))
	if err := syscall.Mkfifo(filepath.Join(d, "fifo1"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(home, ".inputrc"), []byte(inputrc), 0o644)
	return home
}

// inBashAndQsh runs f on bash, then on qsh, each started on a terminal
// in a [completionHome] with inputrc, PS1 the tests' prompt.
func inBashAndQsh(t *testing.T, inputrc string, f func(t *testing.T, tm *shelltest.Term), opts ...shelltest.Option) {
	t.Helper()
	t.Run("bash", func(t *testing.T) {
		needs.Tool(t, "bash")
		bash, _ := exec.LookPath("bash")
		home := completionHome(t, inputrc)
		o := append([]shelltest.Option{
			shelltest.Env("HOME="+home, "INPUTRC="+filepath.Join(home, ".inputrc"), "PS1="+ps1),
			shelltest.Args("--norc", "--noprofile", "-i"), shelltest.Dir(home),
		}, opts...)
		tm := shelltest.Start(t, bash, o...)
		tm.WaitFor(ps1)
		f(t, tm)
	})
	t.Run("qsh", func(t *testing.T) {
		home := completionHome(t, inputrc)
		o := append([]shelltest.Option{
			shelltest.Env("HOME="+home, "XDG_STATE_HOME="+home+"/state", "PS1="+ps1),
			shelltest.Dir(home),
		}, opts...)
		tm := shelltest.Start(t, qshBinary(t), o...)
		tm.WaitFor(ps1)
		f(t, tm)
	})
}

// completed types keys, then Enter on a printf of the word, and waits
// for what the word became.
func completed(tm *shelltest.Term, want string, keys ...string) {
	tm.Type(`printf '<%s>\n' `)
	tm.Type(keys...)
	tm.Type(shelltest.Enter)
	tm.WaitFor("<" + want + ">")
	tm.WaitFor(ps1)
}

// listed types keys that list the completions and waits for the lines.
func listed(tm *shelltest.Term, keys []string, lines ...string) {
	tm.Type(keys...)
	for _, l := range lines {
		tm.WaitFor(l)
	}
	tm.WaitFor(ps1)
	tm.Type(shelltest.CtrlU)
}

// backTab is Shift-Tab.
const backTab = "\x1b[Z"

var tabTab = []string{"ls d/", shelltest.Tab, shelltest.Tab}

func TestInputrcDefaultList(t *testing.T) {
	t.Parallel()
	// mark-directories (on) marks a link to a directory too;
	// match-hidden-files (on) lists .hidden1 for an empty word.
	inBashAndQsh(t, "", func(t *testing.T, tm *shelltest.Term) {
		listed(tm, tabTab, ".hidden1  dirA/     exe1      fifo1     file1     linkdir/  linkfile\n")
		completed(tm, "d/linkdir", "d/linkd", shelltest.Tab)
		completed(tm, "d/linkdir/", "d/linkd", shelltest.Tab, shelltest.Tab)
		completed(tm, "d/fii1", "d/fi1", shelltest.Left, shelltest.Left, shelltest.Tab)
	})
}

func TestInputrcVisibleStats(t *testing.T) {
	t.Parallel()
	inBashAndQsh(t, "set visible-stats on\n", func(t *testing.T, tm *shelltest.Term) {
		listed(tm, tabTab, ".hidden1  dirA/     exe1*     fifo1|    file1     linkdir@  linkfile@\n")
	})
}

func TestInputrcMarkDirectories(t *testing.T) {
	t.Parallel()
	inBashAndQsh(t, "set mark-symlinked-directories on\n", func(t *testing.T, tm *shelltest.Term) {
		completed(tm, "d/linkdir/", "d/linkd", shelltest.Tab)
	})
	inBashAndQsh(t, "set mark-directories off\n", func(t *testing.T, tm *shelltest.Term) {
		completed(tm, "d/dirA", "d/di", shelltest.Tab)
		listed(tm, tabTab, ".hidden1  dirA      exe1      fifo1     file1     linkdir   linkfile\n")
	})
}

func TestInputrcMatchHiddenFiles(t *testing.T) {
	t.Parallel()
	inBashAndQsh(t, "set match-hidden-files off\n", func(t *testing.T, tm *shelltest.Term) {
		listed(tm, tabTab, "\ndirA/     exe1      fifo1     file1     linkdir/  linkfile  \n")
		completed(tm, "d/.hidden1", "d/.h", shelltest.Tab)
	})
}

func TestInputrcColoredStats(t *testing.T) {
	t.Parallel()
	inBashAndQsh(t, "set colored-stats on\n", func(t *testing.T, tm *shelltest.Term) {
		tm.Type(tabTab...)
		tm.WaitFor("linkfile")
		tm.WaitFor(ps1)
		raw := tm.Raw()
		for _, want := range []string{
			"\x1b[01;34mdirA\x1b[0m\x1b[K/", "\x1b[01;32mexe1\x1b[0m\x1b[K", "\x1b[33mfifo1\x1b[0m\x1b[K",
			"\x1b[01;36mlinkdir\x1b[0m\x1b[K/", "file1\x1b[0m\x1b[K",
		} {
			if !strings.Contains(raw, want) {
				t.Errorf("no %q in the list:\n%q", want, raw[max(0, len(raw)-600):])
			}
		}
	}, shelltest.Env("LS_COLORS="))
	inBashAndQsh(t, "set colored-stats on\n", func(t *testing.T, tm *shelltest.Term) {
		tm.Type(tabTab...)
		tm.WaitFor("linkfile")
		tm.WaitFor(ps1)
		raw := tm.Raw()
		for _, want := range []string{"\x1b[01;31mdirA\x1b[0m\x1b[K/", "\x1b[01;31mlinkdir\x1b[0m\x1b[K/"} {
			if !strings.Contains(raw, want) {
				t.Errorf("no %q in the list:\n%q", want, raw[max(0, len(raw)-600):])
			}
		}
	}, shelltest.Env("LS_COLORS=di=01;31:ln=target"))
}

// NO_COLOR turns colored-stats off (readline itself does not read it).
func TestInputrcColoredStatsNoColor(t *testing.T) {
	t.Parallel()
	home := completionHome(t, "set colored-stats on\nset colored-completion-prefix on\n")
	tm := startShell(t, home, "NO_COLOR=1")
	tm.Type(tabTab...)
	tm.WaitFor("linkfile")
	tm.WaitFor(ps1)
	if raw := tm.Raw(); strings.Contains(raw, "\x1b[01;34mdirA") {
		t.Errorf("coloured with NO_COLOR set:\n%q", raw[max(0, len(raw)-600):])
	}
	tm.Type(shelltest.CtrlU)
	exit(t, tm)
}

func TestInputrcCompletionPrefix(t *testing.T) {
	t.Parallel()
	rTabs := []string{"ls r/rep", shelltest.Tab, shelltest.Tab, shelltest.Tab}
	inBashAndQsh(t, "set colored-completion-prefix on\n", func(t *testing.T, tm *shelltest.Term) {
		tm.Type(rTabs...)
		tm.WaitFor("2025.txt")
		tm.WaitFor(ps1)
		if raw := tm.Raw(); !strings.Contains(raw, "\x1b[01;35mreport-202\x1b[0m\x1b[K5.txt") {
			t.Errorf("prefix not coloured:\n%q", raw[max(0, len(raw)-400):])
		}
	})
	inBashAndQsh(t, "set completion-prefix-display-length 3\n", func(t *testing.T, tm *shelltest.Term) {
		listed(tm, rTabs, "\n...4.txt  ...5.txt  \n")
	})
}

func TestInputrcCompletionMapCase(t *testing.T) {
	t.Parallel()
	inBashAndQsh(t, "set completion-ignore-case on\nset completion-map-case on\n", func(t *testing.T, tm *shelltest.Term) {
		completed(tm, "r/report-2024.txt", "r/REPORT_2024", shelltest.Tab)
	})
}

func TestInputrcQueryItems(t *testing.T) {
	t.Parallel()
	inBashAndQsh(t, "set completion-query-items 5\n", func(t *testing.T, tm *shelltest.Term) {
		tm.Type(tabTab...)
		tm.WaitFor("Display all 7 possibilities? (y or n)")
		tm.Type("n")
		tm.WaitFor(ps1 + "ls d/")
		tm.Type(shelltest.Tab)
		tm.WaitFor("Display all 7 possibilities? (y or n)")
		tm.Type("y")
		tm.WaitFor(".hidden1  dirA/")
		tm.WaitFor(ps1)
		tm.Type(shelltest.CtrlU)
	})
}

func TestInputrcPageCompletions(t *testing.T) {
	t.Parallel()
	inBashAndQsh(t, "", func(t *testing.T, tm *shelltest.Term) {
		tm.Type(tabTab...)
		tm.WaitFor("--More--")
		tm.Type(" ")
		tm.WaitFor("linkfile")
		tm.WaitFor(ps1)
		tm.Type(shelltest.CtrlU, "ls d/", shelltest.Tab, shelltest.Tab)
		tm.WaitFor("--More--")
		tm.Type("q")
		tm.WaitFor(ps1 + "ls d/")
		if out := tm.Output(); strings.Contains(out[strings.LastIndex(out, "--More--"):], "linkfile") {
			t.Errorf("q went on listing:\n%s", shelltest.Tail(out))
		}
		tm.Type(shelltest.CtrlU)
	}, shelltest.Size(5, 20))
	inBashAndQsh(t, "set page-completions off\n", func(t *testing.T, tm *shelltest.Term) {
		listed(tm, tabTab, "linkdir/\nlinkfile\n")
		if strings.Contains(tm.Output(), "--More--") {
			t.Error("--More-- with page-completions off")
		}
	}, shelltest.Size(5, 20))
}

func TestInputrcHorizontal(t *testing.T) {
	t.Parallel()
	inBashAndQsh(t, "set print-completions-horizontally on\n", func(t *testing.T, tm *shelltest.Term) {
		listed(tm, tabTab, ".hidden1  dirA/\nexe1      fifo1\n")
	}, shelltest.Size(24, 30))
	inBashAndQsh(t, "", func(t *testing.T, tm *shelltest.Term) {
		listed(tm, tabTab, ".hidden1  file1\ndirA/     linkdir/\n")
	}, shelltest.Size(24, 30))
}

func TestInputrcSkipCompletedText(t *testing.T) {
	t.Parallel()
	inBashAndQsh(t, "set skip-completed-text on\n", func(t *testing.T, tm *shelltest.Term) {
		completed(tm, "d/fi1", "d/fi1", shelltest.Left, shelltest.Left, shelltest.Tab)
		completed(tm, "d/dirA/A", "d/dA", shelltest.Left, shelltest.Tab)
	})
}

func TestInputrcMenuComplete(t *testing.T) {
	t.Parallel()
	const rc = "\"\\t\": menu-complete\n\"\\e[Z\": menu-complete-backward\n"
	inBashAndQsh(t, rc, func(t *testing.T, tm *shelltest.Term) {
		completed(tm, "d/fifo1", "d/fi", shelltest.Tab)
		completed(tm, "d/file1", "d/fi", shelltest.Tab, shelltest.Tab)
		completed(tm, "d/fi", "d/fi", shelltest.Tab, shelltest.Tab, shelltest.Tab) // back to the word, with the bell
		completed(tm, "d/file1", "d/fi", backTab)
		completed(tm, "d/fifo1", "d/fi", shelltest.Tab, shelltest.Tab, backTab)
		completed(tm, "d/dirA/", "d/d", shelltest.Tab) // one match: completed as Tab does
	})
	inBashAndQsh(t, rc+"set show-all-if-ambiguous on\n", func(t *testing.T, tm *shelltest.Term) {
		tm.Type("ls d/fi", shelltest.Tab)
		tm.WaitFor("\nfifo1  file1  \n")
		tm.WaitFor(ps1)
		tm.Type(shelltest.CtrlU)
	})
}

// osc matches an operating system command, which a BEL may end.
var osc = regexp.MustCompile("\x1b\\][^\a\x1b]*(\a|\x1b\\\\)")

func TestInputrcBellStyle(t *testing.T) {
	t.Parallel()
	inBashAndQsh(t, "set bell-style none\n", func(t *testing.T, tm *shelltest.Term) {
		tm.Type("ls d/zz", shelltest.Tab, shelltest.CtrlU, "echo done-$((6*7))", shelltest.Enter)
		tm.WaitFor("done-42")
		tm.WaitFor(ps1)
		if raw := osc.ReplaceAllString(tm.Raw(), ""); strings.Contains(raw, "\a") {
			t.Errorf("the bell rang with bell-style none:\n%q", raw)
		}
	})
	inBashAndQsh(t, "", func(t *testing.T, tm *shelltest.Term) {
		tm.Type("ls d/zz", shelltest.Tab, shelltest.CtrlU, "echo done-$((6*7))", shelltest.Enter)
		tm.WaitFor("done-42")
		tm.WaitFor(ps1)
		if !strings.Contains(osc.ReplaceAllString(tm.Raw(), ""), "\a") {
			t.Error("no bell for a word that completes to nothing")
		}
	})
}

// Lines people paste into ~/.inputrc: those qsh follows, or that ask for
// what it does anyway, pass without a word; each it cannot follow is
// refused with a line saying why, once, at start-up.
func TestInputrcRefusedOnce(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "common"), []byte("set completion-ignore-case on\n"), 0o644)
	rc := strings.Join([]string{
		"$include " + filepath.Join(home, "common"),
		"set bell-style visible", "set bell-style none", "set enable-bracketed-paste on",
		"set convert-meta off", "set input-meta on", "set output-meta on", "set horizontal-scroll-mode off",
		"set show-mode-in-prompt off", "set colored-stats on", "set visible-stats on", "set mark-symlinked-directories on",
		"$if Bash", `"\C-xq": "echo from-if-bash"`, "$endif",
		"$if mode=vi", `"\C-xv": "echo from-if-vi"`, "$endif",
		"set show-mode-in-prompt on",
		"set keymap vi-insert", `"\C-l": clear-screen`, "set keymap emacs",
	}, "\n") + "\n"
	os.WriteFile(filepath.Join(home, ".inputrc"), []byte(rc), 0o644)
	tm := shelltest.Start(t, qshBinary(t), shelltest.Env("HOME="+home, "XDG_STATE_HOME="+home+"/state", "PS1="+ps1), shelltest.Dir(home))
	out := tm.WaitFor(ps1)
	for _, want := range []string{
		"line 19: show-mode-in-prompt on: qsh's line editor cannot do this: the prompt does not show the editing mode",
		`line 21: "\C-l": qsh's vi mode has its keys fixed and does not read the vi keymaps`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q at start-up:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "qsh: "); n != 2 {
		t.Errorf("%d lines at start-up, want 2:\n%s", n, out)
	}
	if out := enter(tm, "bind 'set show-mode-in-prompt on'; bind -v | grep -E 'ignore-case|bell-style|show-mode'"); strings.Contains(out, "cannot do this") ||
		!strings.Contains(out, "set completion-ignore-case on") || !strings.Contains(out, "set bell-style none") {
		t.Errorf("bind after start-up:\n%s", out)
	}
	if out := enter(tm, "bind -s"); !strings.Contains(out, "from-if-bash") || strings.Contains(out, "from-if-vi") {
		t.Errorf("bind -s: want $if Bash's binding and not $if mode=vi's:\n%s", out)
	}
	exit(t, tm)
}

func TestInputrcMoreVariables(t *testing.T) {
	t.Parallel()
	inBashAndQsh(t, "set show-all-if-unmodified on\n", func(t *testing.T, tm *shelltest.Term) {
		listed(tm, []string{"ls d/fi", shelltest.Tab}, "\nfifo1  file1  \n")
		tm.Type("ls r/rep", shelltest.Tab, shelltest.CtrlU, "echo done-$((6*7))", shelltest.Enter)
		tm.WaitFor("done-42")
		if strings.Contains(tm.Output(), "report-2024.txt  report-2025.txt") {
			t.Error("listed with text to put in")
		}
		tm.WaitFor(ps1)
	})
	inBashAndQsh(t, "set completion-display-width 0\n", func(t *testing.T, tm *shelltest.Term) {
		listed(tm, []string{"ls d/fi", shelltest.Tab, shelltest.Tab}, "\nfifo1\nfile1\n")
	})
	inBashAndQsh(t, "set disable-completion on\n", func(t *testing.T, tm *shelltest.Term) {
		completed(tm, "d/fi>\n<x", "d/fi", shelltest.Tab, "x")
	})
}
