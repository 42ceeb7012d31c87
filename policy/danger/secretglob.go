package danger

import (
	"os"
	"path"
	"slices"
	"strings"

	"github.com/qsh-shell/qsh/policy/secret"
)

// A glob reads whatever it matches: `cat ~/.ssh/*`, `head ~/.aws/cred*`,
// `cat .[e]nv`, `cat /proc/*/environ`. Bash expands it against the
// filesystem, so the classifier does too, and also matches it against the
// places secrets are kept whether or not they exist yet.

// globSecret says why the glob pattern p (absolute) may name a file that
// holds secrets, or "".
func (w *walker) globSecret(p string) string {
	if strings.HasSuffix(p, ".pub") {
		return "" // every match is a public key (see secret.Places.Why)
	}
	parts := strings.Split(p, "/")
	lit := 0 // components before the first with a pattern
	for lit < len(parts) && !hasGlob(parts[lit]) {
		lit++
	}
	prefix := strings.Join(parts[:lit], "/")
	if prefix == "" {
		prefix = "/"
	}
	if why := w.secretFile(prefix); why != "" {
		return why
	}
	for _, c := range w.secretPlaces(prefix, parts[len(parts)-1]) {
		if globMatches(p, c) {
			if why := w.secretFile(c); why != "" {
				return why
			}
		}
	}
	budget := 4096
	for _, m := range globFS(p, &budget) {
		if why := w.secretFile(m); why != "" {
			return why + " (`" + m + "` matches)"
		}
	}
	return ""
}

// secretPlaces are paths under dir that hold secrets, for matching a
// pattern whose last component is base: the fixed places, a few files in
// each, and files named as secrets are (.env, server.key …) in dir itself.
func (w *walker) secretPlaces(dir, base string) []string {
	var out []string
	for _, f := range w.shared.fixed(w.ws.Home) {
		if !under(f, dir) && !under(dir, f) {
			continue
		}
		out = append(out, f)
		for _, child := range []string{"id_rsa", "id_ed25519", "credentials", "config", "config.json",
			"hosts.yml", "token", "application_default_credentials.json", "private-keys-v1.d"} {
			out = append(out, f+"/"+child)
		}
	}
	out = append(out, "/proc/1/environ", "/proc/self/environ", "/proc/1/task/1/environ")
	// A pattern that also names ordinary files (`*`, `v*`, `*.json`) is
	// not about secrets: what it matches on the disk decides. One that
	// names only files as secrets are named (`*.env`, `.[e]nv`, `id_*`)
	// is judged by those names, whether or not they exist yet.
	if !slices.ContainsFunc(ordinaryNames, func(n string) bool { return globComponent(base, n) }) {
		for _, n := range secret.NameExamples() {
			out = append(out, path.Join(dir, n))
		}
	}
	return out
}

// ordinaryNames are names of everyday files, none of them secret: a
// pattern that matches one of them is not aimed at secrets.
var ordinaryNames = []string{
	"main.go", "go.mod", "README.md", "package.json", "index.html", "app.py", "lib.rs", "Makefile",
	"Dockerfile", "config.yaml", "config.yml", "settings.json", "data.csv", "notes.txt", "version.txt",
	"style.css", "test.js", "build.gradle", "setup.cfg", "app.log", "image.png", "report.pdf", "a.out",
	"src", "docs", "vendor", "x", "v1", ".gitignore", ".github", ".editorconfig", ".eslintrc.json",
}

// globMatches reports whether pattern p matches path c, or a directory
// that holds c, as bash would match it: component by component, with a
// leading dot matched only by a leading dot.
func globMatches(p, c string) bool {
	pp, cp := strings.Split(p, "/"), strings.Split(c, "/")
	if len(pp) > len(cp) {
		return false
	}
	for i, x := range pp {
		if !globComponent(x, cp[i]) {
			return false
		}
	}
	return true
}

func globComponent(pattern, name string) bool {
	if strings.HasPrefix(name, ".") && !strings.HasPrefix(pattern, ".") && pattern != name {
		return false
	}
	ok, err := path.Match(pattern, name)
	return ok && err == nil
}

// globFS expands pattern against the filesystem, reading at most budget
// directory entries in all.
func globFS(pattern string, budget *int) []string {
	parts := strings.Split(strings.TrimPrefix(pattern, "/"), "/")
	paths := []string{"/"}
	for _, part := range parts {
		var next []string
		for _, dir := range paths {
			if !hasGlob(part) {
				next = append(next, path.Join(dir, part))
				continue
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				continue
			}
			for _, e := range entries {
				if *budget--; *budget < 0 {
					return next
				}
				if globComponent(part, e.Name()) {
					next = append(next, path.Join(dir, e.Name()))
				}
			}
		}
		paths = next
		if len(paths) == 0 {
			return nil
		}
	}
	return paths
}

var tokenPrefixes = secret.TokenPrefixes

// secretSearch judges a search whose pattern is shaped to match the
// values of secrets, not their names: a credential's prefix followed by
// a character class or a count (`sk_live_[0-9a-zA-Z]{24}`), or a secret
// variable's name followed by = or : (`AWS_SECRET_ACCESS_KEY=`). The lines
// it prints are the secrets; a word alone (`password`, `AKIA`) finds
// where code names them.
func (w *walker) secretSearch(r *rule, chain string, args []arg, ops []int) {
	var patterns []string
	given := false
	for i := 1; i < len(args); i++ {
		a := args[i].s
		if matchFlag(r.patternFlags, a) {
			given = true
			if f, v, ok := strings.Cut(a, "="); ok && (f == "--regexp" || f == "-e") {
				patterns = append(patterns, v)
			} else if (a == "-e" || a == "--regexp") && i+1 < len(args) {
				patterns = append(patterns, args[i+1].s)
			}
		}
	}
	if !given && len(ops) > 0 {
		patterns, ops = append(patterns, args[ops[0]].s), ops[1:]
	}
	w.hiddenSecretSearch(chain, args, patterns, ops)
	for _, p := range patterns {
		if secretValuePattern(p) {
			w.discloses("`" + chain + " " + p + "`: prints the secret values its pattern is shaped to match")
			return
		}
	}
}

// secretValuePattern reports a search pattern shaped to match secret
// values (see secretSearch).
func secretValuePattern(p string) bool {
	lower := strings.ToLower(p)
	for _, pre := range tokenPrefixes {
		i := strings.Index(lower, pre)
		if i < 0 || i > 0 && isWordByte(lower[i-1]) && lower[i-1] != '\\' {
			continue
		}
		if rest := lower[i+len(pre):]; rest != "" && strings.ContainsAny(rest[:1], "[{\\.(") {
			return true
		}
	}
	for i := 0; i < len(p); i++ {
		if p[i] != '=' && p[i] != ':' {
			continue
		}
		name := strings.TrimRight(p[:i], " \t'\"*+?\\s")
		j := len(name)
		for j > 0 && (isWordByte(name[j-1]) || name[j-1] == '-') {
			j--
		}
		if j < len(name) && secret.Var(name[j:]) {
			return true
		}
	}
	return false
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
