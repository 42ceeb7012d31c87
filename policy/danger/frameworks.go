package danger

import (
	"path"
	"strings"

	"github.com/qsh-shell/qsh/internal/lazy"
)

// Checks for web frameworks' commands whose arguments are code or
// statements.

// ormWrites are calls of Django's and Rails' ORMs that change or delete
// rows, and raw statements.
var ormWrites = lazy.Regexp{Expr: `(?i)\.delete\s*\(|\.update\s*\(|delete_all|destroy_all|update_all|\.destroy\b|` +
	`\.save\s*\(|\.create\s*\(|bulk_|execute\s*\(|\braw\s*\(|drop_table|truncate|\bdrop\b|flush`}

// ormCode judges code run inside the project with its database open.
func (w *walker) ormCode(chain, lang, code string) {
	w.res.add(Dev, "`"+chain+"`: runs "+lang+" in the project")
	if ormWrites.Get().MatchString(code) {
		w.res.add(Dangerous, "`"+chain+"`: the code changes or deletes the database's rows")
	}
	w.inline(lang, code)
}

// django judges manage.py shell -c CODE (Python), dbshell with statements
// on its input, and the interactive sessions.
func (w *walker) django(chain string, args []arg, io ioInfo) {
	ops := scan(&rule{vals: "-c --command --settings --pythonpath --database -v --verbosity"}, args)
	if len(ops) == 0 {
		return
	}
	switch args[ops[0]].s {
	case "shell", "shell_plus":
		for i, a := range args {
			if (a.s == "-c" || a.s == "--command") && i+1 < len(args) {
				w.ormCode(chain+" shell -c", "python", args[i+1].s)
				return
			}
			if v, ok := strings.CutPrefix(a.s, "--command="); ok {
				w.ormCode(chain+" shell -c", "python", v)
				return
			}
		}
		if io.in.kind == inData {
			w.ormCode(chain+" shell", "python", io.in.data)
			return
		}
		w.res.add(Dangerous, "`"+chain+" shell`: opens a Python session that can do anything")
	case "dbshell":
		if io.in.kind == inData {
			w.sqlCode(chain, "dbshell", io.in.data)
			return
		}
		w.res.add(Dangerous, "`"+chain+" dbshell`: runs statements on the database")
	}
}

// rails judges rails runner CODE (Ruby).
func (w *walker) rails(chain string, args []arg, io ioInfo) {
	ops := scan(&rule{vals: "-e --environment"}, args)
	if len(ops) >= 2 && (args[ops[0]].s == "runner" || args[ops[0]].s == "r") {
		code := args[ops[1]].s
		if p, ok := w.abs(code); ok && (strings.HasSuffix(code, ".rb") || strings.Contains(code, "/")) {
			w.runFile(p, code, "ruby")
			return
		}
		w.ormCode(chain+" runner", "ruby", code)
	}
}

// local applies the rule of a program the project keeps its own copy of
// (./gradlew, bin/rails, python manage.py, php artisan) to its arguments:
// args[0] is the program's path.
func (w *walker) local(args []arg, io ioInfo) bool {
	base := path.Base(args[0].s)
	r := lookup(base)
	if r == nil || !r.local {
		return false
	}
	local := append([]arg{{s: base, text: args[0].text}}, args[1:]...)
	w.apply(r, base, local, io)
	return true
}
