package danger

import (
	"bufio"
	"fmt"
	"os"
	"testing"
)

func TestProbe(t *testing.T) {
	f, err := os.Open("testdata/work/probe.txt")
	if err != nil {
		t.Skip()
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		v := Classify(sc.Text(), testWS)
		fmt.Printf("%-9s %-55s %q\n", v.Class, sc.Text(), v.Reasons)
	}
}
