package shell

import "testing"

func TestMarkDashText(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"echo $-\n", "echo $-i\n"},
		{`[[ $- =~ i ]] && echo "${-}x"` + "\n", `[[ $-i =~ i ]] && echo "${-}ix"` + "\n"},
		{"case $- in *i*) ;; esac\necho '$-'\n", "case $-i in *i*) ;; esac\necho '$-'\n"},
		{"echo ${#-} ${-:+set}\n", "echo ${#-} ${-:+set}\n"}, // only the plain form
		{"echo $x\n", "echo $x\n"},
		{"echo $-(\n", "echo $-(\n"}, // does not parse: unchanged
	}
	for _, tt := range tests {
		if got := markDashText(tt.in, "f"); got != tt.want {
			t.Errorf("markDashText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for _, tt := range tests[:3] {
		if got, ok := markDashEval(tt.in); !ok || got != tt.want {
			t.Errorf("markDashEval(%q) = %q, %v, want %q", tt.in, got, ok, tt.want)
		}
	}
}
