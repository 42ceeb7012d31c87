package capture

import (
	"strconv"
	"strings"
)

// OSC 133 ("semantic prompt") marks, as FinalTerm defined them and most
// terminals now read them: A before the prompt, B after it, C where the
// command's output starts, D;STATUS where the command ended. The aid=ID
// option (from the semantic prompts proposal) tells our marks apart from
// those of a nested shell.
const (
	promptStart  = 'A'
	promptEnd    = 'B'
	commandStart = 'C'
	commandEnd   = 'D'
)

const (
	esc = 0x1b
	bel = 0x07
)

// mark returns the OSC 133 sequence of kind, with the status for an end.
func mark(kind byte, id string, status int) string {
	var b strings.Builder
	b.WriteString("\x1b]133;")
	b.WriteByte(kind)
	if kind == commandEnd {
		b.WriteByte(';')
		b.WriteString(strconv.Itoa(status))
	}
	if id != "" {
		b.WriteString(";aid=")
		b.WriteString(id)
	}
	b.WriteByte(bel)
	return b.String()
}

// parseMark reads the payload of an OSC sequence (what is between "ESC ]"
// and the terminator). It reports the mark's kind and status (-1 when an
// end has none) when payload is an OSC 133 mark whose aid is id.
func parseMark(payload []byte, id string) (kind byte, status int, ok bool) {
	rest, found := strings.CutPrefix(string(payload), "133;")
	if !found || rest == "" {
		return 0, 0, false
	}
	fields := strings.Split(rest, ";")
	if len(fields[0]) != 1 {
		return 0, 0, false
	}
	kind, status = fields[0][0], -1
	aid := ""
	for i, f := range fields[1:] {
		if k, v, isOpt := strings.Cut(f, "="); isOpt {
			if k == "aid" {
				aid = v
			}
			continue
		}
		if i == 0 && kind == commandEnd {
			n, err := strconv.Atoi(f)
			if err != nil {
				return 0, 0, false
			}
			status = n
		}
	}
	if aid != id {
		return 0, 0, false
	}
	switch kind {
	case promptStart, promptEnd, commandStart, commandEnd:
		return kind, status, true
	}
	return 0, 0, false
}
