package main

// End-to-end tests of the answers at a confirmation beyond y and n — A
// (always, in this project), e (the user takes the command over) — of
// what the line says a command would change, and of the read-only
// diagnosis of a bare `?`; through the real binaries and the scripted
// fake model.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
	"github.com/qsh-shell/qsh/shell/shelltest"
)

// TestApprovalsAlwaysInProject: A on `go vet ./...` saves a rule; a new
// session in the same project (a subdirectory of its git work tree) runs
// it without asking; `? /permissions` lists it; once revoked, the next
// session asks again.
func TestApprovalsAlwaysInProject(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.22\n",
		"main.go":    "package main\n\nfunc main() {}\n",
		"sub/sub.go": "package sub\n",
	})
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	srv := aitest.NewOpenAI(t,
		execCall("go vet ./..."), aitest.Say("Vetted once.", 2),
		execCall("go vet ./..."), aitest.Say("Vetted twice.", 2),
		execCall("go vet ./..."), aitest.Say("Not vetted.", 2))
	env := aiEnv(t, srv, goEnv()...)
	rules := filepath.Join(lookupEnv(env, "XDG_CONFIG_HOME"), "qsh", "permissions")

	tm := startIn(t, dir, env)
	tm.SetTimeout(30 * time.Second) // go vet on two busy cores
	tm.Line("? vet the code")
	tm.WaitFor("⚠ dev  go vet ./...")
	tm.WaitFor("run? [y/n/a/A/e] ")
	tm.Type("A")
	tm.WaitFor("A: always in ")
	if out := tm.WaitFor(ps1); !strings.Contains(out, "Vetted once.") {
		t.Errorf("screen:\n%s", out)
	}
	b, err := os.ReadFile(rules)
	if err != nil || !strings.Contains(string(b), `kind=run command="go vet" class=dev`) || !strings.Contains(string(b), `from="vet the code"`) {
		t.Fatalf("the rules file (%v):\n%s", err, b)
	}
	tm.Type(shelltest.CtrlD)
	tm.WaitExit()

	// A new session, in a subdirectory of the project.
	tm = startIn(t, filepath.Join(dir, "sub"), env)
	tm.SetTimeout(30 * time.Second)
	tm.Line("? vet it again")
	out := tm.WaitFor(ps1)
	if !strings.Contains(out, "Vetted twice.") || strings.Contains(out, "run? [") {
		t.Errorf("the saved rule did not cover the call:\n%s", out)
	}
	wantResults(t, srv, "[exit status 0]")
	tm.Line("? /permissions")
	out = tm.WaitFor(ps1)
	if !strings.Contains(out, "  1  run `go vet …` (up to dev)") || !strings.Contains(out, `from "vet the code"`) {
		t.Errorf("? /permissions:\n%s", out)
	}
	tm.Line("? /permissions revoke 1")
	if out = tm.WaitFor(ps1); !strings.Contains(out, "revoked: run `go vet …`") {
		t.Errorf("revoke:\n%s", out)
	}
	tm.Type(shelltest.CtrlD)
	tm.WaitExit()

	// Revoked: the next session asks.
	tm = startIn(t, dir, env)
	tm.Line("? and once more")
	tm.WaitFor("⚠ dev  go vet ./...")
	tm.WaitFor("run? [y/n/a/A/e] ")
	tm.Type("n")
	if out := tm.WaitFor(ps1); !strings.Contains(out, "Not vetted.") {
		t.Errorf("screen:\n%s", out)
	}
	if n := len(srv.Requests()); n != 6 {
		t.Errorf("%d requests, want 6 (the /permissions lines send none)", n)
	}
}

// TestApprovalsDiagnosisReadOnly: a bare `?` never runs a dev command,
// even in yolo mode where dev commands run unasked; a safe one runs.
func TestApprovalsDiagnosisReadOnly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"Makefile": makefile})
	srv := aitest.NewOpenAI(t,
		execCall("ls Makefile"),
		execCall("make -s hello"),
		aitest.Say("The last command failed on purpose; run `make -s hello` to build.", 2))
	tm := startIn(t, dir, aiEnv(t, srv, "QSH_AI_TOOLS_CONFIRM=yolo"))
	tm.Line("false")
	tm.WaitFor(ps1)
	tm.Line("?")
	out := tm.WaitFor(ps1)
	if !strings.Contains(out, "failed on purpose") || strings.Contains(out, "run? [") {
		t.Errorf("screen:\n%s", out)
	}
	wantResults(t, srv, "Makefile", "only diagnoses")
	if exists(filepath.Join(dir, "ran.log")) {
		t.Error("a bare ? ran make")
	}
	if s := string(srv.Requests()[0].Raw); !strings.Contains(s, "This question is a diagnosis") {
		t.Error("the system prompt does not say the turn is read-only")
	}
}

// TestApprovalsEditTakesOver: e puts the proposed command on the prompt
// line; the user appends to it and runs it as their own: the file exists,
// Up recalls the line as run, and the next question sees it in the
// record, with the model told the user took the command over.
func TestApprovalsEditTakesOver(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := aitest.NewOpenAI(t, execCall("touch made-by-edit.txt"), aitest.Say("I see you ran it.", 2))
	tm := startIn(t, dir, aiEnv(t, srv))
	tm.Line("? make the file")
	tm.WaitFor("⚠ dev  touch made-by-edit.txt")
	tm.WaitFor("run? [y/n/a/A/e] ")
	tm.Type("e")
	tm.WaitFor(ps1 + "touch made-by-edit.txt")
	if exists(filepath.Join(dir, "made-by-edit.txt")) {
		t.Fatal("the command ran before the user ran it")
	}
	tm.Line(" && echo appended-by-user")
	tm.WaitFor("appended-by-user\n")
	tm.WaitFor(ps1)
	if !exists(filepath.Join(dir, "made-by-edit.txt")) {
		t.Error("the user's line did not run")
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("the turn went on after e: %d requests", n)
	}
	tm.Type(shelltest.Up)
	tm.WaitFor("touch made-by-edit.txt && echo appended-by-user")
	tm.Type(shelltest.CtrlU)
	tm.Line("? what did I run")
	tm.WaitFor("I see you ran it.")
	tm.WaitFor(ps1)
	s := string(srv.Requests()[1].Raw)
	for _, want := range []string{`$ touch made-by-edit.txt \u0026\u0026 echo appended-by-user` /* JSON */, "the user took the command over"} {
		if !strings.Contains(s, want) {
			t.Errorf("the next question lacks %q:\n%s", want, s)
		}
	}
}

// TestApprovalsShowEffect: the confirmation of `rm -r build` says what it
// deletes, counted from the file system before anyone answers; a
// variable of the session names the directory.
func TestApprovalsShowEffect(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"build/a.o": "aaaa", "build/b.o": "bbbb", "build/c.o": "cccc"})
	srv := aitest.NewOpenAI(t, execCall("rm -r build"), execCall(`rm -r "$OUT"`), aitest.Say("Kept.", 2))
	tm := startIn(t, dir, aiEnv(t, srv))
	tm.Line("OUT=build")
	tm.WaitFor(ps1)
	tm.Line("? clean the build")
	out := tm.WaitFor("run? [")
	if !strings.Contains(out, "→ deletes 3 files, 12 B in build/") {
		t.Errorf("the confirmation:\n%s", out)
	}
	tm.Type("n")
	out = tm.WaitFor("run? [")
	if !strings.Contains(out, "→ deletes 3 files, 12 B in build/") {
		t.Errorf("the confirmation of rm -r \"$OUT\":\n%s", out)
	}
	tm.Type("n")
	tm.WaitFor("Kept.")
	if !exists(filepath.Join(dir, "build", "a.o")) {
		t.Error("build was deleted")
	}
}

// TestApprovalsEditWrite: e at a file write opens the proposed content in
// $EDITOR on the terminal (here a script that adds a line, as a person
// would) and writes what was saved.
func TestApprovalsEditWrite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	editor := filepath.Join(t.TempDir(), "editor")
	writeFiles(t, filepath.Dir(editor), map[string]string{"editor": "#!/bin/sh\necho 'and a line of mine' >> \"$1\"\necho editor-ran-on-the-terminal >/dev/tty\n"})
	os.Chmod(editor, 0o755)
	srv := aitest.NewOpenAI(t, call("filesystem", map[string]any{"operation": "write", "path": "notes.txt", "content": "proposed\n"}), aitest.Say("Saved.", 2))
	tm := startIn(t, dir, aiEnv(t, srv, "EDITOR="+editor))
	tm.Line("? write my notes")
	tm.WaitFor("write? [y/n/a/A/e] ")
	tm.Type("e")
	tm.WaitFor("editor-ran-on-the-terminal")
	tm.WaitFor("Saved.")
	tm.WaitFor(ps1)
	if b, _ := os.ReadFile(filepath.Join(dir, "notes.txt")); string(b) != "proposed\nand a line of mine\n" {
		t.Errorf("notes.txt is %q", b)
	}
	wantResults(t, srv, "The user edited your content")
}

// TestApprovalsUnknownKey: a key that is not an answer (here an arrow,
// whose bytes must not reach the next question: "[A" would be A, always)
// asks again with the keys that are; a second one is no, never yes;
// Ctrl-D is no.
func TestApprovalsUnknownKey(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := aitest.NewOpenAI(t, execCall("touch typo.txt"), execCall("touch ctrl-d.txt"), aitest.Say("Neither made.", 1))
	tm := startIn(t, dir, aiEnv(t, srv))
	tm.Line("? make them")
	tm.WaitFor("run? [y/n/a/A/e] ")
	tm.Mark()
	tm.Type(shelltest.Up)
	out := tm.WaitFor("run? [y/n/a/A/e] ")
	if !strings.Contains(out, "that key is not an answer") || !strings.Contains(out, "y run · n don't") || !strings.Contains(out, "Ctrl-D") {
		t.Errorf("no hint after an unknown key:\n%s", out)
	}
	tm.Type("j")
	tm.WaitFor("touch ctrl-d.txt")
	tm.WaitFor("run? [y/n/a/A/e] ")
	tm.Type(shelltest.CtrlD)
	tm.WaitFor("Neither made.")
	tm.WaitFor(ps1)
	wantResults(t, srv, "the user declined: touch typo.txt", "the user declined: touch ctrl-d.txt")
	for _, f := range []string{"typo.txt", "ctrl-d.txt"} {
		if exists(filepath.Join(dir, f)) {
			t.Errorf("%s was made without a yes", f)
		}
	}
}

// TestApprovalsStdinNotTerminal: with stdin not a terminal, nobody is
// asked, nothing runs, and the user sees why as well as the model.
func TestApprovalsStdinNotTerminal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := aitest.NewOpenAI(t, execCall("touch piped.txt"), aitest.Say("Run it yourself.", 1))
	tm := startIn(t, dir, append(aiEnv(t, srv), "QSH="+qshBinary(t)))
	tm.Mark()
	tm.Line(`OPENAI_API_KEY=sk-e2e-test-key-000 "$QSH" -c '? make it' </dev/null`)
	if out := tm.WaitFor(ps1); !strings.Contains(out, "no terminal to ask on") || !strings.Contains(out, "Run it yourself.") {
		t.Errorf("the user is not told why nothing ran:\n%s", out)
	}
	wantResults(t, srv, "there is no terminal to ask on")
	if exists(filepath.Join(dir, "piped.txt")) {
		t.Error("piped.txt was made with nobody to ask")
	}
}

// TestApprovalsPreviewNames: the confirmation says when the command's name
// is the user's alias (with what it stands for, and what that would
// change) or function, as the command runs in the user's shell; an alias
// of several commands runs as it does at the prompt.
func TestApprovalsPreviewNames(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"build/a.o": "aaaa", "build/b.o": "bbbb", "build/c.o": "cccc"})
	srv := aitest.NewOpenAI(t, execCall("cleanb"), execCall("deploy prod"), execCall("both"), aitest.Say("Done.", 1))
	tm := startIn(t, dir, aiEnv(t, srv))
	enter(tm, "alias cleanb='rm -r build'")
	enter(tm, `deploy() { echo "deployed $1"; }`)
	enter(tm, "alias both='echo first-$((1)); echo second-$((2))'")
	tm.Line("? tidy up and ship")
	if out := tm.WaitFor("run? ["); !strings.Contains(out, "→ runs your alias cleanb (rm -r build); deletes 3 files, 12 B in build/") {
		t.Errorf("the confirmation of the alias:\n%s", out)
	}
	tm.Type("n")
	if out := tm.WaitFor("run? ["); !strings.Contains(out, "→ runs your function deploy") {
		t.Errorf("the confirmation of the function:\n%s", out)
	}
	tm.Type("n")
	if out := tm.WaitFor("run? ["); !strings.Contains(out, "→ runs your alias both (echo first-$((1)); echo second-$((2)))") {
		t.Errorf("the confirmation of the alias of two commands:\n%s", out)
	}
	tm.Type("y")
	tm.WaitFor("Done.")
	tm.WaitFor(ps1)
	wantResults(t, srv, "the user declined: cleanb", "the user declined: deploy prod", "first-1\nsecond-2")
	if !exists(filepath.Join(dir, "build", "a.o")) {
		t.Error("build was deleted")
	}
}

// TestApprovalsTypeAhead: a y pressed twice answers the question shown,
// not the next one, which nobody has read yet.
func TestApprovalsTypeAhead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := aitest.NewOpenAI(t, execCall("touch first.txt"), execCall("touch second.txt"), aitest.Say("Asked twice.", 1))
	tm := startIn(t, dir, aiEnv(t, srv))
	tm.Line("? make two files")
	tm.WaitFor("touch first.txt")
	tm.WaitFor("run? [y/n/a/A/e] ")
	tm.Type("yy")
	tm.WaitFor("touch second.txt")
	tm.WaitFor("run? [y/n/a/A/e] ")
	tm.Type("n")
	tm.WaitFor("Asked twice.")
	tm.WaitFor(ps1)
	if !exists(filepath.Join(dir, "first.txt")) || exists(filepath.Join(dir, "second.txt")) {
		t.Errorf("first.txt %v, second.txt %v: want only the first", exists(filepath.Join(dir, "first.txt")), exists(filepath.Join(dir, "second.txt")))
	}
}
