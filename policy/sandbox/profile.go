package sandbox

import "strings"

// profile is p in macOS's Sandbox Profile Language, for sandbox-exec:
// the last rule that matches wins, so writes are denied, then allowed
// where p allows them, then secrets denied whatever the earlier rules
// said.
func profile(p Policy) string {
	var b strings.Builder
	b.WriteString("(version 1)\n(allow default)\n(deny file-write*)\n")
	for _, w := range p.Write {
		b.WriteString("(allow file-write* (subpath " + quote(w) + "))\n")
	}
	for _, d := range p.Deny {
		b.WriteString("(deny file-read* file-write* (subpath " + quote(d) + "))\n")
	}
	if p.Net != NetOn {
		b.WriteString("(deny network-outbound (remote tcp))\n(deny network-bind (local tcp))\n")
	}
	return b.String()
}

func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
