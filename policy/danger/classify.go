package danger

import (
	"errors"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/internal/lazy"
	"github.com/qsh-shell/qsh/policy/secret"
)

// Workspace is where a command runs: the project it may change freely and
// the home directory whose loss would be catastrophic.
type Workspace struct {
	Dir  string // the workspace root, absolute; empty when not known
	Home string // the user's home directory, absolute
}

// maxNesting bounds the nesting of statements (substitutions, subshells,
// blocks, bodies) that the walk follows, so that judging stays linear in
// the input.
const maxNesting = 200

// maxDepth bounds nesting (bash -c inside eval inside sudo …) so that a
// hostile string cannot make the classifier recurse without end.
const maxDepth = 12

// Classify judges every command that command would run and returns the
// worst class found with the reasons for it.
func Classify(command string, ws Workspace) Verdict {
	w := newWalker(ws, ws.Dir)
	w.script(command)
	w.finish()
	return w.res.verdict()
}

// result collects the class and reasons of all the parts of a string.
type result struct {
	class   Class
	reasons []string
	seen    bool
	home    string // shown as ~ in the reasons
}

func (r *result) add(c Class, reason string) {
	switch {
	case !r.seen || c > r.class:
		r.class, r.reasons, r.seen = c, r.reasons[:0], true
	case c < r.class:
		return
	}
	for _, s := range r.reasons {
		if s == reason {
			return
		}
	}
	if len(r.reasons) < 6 {
		r.reasons = append(r.reasons, reason)
	}
}

func (r *result) verdict() Verdict {
	if !r.seen {
		return Verdict{Class: Safe, Reasons: []string{"runs nothing"}}
	}
	reasons := make([]string, len(r.reasons))
	for i, s := range r.reasons {
		reasons[i] = tilde(holeText.Get().Replace(s), r.home)
	}
	return Verdict{Class: r.class, Reasons: reasons}
}

// holeText shows the parts of a value not known before running.
var holeText = lazy.Value[*strings.Replacer]{Build: func() *strings.Replacer {
	return strings.NewReplacer(hole, "…", string(holeDL), "…", holeEntry, "{}", holeTree, "{}", holeSetup, "…")
}}

// tilde writes the home directory as ~ in a reason: shorter, and the
// same for every user.
func tilde(s, home string) string {
	if home == "" || home == "/" || !strings.Contains(s, home) {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, home)
		if i < 0 {
			break
		}
		end := i + len(home)
		// Only the whole directory: /home/alice2 is not ~2, /x/home/alice
		// not /x~.
		whole := (end == len(s) || strings.IndexByte("/`' \t\n);:,", s[end]) >= 0) &&
			(i == 0 || strings.IndexByte("`' \t(=:,\"", s[i-1]) >= 0)
		if !whole {
			b.WriteString(s[:end])
		} else {
			b.WriteString(s[:i])
			b.WriteByte('~')
		}
		s = s[end:]
	}
	b.WriteString(s)
	return b.String()
}

// walker walks a parsed string the way the shell would run it, keeping
// what it can know about the state: variables, functions, the cwd and the
// files the string downloads.
type walker struct {
	ws    Workspace
	cwd   string // "" when it cannot be known
	vars  map[string]string
	lists map[string][]string
	funcs map[string]*syntax.Stmt
	// params are the positional parameters inside a function call; nil
	// means unknown.
	params []string
	arg0   string // $0 of bash -c CODE NAME; "" when not known
	shared *shared
	depth  int
	// forking is set while walking a pipeline element or a background
	// statement: a function that calls itself there is a fork bomb.
	forking bool
	// envFiltered is set for `env` whose output goes through a grep that
	// keeps only named, non-secret variables.
	envFiltered bool
	iterating   bool // inside a loop walked once per known item
	looping     bool // inside a loop body or condition: it may run many times
	ifsPrefix   bool // the command being judged has IFS=… before it
	// assigns are the command's own assignments (GOBIN=bin go install): its
	// environment, which its arguments do not see.
	assigns []*syntax.Assign
	// alts are the known values unknown variables take when a default
	// they were assigned from applies (X=${X:-rm}).
	alts map[string]string
	// dry is set while the checks of a dry run judge it (see rule.dry).
	dry bool
	// masked is set while judging a command whose output is reduced to
	// names, counts or hashes (see masks.go): it discloses nothing.
	masked bool
	// testOnly is set while expanding the operands of test, [ and [[:
	// a secret there decides only the exit status, it is not printed.
	testOnly bool
	// procIn is what a >(…) of the statement being judged reads: what
	// the statement writes, downloaded content when it fetches or passes
	// a download on (curl … > >(sh), tee >(sh)).
	procIn  input
	aliases map[string]string // defined earlier in the string
	ints    map[string]bool   // variables declared integer: assigning evaluates arithmetic
	refs    map[string]string // namerefs (declare -n r=HOME): the variable each names
	res     *result
	src     string // the text being walked, for reasons
	last    []arg  // the last command line run, wrappers removed
	box     *box   // inside a container: how its paths map to the host
}

// shared is the state every nested walker of one Classify call sees.
type shared struct {
	downloads map[string]bool      // absolute paths of files fetched from the network
	dlDirs    []string             // directories a download was unpacked into
	links     map[string]string    // symbolic links made by the string, to their targets
	calls     map[*syntax.Stmt]int // function bodies being run, for recursion
	called    map[*syntax.Stmt]bool
	reads     map[string]bool // known inputs a read has taken its line from
	// declared are the function bodies declared anywhere in the string,
	// with the walker state at their declaration.
	declared   []declared
	netfd      map[string]bool      // file descriptors opened on /dev/tcp
	fdIn       map[string]input     // what file descriptors opened for reading read
	runtime    bool                 // judging a real argv at run time (see Guard)
	piped      bool                 // at run time: the output goes into a pipe, judged with it before running
	budget     int                  // statements left to walk
	level      int                  // statements being walked, one inside the other
	fetches    map[syntax.Node]bool // substitutions known to fetch or not (see fetching)
	fixedPaths []string             // secret.Places.Fixed for the home, made on first use
	// noOutput are substitutions whose output could not be computed, and
	// outputDepth how many are being computed one inside the other.
	noOutput    map[*syntax.Stmt]bool
	outputDepth int
	// scripts are the files the string writes, with what it writes into
	// them (hole when that is not known).
	scripts map[string]string
	// getenv reads the environment of the commands being judged, for the
	// files it moves ($KUBECONFIG); nil when judging text alone.
	getenv func(string) string
	// urlInstall: the string installs a program from a URL or a
	// repository (pip install git+…, cargo install --git): a command the
	// table does not know, later in the string, may be that program.
	urlInstall bool
	// remotes are git remotes the string adds or points elsewhere.
	remotes map[string]bool
	// images are the image repositories the string builds or tags;
	// projectText the project's files that may name images, read on
	// first use (see projectNames).
	images      map[string]bool
	projectText *string
	// planted are the package.json scripts the string sets (npm pkg set
	// scripts.NAME=LINE), by the package.json's path and the name: a
	// later install or run in the string runs them.
	planted map[string]map[string]string
}

// call records that a function body runs (and is running).
func (s *shared) call(body *syntax.Stmt) {
	if s.calls == nil {
		s.calls, s.called = map[*syntax.Stmt]int{}, map[*syntax.Stmt]bool{}
	}
	s.called[body] = true
	s.calls[body]++
}

// fixed lists the places secrets are kept for home (see secret.Places).
func (s *shared) fixed(home string) []string {
	if s.fixedPaths == nil {
		s.fixedPaths = (secret.Places{Home: home, Getenv: s.getenv}).Fixed()
	}
	return s.fixedPaths
}

// wrote records that the string writes data into the file p (known says
// whether data is what goes in; append adds to what was there).
func (s *shared) wrote(p, data string, known, append bool) {
	if s.scripts == nil {
		s.scripts = map[string]string{}
	}
	prev, had := s.scripts[p]
	switch {
	case !known, append && had && hasHole(prev):
		s.scripts[p] = hole
	case append:
		s.scripts[p] = prev + data
	default:
		s.scripts[p] = data
	}
}

// wroteFile records what the string writes into the file p; a shell's
// start-up file runs it at the next shell, so known content is judged
// as code there, for what is worse than dangerous.
func (w *walker) wroteFile(p, data string, known, append bool) {
	w.shared.wrote(p, data, known, append)
	w.supplyWrite(p, data, known)
	if known && startupFiles.Get()[path.Base(p)] && data != "" {
		w.literal1(data)
	}
}

// startupFiles are the files shells run when they start or end.
var startupFiles = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	m := map[string]bool{}
	for _, f := range strings.Fields(".bashrc .bash_profile .bash_login .bash_logout .profile .zshrc .zprofile " +
		".zshenv .zlogin .zlogout .kshrc .mkshrc .qshrc .qsh_profile .xprofile .xinitrc .xsessionrc config.fish") {
		m[f] = true
	}
	return m
}}

// download records a file fetched from the network.
func (s *shared) download(p string) {
	if s.downloads == nil {
		s.downloads = map[string]bool{}
	}
	s.downloads[p] = true
}

func newWalker(ws Workspace, cwd string) *walker {
	if ws.Home == "" {
		ws.Home = "/home/~"
	}
	ws.Dir = cleanAbs(ws.Dir)
	ws.Home = cleanAbs(ws.Home)
	if ws.Dir == "/" || systemDirs.Get()[ws.Dir] {
		// Not a project: everything would count as inside it.
		ws.Dir = ""
	}
	return &walker{
		ws:     ws,
		cwd:    cleanAbs(cwd),
		vars:   map[string]string{},
		shared: &shared{budget: 20000}, // its maps are made on first write
		funcs:  map[string]*syntax.Stmt{},
		res:    &result{home: ws.Home},
	}
}

// clone is the state of a subshell: changes do not flow back.
func (w *walker) clone() *walker {
	c := *w
	c.vars = maps.Clone(w.vars)
	c.lists = maps.Clone(w.lists)
	c.funcs = maps.Clone(w.funcs)
	c.aliases = maps.Clone(w.aliases)
	c.ints = maps.Clone(w.ints)
	c.refs = maps.Clone(w.refs)
	c.alts = maps.Clone(w.alts)
	return &c
}

// merge folds the state of branches that may or may not have run back into
// w: what differs becomes unknown.
func (w *walker) merge(branches ...*walker) {
	for _, b := range branches {
		for k, v := range b.vars {
			if old, ok := w.vars[k]; !ok || old != v {
				w.vars[k] = hole
			}
		}
		for k, v := range b.lists {
			if w.lists == nil {
				w.lists = map[string][]string{}
			}
			if _, ok := w.lists[k]; !ok {
				w.lists[k] = v
			}
		}
		for k, v := range b.funcs {
			w.funcs[k] = v
		}
		if b.cwd != w.cwd {
			w.cwd = ""
		}
	}
}

// parsers are reused: a new syntax.Parser costs more to allocate than most
// commands cost to parse.
var parsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}

func parse(src string) (*syntax.File, error) {
	if tooDeep(src) {
		return nil, errTooDeep
	}
	p := parsers.Get().(*syntax.Parser)
	defer parsers.Put(p)
	return p.Parse(strings.NewReader(src), "")
}

var errTooDeep = errors.New("too deep: brackets nested more than " + strconv.Itoa(maxBrackets) + " levels")

// maxBrackets bounds the nesting of brackets in a string given to the
// parser, whose time grows faster than the input's length for some deep
// shapes ("$("$(…)")", (((…)))).
const maxBrackets = 2 * maxNesting

// tooDeep reports text whose brackets nest deeper than maxBrackets, by a
// scan that ignores quotes: deeper than anyone writes either way.
func tooDeep(src string) bool {
	depth := 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '(', '{', '[':
			if depth++; depth > maxBrackets {
				return true
			}
		case ')', '}', ']':
			depth = max(depth-1, 0)
		}
	}
	return false
}

// script parses src and walks it; a string that does not parse is
// dangerous, with the parser's message.
func (w *walker) script(src string) {
	f, err := parse(src)
	if err != nil {
		w.res.add(Dangerous, "does not parse: "+err.Error())
		return
	}
	w.src = src
	w.stmts(f.Stmts, input{})
}

// nested walks a string that another command will run as shell code.
func (w *walker) nested(src string, in input) {
	w.nestedWith(src, in, w.params)
}

// nestedWith walks shell code run with the given positional parameters
// (nil: unknown).
func (w *walker) nestedWith(src string, in input, params []string) {
	if setupOnly(src) {
		w.res.add(Dev, "runs the shell setup code an installed tool prints")
		return
	}
	c := w.clone()
	c.params = params
	c.depth++
	if strings.ContainsRune(src, holeDL) {
		w.res.add(Blocked, "runs code downloaded from the network")
	}
	if hasHole(src) {
		w.res.add(Dangerous, "runs shell code that is not known before running")
		// A variable the walk knows nothing of, named for the reasons
		// the user reads (the command `$UNKNOWN` is not known…).
		const unknown = "$UNKNOWN"
		src = strings.NewReplacer(hole, unknown, string(holeDL), unknown, holeEntry, unknown, holeTree, unknown).Replace(src)
	}
	if c.depth > maxDepth {
		// Nothing legitimate nests this deep; it cannot be judged, so it
		// is taken for the worst.
		w.res.add(Blocked, "commands nested too deeply to judge")
		return
	}
	f, err := parse(src)
	if err != nil {
		w.res.add(Dangerous, "shell code that does not parse: "+err.Error())
		w.unparsed(src)
		return
	}
	c.src = src
	c.stmts(f.Stmts, in)
}

// unparsed judges the pieces of shell code that does not parse whole:
// a download piped to a shell visible in it still counts, though the
// text around it is broken (a value with a stray ';' or quote, code cut
// out of a larger script). The pieces run from a command boundary to
// another; only what is blocked is kept, since a piece alone says
// nothing else for sure.
func (w *walker) unparsed(src string) {
	if w.depth >= maxDepth || !mayContain(src, "://", "curl", "wget", "fetch", "http", string(holeDL)) {
		return
	}
	starts, ends := []int{0}, []int{}
	for i := 0; i < len(src) && len(ends) < 12; i++ {
		switch src[i] {
		case ';', '&', '|', '\n', '(', ')', '{', '}', '`', '\'', '"':
			starts = append(starts, i+1)
			ends = append(ends, i)
		}
	}
	ends = append(ends, len(src))
	for _, s := range starts {
		for k := len(ends) - 1; k >= 0; k-- {
			e := ends[k]
			if e <= s || strings.TrimSpace(src[s:e]) == "" {
				break
			}
			if _, err := parse(src[s:e]); err != nil {
				continue
			}
			c := w.clone()
			c.res = &result{}
			c.nested(src[s:e], input{})
			if c.res.class == Blocked {
				for _, r := range c.res.reasons {
					w.res.add(Blocked, r)
				}
				return
			}
			break // the longest piece from s that parses was judged
		}
	}
}

// inPlace walks shell code the current shell runs itself (eval): its
// assignments, functions and cd stay.
func (w *walker) inPlace(src string, in input) {
	if setupOnly(src) {
		w.res.add(Dev, "runs the shell setup code an installed tool prints")
		return
	}
	if strings.ContainsRune(src, holeDL) || hasHole(src) {
		w.nested(src, in)
		return
	}
	if w.depth+1 > maxDepth {
		w.res.add(Blocked, "commands nested too deeply to judge")
		return
	}
	f, err := parse(src)
	if err != nil {
		w.res.add(Dangerous, "shell code that does not parse: "+err.Error())
		return
	}
	c := *w // shares the maps: changes are the shell's own
	c.depth++
	c.src = src
	c.stmts(f.Stmts, in)
	w.cwd, w.params, w.lists, w.aliases = c.cwd, c.params, c.lists, c.aliases
}

// finish judges the bodies of functions that were declared but never
// called: they may still run later in the session.
func (w *walker) finish() {
	for i := 0; i < len(w.shared.declared); i++ {
		d := w.shared.declared[i]
		if w.shared.called[d.body] {
			continue
		}
		w.shared.call(d.body)
		c := d.at.clone()
		c.params = nil
		c.stmt(d.body, input{})
		c.shared.calls[d.body]--
	}
}

type declared struct {
	body *syntax.Stmt
	at   *walker
}

func (w *walker) stmts(list []*syntax.Stmt, in input) {
	for _, s := range list {
		w.stmt(s, in)
	}
}

func (w *walker) stmt(s *syntax.Stmt, in input) {
	if w.shared.budget--; w.shared.budget < 0 {
		if w.shared.budget == -1 {
			w.res.add(Blocked, "too many commands to judge")
		}
		return
	}
	if w.shared.level++; w.shared.level > maxNesting {
		// Deeper than anyone writes: judging it would cost more than it
		// says (deep stacks to copy and scan), so it is taken for risky.
		w.res.add(Dangerous, "too deep: commands nested more than "+strconv.Itoa(maxNesting)+" levels, not judged")
		w.shared.level--
		return
	}
	defer func() { w.shared.level-- }()
	saved := w.procIn
	w.procIn = input{kind: inUnknown}
	if in.kind == inDownload || w.stmtFetches(s) {
		w.procIn = input{kind: inDownload}
	}
	defer func() { w.procIn = saved }()
	if len(s.Redirs) > 0 && (w.countsOnly(s) || w.keysLoop(s)) {
		// wc -l < .env: what the redirection reads is counted, not shown.
		masked := w.masked
		w.masked = true
		defer func() { w.masked = masked }()
	}
	io := w.redirects(s.Redirs, in)
	if s.Background {
		c := w.clone()
		c.forking = true
		c.command(s.Cmd, io)
		return
	}
	w.last = nil
	w.command(s.Cmd, io)
	if len(io.out) > 0 {
		w.wroteOutput(s, io)
	}
}

// stmtFetches reports a command whose output is downloaded content: a
// fetcher, or one whose words hold a substitution that fetches. A block
// or loop is not one: a fetch among its statements says nothing of the
// others.
func (w *walker) stmtFetches(s *syntax.Stmt) bool {
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 {
		return false
	}
	name := commandBase(c.Args[0].Lit())
	if fetchers.Get()[name] || remoteReaders.Get()[name] {
		return true
	}
	if !dbClients.Get()[name] && !slices.ContainsFunc(c.Args, maySubst) {
		return false // most commands: no walk, no map
	}
	return w.shared.fetching(s, []*syntax.Stmt{s})
}

// maySubst reports a word that may hold a command or process
// substitution, by a look at its parts that allocates nothing.
func maySubst(word *syntax.Word) bool {
	for _, p := range word.Parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				switch q := q.(type) {
				case *syntax.Lit:
				case *syntax.ParamExp:
					if q.Exp != nil || q.Repl != nil || q.Slice != nil || q.Index != nil {
						return true
					}
				default:
					return true
				}
			}
		case *syntax.ParamExp:
			if p.Exp != nil || p.Repl != nil || p.Slice != nil || p.Index != nil {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// wroteOutput records what a statement wrote to the files its output goes
// to, so that running one of them later in the string is judged by its
// content (printf 'rm -rf ~' > t.sh; bash t.sh).
func (w *walker) wroteOutput(s *syntax.Stmt, io ioInfo) {
	data, known := "", false
	if _, ok := s.Cmd.(*syntax.CallExpr); ok && w.last != nil {
		name, args := lastCommand(w.last)
		out := w.output(s, name, args, io.in)
		if out.kind == inData {
			data, known = out.data, true
		}
		if out.kind == inDownload {
			// ssh host cat x > x.sh: what it wrote came from elsewhere.
			for _, p := range io.out {
				w.shared.download(p)
			}
		}
		if out.endless && slices.ContainsFunc(io.out, func(p string) bool { return !strings.HasPrefix(p, "/dev/") }) {
			w.res.add(Dangerous, "`"+name+"`: writes an endless stream to a file, until the disk is full")
		}
	}
	for i, p := range io.out {
		w.wroteFile(p, data, known, io.app[i])
	}
}

func (w *walker) command(cmd syntax.Command, io ioInfo) {
	switch c := cmd.(type) {
	case nil:
	case *syntax.CallExpr:
		w.call(c, io)
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.Pipe, syntax.PipeAll:
			w.pipeline(c, io)
		default:
			w.stmt(c.X, io.in)
			w.stmt(c.Y, io.in)
		}
	case *syntax.Block:
		w.stmts(c.Stmts, io.in)
	case *syntax.Subshell:
		w.clone().stmts(c.Stmts, io.in)
	case *syntax.IfClause:
		w.ifClause(c, io.in)
	case *syntax.WhileClause:
		what := "while"
		if c.Until {
			what = "until"
		}
		fed := io.in.endless && io.in.kind != inNone && !c.Until
		w.bomb(what, condBound(c.Cond), alwaysTrue(c.Cond, c.Until) || fed, fed, c.Cond, c.Do)
		w.fills(what, alwaysTrue(c.Cond, c.Until), c.Cond, c.Do)
		b := w.clone()
		b.looping = true
		b.stmts(c.Cond, io.in)
		b.stmts(c.Do, io.in)
		w.merge(b)
	case *syntax.ForClause:
		w.forClause(c, io.in)
	case *syntax.CaseClause:
		w.substs(c.Word)
		var bs []*walker
		for _, item := range c.Items {
			for _, p := range item.Patterns {
				w.substs(p)
			}
			b := w.clone()
			b.stmts(item.Stmts, io.in)
			bs = append(bs, b)
		}
		w.merge(bs...)
	case *syntax.FuncDecl:
		w.funcs[funcName(c)] = c.Body
		w.shared.declared = append(w.shared.declared, declared{c.Body, w.clone()})
	case *syntax.ArithmCmd:
		w.substs(c.X)
		w.arithVars(c.X, "(( … ))")
	case *syntax.TestClause:
		w.testOnly = true
		w.substs(c.X)
		w.testOnly = false
		w.testArith(c.X)
	case *syntax.LetClause:
		for _, x := range c.Exprs {
			w.substs(x)
			if word, ok := x.(*syntax.Word); ok {
				w.arithCode(w.literal(word), "let "+w.text(word))
			}
			w.arithVars(x, "let")
		}
	case *syntax.DeclClause:
		w.decl(c)
	case *syntax.TimeClause:
		if c.Stmt != nil {
			w.stmt(c.Stmt, io.in)
		}
	case *syntax.CoprocClause:
		w.clone().stmt(c.Stmt, io.in)
	case *syntax.TestDecl:
	default:
		w.res.add(Dangerous, "a shell construct the classifier does not know")
	}
}

func funcName(f *syntax.FuncDecl) string {
	if f.Name != nil {
		return f.Name.Value
	}
	if len(f.Names) > 0 {
		return f.Names[0].Value
	}
	return ""
}

func (w *walker) ifClause(c *syntax.IfClause, in input) {
	var bs []*walker
	for ; c != nil; c = c.Else {
		w.stmts(c.Cond, in)
		b := w.clone()
		b.stmts(c.Then, in)
		bs = append(bs, b)
	}
	w.merge(bs...)
}

func (w *walker) forClause(c *syntax.ForClause, in input) {
	switch l := c.Loop.(type) {
	case *syntax.WordIter:
		var items []string
		known := l.InPos.IsValid()
		times := 0
		for _, word := range l.Items {
			if n := seqCount(word); n >= 0 {
				times += n - 1
			} else if n := braceCount(word); n > 1 {
				times += n - 1
			}
			for _, f := range w.fields(word) {
				times++
				items = append(items, f.s)
				if hasHole(f.s) {
					known = false
				}
			}
		}
		w.bomb("for", times, false, false, nil, c.Do)
		// Known items are walked one by one (for d in build dist), but
		// only in the outermost such loop: nested loops multiply.
		if !known || len(items) > 16 || w.iterating {
			items = []string{hole}
		}
		var bs []*walker
		for _, it := range items {
			b := w.clone()
			b.iterating = len(items) > 1 || it != hole
			b.looping = true
			b.vars[l.Name.Value] = it
			b.stmts(c.Do, in)
			bs = append(bs, b)
		}
		w.merge(bs...)
	case *syntax.CStyleLoop:
		times, endless := cLoopBound(l)
		w.bomb("for ((…))", times, endless, false, nil, c.Do)
		w.fills("for ((…))", endless, nil, c.Do)
		for _, x := range []syntax.ArithmExpr{l.Init, l.Cond, l.Post} {
			if x != nil {
				w.substs(x)
			}
		}
		b := w.clone()
		b.looping = true
		b.stmts(c.Do, in)
		w.merge(b)
	}
}
