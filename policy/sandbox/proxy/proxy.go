// Package proxy is the HTTP proxy through which the programs the
// assistant runs in the sandbox reach the network: the domains of an
// allow list, none that leads to a private address, each refusal told.
// The assistant runs it (a shell that never asks never links net/http);
// a jail reaches it through a unix socket.
package proxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DefaultAllow is the allow list's default: the package registries and
// code hosts a build needs (Go, npm, PyPI, crates.io, RubyGems, Maven
// and Gradle, NuGet, Packagist, Hex, pub.dev; GitHub, GitLab, Bitbucket,
// Codeberg). QSH_AI_SANDBOX_ALLOW and sandbox.json add to it.
var DefaultAllow = []string{
	"proxy.golang.org", "sum.golang.org", "index.golang.org", "golang.org", "go.dev", "dl.google.com",
	"registry.npmjs.org", "registry.yarnpkg.com", "repo.yarnpkg.com", "nodejs.org",
	"pypi.org", "files.pythonhosted.org",
	"crates.io", "index.crates.io", "static.crates.io", "static.rust-lang.org",
	"rubygems.org", "index.rubygems.org",
	"repo.maven.apache.org", "repo1.maven.org", "plugins.gradle.org", "services.gradle.org", "downloads.gradle.org",
	"api.nuget.org", "packagist.org", "repo.packagist.org", "hex.pm", "repo.hex.pm", "pub.dev",
	"github.com", "*.github.com", "*.githubusercontent.com", "gitlab.com", "*.gitlab.com",
	"bitbucket.org", "codeberg.org",
}

// netRules decide where the proxy lets confined programs connect: a host
// the block list names never; one the allow list names, yes, once its
// addresses are known not to be private ones (loopback, the LAN, link-local
// with the cloud's metadata service…), unless the user named the address
// (an IP in the allow list, or a name pinned in hosts).
type netRules struct {
	allow, block []string
	hosts        map[string]string
}

// matchHost reports whether host matches pattern: the same name, or
// under it for "*.example.com" (example.com itself not), or anything for
// "*". Both are lower case without a final dot.
func matchHost(pattern, host string) bool {
	switch {
	case pattern == "*":
		return true
	case strings.HasPrefix(pattern, "*."):
		return strings.HasSuffix(host, pattern[1:])
	}
	return pattern == host
}

// normalHost is host as the rules compare it.
func normalHost(host string) string {
	return strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
}

// decide says whether host may be reached: "" when it may, else why not.
func (r netRules) decide(host string) string {
	host = normalHost(host)
	for _, b := range r.block {
		if matchHost(normalHost(b), host) {
			return "blocked by sandbox.json"
		}
	}
	for _, a := range r.allow {
		if matchHost(normalHost(a), host) {
			return ""
		}
	}
	return "not in the allow list; QSH_AI_SANDBOX_ALLOW or sandbox.json adds a domain"
}

// named reports whether the user named host's address themselves: an IP
// of the allow list, or a name pinned in hosts.
func (r netRules) named(host string) (netip.Addr, bool) {
	host = normalHost(host)
	if a, ok := r.hosts[host]; ok {
		ip, err := netip.ParseAddr(a)
		return ip, err == nil
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		for _, a := range r.allow {
			if normalHost(a) == host {
				return ip, true
			}
		}
	}
	return netip.Addr{}, false
}

// private are the ranges the proxy does not connect to when a name leads
// there: beyond netip's loopback, private, link-local, multicast and
// unspecified addresses, these-networks, carrier-grade NAT, benchmarking,
// reserved, and the IETF's own.
var private = sync.OnceValue(func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{"0.0.0.0/8", "100.64.0.0/10", "192.0.0.0/24", "198.18.0.0/15", "240.0.0.0/4",
		"fec0::/10", "64:ff9b:1::/48"} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
})

// isPrivate reports whether ip is not an address on the internet.
func isPrivate(ip netip.Addr) bool {
	ip = ip.Unmap()
	if ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() {
		return true
	}
	for _, p := range private() {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// proxy is the HTTP proxy confined programs reach the network through:
// CONNECT for TLS (and anything else), plain requests for http://. Each
// refusal is answered 403 with why, and told to refused in one line.
type proxy struct {
	rules   netRules
	lookup  func(ctx context.Context, host string) ([]netip.Addr, error)
	dialer  net.Dialer
	refused func(line string)
	// transport forwards plain requests; it dials through the rules.
	transport *http.Transport
}

func newProxy(rules netRules, refused func(string)) *proxy {
	p := &proxy{rules: rules, refused: refused, dialer: net.Dialer{Timeout: 30 * time.Second}}
	p.lookup = func(ctx context.Context, host string) ([]netip.Addr, error) {
		return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	}
	p.transport = &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, why := p.dial(ctx, addr)
			if why != "" {
				return nil, errRefused{why}
			}
			return c, nil
		},
		MaxIdleConns:          16,
		IdleConnTimeout:       30 * time.Second,
		ResponseHeaderTimeout: 2 * time.Minute,
	}
	return p
}

type errRefused struct{ why string }

func (e errRefused) Error() string { return e.why }

// dial connects to host:port if the rules let it: to the address the
// user named, or to the first of the name's addresses, all of which must
// be public (the name is resolved once, here, so that it cannot lead
// elsewhere between the check and the connection). why is the refusal.
func (p *proxy) dial(ctx context.Context, hostport string) (c net.Conn, why string) {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return nil, p.refuse(hostport, "not a host and port")
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return nil, p.refuse(hostport, "not a port")
	}
	if why := p.rules.decide(host); why != "" {
		return nil, p.refuse(hostport, why)
	}
	ip, named := p.rules.named(host)
	if !named {
		if _, err := netip.ParseAddr(normalHost(host)); err == nil {
			return nil, p.refuse(hostport, "an address must be allowed as such")
		}
		ips, err := p.lookup(ctx, normalHost(host))
		if err != nil || len(ips) == 0 {
			return nil, fmt.Sprintf("cannot resolve %s", host)
		}
		for _, a := range ips {
			if isPrivate(a) {
				return nil, p.refuse(hostport, "it resolves to a private address, "+a.Unmap().String())
			}
		}
		ip = ips[0]
	}
	c, err = p.dialer.DialContext(ctx, "tcp", net.JoinHostPort(ip.Unmap().String(), port))
	if err != nil {
		return nil, fmt.Sprintf("cannot connect to %s: %v", hostport, unwrapNet(err))
	}
	return c, ""
}

// refuse tells a refusal and returns it.
func (p *proxy) refuse(hostport, why string) string {
	line := "sandbox: network to " + hostport + " refused (" + why + ")"
	if p.refused != nil {
		p.refused(line)
	}
	return line
}

func unwrapNet(err error) error {
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return op.Err
	}
	return err
}

// hopHeaders are a connection's own headers, which a proxy does not pass on.
var hopHeaders = []string{"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate",
	"Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

func (p *proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect {
		p.tunnel(w, r)
		return
	}
	if r.URL.Scheme != "http" || r.URL.Host == "" {
		http.Error(w, "qsh sandbox: this is a proxy: only CONNECT and absolute http:// URLs", http.StatusBadRequest)
		return
	}
	out := r.Clone(r.Context())
	out.RequestURI = ""
	for _, h := range hopHeaders {
		out.Header.Del(h)
	}
	if out.URL.Port() == "" {
		out.URL.Host = net.JoinHostPort(out.URL.Hostname(), "80")
	}
	resp, err := p.transport.RoundTrip(out)
	if err != nil {
		var refused errRefused
		status := http.StatusBadGateway
		if errors.As(err, &refused) {
			status = http.StatusForbidden
		}
		http.Error(w, "qsh sandbox: "+err.Error(), status)
		return
	}
	defer resp.Body.Close()
	for _, h := range hopHeaders {
		resp.Header.Del(h)
	}
	for k, vs := range resp.Header {
		w.Header()[k] = vs
	}
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
}

// tunnel answers CONNECT: a connection to the host joined to the client's.
func (p *proxy) tunnel(w http.ResponseWriter, r *http.Request) {
	c, why := p.dial(r.Context(), r.Host)
	if why != "" {
		http.Error(w, "qsh "+why, http.StatusForbidden)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		c.Close()
		http.Error(w, "qsh sandbox: cannot tunnel", http.StatusInternalServerError)
		return
	}
	client, rw, err := hj.Hijack()
	if err != nil {
		c.Close()
		return
	}
	if _, err := client.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n")); err != nil {
		client.Close()
		c.Close()
		return
	}
	done := make(chan struct{})
	go func() {
		// What the client sent after its request is in the reader.
		copyClose(c, io.MultiReader(io.LimitReader(rw.Reader, int64(rw.Reader.Buffered())), client))
		close(done)
	}()
	copyClose(client, c)
	<-done
	client.Close()
	c.Close()
}

// copyClose copies from src to dst, then ends dst's writing, or closes it.
func copyClose(dst net.Conn, src io.Reader) {
	io.Copy(dst, src)
	if cw, ok := dst.(interface{ CloseWrite() error }); ok {
		cw.CloseWrite()
		return
	}
	dst.Close()
}

// serveProxy serves p on l until l is closed.
func serveProxy(p *proxy, l net.Listener) func() {
	srv := &http.Server{Handler: p, ReadHeaderTimeout: 30 * time.Second}
	go srv.Serve(l)
	return func() {
		srv.Close()
		p.transport.CloseIdleConnections()
	}
}

// Rules are what a Listener lets through: the domains of Allow (to which
// DefaultAllow is not added: the caller composes), but those of Deny; the
// names of Hosts resolve to the addresses given.
type Rules struct {
	Allow, Deny []string
	Hosts       map[string]string
}

// Listener is the proxy serving one set of rules: on a unix socket, for
// jails, which bind it in; and when asked on a TCP port of the loopback,
// for jails without a network namespace of their own.
type Listener struct {
	Socket string // the unix socket's path
	Port   int    // the TCP port; 0 without

	mu       sync.Mutex
	refusals []string
	stops    []func()
}

// Listen starts a Listener for rules with its socket in dir.
func Listen(dir string, rules Rules, tcp bool) (*Listener, error) {
	l := &Listener{Socket: filepath.Join(dir, "proxy-"+strconv.Itoa(nextSocket())+".sock")}
	p := newProxy(netRules{allow: rules.Allow, block: rules.Deny, hosts: rules.Hosts}, l.refused)
	ul, err := net.Listen("unix", l.Socket)
	if err != nil {
		return nil, err
	}
	l.stops = append(l.stops, serveProxy(p, ul))
	if tcp {
		tl, err := net.Listen("tcp4", "127.0.0.1:0")
		if err != nil {
			l.Close()
			return nil, err
		}
		l.Port = tl.Addr().(*net.TCPAddr).Port
		l.stops = append(l.stops, serveProxy(p, tl))
	}
	return l, nil
}

var sockets struct {
	sync.Mutex
	n int
}

func nextSocket() int {
	sockets.Lock()
	defer sockets.Unlock()
	sockets.n++
	return sockets.n
}

func (l *Listener) refused(line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !slices.Contains(l.refusals, line) && len(l.refusals) < 20 {
		l.refusals = append(l.refusals, line)
	}
}

// Refusals returns the refusals since the last call, one line each.
func (l *Listener) Refusals() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	r := l.refusals
	l.refusals = nil
	return r
}

// Close stops the proxy and removes its socket.
func (l *Listener) Close() error {
	for _, stop := range l.stops {
		stop()
	}
	return os.Remove(l.Socket)
}
