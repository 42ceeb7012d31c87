package danger

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/internal/lazy"
)

// Loops that start background jobs without bound exhaust the machine's
// processes as a fork bomb does, whatever their body runs: while :; do x &
// done, for i in $(seq 100000); do x & done.

// maxJobs is how many background jobs a loop may start before it is taken
// for a fork bomb.
const maxJobs = 1024

// bomb judges a loop that runs body endlessly or times times: if the body
// starts background jobs and nothing in the loop waits for them, or for
// time or input, the jobs pile up.
// fed says the loop reads an input that never ends (yes | while read):
// read then returns at once, turn after turn, and bounds nothing.
func (w *walker) bomb(what string, times int, endless, fed bool, cond, body []*syntax.Stmt) {
	if !endless && times <= maxJobs || !spawns(body) || waits(cond, fed) || waits(body, fed) {
		return
	}
	n := "endlessly"
	if !endless {
		n = strconv.Itoa(times) + " times"
	}
	w.res.add(Blocked, "fork bomb: `"+what+"` starts background jobs "+n+", without waiting for them")
}

// spawns reports statements that start a process and do not wait for it:
// a background job, a coprocess, setsid without -w.
func spawns(stmts []*syntax.Stmt) bool {
	found := false
	for _, s := range stmts {
		syntax.Walk(s, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Stmt:
				found = found || n.Background
			case *syntax.CoprocClause:
				found = true
			case *syntax.CallExpr:
				if len(n.Args) > 1 && n.Args[0].Lit() == "setsid" && n.Args[1].Lit() != "-w" &&
					n.Args[1].Lit() != "--wait" {
					found = true
				}
			case *syntax.FuncDecl:
				return false
			}
			return !found
		})
	}
	return found
}

// waits reports a command run in the foreground that waits for the jobs,
// for time or for input: wait, sleep (not for nothing), read (unless fed:
// its input never ends).
func waits(stmts []*syntax.Stmt, fed bool) bool {
	found := false
	for _, s := range stmts {
		syntax.Walk(s, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Stmt:
				if n.Background {
					return false
				}
			case *syntax.CallExpr:
				if len(n.Args) == 0 {
					return true
				}
				switch n.Args[0].Lit() {
				case "wait", "inotifywait", "flock":
					found = true
				case "read":
					found = !fed
				case "sleep":
					found = len(n.Args) > 1 && strings.Trim(n.Args[1].Lit(), "0.s") != ""
				}
			}
			return !found
		})
	}
	return found
}

// fills judges an endless loop that nothing ends or slows (no break,
// exit, return, sleep, read) and that makes files or directories on every
// turn: it runs until the disk or its inodes are full (while :; do mkdir
// -p d && cd d; done).
func (w *walker) fills(what string, endless bool, cond, body []*syntax.Stmt) {
	if !endless || waits(cond, false) || waits(body, false) || exits(body) || !makesFiles(body) {
		return
	}
	w.res.add(Dangerous, "`"+what+"`: makes files or directories endlessly, until the disk is full")
}

// exits reports a statement that can leave the loop or the shell.
func exits(stmts []*syntax.Stmt) bool {
	found := false
	for _, s := range stmts {
		syntax.Walk(s, func(n syntax.Node) bool {
			if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
				switch c.Args[0].Lit() {
				case "break", "exit", "return", "false":
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// makesFiles reports a command that creates a file or a directory, or a
// redirection that writes one.
func makesFiles(stmts []*syntax.Stmt) bool {
	found := false
	for _, s := range stmts {
		syntax.Walk(s, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.CallExpr:
				if len(n.Args) > 0 {
					switch n.Args[0].Lit() {
					case "mkdir", "touch", "cp", "dd", "fallocate", "tee", "ln", "mktemp", "truncate", "install":
						found = true
					}
				}
			case *syntax.Redirect:
				if n.Op == syntax.RdrOut || n.Op == syntax.AppOut || n.Op == syntax.RdrClob || n.Op == syntax.RdrAll ||
					n.Op == syntax.AppAll {
					found = found || !strings.HasPrefix(n.Word.Lit(), "/dev/")
				}
			}
			return !found
		})
	}
	return found
}

// holdsEndless judges a command that keeps what it reads (sort, tac, or
// tail's last line) given an input that never ends: it grows until the
// machine runs out of memory (tail /dev/zero, yes | sort).
func (w *walker) holdsEndless(name string, args []arg, in input) {
	switch name {
	case "sort", "tac", "tail", "shuf":
	default:
		return
	}
	endless := in.endless && !in.finite && in.kind != inNone
	for _, a := range args[1:] {
		if name == "tail" && (a.s == "-c" || strings.HasPrefix(a.s, "-c") || strings.HasPrefix(a.s, "--bytes")) {
			return // a bounded number of bytes
		}
		endless = endless || endlessDevices[a.s]
	}
	if endless {
		w.res.add(Dangerous, "`"+name+"`: keeps an input that never ends in memory, until the machine runs out")
	}
}

// hugeAlloc reports interpreter code that asks for memory by a number no
// machine has: bytearray(10**13), 'x' * 10**12, Buffer.alloc(1e13).
func hugeAlloc(code string) bool {
	if !mayContain(code, "**", "e1", "e2", "<<", "000000000") || !allocWords.Get().MatchString(code) {
		return false
	}
	for _, m := range hugeNumber.Get().FindAllStringSubmatch(code, -1) {
		switch {
		case m[1] != "": // 10**N
			if n, _ := strconv.Atoi(m[1]); n >= 10 {
				return true
			}
		case m[2] != "": // 2**N, 1<<N
			if n, _ := strconv.Atoi(m[2]); n >= 34 {
				return true
			}
		case m[3] != "": // 1eN
			if n, _ := strconv.Atoi(m[3]); n >= 10 {
				return true
			}
		case m[4] != "": // eleven digits or more
			return true
		}
	}
	return false
}

var (
	allocWords = lazy.Regexp{Expr: `bytearray|bytes\(|alloc|Buffer|Array\(|\[[^\]]*\]\s*\*|["']\s*\*|\*\s*\(|repeat\(|` +
		`zeros|ones|empty\(|range\(|list\(|\bx\s*\*|'\s*x\s*\d|"\s*x\s*\d`}
	hugeNumber = lazy.Regexp{Expr: `10\s*\*\*\s*(\d+)|(?:2\s*\*\*|1\s*<<)\s*(\d+)|\b\d(?:\.\d+)?[eE]\+?(\d+)|(\b\d{11,}\b)`}
)

// endlessDevices never reach their end.
var endlessDevices = map[string]bool{"/dev/zero": true, "/dev/urandom": true, "/dev/random": true, "/dev/full": true}

// endlessOutput reports a command whose output never ends, or holds more
// lines than maxJobs: yes, cat or pv of /dev/zero, seq 100000, or a
// filter of such an input (tr, base64, gzip …).
func endlessOutput(name string, args []string, in input) bool {
	switch name {
	case "yes":
		return true
	case "cat", "pv", "tail", "od", "xxd", "hexdump", "base64", "strings", "tr", "sed", "awk", "gzip", "xz",
		"zstd", "bzip2", "tee", "cut", "rev", "fold", "nl", "openssl", "gpg", "sort", "uniq":
		if in.endless {
			return name != "sort" // sort waits for the end, which never comes
		}
		for _, a := range args {
			if endlessDevices[a] {
				return true
			}
		}
	case "seq":
		n := 0.0
		for _, a := range args {
			if f, err := strconv.ParseFloat(a, 64); err == nil {
				n = f
			} else if a == "inf" || a == "infinity" {
				return true
			}
		}
		return n > maxJobs
	}
	return false
}

// unboundedJobs reports the option (xargs -P, parallel -j) that runs as
// many jobs at once as there are, 0 or more than maxJobs.
func unboundedJobs(own []string, short, long string) bool {
	for j, a := range own {
		v, ok := "", false
		switch {
		case (a == short || a == long) && j+1 < len(own):
			v, ok = own[j+1], true
		case strings.HasPrefix(a, long+"="):
			v, ok = strings.TrimPrefix(a, long+"="), true
		case strings.HasPrefix(a, short) && len(a) > len(short):
			v, ok = a[len(short):], true
		}
		if ok {
			n, err := strconv.Atoi(strings.TrimSuffix(v, "%"))
			return err == nil && (n == 0 || n > maxJobs)
		}
	}
	return false
}

// alwaysTrue reports a condition that never ends a while loop (:, true,
// [ 1 ], (( 1 ))), or with until set, never ends an until loop (false).
func alwaysTrue(cond []*syntax.Stmt, until bool) bool {
	if len(cond) != 1 || len(cond[0].Redirs) > 0 {
		return false
	}
	s := cond[0]
	want := !until
	if s.Negated {
		want = !want
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Args) == 0 {
			return false
		}
		switch c.Args[0].Lit() {
		case ":", "true":
			return want && len(c.Args) >= 1
		case "false":
			return !want
		case "[", "test":
			// [ 1 ] is true: one word that is not empty.
			n := len(c.Args) - 1
			if c.Args[0].Lit() == "[" {
				n--
			}
			return want && n == 1 && c.Args[1].Lit() != ""
		}
	case *syntax.ArithmCmd:
		if wd, ok := c.X.(*syntax.Word); ok {
			v := wd.Lit()
			return v != "" && strings.Trim(v, "0") != "" && isNumber(v) == want
		}
	case *syntax.TestClause:
		if wd, ok := c.X.(*syntax.Word); ok {
			return want && wd.Lit() != ""
		}
	}
	return false
}

// cLoopBound is how many times a C-style loop runs: endless without a
// condition or with a constant true one; N for i<N, i<=N and N>i.
func cLoopBound(l *syntax.CStyleLoop) (times int, endless bool) {
	switch c := l.Cond.(type) {
	case nil:
		return 0, true
	case *syntax.Word:
		v := c.Lit()
		return 0, isNumber(v) && strings.Trim(v, "0") != ""
	case *syntax.BinaryArithm:
		x, y := arithNumber(c.X), arithNumber(c.Y)
		switch c.Op {
		case syntax.Lss, syntax.Leq, syntax.Neq:
			return y, false
		case syntax.Gtr, syntax.Geq:
			return x, false
		}
	}
	return 0, false
}

// arithNumber is the value of an arithmetic literal, or 0.
func arithNumber(x syntax.ArithmExpr) int {
	if wd, ok := x.(*syntax.Word); ok {
		if n, err := strconv.Atoi(wd.Lit()); err == nil {
			return n
		}
	}
	return 0
}

// seqCount is how many numbers $(seq …) with literal operands prints, or
// -1 when the word is no such substitution.
func seqCount(word *syntax.Word) int {
	if len(word.Parts) != 1 {
		return -1
	}
	cs, ok := word.Parts[0].(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 {
		return -1
	}
	c, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) < 2 || len(c.Args) > 4 || c.Args[0].Lit() != "seq" {
		return -1
	}
	var nums []float64
	for _, a := range c.Args[1:] {
		f, err := strconv.ParseFloat(a.Lit(), 64)
		if err != nil {
			return -1
		}
		nums = append(nums, f)
	}
	first, inc, last := 1.0, 1.0, nums[len(nums)-1]
	if len(nums) >= 2 {
		first = nums[0]
	}
	if len(nums) == 3 {
		inc = nums[1]
	}
	if inc == 0 || (last-first)/inc < 0 {
		return 0
	}
	if n := (last-first)/inc + 1; n < 1e9 {
		return int(n)
	}
	return 1e9
}

// braceRange is a sequence expression of brace expansion: {1..100000}.
var braceRange = lazy.Regexp{Expr: `\{(-?[0-9]+)\.\.(-?[0-9]+)(\.\.-?[0-9]+)?\}`}

// braceCount is how many words the sequence expressions of an unquoted
// word make, or 0 when it has none.
func braceCount(word *syntax.Word) int {
	n := 0
	for _, p := range word.Parts {
		l, ok := p.(*syntax.Lit)
		if !ok {
			continue
		}
		for _, m := range braceRange.Get().FindAllStringSubmatch(l.Value, 4) {
			a, _ := strconv.Atoi(m[1])
			b, _ := strconv.Atoi(m[2])
			k := max(a-b, b-a) + 1
			if n == 0 {
				n = k
			} else {
				n = min(n*k, 1e9)
			}
		}
	}
	return n
}

// condBound is how many turns a while or until loop's condition may allow,
// read from the largest number it compares with ([ $i -lt 1000000 ],
// (( n < 100000 ))): a counter that starts low runs up to it; 0 when the
// condition holds no number.
func condBound(cond []*syntax.Stmt) int {
	best := 0
	for _, s := range cond {
		syntax.Walk(s, func(n syntax.Node) bool {
			var lit string
			switch n := n.(type) {
			case *syntax.Lit:
				lit = n.Value
			case *syntax.CmdSubst:
				return true
			}
			if v, err := strconv.Atoi(lit); err == nil && v > best {
				best = v
			}
			return true
		})
	}
	return best
}
