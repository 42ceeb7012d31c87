package completions

// word describes the word the cursor is in, found by a small lexer that
// knows enough shell syntax to tell commands, quotes, redirects and
// expansions apart. It never fails: incomplete input is the normal case.
type word struct {
	raw    string // the word as typed, from its start to the cursor
	value  string // raw with quotes and escapes removed
	quote  byte   // the quote open at the cursor: 0, '\'' or '"'
	escape bool   // raw ends in a backslash that escapes what comes next

	words    []string // earlier words of the same simple command, unquoted
	redirect bool     // the word is the target of a redirection
	comment  bool     // the cursor is in a comment
	expands  bool     // the word holds an expansion ($x, $(…), `…`)
	varStart int      // offset in the line of a "$NAME"/"${NAME" ending at the cursor, or -1

	afterEq bool // a path, if any, starts after the word's first '=' (set by Complete)
	eqRaw   int  // offset in raw and value just after the first '=', or -1
	eqVal   int
	// offsets in raw and value just after the last '/', or -1
	slashRaw, slashVal int
}

// frame is the lexer state saved when a nested command starts: $( … ),
// ( … ) or ` … `.
type frame struct {
	cur   word
	in    bool
	start int
	val   []byte
	tick  bool // opened by a backquote
}

// scan lexes s (the line up to the cursor) and describes its last word.
func scan(s string) word {
	var (
		cur     = word{varStart: -1, slashRaw: -1, slashVal: -1}
		in      bool // inside a word
		start   int  // offset of the current word in s
		val     []byte
		stack   []frame
		pending bool // the next word is a redirect target
	)
	begin := func(i int) {
		if !in {
			in, start, val = true, i, val[:0]
			cur.redirect, pending = pending, false
			cur.expands, cur.varStart = false, -1
			cur.slashRaw, cur.slashVal, cur.eqRaw, cur.eqVal = -1, -1, -1, -1
		}
	}
	add := func(i int, c byte) { // i is the offset just past c in s
		val = append(val, c)
		switch {
		case c == '/':
			cur.slashRaw, cur.slashVal = i-start, len(val)
		case c == '=' && cur.eqRaw < 0:
			cur.eqRaw, cur.eqVal = i-start, len(val)
		}
	}
	end := func() {
		if in {
			if !cur.redirect {
				cur.words = append(cur.words, string(val))
			}
			in = false
		}
	}
	newCommand := func() {
		end()
		cur.words = nil
		pending = false
	}
	push := func(tick bool) {
		stack = append(stack, frame{cur: cur, in: in, start: start, val: append([]byte(nil), val...), tick: tick})
		cur = word{varStart: -1, slashRaw: -1, slashVal: -1}
		in, val = false, val[:0]
		pending = false
	}
	pop := func() {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		cur, in, start, val = f.cur, f.in, f.start, f.val
		cur.expands = true
		pending = false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch cur.quote {
		case '\'':
			if c == '\'' {
				cur.quote = 0
			} else {
				add(i+1, c)
			}
			continue
		case '"':
			switch {
			case c == '"':
				cur.quote = 0
			case c == '\\' && i+1 < len(s) && (s[i+1] == '$' || s[i+1] == '`' || s[i+1] == '"' || s[i+1] == '\\'):
				i++
				add(i+1, s[i])
			case c == '\\' && i+1 < len(s) && s[i+1] == '\n':
				i++
			case c == '$' && i+1 < len(s) && s[i+1] == '(':
				i++
				push(false)
			case c == '$':
				cur.varStart = i
				cur.expands = true
				add(i+1, c)
			case c == '`':
				push(true)
			default:
				add(i+1, c)
			}
			continue
		}
		switch c {
		case ' ', '\t':
			end()
		case '&':
			switch {
			case i > 0 && (s[i-1] == '>' || s[i-1] == '<'):
				// ">&2": still a redirection
			case i+1 < len(s) && s[i+1] == '>':
				end() // "&>file"
			default:
				newCommand()
			}
		case '\n', ';', '|':
			newCommand()
		case '<', '>':
			if in && isDigits(string(val)) {
				in = false // "2>": the fd number is no word of the command
			}
			end()
			pending = true
		case '(':
			end()
			push(false)
		case ')':
			if len(stack) > 0 && !stack[len(stack)-1].tick {
				end()
				pop()
			} else {
				newCommand()
			}
		case '`':
			if len(stack) > 0 && stack[len(stack)-1].tick {
				end()
				pop()
			} else {
				begin(i)
				push(true)
			}
		case '#':
			if !in {
				if j := indexByteFrom(s, '\n', i); j >= 0 {
					i = j - 1 // the newline ends the comment and the command
					continue
				}
				cur.comment = true
				return cur
			}
			add(i+1, c)
		case '\\':
			begin(i)
			if i+1 == len(s) {
				cur.escape = true
				break
			}
			i++
			if s[i] != '\n' {
				add(i+1, s[i])
			}
		case '\'', '"':
			begin(i)
			cur.quote = c
		case '$':
			begin(i)
			cur.expands = true
			if i+1 < len(s) && s[i+1] == '(' {
				i++
				push(false)
				continue
			}
			cur.varStart = i
			add(i+1, c)
		default:
			begin(i)
			add(i+1, c)
		}
	}
	if !in {
		cur.redirect, start, val = pending, len(s), val[:0]
		cur.expands, cur.varStart = false, -1
		cur.slashRaw, cur.slashVal, cur.eqRaw, cur.eqVal = -1, -1, -1, -1
	}
	cur.raw, cur.value = s[start:], string(val)
	// A "$" completes as a variable only when nothing but a name follows it.
	if v := cur.varStart; v >= 0 && !isVarPrefix(s[v:]) {
		cur.varStart = -1
	}
	return cur
}

// isVarPrefix reports whether s is "$NAME" or "${NAME", NAME possibly empty.
func isVarPrefix(s string) bool {
	s = s[1:]
	if len(s) > 0 && s[0] == '{' {
		s = s[1:]
	}
	if s == "" {
		return true
	}
	return isName(s)
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func indexByteFrom(s string, c byte, from int) int {
	for i := from; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}
