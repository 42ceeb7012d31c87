package proxy

import (
	"strings"
	"testing"
)

func TestConfig(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/sandbox.json"
	if c, err := LoadConfig(path); err != nil || len(c.Allow) != 0 {
		t.Errorf("a missing file: %+v %v", c, err)
	}
	writeFile(t, path, `{"allow": ["example.com", "*.corp.example"], "deny": ["gist.github.com"],
		"hosts": {"registry.corp.example": "10.1.2.3"},
		"projects": {"/home/al/app": {"allow": ["api.example.com"], "deny": ["x.example"]}}}`)
	c, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	allow, deny := c.For("/home/al/app/sub")
	if strings.Join(allow, " ") != "example.com *.corp.example api.example.com" || strings.Join(deny, " ") != "gist.github.com x.example" {
		t.Errorf("For(app): %q %q", allow, deny)
	}
	allow, deny = c.For("/home/al/other")
	if strings.Join(allow, " ") != "example.com *.corp.example" || strings.Join(deny, " ") != "gist.github.com" {
		t.Errorf("For(other): %q %q", allow, deny)
	}
	for _, bad := range []string{`{"allow": "example.com"}`, `{"allow": ["https://example.com/"]}`, `{"alow": []}`,
		`{"hosts": {"x.example": "not an address"}}`, `{`} {
		writeFile(t, path, bad)
		if _, err := LoadConfig(path); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v", bad, err)
		}
	}
	var d Domains
	if err := d.UnmarshalText([]byte("a.example, *.b.example 10.0.0.1")); err != nil || d.String() != "a.example,*.b.example,10.0.0.1" {
		t.Errorf("Domains: %q %v", d, err)
	}
}
