package tools

import "github.com/qsh-shell/qsh/policy/danger"

// Judge is the classifier's verdict on command run from dir, as a
// confirmation would show it: the class (safe, dev, dangerous, blocked)
// and its reasons in one line. Suggest mode (`??`) shows it beside the
// command it puts on the prompt line.
func Judge(dir, command string) (class, why string) {
	v := danger.Classify(command, dangerWorkspace(dir))
	return v.Class.String(), reasons(v)
}
