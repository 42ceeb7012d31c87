package proxy

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"testing"
)

func TestNetRules(t *testing.T) {
	r := netRules{
		allow: []string{"proxy.golang.org", "*.github.com", "Example.COM.", "10.1.2.3"},
		block: []string{"gist.github.com"},
		hosts: map[string]string{"registry.test": "127.0.0.1"},
	}
	for host, want := range map[string]string{
		"proxy.golang.org":     "",
		"PROXY.golang.org.":    "",
		"api.github.com":       "",
		"a.b.github.com":       "",
		"github.com":           "not in the allow list",
		"gist.github.com":      "blocked",
		"example.com":          "",
		"evil.example":         "not in the allow list",
		"golang.org.evil.test": "not in the allow list",
		"10.1.2.3":             "",
		"[10.1.2.3]":           "",
		"10.1.2.4":             "not in the allow list",
	} {
		if got := r.decide(host); want == "" && got != "" || want != "" && !strings.Contains(got, want) {
			t.Errorf("decide(%q) = %q, want %q", host, got, want)
		}
	}
	if ip, ok := r.named("registry.test"); !ok || ip.String() != "127.0.0.1" {
		t.Errorf("named(registry.test) = %v %v", ip, ok)
	}
	if ip, ok := r.named("10.1.2.3"); !ok || ip.String() != "10.1.2.3" {
		t.Errorf("named(10.1.2.3) = %v %v", ip, ok)
	}
	if _, ok := r.named("example.com"); ok {
		t.Errorf("a name of the allow list is not an address the user named")
	}
	for _, c := range []struct {
		ip      string
		private bool
	}{
		{"127.0.0.1", true}, {"10.0.0.1", true}, {"172.16.5.4", true}, {"192.168.1.1", true},
		{"169.254.169.254", true}, {"100.64.0.1", true}, {"0.0.0.0", true}, {"::1", true}, {"fe80::1", true},
		{"fd00::1", true}, {"::ffff:127.0.0.1", true}, {"::ffff:10.0.0.1", true}, {"224.0.0.1", true},
		{"8.8.8.8", false}, {"140.82.112.3", false}, {"2606:4700::1111", false}, {"::ffff:8.8.8.8", false},
	} {
		if got := isPrivate(netip.MustParseAddr(c.ip)); got != c.private {
			t.Errorf("isPrivate(%s) = %v", c.ip, got)
		}
	}
}

// TestProxy runs the proxy against servers on loopback: a registry the
// user pinned in hosts is reached with CONNECT and with plain HTTP; a name
// not allowed, an allowed name that resolves to a private address and an
// address not named are refused, each told in one line.
func TestProxy(t *testing.T) {
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "module zip for "+r.URL.Path)
	}))
	defer origin.Close()
	tlsOrigin := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "tls "+r.Host)
	}))
	defer tlsOrigin.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(origin.URL, "http://"))
	_, tlsPort, _ := net.SplitHostPort(strings.TrimPrefix(tlsOrigin.URL, "https://"))

	var mu sync.Mutex
	var refused []string
	p := newProxy(netRules{allow: []string{"registry.test", "localhost"}, hosts: map[string]string{"registry.test": "127.0.0.1"}},
		func(line string) {
			mu.Lock()
			refused = append(refused, line)
			mu.Unlock()
		})
	p.lookup = func(ctx context.Context, host string) ([]netip.Addr, error) {
		if host == "localhost" {
			return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
		}
		return nil, errors.New("no such host")
	}
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	stop := serveProxy(p, l)
	defer stop()
	proxyURL, _ := url.Parse("http://" + l.Addr().String())
	client := &http.Client{Transport: &http.Transport{
		Proxy:           http.ProxyURL(proxyURL),
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true, ServerName: "example.com"},
	}}
	get := func(u string) (string, error) {
		resp, err := client.Get(u)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			return string(b), errors.New(resp.Status)
		}
		return string(b), nil
	}
	if got, err := get("http://registry.test:" + port + "/example.com/m/@v/v1.0.0.zip"); err != nil || got != "module zip for /example.com/m/@v/v1.0.0.zip" {
		t.Errorf("plain HTTP to the pinned registry: %q %v", got, err)
	}
	if got, err := get("https://registry.test:" + tlsPort + "/"); err != nil || got != "tls registry.test:"+tlsPort {
		t.Errorf("CONNECT to the pinned registry: %q %v", got, err)
	}
	for _, u := range []string{"http://evil.example:" + port + "/", "https://evil.example:" + tlsPort + "/",
		"http://localhost:" + port + "/", "http://127.0.0.1:" + port + "/"} {
		if got, err := get(u); err == nil {
			t.Errorf("%s went through: %q", u, got)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	want := []string{
		"sandbox: network to evil.example:" + port + " refused (not in the allow list; QSH_AI_SANDBOX_ALLOW or sandbox.json adds a domain)",
		"sandbox: network to evil.example:" + tlsPort + " refused (not in the allow list; QSH_AI_SANDBOX_ALLOW or sandbox.json adds a domain)",
		"sandbox: network to localhost:" + port + " refused (it resolves to a private address, 127.0.0.1)",
		"sandbox: network to 127.0.0.1:" + port + " refused (not in the allow list; QSH_AI_SANDBOX_ALLOW or sandbox.json adds a domain)",
	}
	if strings.Join(refused, "\n") != strings.Join(want, "\n") {
		t.Errorf("refusals:\n%s\nwant:\n%s", strings.Join(refused, "\n"), strings.Join(want, "\n"))
	}
}
