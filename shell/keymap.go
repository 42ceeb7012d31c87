package shell

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/ergochat/readline"
)

// Key bindings as bash's `bind` makes them: a key sequence (the bytes a
// terminal sends) runs a readline function, a shell command (bind -x),
// or a macro (keys typed again). readline v0.1.3 has a fixed keymap, so
// qsh finds bound sequences in the bytes it hands readline (see
// [lineInput.matchKey]) and hands it a rune of its own instead, which the
// editor's filter turns into what the binding does (see
// [lineEditor.bound]).

// binding is what one key sequence does.
type binding struct {
	seq   string // the bytes, as the terminal sends them
	fn    string // a readline function's name; or
	cmd   string // a shell command (bind -x); or
	macro string // keys to type, as bytes
	// own marks a key of the editor's own that qsh does (see
	// [keymap.addOwn]), which bind lists as such.
	own bool
}

// keymap is the session's bindings: what `bind` set, over the editor's
// own keys (see [emacsKeys]). The bind builtin changes it on the shell's
// goroutine while the editor reads it on readline's.
type keymap struct {
	mu   sync.Mutex
	list []binding // by index: a binding's rune is keyRune+index
	// first has the first byte of each sequence bound.
	first [256]bool
}

// keyRune+i stands, in the editor's input, for binding i: plane 15 is
// for private use, and no keyboard types it.
const keyRune = 0xF0000

// maxBindings bounds the runes keyRune+i; the rune after them stands for
// the rest of a macro, left for the next line (see [lineEditor.act]).
const (
	maxBindings   = 0xFFFC
	macroRestRune = keyRune + maxBindings
)

// set binds b.seq, replacing an earlier binding of it; b with no action
// unbinds it.
func (m *keymap) set(b binding) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := range m.list {
		if m.list[i].seq == b.seq {
			m.list[i] = b
			return true
		}
	}
	if b.fn == "" && b.cmd == "" && b.macro == "" {
		return true
	}
	if len(m.list) >= maxBindings {
		return false
	}
	m.list = append(m.list, b)
	m.first[b.seq[0]] = true
	return true
}

// get is binding i, for the rune keyRune+i.
func (m *keymap) get(r rune) (binding, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	i := int(r - keyRune)
	if i < 0 || i >= len(m.list) {
		return binding{}, false
	}
	return m.list[i], true
}

// bindings is a copy of the list, unbound sequences left out.
func (m *keymap) bindings() []binding {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []binding
	for _, b := range m.list {
		if !b.own && (b.fn != "" || b.cmd != "" || b.macro != "") {
			out = append(out, b)
		}
	}
	return out
}

// starts reports whether a bound sequence starts with c.
func (m *keymap) starts(c byte) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.first[c]
}

// addOwn binds the editor's own keys that readline v0.1.3 lacks and qsh
// does (Alt-y, C-x C-x, C-x C-e…), where nothing is bound yet, so that
// they work when typed, not only in macros.
func (m *keymap) addOwn() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, k := range emacsKeys {
		if f, _ := findFunc(k.fn); f.key != 0 || slices.ContainsFunc(m.list, func(b binding) bool { return b.seq == k.seq }) {
			continue
		}
		m.list = append(m.list, binding{seq: k.seq, fn: k.fn, own: true})
		m.first[k.seq[0]] = true
	}
}

// match looks for a bound sequence at the start of buf: the rune of the
// longest one there and its length (ok), or more set when buf is the
// start of a longer sequence, so that more input decides. Keys of the
// editor's own count only when own is set (emacs mode).
func (m *keymap) match(buf []byte, own bool) (r rune, n int, ok, more bool) {
	if m == nil || len(buf) == 0 {
		return 0, 0, false, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.first[buf[0]] {
		return 0, 0, false, false
	}
	best := -1
	for i, b := range m.list {
		if b.fn == "" && b.cmd == "" && b.macro == "" || b.own && !own {
			continue
		}
		switch {
		case strings.HasPrefix(string(buf), b.seq):
			if best < 0 || len(b.seq) > len(m.list[best].seq) {
				best = i
			}
		case len(buf) < len(b.seq) && strings.HasPrefix(b.seq, string(buf)):
			more = true
		}
	}
	if more {
		return 0, 0, false, true
	}
	if best < 0 {
		return 0, 0, false, false
	}
	return keyRune + rune(best), len(m.list[best].seq), true, false
}

// any reports whether anything is bound.
func (m *keymap) any() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.list) > 0
}

// lookup is what seq does in the session: its binding, else the editor's
// own key.
func (m *keymap) lookup(seq string) (binding, bool) {
	if m != nil {
		m.mu.Lock()
		for _, b := range m.list {
			if b.seq == seq && (b.fn != "" || b.cmd != "" || b.macro != "") {
				m.mu.Unlock()
				return b, true
			}
		}
		m.mu.Unlock()
	}
	for _, k := range emacsKeys {
		if k.seq == seq {
			return binding{seq: seq, fn: k.fn}, true
		}
	}
	return binding{}, false
}

// rlFunc is a readline function qsh knows: the key readline v0.1.3 has
// for it (0 when qsh does it itself, see [lineEditor.bound] and
// [editLine]).
type rlFunc struct {
	name string
	key  rune
}

// rlFuncs are the readline functions qsh does, sorted by name.
var rlFuncs = []rlFunc{
	{"abort", readline.CharBell},
	{"accept-line", readline.CharEnter},
	{"backward-char", readline.CharBackward},
	{"backward-delete-char", readline.CharBackspace},
	{"backward-kill-line", readline.CharCtrlU},
	{"backward-kill-word", readline.MetaBackspace},
	{"backward-word", readline.MetaBackward},
	{"beginning-of-line", readline.CharLineStart},
	{"character-search", 0},
	{"clear-screen", readline.CharCtrlL},
	{"complete", 0}, // these four: see tablist.go
	{"delete-char", readline.MetaDeleteKey},
	{"edit-and-execute-command", 0},
	{"emacs-editing-mode", 0},
	{"end-of-line", readline.CharLineEnd},
	{"exchange-point-and-mark", 0},
	{"forward-char", readline.CharForward},
	{"forward-search-history", readline.CharFwdSearch},
	{"forward-word", 0}, // readline's stops at the next word's start, bash's at this one's end
	{"history-search-backward", 0},
	{"history-search-forward", 0},
	{"history-substring-search-backward", 0},
	{"history-substring-search-forward", 0},
	{"kill-line", readline.CharKill},
	{"kill-word", readline.MetaDelete},
	{"menu-complete", 0},
	{"menu-complete-backward", 0},
	{"next-history", readline.CharNext},
	{"operate-and-get-next", 0},
	{"possible-completions", 0},
	{"previous-history", readline.CharPrev},
	{"redraw-current-line", 0},
	{"reverse-search-history", readline.CharBckSearch},
	{"self-insert", 0},
	{"set-mark", 0},
	{"shell-expand-line", 0},
	{"transpose-chars", readline.CharTranspose},
	{"undo", readline.CharCtrl_},
	{"unix-line-discard", readline.CharCtrlU},
	{"unix-word-rubout", readline.CharCtrlW},
	{"vi-editing-mode", 0},
	{"yank", readline.CharCtrlY},
	{"yank-last-arg", 0},
	{"yank-nth-arg", 0},
	{"yank-pop", 0},
}

func findFunc(name string) (rlFunc, bool) {
	i, ok := slices.BinarySearchFunc(rlFuncs, name, func(f rlFunc, name string) int { return strings.Compare(f.name, name) })
	if !ok {
		return rlFunc{}, false
	}
	return rlFuncs[i], true
}

// emacsKeys are the editor's own keys, as `bind -p` lists them and as
// macros type them.
var emacsKeys = []struct{ seq, fn string }{
	{"\x00", "set-mark"},
	{"\x01", "beginning-of-line"},
	{"\x02", "backward-char"},
	{"\x04", "delete-char"},
	{"\x05", "end-of-line"},
	{"\x06", "forward-char"},
	{"\x07", "abort"},
	{"\x08", "backward-delete-char"},
	{"\t", "complete"},
	{"\n", "accept-line"},
	{"\x0b", "kill-line"},
	{"\x0c", "clear-screen"},
	{"\r", "accept-line"},
	{"\x0e", "next-history"},
	{"\x0f", "operate-and-get-next"},
	{"\x10", "previous-history"},
	{"\x12", "reverse-search-history"},
	{"\x13", "forward-search-history"},
	{"\x14", "transpose-chars"},
	{"\x15", "unix-line-discard"},
	{"\x17", "unix-word-rubout"},
	{"\x18\x05", "edit-and-execute-command"},
	{"\x18\x18", "exchange-point-and-mark"},
	{"\x19", "yank"},
	{"\x1f", "undo"},
	{"\x1b ", "set-mark"},
	{"\x1b.", "yank-last-arg"},
	{"\x1b_", "yank-last-arg"},
	{"\x1b\x19", "yank-nth-arg"},
	{"\x1b\x05", "shell-expand-line"},
	{"\x1b\x7f", "backward-kill-word"},
	{"\x1bb", "backward-word"},
	{"\x1bd", "kill-word"},
	{"\x1bf", "forward-word"},
	{"\x1by", "yank-pop"},
	{"\x1b[A", "previous-history"},
	{"\x1b[B", "next-history"},
	{"\x1b[C", "forward-char"},
	{"\x1b[D", "backward-char"},
	{"\x1b[F", "end-of-line"},
	{"\x1b[H", "beginning-of-line"},
	{"\x1b[3~", "delete-char"},
	{"\x7f", "backward-delete-char"},
}

// parseKeyseq reads a key sequence as inputrc writes it between double
// quotes: \C-x, \M-x, \e, \\, \", \', \a \b \d \f \n \r \t \v, \nnn
// (octal) and \xHH.
func parseKeyseq(s string) (string, error) {
	var b strings.Builder
	control, meta := false, false
	put := func(k byte) {
		if control {
			k = ctrl(k)
		}
		if meta {
			b.WriteByte(0x1b)
		}
		b.WriteByte(k)
		control, meta = false, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			put(c)
			continue
		}
		if i+1 == len(s) {
			return "", fmt.Errorf("%q: ends with a backslash", s)
		}
		i++
		switch e := s[i]; e {
		case 'C', 'M':
			if i+1 >= len(s) || s[i+1] != '-' {
				put(e) // bash: a plain letter
				continue
			}
			if i+2 >= len(s) {
				return "", fmt.Errorf("%q: a modifier with no key", s)
			}
			i++
			if e == 'C' {
				control = true
			} else {
				meta = true
			}
		case 'e':
			put(0x1b)
		case 'a':
			put('\a')
		case 'b':
			put('\b')
		case 'd':
			put(0x7f)
		case 'f':
			put('\f')
		case 'n':
			put('\n')
		case 'r':
			put('\r')
		case 't':
			put('\t')
		case 'v':
			put('\v')
		case 'x':
			j := i + 1
			for j < len(s) && j < i+3 && strings.IndexByte("0123456789abcdefABCDEF", s[j]) >= 0 {
				j++
			}
			n, err := strconv.ParseUint(s[i+1:j], 16, 8)
			if err != nil {
				return "", fmt.Errorf("%q: bad \\x escape", s)
			}
			put(byte(n))
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 8)
			put(byte(n))
			i = j - 1
		default: // \\ \" \' and the rest: the character itself
			put(e)
		}
	}
	if control || meta {
		return "", fmt.Errorf("%q: a modifier with no key", s)
	}
	if b.Len() == 0 {
		return "", fmt.Errorf("empty key sequence")
	}
	return b.String(), nil
}

// ctrl is the control character of key k: C-a is 1, C-? is DEL.
func ctrl(k byte) byte {
	if k == '?' {
		return 0x7f
	}
	if k >= 'a' && k <= 'z' {
		k -= 'a' - 'A'
	}
	return k & 0x1f
}

// keyNames are inputrc's names of keys, for `Control-x: …` forms.
var keyNames = map[string]byte{
	"rubout": 0x7f, "del": 0x7f, "esc": 0x1b, "escape": 0x1b, "lfd": '\n', "newline": '\n',
	"ret": '\r', "return": '\r', "spc": ' ', "space": ' ', "tab": '\t',
}

// parseKeyname reads a key as inputrc names it outside quotes:
// Control-r, C-r, Meta-x, M-x, TAB, Escape…
func parseKeyname(s string) (string, error) {
	meta, control := false, false
	for {
		lower := strings.ToLower(s)
		switch {
		case strings.HasPrefix(lower, "control-"):
			control, s = true, s[len("control-"):]
			continue
		case strings.HasPrefix(lower, "c-"):
			control, s = true, s[2:]
			continue
		case strings.HasPrefix(lower, "meta-"):
			meta, s = true, s[len("meta-"):]
			continue
		case strings.HasPrefix(lower, "m-"):
			meta, s = true, s[2:]
			continue
		}
		break
	}
	var k byte
	if n, ok := keyNames[strings.ToLower(s)]; ok && len(s) > 1 {
		k = n
	} else if len(s) == 1 {
		k = s[0]
	} else {
		return "", fmt.Errorf("%q: unknown key name", s)
	}
	if control {
		k = ctrl(k)
	}
	if meta {
		return string([]byte{0x1b, k}), nil
	}
	return string([]byte{k}), nil
}

// keyseqString writes a key sequence as `bind -p` does: "\C-t", "\ec".
func keyseqString(seq string) string {
	var b strings.Builder
	for i := 0; i < len(seq); i++ {
		switch c := seq[i]; {
		case c == 0x1b:
			b.WriteString(`\e`)
		case c == 0x7f:
			b.WriteString(`\C-?`)
		case c == 0:
			b.WriteString(`\C-@`)
		case c <= 26:
			b.WriteString(`\C-` + string(rune(c+'a'-1)))
		case c < 0x20:
			b.WriteString(`\C-` + string(rune(c+'@')))
		case c == '\\' || c == '"':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c >= 0x80:
			fmt.Fprintf(&b, `\%03o`, c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
