package shell

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/qsh-shell/qsh/shell/eval"
)

// IsOption reports whether name is an option of `set -o`, or of shopt.
func IsOption(name string, shopt bool) bool { return slices.Contains(eval.OptionNames(!shopt), name) }

// SetOptions sets the options of qsh's command line: as `shopt` with each
// pair of shopt (-s NAME, -u NAME), then `set` with set's flags.
func (s *Shell) SetOptions(ctx context.Context, set, shopt []string) {
	if src := optionsText(set, shopt); src != "" {
		s.run(ctx, src, s.name)
	}
}

// optionsText is the set and shopt commands of qsh's command line flags.
func optionsText(set, shopt []string) string {
	var src strings.Builder
	for i := 0; i+1 < len(shopt); i += 2 {
		fmt.Fprintf(&src, "shopt %s %s\n", shopt[i], quote(shopt[i+1]))
	}
	if len(set) > 0 {
		src.WriteString("set")
		for _, a := range set {
			src.WriteString(" " + quote(a))
		}
		src.WriteString("\n")
	}
	return src.String()
}
