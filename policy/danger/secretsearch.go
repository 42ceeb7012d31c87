package danger

import (
	"path"
	"strings"

	"github.com/qsh-shell/qsh/policy/secret"
)

// secretSearch judges a search for secrets (api_key, password, a token's
// prefix) that prints the lines it finds, over files that hold secrets
// whatever their names: hidden and ignored ones (.env, .npmrc, a
// credentials file the project ignores). rg and ag skip those unless told
// (--hidden, --no-ignore, -u); grep -r reads them all, so it counts when
// its tree is the workspace's root or above it, or a hidden directory.
// pats are the search's patterns, ops its operands past the pattern.
func (w *walker) hiddenSecretSearch(chain string, args []arg, pats []string, ops []int) {
	name := commandBase(args[0].s)
	grep := name != "rg" && name != "ag"
	recursive, hidden, filtered, dashdash := false, false, false, false
	for i := 1; i < len(args); i++ {
		a := args[i].s
		switch {
		case dashdash || !strings.HasPrefix(a, "-") || a == "-":
		case a == "--":
			dashdash = true
		case a == "--hidden" || strings.HasPrefix(a, "--no-ignore") || a == "--unrestricted" || a == "-." ||
			strings.HasPrefix(a, "-u") && strings.Trim(a[1:], "u") == "":
			hidden = true
		case a == "-r" || a == "-R" || a == "--recursive" || a == "--dereference-recursive":
			recursive = true
		case strings.HasPrefix(a, "--include") || a == "-t" || strings.HasPrefix(a, "--type=") || a == "--type" ||
			a == "-G" || strings.HasPrefix(a, "--file-search-regex"):
			filtered = true
		case (a == "-g" || a == "--glob" || a == "--iglob") && i+1 < len(args) && !strings.HasPrefix(args[i+1].s, "!"):
			filtered = true
		case !strings.HasPrefix(a, "--") && letters(a[1:]) && strings.ContainsAny(a, "rR"):
			recursive = true
		}
	}
	if filtered || !secretPatterns(pats) {
		return
	}
	if grep {
		if !recursive {
			return
		}
	} else if !hidden {
		return
	}
	broad := len(ops) == 0
	for _, i := range ops {
		p, ok := w.abs(args[i].s)
		b := path.Base(p)
		broad = broad || !ok || !grep || w.ws.Dir != "" && under(w.ws.Dir, p) ||
			strings.HasPrefix(b, ".") && b != "." && b != ".."
	}
	if broad {
		w.discloses("`" + chain + "`: prints the lines that match secret words from files that hold secrets " +
			"whatever their names (hidden or ignored ones, such as .env)")
	}
}

// secretPatterns reports patterns of which one looks for secrets.
func secretPatterns(pats []string) bool {
	for _, p := range pats {
		if secret.SearchPattern(p) {
			return true
		}
	}
	return false
}
