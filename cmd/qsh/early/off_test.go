package early

import (
	"testing"

	"github.com/qsh-shell/qsh/shell"
)

// off must read QSH_CAPTURE as the configuration does, or init would start
// an inner shell that main does not want, or the other way round.
func TestOffAgreesWithConfig(t *testing.T) {
	for _, v := range []string{"", "on", "off", "OFF", "Off", "false", "FALSE", "no", "No", "n", "N",
		"0", "f", "F", "1", "yes", "true", "t", "y", "bogus", " off", "off ", "0ff", "nope"} {
		s := shell.Switch(true)
		want := s.UnmarshalText([]byte(v)) == nil && !bool(s)
		if off(v) != want {
			t.Errorf("off(%q) = %v; the configuration reads it as off: %v", v, off(v), want)
		}
	}
}
