package testtime

import (
	"testing"
	"time"
)

func TestScaled(t *testing.T) {
	tests := []struct {
		env  string
		want time.Duration
	}{
		{"", 10 * time.Second},
		{"3", 30 * time.Second},
		{"0.5", 5 * time.Second},
	}
	for _, tt := range tests {
		t.Setenv(Env, tt.env)
		if got := Scaled(10 * time.Second); got != tt.want {
			t.Errorf("%s=%q: Scaled(10s) = %v, want %v", Env, tt.env, got, tt.want)
		}
	}
}

func TestScaleRejectsNonsense(t *testing.T) {
	for _, env := range []string{"x", "0", "-2", "NaN", "Inf"} {
		t.Setenv(Env, env)
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s=%q: no panic", Env, env)
				}
			}()
			Scale()
		}()
	}
}

func TestUntil(t *testing.T) {
	n := 0
	if !Until(time.Minute, func() bool { n++; return n == 3 }) || n != 3 {
		t.Fatalf("Until stopped after %d calls", n)
	}
	if Until(time.Millisecond, func() bool { return false }) {
		t.Fatal("Until reported true for a condition never met")
	}
}
