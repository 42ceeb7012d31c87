package tools

import (
	"testing"

	"github.com/qsh-shell/qsh/policy/danger"
)

func TestDecide(t *testing.T) {
	// The table of danger-classes.md, row by row.
	table := map[danger.Class][3]Decision{
		//                yolo    sensitive  all
		danger.Safe:      {Run, Run, Ask},
		danger.Dev:       {Run, Ask, Ask},
		danger.Dangerous: {Ask, Ask, Ask},
		danger.Blocked:   {Refuse, Refuse, Refuse},
		danger.Class(-1): {Ask, Ask, Ask}, // unknown is not safe
		danger.Class(9):  {Refuse, Refuse, Refuse},
	}
	modes := [3]ConfirmMode{ConfirmYolo, ConfirmSensitive, ConfirmAll}
	for c, row := range table {
		for i, m := range modes {
			if got := Decide(m, c, false); got != row[i] {
				t.Errorf("Decide(%s, %s) = %s, want %s", m, c, got, row[i])
			}
			want := row[i]
			if c == danger.Dangerous || c == danger.Class(-1) {
				want = Refuse
			}
			if got := Decide(m, c, true); got != want {
				t.Errorf("allowed-only Decide(%s, %s) = %s, want %s", m, c, got, want)
			}
		}
	}
}

func TestConfirmModeText(t *testing.T) {
	for in, want := range map[string]ConfirmMode{
		"sensitive": ConfirmSensitive, "true": ConfirmSensitive, "ALL": ConfirmAll,
		"yolo": ConfirmYolo, "false": ConfirmYolo, " all ": ConfirmAll,
	} {
		var m ConfirmMode
		if err := m.UnmarshalText([]byte(in)); err != nil || m != want {
			t.Errorf("%q: %q, %v; want %q", in, m, err, want)
		}
	}
	var m ConfirmMode
	if err := m.UnmarshalText([]byte("maybe")); err == nil {
		t.Errorf("maybe: no error")
	}
	var p WebProvider
	if err := p.UnmarshalText([]byte("google")); err == nil {
		t.Errorf("google: no error")
	}
	if err := p.UnmarshalText([]byte("SearXNG")); err != nil || p != SearXNG {
		t.Errorf("SearXNG: %q %v", p, err)
	}
}

func TestNormalize(t *testing.T) {
	c := Config{ExecTimeout: 900e9, WebMaxResults: 50, FSMaxSize: -1}.normalize()
	if c.ExecTimeout != MaxExecTimeout || c.WebMaxResults != MaxWebResults || c.FSMaxSize != 1<<20 ||
		c.Confirm != ConfirmSensitive || c.WebBaseURL != DuckDuckGoURL || c.ExecMaxOutput != 102400 {
		t.Errorf("normalize: %+v", c)
	}
}
