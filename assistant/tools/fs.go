package tools

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/qsh-shell/qsh/policy/danger"
	"github.com/qsh-shell/qsh/policy/sandbox"
)

//go:embed fs.md
var fsDescription string

// fsParams are the filesystem tool's arguments.
type fsParams struct {
	Operation  string `json:"operation" jsonschema:"read, list, exists, metadata, search, write or edit"`
	Path       string `json:"path,omitempty" jsonschema:"the file or directory, relative to the workspace; list and search default to ."`
	Content    string `json:"content,omitempty" jsonschema:"write: the whole new content of the file"`
	OldText    string `json:"old_text,omitempty" jsonschema:"edit: the exact text to replace; it must occur exactly once"`
	NewText    string `json:"new_text,omitempty" jsonschema:"edit: the text to put in its place"`
	StartLine  int    `json:"start_line,omitempty" jsonschema:"read: first line to return, 1-based"`
	EndLine    int    `json:"end_line,omitempty" jsonschema:"read: last line to return, inclusive"`
	Recursive  bool   `json:"recursive,omitempty" jsonschema:"list: walk subdirectories too"`
	Glob       string `json:"glob,omitempty" jsonschema:"list and search: only names matching this glob, like *.go or cmd/**/*.go"`
	Pattern    string `json:"pattern,omitempty" jsonschema:"search: a regular expression (RE2 syntax), or plain text with literal"`
	Literal    bool   `json:"literal,omitempty" jsonschema:"search: treat pattern as plain text"`
	Context    int    `json:"context,omitempty" jsonschema:"search: lines of context around each match"`
	MaxResults int    `json:"max_results,omitempty" jsonschema:"search: the most matching lines to return (default 100)"`
}

// Bounds on what one call returns.
const (
	maxListEntries   = 1000
	defSearchResults = 100
	maxSearchResults = 1000
	maxSearchContext = 10
	maxLineShown     = 500
	maxDiffShown     = 16 << 10
	sniffLen         = 8000
)

// filesystem is the filesystem tool.
type filesystem struct {
	r      *Registry
	schema json.RawMessage
	// write writes the new content to the temp file; tests make it fail
	// half-way to show the old file survives.
	write func(w io.Writer, b []byte) error
}

func newFilesystem(r *Registry) *filesystem {
	return &filesystem{r: r, schema: fsSchema(r.cfg.FSWrite), write: func(w io.Writer, b []byte) error {
		_, err := w.Write(b)
		return err
	}}
}

// fsSchema is the filesystem tool's schema, with or without the
// operations that write.
func fsSchema(write bool) json.RawMessage {
	ops := []string{"read", "list", "exists", "metadata", "search"}
	if write {
		ops = append(ops, "write", "edit")
	}
	s := schemaFor[fsParams](map[string][]string{"operation": ops})
	if !write {
		for _, p := range []string{"content", "old_text", "new_text"} {
			delete(s.Properties, p)
		}
		s.PropertyOrder = slices.DeleteFunc(s.PropertyOrder, func(p string) bool {
			return p == "content" || p == "old_text" || p == "new_text"
		})
	}
	return mustJSON(s)
}

func (t *filesystem) Name() string            { return "filesystem" }
func (t *filesystem) Description() string     { return fsDescription }
func (t *filesystem) Schema() json.RawMessage { return t.schema }

func (t *filesystem) Execute(ctx context.Context, env Env, args json.RawMessage) Result {
	return t.call(ctx, env, args, &call{})
}

func (t *filesystem) call(ctx context.Context, env Env, args json.RawMessage, c *call) Result {
	var p fsParams
	if err := json.Unmarshal(args, &p); err != nil {
		return failf("filesystem: bad arguments: %v", err)
	}
	if p.Path == "" {
		switch p.Operation {
		case "list", "search":
			p.Path = "."
		default:
			return failf("filesystem %s: missing required argument \"path\"", p.Operation)
		}
	}
	pl, err := resolve(env.Dir, p.Path)
	if err != nil {
		return failf("filesystem %s %q: %v", p.Operation, p.Path, err)
	}
	// The filesystem tool runs in the assistant, which the kernel does not
	// confine: it holds itself to the policy the programs are held to.
	var pol *sandbox.Policy
	if t.r.confining() {
		pp, _, _ := t.r.policy(env)
		pol = &pp
	}
	var skip func(string) bool // files a search must leave out
	switch p.Operation {
	case "read", "list", "exists", "metadata", "search":
		q := t.readAsk(env, p.Operation, pl, pol)
		if ok, res := t.r.approve(ctx, env, q, c); !ok {
			return res
		}
		// Names and sizes stay visible in the sandbox; contents do not.
		if p.Operation == "read" || p.Operation == "search" {
			if why := t.r.refusal(pol, q.verdict.Class, c, pl.abs, false); why != "" {
				return failf("%s %s: %s; the user can read it themselves, or approve an unconfined read", p.Operation, pl.show(), why)
			}
		}
		confined := pol != nil && t.r.confined(q.verdict.Class, c.decision)
		c.sandbox = t.r.sandboxName(confined)
		if confined {
			skip = func(path string) bool { return !pol.Allows(path, false) }
		}
	}
	switch p.Operation {
	case "read":
		return t.read(pl, p)
	case "list":
		return t.list(pl, p)
	case "exists":
		return t.exists(pl)
	case "metadata":
		return t.metadata(pl)
	case "search":
		return t.search(ctx, pl, p, skip)
	case "write", "edit":
		if !t.r.cfg.FSWrite {
			return failf("filesystem %s: writing is turned off (QSH_AI_FS_WRITE=false); show the user the change instead", p.Operation)
		}
		if p.Operation == "write" {
			return t.writeFile(ctx, env, pl, p, pol, c)
		}
		return t.edit(ctx, env, pl, p, pol, c)
	}
	return failf("filesystem: unknown operation %q; the operations are read, list, exists, metadata, search, write, edit", p.Operation)
}

// show is how a path appears to the user and the model: relative inside
// the workspace, absolute outside it.
func (pl place) show() string {
	if pl.inside {
		return filepath.ToSlash(pl.rel)
	}
	return pl.abs
}

// readAsk classifies an operation that only looks: safe in the workspace;
// outside it dev for names and sizes, dangerous for contents; dangerous for
// the contents of a file that may hold secrets or that the sandbox (pol,
// when on) keeps from programs.
func (t *filesystem) readAsk(env Env, op string, pl place, pol *sandbox.Policy) ask {
	looksInside := op == "read" || op == "search"
	v := danger.Verdict{Class: danger.Safe, Reasons: []string{"reads the workspace"}}
	switch {
	case pl.secret != "" && looksInside:
		v = danger.Verdict{Class: danger.Dangerous, Reasons: []string{pl.secret + "; its content would go to the model"}}
	case pol != nil && looksInside && !pol.Allows(pl.abs, false):
		v = danger.Verdict{Class: danger.Dangerous, Reasons: []string{"the sandbox keeps it from programs: it holds secrets; its content would go to the model"}}
	case !pl.inside && looksInside:
		v = danger.Verdict{Class: danger.Dangerous, Reasons: []string{"outside the workspace " + realPath(env.Dir) + "; its content would go to the model"}}
	case !pl.inside:
		v = danger.Verdict{Class: danger.Dev, Reasons: []string{"outside the workspace " + realPath(env.Dir)}}
	}
	q := ask{kind: kindRead, verdict: v, subject: op + " " + pl.show(), id: op + " " + pl.abs, path: pl.abs, verb: op, sandboxed: looksInside}
	q.rule = &Rule{Kind: kindRead, Exact: q.id, Class: v.Class}
	if v.Class == danger.Dev {
		// Looking at names outside the workspace: approve the directory.
		dir := filepath.Dir(pl.abs)
		if pl.isDir() {
			dir = pl.abs
		}
		q.rule = &Rule{Kind: kindRead, Under: dir, Class: v.Class}
	}
	return q
}

func (pl place) isDir() bool {
	fi, err := os.Stat(pl.abs)
	return err == nil && fi.IsDir()
}

func (t *filesystem) read(pl place, p fsParams) Result {
	fi, err := os.Stat(pl.abs)
	if err != nil {
		return failf("read %s: %v", pl.show(), plainErr(err))
	}
	if fi.IsDir() {
		return failf("read %s: it is a directory; use the list operation", pl.show())
	}
	if !fi.Mode().IsRegular() {
		return failf("read %s: not a regular file (%s)", pl.show(), fi.Mode().Type())
	}
	f, err := os.Open(pl.abs)
	if err != nil {
		return failf("read %s: %v", pl.show(), plainErr(err))
	}
	defer f.Close()
	head := make([]byte, sniffLen)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if kind, bin := binary(head); bin {
		return failf("read %s: binary file (%s, %d bytes); the filesystem tool reads text only", pl.show(), kind, fi.Size())
	}
	max := t.r.cfg.FSMaxSize
	if p.StartLine <= 0 && p.EndLine <= 0 {
		if fi.Size() > max {
			return failf("read %s: the file is %d bytes, over the limit of %d (QSH_AI_FS_MAX_SIZE); read a part with start_line and end_line, or search it", pl.show(), fi.Size(), max)
		}
		rest, err := io.ReadAll(io.LimitReader(f, max+1-int64(n)))
		if err != nil {
			return failf("read %s: %v", pl.show(), err)
		}
		b := append(head, rest...)
		if !utf8.Valid(b) {
			return failf("read %s: not UTF-8 text (%d bytes); the filesystem tool reads text only", pl.show(), fi.Size())
		}
		if len(b) == 0 {
			return Result{Success: true, Output: "(empty file)"}
		}
		return Result{Success: true, Output: string(b)}
	}
	start, end := max1(p.StartLine), p.EndLine
	if end > 0 && end < start {
		return failf("read %s: end_line %d is before start_line %d", pl.show(), end, start)
	}
	sc := bufio.NewScanner(io.MultiReader(strings.NewReader(string(head)), f))
	sc.Buffer(make([]byte, 64<<10), int(min(max, 16<<20)))
	var sb strings.Builder
	line, truncated := 0, false
	for sc.Scan() {
		line++
		if line < start {
			continue
		}
		if end > 0 && line > end {
			break
		}
		if int64(sb.Len()+len(sc.Bytes())+1) > max {
			truncated = true
			break
		}
		sb.Write(sc.Bytes())
		sb.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		return failf("read %s: %v", pl.show(), err)
	}
	if line < start {
		return failf("read %s: the file has %d lines; start_line %d is past the end", pl.show(), line, start)
	}
	out := sb.String()
	if !utf8.ValidString(out) {
		return failf("read %s: not UTF-8 text; the filesystem tool reads text only", pl.show())
	}
	last := line
	if end > 0 && line > end {
		last = end
	}
	if truncated {
		out += fmt.Sprintf("[cut at %d bytes (QSH_AI_FS_MAX_SIZE); read from a later start_line for more]\n", max)
	}
	return Result{Success: true, Truncated: truncated,
		Output: fmt.Sprintf("%s lines %d-%d:\n%s", pl.show(), start, last, out)}
}

func max1(n int) int { return max(n, 1) }

// binary reports whether the start of a file looks binary, and what kind.
func binary(head []byte) (string, bool) {
	if len(head) == 0 {
		return "", false
	}
	kind := http.DetectContentType(head)
	if slices.Contains(head, 0) {
		return kind, true
	}
	// Cut a rune split at the end of the sniffed block before checking.
	for i := 0; i < utf8.UTFMax && len(head) > 0 && !utf8.Valid(head); i++ {
		head = head[:len(head)-1]
	}
	if !utf8.Valid(head) {
		return "not UTF-8: " + kind, true
	}
	return kind, false
}

func plainErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		if errors.Is(pe.Err, fs.ErrNotExist) {
			return errors.New("no such file or directory")
		}
		return pe.Err
	}
	return err
}

func (t *filesystem) list(pl place, p fsParams) Result {
	fi, err := os.Stat(pl.abs)
	if err != nil {
		return failf("list %s: %v", pl.show(), plainErr(err))
	}
	if !fi.IsDir() {
		return Result{Success: true, Output: entryLine(fi, pl.show(), pl.abs)}
	}
	var lines []string
	truncated := false
	add := func(rel, full string, fi fs.FileInfo) bool {
		if len(lines) >= maxListEntries {
			truncated = true
			return false
		}
		lines = append(lines, entryLine(fi, rel, full))
		return true
	}
	if !p.Recursive {
		ents, err := os.ReadDir(pl.abs)
		if err != nil {
			return failf("list %s: %v", pl.show(), plainErr(err))
		}
		for _, e := range ents {
			if p.Glob != "" && !matchGlob(p.Glob, e.Name()) {
				continue
			}
			info, err := e.Info()
			if err != nil {
				continue
			}
			if !add(e.Name(), filepath.Join(pl.abs, e.Name()), info) {
				break
			}
		}
	} else {
		var ign gitignore
		ign.load(pl.abs, "")
		filepath.WalkDir(pl.abs, func(full string, d fs.DirEntry, err error) error {
			if err != nil || full == pl.abs {
				return nil
			}
			rel := filepath.ToSlash(must(filepath.Rel(pl.abs, full)))
			if d.IsDir() && (d.Name() == ".git" || ign.ignored(rel, true)) {
				return filepath.SkipDir
			}
			if !d.IsDir() && ign.ignored(rel, false) {
				return nil
			}
			if d.IsDir() {
				ign.load(pl.abs, rel)
			}
			if p.Glob != "" && (d.IsDir() || !matchGlob(p.Glob, rel)) {
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return nil
			}
			if !add(rel, full, info) {
				return filepath.SkipAll
			}
			return nil
		})
	}
	if len(lines) == 0 {
		return Result{Success: true, Output: "(no entries)"}
	}
	out := strings.Join(lines, "\n") + "\n"
	if truncated {
		out += fmt.Sprintf("[stopped at %d entries; narrow it with glob or a subdirectory]\n", maxListEntries)
	}
	return Result{Success: true, Output: out, Truncated: truncated}
}

func must[T any](v T, _ error) T { return v }

// entryLine is one line of a listing: type, size, name.
func entryLine(fi fs.FileInfo, name, full string) string {
	switch m := fi.Mode(); {
	case m.IsDir():
		return fmt.Sprintf("dir   %10s  %s/", "-", name)
	case m&fs.ModeSymlink != 0:
		target, _ := os.Readlink(full)
		return fmt.Sprintf("link  %10s  %s -> %s", "-", name, target)
	case m.IsRegular():
		return fmt.Sprintf("file  %10d  %s", fi.Size(), name)
	default:
		return fmt.Sprintf("%-5s %10s  %s", strings.TrimSpace(m.Type().String()), "-", name)
	}
}

func (t *filesystem) exists(pl place) Result {
	fi, err := os.Lstat(pl.abs)
	if errors.Is(err, fs.ErrNotExist) {
		return Result{Success: true, Output: fmt.Sprintf("no: %s does not exist", pl.show())}
	}
	if err != nil {
		return failf("exists %s: %v", pl.show(), plainErr(err))
	}
	return Result{Success: true, Output: "yes: " + strings.TrimSpace(entryLine(fi, pl.show(), pl.abs))}
}

func (t *filesystem) metadata(pl place) Result {
	fi, err := os.Lstat(pl.abs)
	if err != nil {
		return failf("metadata %s: %v", pl.show(), plainErr(err))
	}
	kind := "file"
	switch {
	case fi.IsDir():
		kind = "directory"
	case fi.Mode()&fs.ModeSymlink != 0:
		kind = "symlink"
	case !fi.Mode().IsRegular():
		kind = fi.Mode().Type().String()
	}
	out := fmt.Sprintf("path: %s\ntype: %s\nsize: %d\nmode: %s\nmodified: %s\n",
		pl.show(), kind, fi.Size(), fi.Mode(), fi.ModTime().Format(time.RFC3339))
	if pl.given != pl.show() && pl.given != "./"+pl.show() {
		out += "resolved from: " + pl.given + "\n"
	}
	return Result{Success: true, Output: out}
}

// search looks through the file or tree at pl; skip, when set, leaves out
// files the sandbox keeps from programs.
func (t *filesystem) search(ctx context.Context, pl place, p fsParams, skip func(string) bool) Result {
	if p.Pattern == "" {
		return failf("search: missing argument \"pattern\"")
	}
	expr := p.Pattern
	if p.Literal {
		expr = regexp.QuoteMeta(expr)
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return failf("search: pattern %q is not a valid regular expression (%v); set literal to true to search for plain text", p.Pattern, err)
	}
	maxRes := p.MaxResults
	if maxRes <= 0 {
		maxRes = defSearchResults
	}
	maxRes = min(maxRes, maxSearchResults)
	ctxLines := min(max(p.Context, 0), maxSearchContext)

	var out strings.Builder
	matches, secrets, truncated := 0, 0, false
	searchFile := func(full, rel string, named bool) {
		if !named && (sensitive(full) != "" || skip != nil && skip(full)) {
			secrets++
			return
		}
		fi, err := os.Stat(full)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > t.r.cfg.FSMaxSize {
			return
		}
		b, err := os.ReadFile(full)
		if err != nil {
			return
		}
		if _, bin := binary(b[:min(len(b), sniffLen)]); bin {
			return
		}
		lines := strings.Split(string(b), "\n")
		lastShown := -1
		for i, line := range lines {
			if !re.MatchString(line) {
				continue
			}
			if matches >= maxRes {
				truncated = true
				return
			}
			matches++
			from := max(i-ctxLines, lastShown+1)
			if ctxLines > 0 && lastShown >= 0 && from > lastShown+1 {
				out.WriteString("--\n")
			}
			for j := from; j < i; j++ {
				fmt.Fprintf(&out, "%s-%d- %s\n", rel, j+1, clip(lines[j], maxLineShown))
			}
			fmt.Fprintf(&out, "%s:%d: %s\n", rel, i+1, clip(line, maxLineShown))
			lastShown = i
			for j := i + 1; j <= min(i+ctxLines, len(lines)-1); j++ {
				if re.MatchString(lines[j]) {
					break
				}
				fmt.Fprintf(&out, "%s-%d- %s\n", rel, j+1, clip(lines[j], maxLineShown))
				lastShown = j
			}
		}
	}
	fi, err := os.Stat(pl.abs)
	if err != nil {
		return failf("search %s: %v", pl.show(), plainErr(err))
	}
	if !fi.IsDir() {
		searchFile(pl.abs, pl.show(), true) // asked about already
	} else {
		var ign gitignore
		ign.load(pl.abs, "")
		filepath.WalkDir(pl.abs, func(full string, d fs.DirEntry, err error) error {
			if ctx.Err() != nil {
				return filepath.SkipAll
			}
			if err != nil || full == pl.abs {
				return nil
			}
			rel := filepath.ToSlash(must(filepath.Rel(pl.abs, full)))
			if d.IsDir() {
				if d.Name() == ".git" || ign.ignored(rel, true) {
					return filepath.SkipDir
				}
				ign.load(pl.abs, rel)
				return nil
			}
			if !d.Type().IsRegular() || ign.ignored(rel, false) {
				return nil
			}
			if p.Glob != "" && !matchGlob(p.Glob, rel) {
				return nil
			}
			shown := rel
			if pl.show() != "." {
				shown = filepath.ToSlash(filepath.Join(pl.show(), rel))
			}
			searchFile(full, shown, false)
			if truncated {
				return filepath.SkipAll
			}
			return nil
		})
	}
	if ctx.Err() != nil {
		return failf("search: %v", ctx.Err())
	}
	res := out.String()
	if matches == 0 {
		res = "no matches\n"
	}
	if truncated {
		res += fmt.Sprintf("[stopped at %d matches; narrow the pattern or the glob, or raise max_results]\n", maxRes)
	}
	if secrets > 0 {
		res += fmt.Sprintf("[skipped %d file(s) that may hold secrets; read one by name if you must, the user will be asked]\n", secrets)
	}
	return Result{Success: true, Output: res, Truncated: truncated}
}
