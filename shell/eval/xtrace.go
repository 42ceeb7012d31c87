package eval

import (
	"fmt"
	"strings"
)

// xtrace prints a command as set -x does: PS4 expanded, then the words.
func (r *Runner) xtrace(words ...string) {
	if !r.opts.set[optXtrace] {
		return
	}
	r.xtraceLine(strings.Join(words, " "))
}

func (r *Runner) xtraceWords(words []string) {
	if !r.opts.set[optXtrace] || len(words) == 0 {
		return
	}
	r.xtraceLine(strings.Join(words, " "))
}

func (r *Runner) xtraceLine(line string) {
	ps4, ok := r.Get("PS4")
	if !ok {
		ps4 = "+ "
	}
	// PS4 is expanded with tracing off, and its first character repeats
	// for each level of indirection: command and process substitutions
	// (not ( ) subshells nor pipelines, as in bash).
	r.opts.set[optXtrace] = false
	prefix := ps4
	if strings.ContainsAny(ps4, "$`\\") {
		prefix = r.tracePrefix(ps4)
	}
	r.opts.set[optXtrace] = true
	if prefix != "" {
		prefix = strings.Repeat(prefix[:1], r.substDepth) + prefix
	}
	w := r.xtraceOut()
	fmt.Fprintf(w, "%s%s\n", prefix, line)
}

// tracePrefix is PS4 expanded; when its expansion fails, bash reports why
// and uses PS4 as it is, and the traced command runs on.
func (r *Runner) tracePrefix(ps4 string) (prefix string) {
	status, flow := r.status, r.flow
	defer func() {
		if e := recover(); e != nil {
			switch e.(type) {
			case abort, cmdError:
				r.failing = false
				prefix = ps4
				r.status, r.flow = status, flow
			default:
				panic(e)
			}
		}
	}()
	return r.expandPS(ps4)
}

// xtraceOut is where set -x writes: BASH_XTRACEFD's descriptor, else
// standard error.
func (r *Runner) xtraceOut() interface{ Write([]byte) (int, error) } {
	if v, ok := r.Get("BASH_XTRACEFD"); ok {
		if n, ok := fastNumber(v); ok {
			if f := r.fds.get(int(n)); f != nil && f.w != nil {
				return f.w
			}
		}
	}
	return r.stderr()
}

// expandPS expands a prompt string's expansions (not its backslash
// escapes, which the prompt decoder handles): PS4 and ${x@P}.
func (r *Runner) expandPS(s string) string {
	if _, err := r.sess.parseDoc(s); err != nil && strings.Contains(err.Error(), "`${`") {
		// bash names the whole string, not where its parse stopped.
		r.fatal(&varError{msg: s + ": bad substitution"})
	}
	if r.sess.promptExpand != nil {
		return r.sess.promptExpand(r, s)
	}
	return r.expandDoc(s)
}

// expandPrompt is ${x@P}.
func (r *Runner) expandPrompt(s string) string { return r.expandPS(s) }
