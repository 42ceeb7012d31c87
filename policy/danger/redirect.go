package danger

import (
	"path"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// inKind says what a command reads on standard input, which matters for
// shells and interpreters: they run it.
type inKind int

const (
	inNone     inKind = iota // the terminal, or nothing
	inData                   // text known before running
	inDownload               // content fetched from the network
	inUnknown                // output of something that cannot be seen into
	inFile                   // a file
	inPaths                  // names of files in the directory in data (git ls-files, grep -l …)
	inTree                   // names of all the files under the directory in data (find)
)

type input struct {
	kind inKind
	data string // inData: the text; inFile: the absolute path ("" unknown)
	// parts are texts known to be in an input that is not known whole:
	// what echo and printf print in (crontab -l; echo '…') | crontab -.
	parts []string
	// endless: the input never ends (yes, /dev/zero), or holds more lines
	// than maxJobs.
	endless bool
	// finite: an endless input that does end, after more lines than a
	// loop may start jobs for (seq 1 1000000): too many for jobs, not a
	// stream that fills memory.
	finite bool
	// For inPaths and inTree: entry is a file holding secrets that the
	// search's filter matches (find -name '*.pem' → server.pem), or "";
	// filtered says the filter keeps some files out (-name '*.go').
	entry    string
	filtered bool
	// names: inPaths printed as bare names of the directory's entries (ls
	// DIR), not as paths.
	names bool
	// hidden: inData that a decoder or transform made (base64 -d, rev,
	// tr): known to the classifier, unreadable to the user at the prompt.
	hidden bool
}

// ioInfo is what a statement's redirections do to its command.
type ioInfo struct {
	in  input
	out []string // absolute paths standard output is written to
	app []bool   // for each of out: appended to, not replaced
	net bool     // input or output is a network socket
}

func (w *walker) redirects(rs []*syntax.Redirect, in input) ioInfo {
	io := ioInfo{in: in}
	for _, r := range rs {
		w.substs(r.Word)
		if r.Hdoc != nil {
			w.substs(r.Hdoc)
		}
		fd := ""
		if r.N != nil {
			fd = r.N.Value
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			io.in = input{kind: inData, data: w.heredoc(r)}
		case syntax.WordHdoc:
			io.in = w.dataInput(w.literal(r.Word))
		case syntax.RdrIn:
			stdin := io.in
			target := w.literal(r.Word)
			p, ok := w.abs(target)
			w.readFile(p, ok, "`< "+w.text(r.Word)+"`")
			if !ok {
				w.readPartly(target, "`< "+w.text(r.Word)+"`")
			}
			switch {
			case strings.ContainsRune(target, holeDL):
				io.in = input{kind: inDownload}
			case !ok:
				io.in = input{kind: inUnknown}
			case strings.HasPrefix(p, "/dev/fd/") && w.shared.scripts[p] != "" && !hasHole(w.shared.scripts[p]):
				// < <(printf …): the output of a process substitution
				// known before running.
				io.in = input{kind: inData, data: w.shared.scripts[p]}
			case w.downloaded(p):
				io.in = input{kind: inDownload}
			case network(p):
				// < /dev/tcp/host/port: bash connects; what it reads is
				// what another machine sends.
				w.res.add(Dangerous, "`< "+w.text(r.Word)+"`: opens a network connection")
				io.in = input{kind: inDownload}
				io.net = true
				w.netfd(fd)
			default:
				io.in = input{kind: inFile, data: p, endless: endlessDevices[p]}
			}
			if fd != "" && fd != "0" {
				// exec 3< <(curl …): what fd 3 reads, for a later <&3;
				// standard input is not changed.
				w.fdInput(fd, io.in)
				io.in = stdin
			}
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll, syntax.RdrInOut:
			target := w.literal(r.Word)
			p, ok := w.abs(target)
			if network(p) {
				io.net = true
				w.netfd(fd)
			}
			c, why := w.writeClass(pathOrEmpty(p, ok), "`"+r.Op.String()+" "+w.text(r.Word)+"`")
			w.res.add(c, why)
			if d, changed := w.withDefaults(r.Word.Parts); changed {
				// > ${F:-/dev/sda}: the default word is one of the targets.
				if p, ok := w.abs(w.literal(&syntax.Word{Parts: d})); ok {
					w.res.add(w.writeClass(p, "`"+r.Op.String()+" "+w.text(r.Word)+"`"))
				}
			}
			if ok && fd != "2" {
				io.out = append(io.out, p)
				io.app = append(io.app, r.Op == syntax.AppOut || r.Op == syntax.AppAll)
			}
		case syntax.DplIn, syntax.DplOut:
			target := w.literal(r.Word)
			if w.shared.netfd[target] {
				io.net = true
				if r.Op == syntax.DplIn && (fd == "" || fd == "0") {
					// <&3 with 3 on /dev/tcp: the input comes from the network.
					io.in = input{kind: inDownload}
				}
				continue
			}
			if in, ok := w.shared.fdIn[target]; ok && r.Op == syntax.DplIn && (fd == "" || fd == "0") {
				io.in = in // <&3 after exec 3< FILE
				continue
			}
			if _, err := strconv.Atoi(target); err == nil || target == "-" {
				continue
			}
			if r.Op == syntax.DplOut {
				p, ok := w.abs(target)
				if network(p) {
					io.net = true
				}
				c, why := w.writeClass(pathOrEmpty(p, ok), "`>& "+w.text(r.Word)+"`")
				w.res.add(c, why)
			}
		}
	}
	return io
}

// fdInput records what file descriptor fd reads.
func (w *walker) fdInput(fd string, in input) {
	if w.shared.fdIn == nil {
		w.shared.fdIn = map[string]input{}
	}
	w.shared.fdIn[fd] = in
}

func (w *walker) netfd(fd string) {
	if fd != "" {
		if w.shared.netfd == nil {
			w.shared.netfd = map[string]bool{}
		}
		w.shared.netfd[fd] = true
	}
}

func pathOrEmpty(p string, ok bool) string {
	if !ok {
		return ""
	}
	return p
}

func network(p string) bool {
	return strings.HasPrefix(p, "/dev/tcp/") || strings.HasPrefix(p, "/dev/udp/")
}

// readFile judges reading p: secrets go to a remote model.
func (w *walker) readFile(p string, ok bool, what string) {
	w.readPath(p, ok, what, true)
}

// readPath judges reading p, which is a pattern bash expands when glob
// is set, else the file's very name.
func (w *walker) readPath(p string, ok bool, what string, glob bool) {
	if ok && path.Base(p) == holeTree {
		// Every file under a tree: secrets among them if it holds any.
		if why := w.holdsSecrets(path.Dir(p)); why != "" {
			w.discloses(what + ": reads every file under `" + path.Dir(p) + "`, secrets among them (" + why + ")")
		}
	}
	if ok {
		why := w.secretFile(p)
		if why == "" && glob && hasGlob(p) && !hasHole(p) && !strings.ContainsAny(p, " \t\n'\"();") {
			why = w.globSecret(p)
		}
		if why != "" {
			w.discloses(what + ": reads a file that may hold secrets (" + why + ")")
		}
	}
	if ok && strings.HasPrefix(p, "/dev/") && rawDevice.Get().MatchString(p) {
		w.res.add(Dangerous, what+": reads a raw disk")
	}
}

// heredoc is the text of a here-document as the command reads it. Quoted
// delimiters keep the body literal; otherwise it is expanded.
func (w *walker) heredoc(r *syntax.Redirect) string {
	quoted := false
	for _, p := range r.Word.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			quoted = true
		case *syntax.Lit:
			if strings.Contains(p.Value, `\`) {
				quoted = true
			}
		}
	}
	if r.Hdoc == nil {
		return ""
	}
	if quoted {
		var sb strings.Builder
		for _, p := range r.Hdoc.Parts {
			if l, ok := p.(*syntax.Lit); ok {
				sb.WriteString(l.Value)
			}
		}
		return sb.String()
	}
	s, ok := w.expandDocument(r.Hdoc)
	if !ok {
		return hole
	}
	return s
}

func (w *walker) dataInput(s string) input {
	if strings.ContainsRune(s, holeDL) {
		return input{kind: inDownload}
	}
	return input{kind: inData, data: s}
}
