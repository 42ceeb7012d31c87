package fenced

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Call is one ```tool block.
type Call struct {
	Name   string
	Args   json.RawMessage
	Reason string
	// Raw is the block's content as the model wrote it.
	Raw string
	// Err says what was wrong with the block, for the model to read; the
	// call must not run when it is set.
	Err string
}

const open = "```tool"

// Parser splits streamed text into prose and tool calls. Feed it the text
// in pieces of any size; blocks may be split anywhere, even inside the
// opening fence.
type Parser struct {
	text    func(string)
	inBlock bool
	// lineStart is true when the next byte starts a line.
	lineStart bool
	// held is the start of a line that may yet become an opening fence.
	held  []byte
	block strings.Builder
	// line is the current line inside a block, to spot the closing fence.
	line  []byte
	calls []Call
}

// New returns a parser that passes prose to text as soon as it knows the
// prose is not part of a fence.
func New(text func(string)) *Parser {
	return &Parser{text: text, lineStart: true}
}

// Feed reads the next piece of the answer.
func (p *Parser) Feed(s string) {
	for len(s) > 0 {
		switch {
		case p.inBlock:
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				p.line = append(p.line, s...)
				return
			}
			p.line = append(p.line, s[:i+1]...)
			s = s[i+1:]
			if strings.TrimSpace(string(p.line)) == "```" {
				p.finish(true)
			} else {
				p.block.Write(p.line)
			}
			p.line = p.line[:0]
		case p.lineStart || len(p.held) > 0:
			p.held = append(p.held, s[0])
			s = s[1:]
			switch opening(p.held) {
			case yes:
				p.held = p.held[:0]
				p.inBlock, p.lineStart = true, false
			case no:
				p.emit(string(p.held))
				p.lineStart = p.held[len(p.held)-1] == '\n'
				p.held = p.held[:0]
			default:
				p.lineStart = false
			}
		default:
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				p.emit(s)
				return
			}
			p.emit(s[:i+1])
			s = s[i+1:]
			p.lineStart = true
		}
	}
}

// Close ends the answer: prose held back is passed on, and a block left
// open is read as if it were closed.
func (p *Parser) Close() {
	if p.inBlock {
		if strings.TrimSpace(string(p.line)) == "```" {
			p.finish(true)
		} else {
			p.block.Write(p.line)
			p.finish(false)
		}
		p.line = p.line[:0]
	}
	if len(p.held) > 0 {
		p.emit(string(p.held))
		p.held = p.held[:0]
	}
	p.lineStart = true
}

// Calls returns the blocks found so far, in order.
func (p *Parser) Calls() []Call { return p.calls }

func (p *Parser) emit(s string) {
	if s != "" && p.text != nil {
		p.text(s)
	}
}

func (p *Parser) finish(closed bool) {
	raw := p.block.String()
	p.block.Reset()
	p.inBlock = false
	p.lineStart = true
	c := parse(raw)
	if !closed && c.Err == "" && strings.TrimSpace(raw) == "" {
		c.Err = "the ```tool block is empty and was never closed"
	}
	p.calls = append(p.calls, c)
}

type verdict int

const (
	maybe verdict = iota
	yes
	no
)

// opening tells whether the start of a line is an opening fence: up to
// three spaces, ```tool, optional blanks, end of line.
func opening(b []byte) verdict {
	s := string(b)
	for i := 0; i < 3 && strings.HasPrefix(s, " "); i++ {
		s = s[1:]
	}
	if s == "" {
		return maybe
	}
	if len(s) < len(open) {
		if strings.HasPrefix(open, s) {
			return maybe
		}
		return no
	}
	if !strings.HasPrefix(s, open) {
		return no
	}
	rest := s[len(open):]
	line, ended := strings.CutSuffix(rest, "\n")
	if strings.TrimRight(line, " \t\r") != "" {
		return no
	}
	if ended {
		return yes
	}
	return maybe
}

// parse reads a block's JSON; what is wrong goes in Err, for the model.
func parse(raw string) Call {
	c := Call{Raw: raw}
	var body struct {
		Name      string          `json:"name"`
		Args      json.RawMessage `json:"args"`
		Arguments json.RawMessage `json:"arguments"`
		Reason    string          `json:"reason"`
	}
	dec := json.NewDecoder(strings.NewReader(raw))
	if err := dec.Decode(&body); err != nil {
		c.Err = fmt.Sprintf("the ```tool block is not valid JSON (%v); write exactly one object: {\"name\": \"TOOL\", \"args\": {...}, \"reason\": \"why\"}", err)
		return c
	}
	if dec.More() {
		c.Err = "the ```tool block holds more than one JSON value; write one block per call"
		return c
	}
	c.Name, c.Reason = body.Name, body.Reason
	if c.Name == "" {
		c.Err = `the ` + "```tool" + ` block has no "name"; say which tool to call`
		return c
	}
	args := body.Args
	if len(args) == 0 {
		args = body.Arguments
	}
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(args, &obj) != nil {
		c.Err = `"args" must be a JSON object of the tool's arguments`
		return c
	}
	c.Args = args
	return c
}
