package completions

import (
	"io/fs"
	"os"
	"strings"
)

// Colors are file types' colours as LS_COLORS gives them, over the ones
// readline has when it gives none (colored-stats).
type Colors struct {
	kinds map[string]string // di, ln, ex…: an SGR parameter list
	exts  [][2]string       // *.txt=35: a name's end and its colour, in order
}

// defaultColors are readline's, for the types LS_COLORS leaves out.
var defaultColors = map[string]string{
	"di": "01;34", "ln": "01;36", "pi": "33", "so": "01;35", "bd": "01;33", "cd": "01;33",
	"ex": "01;32", "do": "01;35", "su": "37;41", "sg": "30;43", "st": "37;44", "ow": "34;42",
	"tw": "30;42",
}

// ParseColors reads LS_COLORS, as ls and readline do: key=value pairs
// between colons, a key a file type's two letters or * and a name's end.
func ParseColors(ls string) *Colors {
	c := &Colors{kinds: map[string]string{}}
	for k, v := range defaultColors {
		c.kinds[k] = v
	}
	for _, field := range strings.Split(ls, ":") {
		key, value, ok := strings.Cut(field, "=")
		if !ok || key == "" {
			continue
		}
		if end, ok := strings.CutPrefix(key, "*"); ok {
			c.exts = append(c.exts, [2]string{end, value})
			continue
		}
		c.kinds[key] = value
	}
	return c
}

// PrefixColor is the colour of colored-completion-prefix: LS_COLORS'
// *.readline-colored-completion-prefix, else a socket's, as readline has
// it.
func (c *Colors) PrefixColor() string {
	for _, e := range c.exts {
		if e[0] == ".readline-colored-completion-prefix" {
			return e[1]
		}
	}
	return c.kinds["so"]
}

// Start is the escape sequence that colours the name of the file at path
// as readline does: the link itself unless LS_COLORS says ln=target,
// then set-user-ID, executable, directory kinds, a name's end for a plain
// file; "" when that has no colour.
func (c *Colors) Start(path string) string {
	kind := c.kind(path)
	color := c.kinds[kind]
	if kind == "fi" {
		for _, e := range c.exts {
			if strings.HasSuffix(path, e[0]) {
				color = e[1]
				break
			}
		}
	}
	if color == "" {
		return ""
	}
	return "\x1b[" + color + "m"
}

// kind is LS_COLORS' key for the file at path.
func (c *Colors) kind(path string) string {
	fi, err := os.Lstat(path)
	if err != nil {
		if c.kinds["mi"] != "" {
			return "mi"
		}
		return "fi"
	}
	mode := fi.Mode()
	if mode&fs.ModeSymlink != 0 {
		target, err := os.Stat(path)
		if err != nil {
			if c.kinds["or"] != "" {
				return "or"
			}
			return "ln"
		}
		if c.kinds["ln"] != "target" {
			return "ln"
		}
		mode = target.Mode()
	}
	set := func(k string) bool { return c.kinds[k] != "" && c.kinds[k] != "0" && c.kinds[k] != "00" }
	switch {
	case mode.IsRegular():
		switch {
		case mode&fs.ModeSetuid != 0 && set("su"):
			return "su"
		case mode&fs.ModeSetgid != 0 && set("sg"):
			return "sg"
		case mode.Perm()&0o111 != 0 && set("ex"):
			return "ex"
		}
		return "fi"
	case mode.IsDir():
		switch {
		case mode&fs.ModeSticky != 0 && mode.Perm()&0o002 != 0 && set("tw"):
			return "tw"
		case mode.Perm()&0o002 != 0 && set("ow"):
			return "ow"
		case mode&fs.ModeSticky != 0 && set("st"):
			return "st"
		}
		return "di"
	case mode&fs.ModeNamedPipe != 0:
		return "pi"
	case mode&fs.ModeSocket != 0:
		return "so"
	case mode&fs.ModeCharDevice != 0:
		return "cd"
	case mode&fs.ModeDevice != 0:
		return "bd"
	}
	return "or"
}
