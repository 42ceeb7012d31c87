package danger

import (
	"encoding/base64"
	"strings"
	"unicode/utf16"

	"github.com/qsh-shell/qsh/internal/lazy"
)

// PowerShell (pwsh, powershell) one-liners: its code is judged as the
// other interpreters' is, by what it calls.

// pwsh judges pwsh's command line: -Command (the rest of the line is the
// code), -EncodedCommand (base64 of UTF-16 text), -File, or a session.
func (w *walker) pwsh(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		a := strings.ToLower(args[i].s)
		rest := func() string {
			parts := make([]string, 0, len(args)-i-1)
			for _, b := range args[i+1:] {
				parts = append(parts, b.s)
			}
			return strings.Join(parts, " ")
		}
		switch {
		case a == "-c" || a == "-command" || a == "--command" || a == "-co" || a == "-com":
			if rest() == "-" {
				// -Command - reads the code from standard input.
				w.stdinCode(commands.Get()["pwsh"], chain, "pwsh", io)
				return
			}
			w.inline("pwsh", rest())
			return
		case a == "-e" || a == "-ec" || a == "-enc" || a == "-encodedcommand":
			code, ok := utf16Base64(rest())
			if !ok {
				w.res.add(Dangerous, "`"+chain+" "+args[i].text+"`: runs encoded code that does not decode")
				return
			}
			w.inline("pwsh", code)
			return
		case a == "-f" || a == "-file":
			if i+1 < len(args) && args[i+1].s == "-" {
				w.stdinCode(commands.Get()["pwsh"], chain, "pwsh", io)
			} else if i+1 < len(args) {
				w.runFile(args[i+1].s, args[i+1].text, "pwsh")
			}
			return
		case a == "-v" || a == "-version" || a == "-h" || a == "-help" || a == "-?":
			w.res.add(Safe, "`"+chain+" "+args[i].text+"`: prints help or version")
			return
		case a == "-executionpolicy" || a == "-ep" || a == "-workingdirectory" || a == "-wd" ||
			a == "-outputformat" || a == "-of" || a == "-inputformat" || a == "-if" || a == "-configurationname":
			i++
		case !strings.HasPrefix(a, "-"):
			w.runFile(args[i].s, args[i].text, "pwsh")
			return
		}
	}
	w.stdinCode(commands.Get()["pwsh"], chain, "pwsh", io)
}

// utf16Base64 decodes -EncodedCommand's base64 of UTF-16LE text.
func utf16Base64(s string) (string, bool) {
	b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil || len(b)%2 != 0 {
		return "", false
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
	}
	return string(utf16.Decode(u)), true
}

var (
	// pwshFetch and pwshRun: code fetched and run (iex (irm URL)).
	pwshFetch = lazy.Regexp{Expr: `(?i)\b(irm|iwr|invoke-webrequest|invoke-restmethod|downloadstring|downloadfile|` +
		`net\.webclient|start-bitstransfer|curl|wget)\b`}
	pwshRun = lazy.Regexp{Expr: `(?i)\b(iex|invoke-expression|invoke-command|start-process|\&\s*\(|` +
		`\[scriptblock\]::create)|(^|[;|&]\s*|\s)\.[\\/]\S+|\&\s*\S+\.ps1`}
	// pwshDelete is a recursive removal and its target.
	pwshDelete = lazy.Regexp{Expr: `(?i)\b(remove-item|ri|rm|del|erase|rd|rmdir)\b([^;|]*)`}
	// pwshRead are the cmdlets that only read or print.
	pwshRead = lazy.Regexp{Expr: `(?i)^\s*((get|select|format|measure|sort|where|foreach|group|compare|test|` +
		`resolve|split|join|convertto|convertfrom|write|out-string|out-host)-\w+|\$psversiontable|echo|ls|dir|` +
		`gci|cat|gc|pwd|\$\w+(\.\w+)*)\b`}
	pwshHome = lazy.Regexp{Expr: `(?i)^\s*(['"]?)(~|\$home|\$env:userprofile|\$env:home|[a-z]:\\?|/)` +
		`([\\/]\*?)?(['"]?)\s*$`}
)

// catastrophicPwsh reports a PowerShell path whose recursive deletion is
// catastrophic, as rm -rf's would be.
func (w *walker) catastrophicPwsh(target string) bool {
	t := strings.Trim(target, `'"`)
	for _, home := range []string{"$HOME", "$env:USERPROFILE", "$env:HOME", "~"} {
		if rest, ok := strings.CutPrefix(t, home); ok && (rest == "" || rest[0] == '/' || rest[0] == '\\') {
			t = w.ws.Home + strings.ReplaceAll(rest, `\`, "/")
		}
	}
	p, ok := w.abs(strings.TrimSuffix(t, "/*"))
	return ok && w.catastrophic(p) != ""
}

// pwshCode judges PowerShell code.
func (w *walker) pwshCode(label, code string) {
	if winDiskWipe.Get().MatchString(code) {
		w.res.add(Blocked, label+": formats or wipes a disk")
		return
	}
	if pwshFetch.Get().MatchString(code) && pwshRun.Get().MatchString(code) {
		w.res.add(Blocked, label+": downloads code and runs it")
		return
	}
	for _, m := range pwshDelete.Get().FindAllStringSubmatch(code, -1) {
		args := m[2]
		recursive := strings.Contains(strings.ToLower(args), "-r")
		target := ""
		for _, f := range strings.Fields(args) {
			if !strings.HasPrefix(f, "-") {
				target = f
				break
			}
		}
		switch {
		case recursive && (pwshHome.Get().MatchString(target) || w.catastrophicPwsh(target)):
			w.res.add(Blocked, label+": deletes the home directory or the whole disk")
		default:
			w.res.add(Dangerous, label+": deletes files")
		}
	}
	if strings.Contains(strings.ToLower(code), "env:") && !strings.Contains(strings.ToLower(code), "$env:") {
		w.discloses(label + ": prints environment variables, which may include secrets")
	}
	for _, stmt := range strings.FieldsFunc(code, func(r rune) bool { return r == ';' || r == '|' || r == '\n' }) {
		if strings.TrimSpace(stmt) != "" && !pwshRead.Get().MatchString(stmt) {
			w.res.add(Dangerous, label+": code can write, delete, run programs or reach the network")
			return
		}
	}
	w.res.add(Safe, label+": computes and prints")
}
