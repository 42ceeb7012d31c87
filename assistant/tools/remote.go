package tools

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// remoteEffect says what a command line changes that no checkpoint of the
// workspace can take back — another machine, a registry, a database —
// as the confirmation line's "undo: no (…)"; "" when it names nothing of
// the kind. It reads the words as written: a guess for the line, not the
// classifier's judgement.
func remoteEffect(command string) string {
	f, err := syntax.NewParser().Parse(strings.NewReader(command), "")
	if err != nil {
		return ""
	}
	what := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		if what != "" {
			return false
		}
		if c, ok := n.(*syntax.CallExpr); ok {
			var words []string
			for _, w := range c.Args {
				words = append(words, w.Lit())
			}
			what = remoteCall(words)
		}
		return true
	})
	return what
}

// remoteSub are the subcommands of programs that change remote state.
var remoteSub = map[string]map[string]string{
	"git":       {"push": "pushes to a remote", "send-email": "sends mail"},
	"npm":       {"publish": "publishes a package", "unpublish": "unpublishes a package", "deprecate": "changes a published package"},
	"pnpm":      {"publish": "publishes a package"},
	"yarn":      {"publish": "publishes a package", "npm": "publishes a package"},
	"cargo":     {"publish": "publishes a crate", "yank": "yanks a published crate"},
	"twine":     {"upload": "uploads a package"},
	"gem":       {"push": "publishes a gem", "yank": "yanks a published gem"},
	"poetry":    {"publish": "publishes a package"},
	"docker":    {"push": "pushes an image"},
	"podman":    {"push": "pushes an image"},
	"helm":      {"install": "changes a cluster", "upgrade": "changes a cluster", "uninstall": "changes a cluster", "push": "pushes a chart"},
	"kubectl":   {"apply": "changes a cluster", "create": "changes a cluster", "delete": "changes a cluster", "patch": "changes a cluster", "replace": "changes a cluster", "scale": "changes a cluster", "rollout": "changes a cluster", "set": "changes a cluster", "edit": "changes a cluster", "label": "changes a cluster", "annotate": "changes a cluster", "exec": "runs in a cluster"},
	"terraform": {"apply": "changes infrastructure", "destroy": "destroys infrastructure", "import": "changes infrastructure state"},
	"tofu":      {"apply": "changes infrastructure", "destroy": "destroys infrastructure"},
	"pulumi":    {"up": "changes infrastructure", "destroy": "destroys infrastructure"},
	"gh":        {"release": "changes GitHub", "pr": "changes GitHub", "issue": "changes GitHub", "repo": "changes GitHub", "api": "calls GitHub's API", "secret": "changes GitHub", "workflow": "changes GitHub"},
	"glab":      {"mr": "changes GitLab", "release": "changes GitLab", "issue": "changes GitLab", "api": "calls GitLab's API"},
	"fly":       {"deploy": "deploys"},
	"flyctl":    {"deploy": "deploys"},
	"vercel":    {"deploy": "deploys", "--prod": "deploys"},
	"netlify":   {"deploy": "deploys"},
	"heroku":    {"releases:rollback": "changes a deployment", "config:set": "changes a deployment"},
	"firebase":  {"deploy": "deploys"},
	"wrangler":  {"deploy": "deploys", "publish": "deploys"},
}

// remoteProg are programs that reach another machine or a database
// whatever their arguments.
var remoteProg = map[string]string{
	"ssh": "runs on another machine", "scp": "copies to or from another machine", "sftp": "another machine",
	"psql": "may change a database", "mysql": "may change a database", "mariadb": "may change a database",
	"mongosh": "may change a database", "mongo": "may change a database", "redis-cli": "may change a database",
	"sqlcmd": "may change a database", "cqlsh": "may change a database", "aws": "calls AWS", "gcloud": "calls Google Cloud",
	"az": "calls Azure", "doctl": "calls DigitalOcean", "ansible-playbook": "changes other machines", "mail": "sends mail",
	"sendmail": "sends mail",
}

// remoteCall judges one simple command's words ("" for a word not
// written plainly).
func remoteCall(words []string) string {
	for len(words) > 0 && (words[0] == "sudo" || words[0] == "command" || words[0] == "exec" || words[0] == "env" ||
		words[0] == "time" || words[0] == "nohup" || strings.Contains(words[0], "=")) {
		words = words[1:]
	}
	if len(words) == 0 {
		return ""
	}
	prog := path.Base(words[0])
	if why := remoteProg[prog]; why != "" {
		return why
	}
	switch prog {
	case "rsync":
		for _, w := range words[1:] {
			if !strings.HasPrefix(w, "-") && strings.Contains(w, ":") {
				return "copies to or from another machine"
			}
		}
	case "curl", "wget", "http", "xh":
		for i, w := range words[1:] {
			switch w {
			case "-XPOST", "-XPUT", "-XDELETE", "-XPATCH", "POST", "PUT", "DELETE", "PATCH", "-d", "--upload-file", "-T",
				"-F", "--form", "--post-data", "--post-file", "--json", "--method=POST", "--method=PUT", "--method=DELETE":
				return "may change something on a server"
			case "-X", "--request":
				if i+2 < len(words) && words[i+2] != "GET" && words[i+2] != "HEAD" {
					return "may change something on a server"
				}
			}
			if strings.HasPrefix(w, "--data") {
				return "may change something on a server"
			}
		}
	}
	subs := remoteSub[prog]
	if subs == nil {
		return ""
	}
	for i := 1; i < len(words); i++ {
		w := words[i]
		if strings.HasPrefix(w, "-") {
			if why := subs[w]; why != "" {
				return why
			}
			if prog == "git" && (w == "-C" || w == "-c") {
				i++ // its value
			}
			continue
		}
		return subs[w] // the first word that is not an option is the subcommand
	}
	return ""
}
