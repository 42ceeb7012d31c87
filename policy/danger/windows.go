package danger

import (
	"strings"

	"github.com/qsh-shell/qsh/internal/lazy"
)

// Windows programs reached from WSL by their .exe names (cmd.exe,
// powershell.exe): their code is judged as on Windows, where a drive's
// root and the user's profile are what / and ~ are here.

var (
	// winDiskWipe formats, clears or repartitions a disk or a volume.
	winDiskWipe = lazy.Regexp{Expr: `(?i)\b(format-volume|clear-disk|initialize-disk|remove-partition|` +
		`diskpart|format\s+[a-z]:|cipher\s+/w)`}
	// winRoot is a drive's root, the profiles' directory or the user's
	// profile, as a deletion's target.
	winRoot = lazy.Regexp{Expr: `(?i)^["']?([a-z]:\\?|[a-z]:\\\*|[a-z]:\\users(\\[^\\"']*)?|%userprofile%|` +
		`%homedrive%%homepath%|%systemroot%|[a-z]:\\windows)\\?["']?$`}
)

// cmdExe judges cmd's /c and /k command lines.
func (w *walker) cmdExe(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		a := strings.ToLower(args[i].s)
		if a != "/c" && a != "/k" && a != "/r" {
			continue
		}
		parts := make([]string, 0, len(args)-i-1)
		for _, b := range args[i+1:] {
			parts = append(parts, b.s)
		}
		w.cmdCode("`"+chain+" "+args[i].s+"`", strings.Join(parts, " "))
		return
	}
	w.res.add(Dangerous, "`"+chain+"`: opens a Windows command session")
}

// cmdCode judges a cmd command line: each command between & and |.
func (w *walker) cmdCode(label, code string) {
	if winDiskWipe.Get().MatchString(code) {
		w.res.add(Blocked, label+": formats or wipes a disk")
		return
	}
	for _, c := range strings.FieldsFunc(code, func(r rune) bool { return r == '&' || r == '|' }) {
		f := strings.Fields(c)
		if len(f) == 0 {
			continue
		}
		switch name := strings.ToLower(strings.TrimSuffix(strings.ToLower(f[0]), ".exe")); name {
		case "rd", "rmdir", "del", "erase":
			recursive := false
			for _, x := range f[1:] {
				if strings.EqualFold(x, "/s") {
					recursive = true
					continue
				}
				if strings.HasPrefix(x, "/") {
					continue
				}
				if recursive && winRoot.Get().MatchString(x) {
					w.res.add(Blocked, label+": deletes a whole drive, Windows or a user's profile (`"+x+"`)")
					return
				}
			}
			w.res.add(Dangerous, label+": deletes files")
		case "powershell", "pwsh":
			w.inline("pwsh", strings.Join(f[1:], " "))
		default:
			w.res.add(Dangerous, label+": runs Windows commands")
		}
	}
}
