package tools

import (
	"fmt"
	"strings"
)

// unifiedDiff returns the unified diff from old to new with three lines of
// context, or "" when they are equal. The common head and tail are cut
// first, so an edit of one spot in a big file costs little; the middle is
// diffed line by line when it is small enough, else replaced whole.
func unifiedDiff(name, old, new string) string {
	if old == new {
		return ""
	}
	a, b := splitLines(old), splitLines(new)
	ops := diffLines(a, b)
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- a/%s\n+++ b/%s\n", name, name)
	const ctx = 3
	// Find hunks: runs of changes with up to 2*ctx equal lines between.
	i := 0
	for i < len(ops) {
		for i < len(ops) && ops[i].kind == ' ' {
			i++
		}
		if i == len(ops) {
			break
		}
		start := max(i-ctx, 0)
		for start < i && ops[start].kind != ' ' {
			start++
		}
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*ctx {
				end = min(end+ctx, run)
				break
			}
			end = run
		}
		writeHunk(&sb, ops[start:end])
		i = end
	}
	return sb.String()
}

type diffOp struct {
	kind   byte // ' ', '-', '+'
	line   string
	aN, bN int // 1-based line numbers in a and b before this op
}

func writeHunk(sb *strings.Builder, ops []diffOp) {
	aStart, bStart := ops[0].aN, ops[0].bN
	var aLen, bLen int
	for _, o := range ops {
		if o.kind != '+' {
			aLen++
		}
		if o.kind != '-' {
			bLen++
		}
	}
	if aLen == 0 {
		aStart--
	}
	if bLen == 0 {
		bStart--
	}
	fmt.Fprintf(sb, "@@ -%s +%s @@\n", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
	for _, o := range ops {
		sb.WriteByte(o.kind)
		if strings.HasSuffix(o.line, "\n") {
			sb.WriteString(o.line)
		} else {
			sb.WriteString(o.line + "\n\\ No newline at end of file\n")
		}
	}
}

func hunkRange(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

// splitLines splits s after each newline; the last line may lack one.
func splitLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// maxLCS bounds the table of the line-by-line diff of the changed middle.
const maxLCS = 4 << 20

// diffLines returns the edit script from a to b.
func diffLines(a, b []string) []diffOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []diffOp
	ai, bi := 0, 0
	emit := func(kind byte, line string) {
		ops = append(ops, diffOp{kind: kind, line: line, aN: ai + 1, bN: bi + 1})
		if kind != '+' {
			ai++
		}
		if kind != '-' {
			bi++
		}
	}
	for _, l := range a[:pre] {
		emit(' ', l)
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if (len(ma)+1)*(len(mb)+1) <= maxLCS {
		// lcs[i][j] is the LCS length of ma[i:] and mb[j:].
		w := len(mb) + 1
		lcs := make([]int32, (len(ma)+1)*w)
		for i := len(ma) - 1; i >= 0; i-- {
			for j := len(mb) - 1; j >= 0; j-- {
				if ma[i] == mb[j] {
					lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
				} else {
					lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
				}
			}
		}
		i, j := 0, 0
		for i < len(ma) || j < len(mb) {
			switch {
			case i < len(ma) && j < len(mb) && ma[i] == mb[j]:
				emit(' ', ma[i])
				i++
				j++
			case i < len(ma) && (j == len(mb) || lcs[(i+1)*w+j] >= lcs[i*w+j+1]):
				emit('-', ma[i])
				i++
			default:
				emit('+', mb[j])
				j++
			}
		}
	} else {
		for _, l := range ma {
			emit('-', l)
		}
		for _, l := range mb {
			emit('+', l)
		}
	}
	for _, l := range a[len(a)-suf:] {
		emit(' ', l)
	}
	return ops
}
