package danger

import (
	"path"
	"strings"
)

// keygen judges making a key: where the new key file lands (ssh-keygen
// -f, age-keygen -o) decides, as for any write; printed, a new private
// key reaches the model.
func (w *walker) keygen(chain string, args []arg, io ioInfo) {
	out := ""
	for i, a := range args[1:] {
		switch {
		case matchFlag("-l -F -y -B", a.s) && chain == "ssh-keygen", a.s == "-y" && chain == "age-keygen":
			return // shows keys or derives a public one
		case chain == "ssh-keygen" && matchFlag("-R -p -c -A -s -k -u -H -r", a.s):
			w.res.add(Dangerous, "`"+chain+" "+a.text+"`: changes keys, certificates or known hosts")
			return
		case (a.s == "-f" || a.s == "-o" || a.s == "--output") && i+2 < len(args):
			out = args[i+2].s
		case strings.HasPrefix(a.s, "--output="):
			out = strings.TrimPrefix(a.s, "--output=")
		}
	}
	switch {
	case out != "":
		w.writeTo(out, chain, out)
		if chain == "ssh-keygen" {
			w.writeTo(out+".pub", chain, out+".pub")
		}
	case chain == "ssh-keygen":
		w.writeTo(path.Join(w.ws.Home, ".ssh", "id_new"), chain, "~/.ssh/id_…")
	default:
		w.res.add(Dangerous, "`"+chain+"`: prints a new private key, which reaches the model")
	}
}

// sops judges sops: encrypting in place, or decrypting into a file, is
// work on the project's files; decrypted secrets printed, opened in an
// editor or given to a command are the secrets themselves.
func (w *walker) sops(chain string, args []arg, io ioInfo) {
	r := sopsRule()
	ops := scan(r, args)
	verb := ""
	if len(ops) > 0 {
		switch v := args[ops[0]].s; v {
		case "exec-env", "exec-file", "publish", "decrypt", "encrypt", "edit", "set", "unset", "rotate",
			"updatekeys", "filestatus", "groups", "keyservice":
			verb, ops = v, ops[1:]
		}
	}
	inPlace, output := false, ""
	for i, a := range args[1:] {
		switch {
		case matchFlag("-d --decrypt", a.s) && verb == "":
			verb = "decrypt"
		case matchFlag("-e --encrypt", a.s) && verb == "":
			verb = "encrypt"
		case matchFlag("-r --rotate", a.s) && verb == "":
			verb = "rotate"
		case matchFlag("-i --in-place", a.s):
			inPlace = true
		case a.s == "--output" && i+2 < len(args):
			output = args[i+2].s
		case strings.HasPrefix(a.s, "--output="):
			output = strings.TrimPrefix(a.s, "--output=")
		}
	}
	on := "`" + chain + "`"
	switch verb {
	case "exec-env", "exec-file":
		w.res.add(Dangerous, on+": runs a command with the decrypted secrets")
		if len(ops) > 1 {
			w.nested(args[ops[1]].s, input{})
		}
	case "publish":
		w.res.add(Dangerous, on+": uploads the files")
	case "decrypt":
		switch {
		case output != "":
			w.writeTo(output, chain, output)
		case inPlace:
			for _, i := range ops {
				w.writeTo(args[i].s, chain, args[i].text)
			}
		default:
			w.discloses(on + ": prints the decrypted secrets")
		}
	case "encrypt", "set", "unset", "rotate", "updatekeys":
		if inPlace || verb != "encrypt" {
			for _, i := range ops {
				w.writeTo(args[i].s, chain, args[i].text)
			}
		}
		if output != "" {
			w.writeTo(output, chain, output)
		}
	case "filestatus", "groups", "keyservice":
	default: // sops FILE: an editor on the decrypted file
		w.res.add(Dangerous, on+": opens the decrypted secrets in an editor")
	}
}
