package shell

import "testing"

func TestRecall(t *testing.T) {
	type step struct {
		line string // on screen before the key
		dir  int
		want string
		ok   bool
	}
	for _, tc := range []struct {
		name    string
		entries []string
		steps   []step
	}{
		{"empty history", nil, []step{{"", -1, "", false}, {"", 1, "", false}}},
		{"up to the oldest and no further", []string{"a", "b"}, []step{
			{"", -1, "b", true}, {"b", -1, "a", true}, {"a", -1, "", false}}},
		{"down past the newest is the new line", []string{"a", "b"}, []step{
			{"typed", -1, "b", true}, {"b", 1, "typed", true}, {"typed", 1, "", false}}},
		{"edits are kept while moving", []string{"a", "b", "c"}, []step{
			{"", -1, "c", true}, {"c", -1, "b", true}, {"b edited", -1, "a", true},
			{"a", 1, "b edited", true}, {"b edited", 1, "c", true}, {"c", 1, "", true}}},
		{"an edit undone is the entry again", []string{"a", "b"}, []step{
			{"", -1, "b", true}, {"bx", -1, "a", true}, {"a", 1, "bx", true}, {"b", -1, "a", true}, {"a", 1, "b", true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r recall
			for _, e := range tc.entries {
				r.add(e)
			}
			r.reset()
			for i, s := range tc.steps {
				got, ok := r.move(s.line, s.dir)
				if got != s.want || ok != s.ok {
					t.Fatalf("step %d: move(%q, %d) = %q, %v; want %q, %v", i, s.line, s.dir, got, ok, s.want, s.ok)
				}
			}
		})
	}
}

// TestRecallAddWhileNew: entries that arrive while the new line is shown
// (the history file's, read in the background) come before it.
func TestRecallAddWhileNew(t *testing.T) {
	var r recall
	r.reset()
	r.add("old")
	r.add("older? no: newer")
	if got, _ := r.move("", -1); got != "older? no: newer" {
		t.Fatalf("Up shows %q", got)
	}
	r.reset()
	r.move("", -1) // looking at the last entry
	r.add("added")
	if got, _ := r.move("older? no: newer", 1); got != "added" {
		t.Fatalf("Down shows %q, want the entry added after", got)
	}
}

func TestRecallFound(t *testing.T) {
	var r recall
	for _, e := range []string{"make", "ls", "make", "git st"} {
		r.add(e)
	}
	r.reset()
	r.found("make") // Ctrl-R found the later make
	if got, _ := r.move("make", -1); got != "ls" {
		t.Fatalf("Up after the search shows %q, want ls", got)
	}
	r.reset()
	r.found("not an entry")
	if got, _ := r.move("not an entry", -1); got != "git st" {
		t.Fatalf("Up after a search that matched nothing shows %q", got)
	}
	r.clear()
	if _, ok := r.move("", -1); ok {
		t.Fatal("Up after clear moved")
	}
}
