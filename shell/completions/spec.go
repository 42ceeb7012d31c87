package completions

import (
	"fmt"
	"math/bits"
	"strings"
)

// Spec is a compspec, bash's description of how to complete a command's
// arguments: what `complete` registers and what `compgen` generates from.
type Spec struct {
	Options Options
	Actions Actions
	Glob    string // -G: a pattern expanded like a file name
	Words   string // -W: a word list, split on IFS and expanded
	Prefix  string // -P
	Suffix  string // -S
	Filter  string // -X: a pattern; matches are removed (kept with a leading !)
	Command string // -C: a command whose output lines are candidates
	Func    string // -F: a function that fills COMPREPLY
}

// Options are the -o options of a compspec, a set of bits in the order
// bash prints them.
type Options uint16

const (
	BashDefault Options = 1 << iota // no match: bash's default completions
	Default                         // no match: file names
	DirNames                        // no match: directory names
	FileNames                       // matches are file names: quoted, a / after directories
	NoQuote                         // file names are not quoted
	NoSort                          // matches keep their order
	NoSpace                         // no space after a single match
	PlusDirs                        // directory names are added to the matches
)

var optionNames = [...]string{"bashdefault", "default", "dirnames", "filenames", "noquote", "nosort", "nospace", "plusdirs"}

// Actions are the kinds of names a compspec generates (-A and the short
// flags), a set of bits.
type Actions uint32

const (
	Alias Actions = 1 << iota
	ArrayVar
	Binding
	Builtin
	Command
	Directory
	Disabled
	Enabled
	Export
	File
	Function
	Group
	HelpTopic
	Hostname
	Job
	Keyword
	Running
	Service
	SetOpt
	ShOpt
	Signal
	Stopped
	User
	Variable
)

// actionNames are the -A names, in the order of the bits.
var actionNames = [...]string{"alias", "arrayvar", "binding", "builtin", "command", "directory",
	"disabled", "enabled", "export", "file", "function", "group", "helptopic", "hostname", "job",
	"keyword", "running", "service", "setopt", "shopt", "signal", "stopped", "user", "variable"}

// actionFlags are the actions with a letter of their own, in the order
// bash prints them.
const actionFlags = "abcdefgjksuv"

func flagAction(c byte) Actions {
	switch c {
	case 'a':
		return Alias
	case 'b':
		return Builtin
	case 'c':
		return Command
	case 'd':
		return Directory
	case 'e':
		return Export
	case 'f':
		return File
	case 'g':
		return Group
	case 'j':
		return Job
	case 'k':
		return Keyword
	case 's':
		return Service
	case 'u':
		return User
	case 'v':
		return Variable
	}
	return 0
}

// Each calls f with each action in a, in bit order.
func (a Actions) Each(f func(Actions)) {
	for a != 0 {
		bit := Actions(1) << bits.TrailingZeros32(uint32(a))
		f(bit)
		a &^= bit
	}
}

// String is the action's -A name.
func (a Actions) String() string {
	if bits.OnesCount32(uint32(a)) != 1 {
		return fmt.Sprintf("Actions(%#x)", uint32(a))
	}
	return actionNames[bits.TrailingZeros32(uint32(a))]
}

// Args is a parsed command line of `complete`, `compgen` or `compopt`.
type Args struct {
	Spec Spec
	Off  Options // compopt's +o
	// Print and Remove are complete's -p and -r.
	Print, Remove bool
	// Default, Empty and Initial are -D, -E and -I: the compspecs for
	// commands with none of their own, for an empty line and for the
	// command word.
	Default, Empty, Initial bool
	Names                   []string // the operands
}

// Usage is a completion builtin's usage line. (A switch, not a map: a
// map would be built at start-up.)
func Usage(builtin string) string {
	switch builtin {
	case "complete":
		return "complete [-abcdefgjksuv] [-pr] [-DEI] [-o option] [-A action] [-G globpat] [-W wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] [-S suffix] [name ...]"
	case "compgen":
		return "compgen [-abcdefgjksuv] [-o option] [-A action] [-G globpat] [-W wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] [-S suffix] [word]"
	case "compopt":
		return "compopt [-o|+o option] [-DEI] [name ...]"
	}
	return ""
}

// UsageError is a command line the builtin rejects: it prints Msg, and
// its usage line when Usage is set, and fails with status 2.
type UsageError struct {
	Msg   string
	Usage bool
}

func (e *UsageError) Error() string { return e.Msg }

// ParseArgs parses the arguments of builtin ("complete", "compgen" or
// "compopt") as bash does: options may be grouped (-bc), an option's
// argument may be attached (-Afunction), and -- ends them.
func ParseArgs(builtin string, args []string) (Args, error) {
	var a Args
	flags := "abcdefgjksuvo:A:G:W:F:C:X:P:S:"
	switch builtin {
	case "complete":
		flags += "prDEI"
	case "compopt":
		flags = "o:DEI"
	}
	i := 0
	for ; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			i++
			break
		}
		plus := builtin == "compopt" && strings.HasPrefix(arg, "+")
		if len(arg) < 2 || arg[0] != '-' && !plus {
			break
		}
		for j := 1; j < len(arg); j++ {
			c := arg[j]
			k := strings.IndexByte(flags, c)
			if k < 0 || c == ':' || plus && c != 'o' {
				return a, &UsageError{Msg: fmt.Sprintf("%c%c: invalid option", arg[0], c), Usage: true}
			}
			if k+1 == len(flags) || flags[k+1] != ':' {
				a.flag(c)
				continue
			}
			val := arg[j+1:]
			if val == "" {
				if i+1 == len(args) {
					return a, &UsageError{Msg: fmt.Sprintf("-%c: option requires an argument", c), Usage: true}
				}
				i++
				val = args[i]
			}
			if err := a.value(c, val, plus); err != nil {
				return a, err
			}
			break
		}
	}
	a.Names = args[i:]
	return a, nil
}

func (a *Args) flag(c byte) {
	switch c {
	case 'p':
		a.Print = true
	case 'r':
		a.Remove = true
	case 'D':
		a.Default = true
	case 'E':
		a.Empty = true
	case 'I':
		a.Initial = true
	default:
		a.Spec.Actions |= flagAction(c)
	}
}

func (a *Args) value(c byte, val string, plus bool) error {
	s := &a.Spec
	switch c {
	case 'o':
		o := OptionNamed(val)
		if o == 0 {
			return &UsageError{Msg: val + ": invalid option name"}
		}
		if plus {
			a.Off |= o
			s.Options &^= o
		} else {
			s.Options |= o
			a.Off &^= o
		}
	case 'A':
		act := ActionNamed(val)
		if act == 0 {
			return &UsageError{Msg: val + ": invalid action name"}
		}
		s.Actions |= act
	case 'G':
		s.Glob = val
	case 'W':
		s.Words = val
	case 'F':
		s.Func = val
	case 'C':
		s.Command = val
	case 'X':
		s.Filter = val
	case 'P':
		s.Prefix = val
	case 'S':
		s.Suffix = val
	}
	return nil
}

// OptionNamed is the -o option called name, 0 if there is none.
func OptionNamed(name string) Options {
	for i, n := range optionNames {
		if n == name {
			return 1 << i
		}
	}
	return 0
}

// ActionNamed is the -A action called name, 0 if there is none.
func ActionNamed(name string) Actions {
	for i, n := range actionNames {
		if n == name {
			return 1 << i
		}
	}
	return 0
}

// Print is the `complete` command that registers s for name, as
// `complete -p` prints it.
func (s Spec) Print(name string) string {
	var b strings.Builder
	b.WriteString("complete")
	for i, n := range optionNames {
		if s.Options&(1<<i) != 0 {
			b.WriteString(" -o " + n)
		}
	}
	for i := range len(actionFlags) {
		if s.Actions&flagAction(actionFlags[i]) != 0 {
			b.WriteString(" -" + actionFlags[i:i+1])
		}
	}
	for i, n := range actionNames {
		if act := Actions(1) << i; s.Actions&act != 0 && !hasFlag(act) {
			b.WriteString(" -A " + n)
		}
	}
	for _, arg := range []struct{ flag, val string }{{"-G", s.Glob}, {"-W", s.Words},
		{"-P", s.Prefix}, {"-S", s.Suffix}, {"-X", s.Filter}, {"-C", s.Command}} {
		if arg.val != "" {
			b.WriteString(" " + arg.flag + " " + singleQuote(arg.val))
		}
	}
	if s.Func != "" {
		b.WriteString(" -F " + s.Func)
	}
	b.WriteString(" " + name)
	return b.String()
}

func hasFlag(act Actions) bool {
	for i := range len(actionFlags) {
		if flagAction(actionFlags[i]) == act {
			return true
		}
	}
	return false
}

// PrintOptions is the `compopt` command that shows the options of s for name.
func (s Spec) PrintOptions(name string) string {
	var b strings.Builder
	b.WriteString("compopt")
	for i, n := range optionNames {
		if s.Options&(1<<i) != 0 {
			b.WriteString(" -o " + n)
		} else {
			b.WriteString(" +o " + n)
		}
	}
	b.WriteString(" " + name)
	return b.String()
}

// singleQuote quotes s in single quotes, as bash prints compspecs.
func singleQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
