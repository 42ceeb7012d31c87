package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/internal/needs"
	"github.com/qsh-shell/qsh/shell/shelltest"
)

// The hooks people's tools install in an interactive bash, through the
// binary on a pty, with the tools themselves where they are installed
// (test.sh installs them).

// startRC starts an interactive qsh in dir whose ~/.qshrc is rc, with
// PS1 unset, and returns it once it printed first.
func startRC(t *testing.T, home, dir, rc string, env ...string) *shelltest.Term {
	t.Helper()
	if err := os.WriteFile(filepath.Join(home, ".qshrc"), []byte(rc), 0o644); err != nil {
		t.Fatal(err)
	}
	env = append([]string{"HOME=" + home, "XDG_STATE_HOME=" + home + "/state", "PS1=", "TERM=xterm"}, env...)
	return shelltest.Start(t, qshBinary(t), shelltest.Env(env...), shelltest.Dir(dir))
}

// programs needs each of the programs a test drives.
func programs(t *testing.T, names ...string) {
	t.Helper()
	for _, p := range names {
		needs.Tool(t, p)
	}
}

func TestHooksPromptCommandAndPS1(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	tm := startRC(t, home, home, `PROMPT_COMMAND='echo "pc:$?"; false'
PS1='[$?|$(echo sub)|\w] P> '
`)
	tm.WaitFor("pc:0")
	tm.WaitFor("[0|sub|~] P> ")
	tm.Line("(exit 3)")
	// $? is the line's status in PROMPT_COMMAND and again in PS1, whatever
	// PROMPT_COMMAND left.
	tm.WaitFor("pc:3")
	tm.WaitFor("[3|sub|~] P> ")
	// The array form runs each element; PS0 comes before the line runs.
	tm.Line(`PROMPT_COMMAND=('echo "one:$?"' 'echo two'); PS0='ps0:$?\n'`)
	tm.WaitFor("one:0\ntwo\n")
	tm.WaitFor("P> ")
	tm.Line("echo run")
	tm.WaitFor("ps0:0\nrun\none:0")
	tm.WaitFor("P> ")
	// COLUMNS and LINES follow the terminal, as bash's checkwinsize.
	tm.Line(`echo "size=${COLUMNS}x$LINES"`)
	tm.WaitFor("size=80x24")
	tm.WaitFor("P> ")
	tm.Resize(30, 100)
	// The capture proxy passes the new size on when its SIGWINCH comes:
	// ask until the shell has it.
	for i := 0; ; i++ {
		tm.Line(`echo "size=${COLUMNS}x$LINES"`)
		if out := tm.WaitFor("P> "); strings.Contains(out, "size=100x30") {
			break
		} else if i == 50 {
			t.Fatalf("COLUMNS and LINES never followed the terminal:\n%s", out)
		}
	}
	// A failing hook is reported and the shell goes on.
	tm.Line("unset PROMPT_COMMAND; PROMPT_COMMAND='nosuchcommand-qsh'; PS1='$(nosuchcommand-qsh2) P2> '")
	tm.WaitFor("nosuchcommand-qsh: command not found")
	tm.WaitFor("P2> ")
	tm.Line("echo sti''ll") // the output, not the line's echo
	tm.WaitFor("still")
	tm.WaitFor("P2> ")
	tm.Type(shelltest.CtrlD)
	tm.WaitExit()
}

// TestHooksGitPrompt: git's own prompt script, in PS1 as its manual says
// and in PROMPT_COMMAND's mode, shows the branch as in bash.
func TestHooksGitPrompt(t *testing.T) {
	t.Parallel()
	programs(t, "git")
	const script = "/usr/lib/git-core/git-sh-prompt"
	needs.File(t, script, "git")
	home := t.TempDir()
	repo := filepath.Join(home, "repo")
	os.Mkdir(repo, 0o755)
	init := exec.Command("git", "init", "-q", "-b", "topic-1", repo)
	if out, err := init.CombinedOutput(); err != nil {
		needs.Missing(t, "git init: %v: %s", err, out)
	}
	tm := startRC(t, home, repo, ". "+script+"\nPS1='[$(__git_ps1 \"%s\")] \\$ P> '\n")
	tm.WaitFor("[topic-1] ")
	tm.WaitFor("P> ")
	tm.Line("cd ..")
	tm.WaitFor("[] ")
	tm.Line(`GIT_PS1_SHOWDIRTYSTATE=1; PROMPT_COMMAND='__git_ps1 "\w" " P3> "'; cd repo`)
	tm.WaitFor("~/repo (topic-1 #) P3> ") // # : no commit yet
	tm.Type(shelltest.CtrlD)
	tm.WaitExit()
}

// TestHooksDirenvZoxide: the lines direnv's and zoxide's READMEs give for
// ~/.bashrc: cd into a directory with an allowed .envrc sets its
// variables, and leaving unsets them; z jumps to a directory visited
// before.
func TestHooksDirenvZoxide(t *testing.T) {
	t.Parallel()
	programs(t, "direnv", "zoxide")
	home := t.TempDir()
	env := []string{"XDG_DATA_HOME=" + home + "/data", "XDG_CONFIG_HOME=" + home + "/config", "XDG_CACHE_HOME=" + home + "/cache",
		"_ZO_DATA_DIR=" + home + "/zoxide", "PATH=" + os.Getenv("PATH")}
	project := filepath.Join(home, "src", "project-x")
	os.MkdirAll(project, 0o755)
	os.WriteFile(filepath.Join(project, ".envrc"), []byte("export QSH_ENVRC=loaded\n"), 0o644)
	allow := exec.Command("direnv", "allow", project)
	allow.Env = append([]string{"HOME=" + home}, env...)
	if out, err := allow.CombinedOutput(); err != nil {
		t.Fatalf("direnv allow: %v: %s", err, out)
	}
	tm := startRC(t, home, home, `eval "$(direnv hook bash)"
eval "$(zoxide init bash)"
PS1='\w P> '
`, env...)
	tm.WaitFor("~ P> ")
	tm.Line("cd src/project-x")
	tm.WaitFor("~/src/project-x P> ")
	tm.Line(`echo "envrc=$QSH_ENVRC"`)
	tm.WaitFor("envrc=loaded")
	tm.Line("cd /")
	tm.WaitFor("/ P> ")
	tm.Line(`echo "envrc=[$QSH_ENVRC]"`)
	tm.WaitFor("envrc=[]")
	tm.Line("z project")
	tm.WaitFor("~/src/project-x P> ")
	tm.Line("pwd")
	tm.WaitFor(project)
	tm.WaitFor("P> ") // a Ctrl-D typed ahead, in the terminal's cooked mode, would be lost
	tm.Type(shelltest.CtrlD)
	tm.WaitExit()
}

// TestHooksFzfKeyBindings: fzf's own key-bindings.bash, sourced as its
// README says: Ctrl-T opens fzf and the file chosen lands on the line at
// the cursor, Ctrl-R puts the command chosen from history on the line,
// Alt-C changes to the directory chosen and gives the line back.
func TestHooksFzfKeyBindings(t *testing.T) {
	t.Parallel()
	programs(t, "fzf", "perl")
	const script = "/usr/share/doc/fzf/examples/key-bindings.bash"
	needs.File(t, script, "fzf")
	home := t.TempDir()
	work := filepath.Join(home, "work")
	os.MkdirAll(filepath.Join(work, "zebra-dir"), 0o755)
	os.WriteFile(filepath.Join(work, "alpha.txt"), nil, 0o644)
	os.WriteFile(filepath.Join(work, "zebra-dir", "quokka.go"), nil, 0o644)
	tm := startRC(t, home, work, ". "+script+"\nPS1='\\w F> '\n", "PATH="+os.Getenv("PATH"))
	tm.WaitFor("~/work F> ")

	// Ctrl-T in the middle of a line: the choice goes in at the cursor.
	tm.Type("echo [] end", shelltest.CtrlA, strings.Repeat("\x06", len("echo ["))) // Ctrl-F
	tm.Type("\x14")
	tm.WaitFor("3/3") // fzf lists zebra-dir, its file and alpha.txt
	tm.Type("quo")
	tm.WaitFor("1/3")
	tm.Type(shelltest.Enter)
	tm.WaitFor("echo [zebra-dir/quokka.go ] end")
	tm.Type(shelltest.Enter)
	tm.WaitFor("[zebra-dir/quokka.go ] end\n")
	tm.WaitFor("F> ")

	// Ctrl-R: history through fc -lnr and fzf.
	tm.Line("echo second-command")
	tm.WaitFor("F> ")
	tm.Type(shelltest.CtrlR)
	tm.WaitMatch(`[0-9]+/[0-9]+`)
	tm.Type("second")
	tm.WaitFor("1/")
	tm.Type(shelltest.Enter)
	tm.WaitFor("F> echo second-command")
	tm.Type(shelltest.CtrlU)

	// Alt-C: a macro that types `__fzf_cd__`, expands it, accepts the
	// line, and yanks the old text back.
	tm.Type("kept text", "\x1bc")
	tm.WaitFor("1/1") // directories only
	tm.Type("zeb")
	tm.WaitFor("1/1")
	tm.Type(shelltest.Enter)
	tm.WaitFor("~/work/zebra-dir F> kept text")
	tm.Type(shelltest.CtrlU)
	tm.Line("pwd")
	tm.WaitFor(filepath.Join(work, "zebra-dir"))
	tm.WaitFor("F> ")
	tm.Type(shelltest.CtrlD)
	tm.WaitExit()
}

// TestHooksPreexec: what bash-preexec (under starship and atuin) relies
// on — a DEBUG trap that runs once before the typed line, with `history
// 1` giving the line and $BASH_COMMAND the command, on the terminal;
// PROMPT_COMMAND as an array; $? kept across the trap — written here as
// a small rc of the same conventions.
func TestHooksPreexec(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	tm := startRC(t, home, home, `__t_mode=
__t_debug() {
	[[ -n $__t_mode ]] || return
	__t_mode=
	[[ -t 1 ]] || return
	echo "PRE[$(HISTTIMEFORMAT= builtin history 1 | sed '1 s/^ *[0-9][0-9]*[* ] //')|$BASH_COMMAND]"
}
trap '__t_debug "$_"' DEBUG
PROMPT_COMMAND=('echo "POST[$?]"' '__t_mode=on')
[[ $(trap -p DEBUG) == "trap -- '__t_debug \"\$_\"' DEBUG" ]] && echo trap-p-ok
PS1='D> '
`, "PATH="+os.Getenv("PATH"))
	tm.WaitFor("trap-p-ok")
	tm.WaitFor("D> ")
	tm.Line("echo one; echo two")
	tm.WaitFor("PRE[echo one; echo two|echo one]\none\ntwo\nPOST[0]")
	tm.WaitFor("D> ")
	tm.Line("g() { echo in-g $?; }; (exit 3); g")
	// No trap for the function's definition, nor in the subshell.
	tm.WaitFor("PRE[g() { echo in-g $?; }; (exit 3); g|g]\nin-g 3\nPOST[0]")
	tm.WaitFor("D> ")
	tm.Line("false")
	tm.WaitFor("POST[1]")
	tm.WaitFor("D> ")
	// $BASH_COMMAND is the command as written; the trap runs before the
	// command's redirections, as bash's.
	tm.Line(`echo "$HOME" > /dev/null`)
	tm.WaitFor(`PRE[echo "$HOME" > /dev/null|echo "$HOME" > /dev/null]`) // BASH_COMMAND as bash prints it
	tm.WaitFor("D> ")
	// A background statement's trap runs in the shell, before it starts.
	tm.Line("sleep 0 &")
	tm.WaitFor("PRE[sleep 0 &|sleep 0]")
	tm.WaitFor("D> ")
	tm.Type(shelltest.CtrlD)
	tm.WaitExit()
}

// TestHooksOneRC is issue 14's case: one ~/.qshrc with the lines direnv,
// zoxide, fzf and git's prompt ask for, all at once.
func TestHooksOneRC(t *testing.T) {
	t.Parallel()
	programs(t, "direnv", "zoxide", "fzf", "git", "perl")
	for _, f := range []string{"/usr/share/doc/fzf/examples/key-bindings.bash", "/usr/lib/git-core/git-sh-prompt"} {
		needs.File(t, f, "fzf or git")
	}
	home := t.TempDir()
	env := []string{"XDG_DATA_HOME=" + home + "/data", "XDG_CONFIG_HOME=" + home + "/config",
		"XDG_CACHE_HOME=" + home + "/cache", "_ZO_DATA_DIR=" + home + "/zoxide", "PATH=" + os.Getenv("PATH")}
	repo := filepath.Join(home, "code", "webapp")
	os.MkdirAll(repo, 0o755)
	if out, err := exec.Command("git", "init", "-q", "-b", "feature-x", repo).CombinedOutput(); err != nil {
		needs.Missing(t, "git init: %v: %s", err, out)
	}
	os.WriteFile(filepath.Join(repo, ".envrc"), []byte("export WEBAPP_ENV=dev\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "main.go"), nil, 0o644)
	allow := exec.Command("direnv", "allow", repo)
	allow.Env = append([]string{"HOME=" + home}, env...)
	if out, err := allow.CombinedOutput(); err != nil {
		t.Fatalf("direnv allow: %v: %s", err, out)
	}
	tm := startRC(t, home, home, `eval "$(direnv hook bash)"
eval "$(zoxide init bash)"
. /usr/share/doc/fzf/examples/key-bindings.bash
. /usr/lib/git-core/git-sh-prompt
PS1='[$(__git_ps1 "%s")] \$ '
`, env...)
	tm.WaitFor("[] ")
	tm.Line("cd code/webapp")
	tm.WaitFor("[feature-x] ")
	tm.Line(`echo "env=$WEBAPP_ENV"`)
	tm.WaitFor("env=dev")
	tm.WaitFor("[feature-x] ")
	tm.Line("cd /")
	tm.WaitFor("[] ")
	tm.Line("z webapp")
	tm.WaitFor("[feature-x] ")
	tm.Type("ls ", "\x14") // Ctrl-T
	tm.WaitMatch(`[0-9]+/[0-9]+`)
	tm.Type("main")
	tm.WaitFor("1/")
	tm.Type(shelltest.Enter)
	tm.WaitFor("ls main.go ")
	tm.Type(shelltest.Enter)
	tm.WaitFor("main.go\n")
	tm.WaitFor("[feature-x] ")
	tm.Type(shelltest.CtrlD)
	tm.WaitExit()
}

// TestHooksLiquidpromptAutojump: two whole frameworks from Debian's
// packages in the rc file, as their READMEs say. liquidprompt (3,700
// lines of bash: local -i, ${!a[@]} of arrays that may be unset,
// PROMPT_COMMAND) draws its prompt with no error; autojump's prompt hook,
// `(autojump --add "$(pwd)" &)`, learns each directory without a job
// notice, and j jumps.
func TestHooksLiquidpromptAutojump(t *testing.T) {
	t.Parallel()
	programs(t, "autojump")
	const lp, aj = "/usr/share/liquidprompt/liquidprompt", "/usr/share/autojump/autojump.bash"
	for _, f := range []string{lp, aj} {
		needs.File(t, f, "liquidprompt or autojump")
	}
	home := t.TempDir()
	target := filepath.Join(home, "src", "deep-target")
	os.MkdirAll(target, 0o755)
	tm := startRC(t, home, home, "[[ $- = *i* ]] && source "+lp+"\n. "+aj+"\n",
		"PATH="+os.Getenv("PATH"), "XDG_DATA_HOME="+home+"/data")
	first := tm.WaitFor(":~]")
	if strings.Contains(first, "invalid") || strings.Contains(first, "qsh:") {
		t.Errorf("sourcing liquidprompt printed errors:\n%s", shelltest.Tail(first))
	}
	tm.Mark()
	// Each prompt's `autojump --add` loads the whole database and saves it
	// back, so two running at once lose one's entry (in bash too): the
	// first prompt's add (of ~, saved as an empty file) must be done before
	// the next prompt's starts, and that one before the third's.
	db := `"$XDG_DATA_HOME/autojump.txt"`
	tm.Line(`until [ -e ` + db + ` ]; do sleep 0.05; done; cd src/deep-target`)
	tm.WaitFor(":~/src/deep-target]")
	tm.Line(`until grep -qs deep-target ` + db + `; do sleep 0.05; done; cd /`)
	tm.WaitFor(":/]")
	tm.Line("j deep")
	tm.WaitFor(":~/src/deep-target]")
	tm.Line("pwd")
	tm.WaitFor(target)
	if out := tm.Output(); strings.Contains(out, "Done") || strings.Contains(out, "[1]") {
		t.Errorf("autojump's hook printed job notices:\n%s", shelltest.Tail(out))
	}
	tm.Line("exit")
	tm.WaitExit()
}
