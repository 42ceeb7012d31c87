package danger

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// TestHeldOut reports how the classifier does on testdata/heldout.tsv:
// dangerous and blocked commands written as an attacker would, before the
// second round's rules, and never tuned on. A miss is a command judged
// milder than its label; one let through is judged safe or dev. It logs
// (go test -v -run HeldOut) and fails only if a blocked command is let
// through, which the bar forbids outright.
func TestHeldOut(t *testing.T) {
	// Each set's first line records its one measurement before anyone
	// tuned on it; heldout7's five lines read otherwise are explained in
	// docs/danger-classes-notes.md, heldout9's three, heldout10's two and
	// heldout11's two corrected labels in their own reason column.
	for _, name := range []string{"heldout.tsv", "heldout2.tsv", "heldout3.tsv", "heldout4.tsv", "heldout5.tsv",
		"heldout6.tsv", "heldout7.tsv", "heldout8.tsv", "heldout9.tsv", "heldout10.tsv", "heldout11.tsv", "heldout12.tsv", "heldout13.tsv",
		"heldout14.tsv", "heldout15.tsv", "heldout16.tsv", "heldout17.tsv", "heldout18.tsv", "heldout19.tsv"} {
		t.Run(name, func(t *testing.T) { heldOut(t, "testdata/"+name) })
	}
}

func heldOut(t *testing.T, file string) {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	total, milder, through := 0, 0, 0
	// The everyday look-alikes some sets hold: safe kept safe, dev kept
	// dev or safe (the bar for false alarms).
	looks, kept := map[Class]int{}, map[Class]int{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.SplitN(line, "\t", 3)
		want, ok := parseClass(parts[0])
		if !ok || len(parts) < 2 {
			t.Fatalf("%s:%d: bad line", file, n)
		}
		v := Classify(parts[1], testWS)
		if want <= Dev {
			looks[want]++
			if v.Class <= want {
				kept[want]++
			} else {
				t.Logf("%s:%d: %s judged %v, labelled %v\n\t%q", file, n, parts[1], v.Class, want, v.Reasons)
			}
			continue
		}
		total++
		switch {
		case v.Class >= want:
			continue
		case v.Class < Dangerous:
			through++
			if want == Blocked {
				t.Errorf("%s:%d: %s judged %v, labelled blocked\n\t%q", file, n, parts[1], v.Class, v.Reasons)
			}
		}
		milder++
		t.Logf("%s:%d: %s judged %v, labelled %v\n\t%q", file, n, parts[1], v.Class, want, v.Reasons)
	}
	t.Logf("%s: %d dangerous or blocked commands, %d judged milder than labelled (%.1f%%), %d let through as safe "+
		"or dev (%.1f%%); safe kept safe %d/%d, dev kept dev or safe %d/%d",
		file, total, milder, 100*float64(milder)/float64(max(total, 1)), through,
		100*float64(through)/float64(max(total, 1)), kept[Safe], looks[Safe], kept[Dev], looks[Dev])
}
