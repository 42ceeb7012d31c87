package eval

import "testing"

// Differences from bash found by running Debian's bash programs with qsh
// standing in for bash (see TestDebianProgramsAgainstBash), each as the
// smallest case that shows it.
func TestDebianProgramCasesAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		// neofetch: SHELL unset in the environment is the user's login
		// shell, set but not exported.
		{"shell-unset", `echo "[$SHELL]"; declare -p SHELL; env | grep -c '^SHELL='`},
	})
}
