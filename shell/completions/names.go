package completions

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
)

// The name lists of compgen's actions that the system, not the shell,
// knows. Each returns the names that start with prefix, in the order bash
// gives them: a directory's order for files, a file's for the others.

// Files is compgen -f (or -d, with dirsOnly): the names that complete
// text as a path, relative to dir, with a leading ~/ standing for home.
// Like readline, names starting with a dot are offered when text is
// empty, and "." and ".." when text's last part starts with a dot.
func Files(text, dir, home string, dirsOnly bool) []string {
	lead, base := "", text
	if i := strings.LastIndexByte(text, '/'); i >= 0 {
		lead, base = text[:i+1], text[i+1:]
	}
	lookup := lead
	switch {
	case lookup == "~/" || strings.HasPrefix(lookup, "~/"):
		lookup = filepath.Join(home, lookup[2:])
	case strings.HasPrefix(text, "~") && lead == "":
		return nil // ~user: the user names are not files
	case lookup == "":
		lookup = dir
	case !filepath.IsAbs(lookup):
		lookup = filepath.Join(dir, lookup)
	}
	f, err := os.Open(lookup)
	if err != nil {
		return nil
	}
	names, _ := f.Readdirnames(-1)
	f.Close()
	var out []string
	if strings.HasPrefix(base, ".") {
		for _, n := range []string{".", ".."} {
			if strings.HasPrefix(n, base) {
				out = append(out, lead+n)
			}
		}
	}
	for _, n := range names {
		if !strings.HasPrefix(n, base) {
			continue
		}
		if dirsOnly && !isDir(filepath.Join(lookup, n)) {
			continue
		}
		out = append(out, lead+n)
	}
	return out
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// Users is compgen -u: the user names in /etc/passwd.
func Users(prefix string) []string { return firstFields("/etc/passwd", prefix) }

// Groups is compgen -g: the group names in /etc/group.
func Groups(prefix string) []string { return firstFields("/etc/group", prefix) }

func firstFields(path, prefix string) []string {
	var out []string
	eachLine(path, func(line string) {
		if name, _, _ := strings.Cut(line, ":"); name != "" && strings.HasPrefix(name, prefix) {
			out = append(out, name)
		}
	})
	return out
}

// Services is compgen -s: the service names and their aliases in
// /etc/services (a name, a port, the aliases).
func Services(prefix string) []string {
	var out []string
	eachLine("/etc/services", func(line string) {
		if w := strings.Fields(line); len(w) >= 2 {
			out = appendPrefixed(appendPrefixed(out, prefix, w[:1]), prefix, w[2:])
		}
	})
	return out
}

// Hosts is compgen -A hostname: the host names in hostfile ($HOSTFILE;
// /etc/hosts when empty), every name after each line's address.
func Hosts(prefix, hostfile string) []string {
	if hostfile == "" {
		hostfile = "/etc/hosts"
	}
	var out []string
	eachLine(hostfile, func(line string) {
		if w := strings.Fields(line); len(w) >= 2 {
			out = appendPrefixed(out, prefix, w[1:])
		}
	})
	return out
}

func appendPrefixed(out []string, prefix string, names []string) []string {
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
			out = append(out, n)
		}
	}
	return out
}

// eachLine calls f with each line of the file at path, comments removed.
func eachLine(path string, f func(string)) {
	file, err := os.Open(path)
	if err != nil {
		return
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		f(line)
	}
}

// Keywords are bash's reserved words, as compgen -k lists them.
var Keywords = []string{"if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while",
	"until", "do", "done", "in", "function", "time", "{", "}", "!", "[[", "]]", "coproc"}
