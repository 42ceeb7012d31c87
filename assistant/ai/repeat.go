package ai

import (
	"encoding/json"
	"fmt"

	"github.com/qsh-shell/qsh/assistant/ai/chat"
	"github.com/qsh-shell/qsh/assistant/tools"
)

// maxRepeats is how many times a turn lets a model make a call again that
// the user declined, or a read whose result it has, before it ends the
// turn as a loop. Small models do: the same declined `rm -rf build` was
// asked about ten times in one turn, the same `list .` run ten times.
const maxRepeats = 2

// earlier is what a call of this turn came to, for the same call again.
type earlier struct {
	declined bool
	// result is what the model was told about a read-only call; empty
	// for a call that changed something.
	result *chat.Message
	again  int // how many times it was made again
}

// callKey names a call by what it does: the tool and its arguments, the
// keys in order.
func callKey(c chat.Call) string {
	var v any
	if json.Unmarshal([]byte(c.Args), &v) == nil {
		if b, err := json.Marshal(v); err == nil {
			return c.Name + " " + string(b)
		}
	}
	return c.Name + " " + c.Args
}

// repeated answers a call made before in this turn without asking the
// user again (they declined it) or running it again (it only read, and
// nothing changed since); ok is false for a call to run. A call made again
// more than maxRepeats times ends the turn (t.loop).
func (t *turn) repeated(c chat.Call, answer func(string, bool) chat.Message) (chat.Message, bool) {
	e := t.earlier[callKey(c)]
	if e == nil || !e.declined && e.result == nil {
		return chat.Message{}, false
	}
	e.again++
	if e.again >= maxRepeats {
		t.loop = summarize(c.Args)
		if t.loop == "" {
			t.loop = c.Name
		}
		t.scr.ToolEnd(false, "made again and again: the turn stops", 0, 0)
		return answer("not run: you made this exact call again and again; the turn ends here", true), true
	}
	if e.declined {
		t.scr.ToolEnd(false, "declined before in this turn: not asked again", 0, 0)
		return answer("not run: the user already declined this exact call in this turn and was not asked again. Do not make it again: answer with what you have, or ask the user what they want.", true), true
	}
	t.scr.ToolEnd(!e.result.IsError, "the same as before: its earlier result", len(e.result.Text), 0)
	m := *e.result
	m.CallID = c.ID
	m.Text += "\n[the same call as before in this turn, answered with its earlier result; do not make it again]"
	return m, true
}

// remember notes what a call that was run or asked about came to. A call
// that may have changed something makes earlier reads stale.
func (t *turn) remember(c chat.Call, res tools.Result, m chat.Message) {
	if t.earlier == nil {
		t.earlier = map[string]*earlier{}
	}
	switch {
	case res.Declined:
		t.earlier[callKey(c)] = &earlier{declined: true}
	case res.ReadOnly && !res.Canceled:
		t.earlier[callKey(c)] = &earlier{result: &m}
	case res.Success:
		for k, e := range t.earlier {
			if !e.declined {
				delete(t.earlier, k)
			}
		}
	}
}

// looping is the error that ends a turn whose model kept making the same
// call.
func (t *turn) looping() error {
	return &lineError{line: fmt.Sprintf("%s is looping: it made the same call (%s) %d times in this turn, so the turn stops here — ask differently, or try a larger model",
		t.a.ep.Model, t.loop, maxRepeats+1)}
}
