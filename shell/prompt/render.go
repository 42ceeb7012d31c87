package prompt

import (
	"strconv"
	"strings"
	"time"

	"github.com/fatih/color"
)

// slowCommand is how long a command must run before the prompt shows its duration.
const slowCommand = 2 * time.Second

// palette holds the colours of the default prompt. Each Color has its own
// enable switch set, so color.NoColor (a package global decided from
// os.Stdout at init) never leaks into the result.
type palette struct {
	host, dir, branch, status, duration, sign *color.Color
}

func newPalette(on bool) palette {
	p := palette{
		host:     color.New(color.FgGreen, color.Bold),
		dir:      color.New(color.FgBlue, color.Bold),
		branch:   color.New(color.FgMagenta),
		status:   color.New(color.FgRed, color.Bold),
		duration: color.New(color.FgYellow),
		sign:     color.New(color.Bold),
	}
	for _, c := range []*color.Color{p.host, p.dir, p.branch, p.status, p.duration, p.sign} {
		if on {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
	}
	return p
}

// Render returns qsh's default prompt, on one line:
//
//	[user@host ]~/dir[ (branch)][ [status]][ duration] $
//
// user@host appears only over SSH, the status only when it is not zero and
// the duration only when the last command took more than two seconds. The
// sign is # for root.
func Render(d Data) string {
	p := newPalette(d.Color)
	var b strings.Builder
	if d.SSH {
		b.WriteString(p.host.Sprint(d.User + "@" + shortHost(d.Host)))
		b.WriteByte(' ')
	}
	dir := TildeDir(d.Dir, d.Home)
	if dir == "" {
		dir = "?"
	}
	b.WriteString(p.dir.Sprint(dir))
	if d.GitBranch != "" {
		b.WriteString(" " + p.branch.Sprint("("+d.GitBranch+")"))
	}
	if d.Status != 0 {
		b.WriteString(" " + p.status.Sprint("["+strconv.Itoa(d.Status)+"]"))
	}
	if d.Duration > slowCommand {
		b.WriteString(" " + p.duration.Sprint(formatDuration(d.Duration)))
	}
	sign := "$"
	if d.Root {
		sign = "#"
	}
	b.WriteString(" " + p.sign.Sprint(sign) + " ")
	return b.String()
}
