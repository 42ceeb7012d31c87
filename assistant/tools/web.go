package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/PuerkitoBio/goquery"

	"github.com/qsh-shell/qsh/policy/danger"
	"github.com/qsh-shell/qsh/policy/secret"
)

//go:embed web.md
var webDescription string

// webParams are web_search's arguments.
type webParams struct {
	Query      string `json:"query" jsonschema:"what to search for"`
	NumResults int    `json:"num_results,omitempty" jsonschema:"how many results, 1 to 10 (default 5)"`
}

// maxPage bounds the search page read, so a broken server cannot fill memory.
const maxPage = 4 << 20

// userAgent is sent with each search; DuckDuckGo's HTML endpoint expects a
// browser-like client.
const userAgent = "Mozilla/5.0 (X11; Linux x86_64) qsh web_search"

// hit is one search result.
type hit struct {
	Title, URL, Snippet string
}

// errBotCheck is DuckDuckGo answering with its "are you a robot" page.
var errBotCheck = errors.New("blocked by DuckDuckGo's bot check — set QSH_AI_WEB_PROVIDER=searxng and QSH_AI_WEB_BASE_URL to a SearXNG instance (its JSON API must be enabled)")

// web is the web_search tool.
type web struct {
	r      *Registry
	schema json.RawMessage
}

func newWeb(r *Registry) *web {
	s := schemaFor[webParams](nil)
	s.Properties["num_results"].Minimum = ptr(1.0)
	s.Properties["num_results"].Maximum = ptr(float64(MaxWebResults))
	return &web{r: r, schema: mustJSON(s)}
}

func ptr[T any](v T) *T { return &v }

func (t *web) Name() string            { return "web_search" }
func (t *web) Description() string     { return webDescription }
func (t *web) Schema() json.RawMessage { return t.schema }

func (t *web) Execute(ctx context.Context, env Env, args json.RawMessage) Result {
	return t.call(ctx, env, args, &call{})
}

func (t *web) call(ctx context.Context, env Env, args json.RawMessage, c *call) Result {
	var p webParams
	if err := json.Unmarshal(args, &p); err != nil {
		return failf("web_search: bad arguments: %v", err)
	}
	q := strings.TrimSpace(secret.Redact(p.Query))
	if q == "" {
		return failf("web_search: the query is empty")
	}
	n := p.NumResults
	if n <= 0 {
		n = t.r.cfg.WebMaxResults
	}
	n = min(n, MaxWebResults)
	c.class, c.decision = danger.Safe.String(), decRun
	if err := t.wait(ctx); err != nil {
		return failf("web_search: %v", err)
	}
	var hits []hit
	var err error
	if t.r.cfg.WebProvider == SearXNG {
		hits, err = t.searxng(ctx, q)
	} else {
		hits, err = t.duckduckgo(ctx, q)
	}
	if err != nil {
		return failf("web_search %q: %v", q, err)
	}
	var sb strings.Builder
	if q != strings.TrimSpace(p.Query) {
		sb.WriteString("(secrets were removed from the query before it was sent)\n")
	}
	if len(hits) == 0 {
		fmt.Fprintf(&sb, "no results for %q\n", q)
		return Result{Success: true, Output: sb.String()}
	}
	for i, h := range hits[:min(n, len(hits))] {
		fmt.Fprintf(&sb, "%d. %s\n   %s\n", i+1, h.Title, h.URL)
		if h.Snippet != "" {
			fmt.Fprintf(&sb, "   %s\n", h.Snippet)
		}
	}
	return Result{Success: true, Output: sb.String()}
}

// wait keeps searches minSearchSpacing apart, so one turn cannot hammer
// the search engine (and get the session blocked by it).
func (t *web) wait(ctx context.Context) error {
	t.r.mu.Lock()
	now := t.r.now()
	next := t.r.lastSearch.Add(minSearchSpacing)
	slot := now
	if next.After(now) {
		slot = next
	}
	t.r.lastSearch = slot
	t.r.mu.Unlock()
	return t.r.sleep(ctx, slot.Sub(now))
}

func (t *web) duckduckgo(ctx context.Context, q string) ([]hit, error) {
	form := url.Values{"q": {q}, "b": {""}, "kl": {""}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.r.cfg.WebBaseURL, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, fmt.Errorf("bad QSH_AI_WEB_BASE_URL %q: %v", t.r.cfg.WebBaseURL, err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set("Accept", "text/html")
	body, err := t.fetch(req)
	if err != nil {
		return nil, err
	}
	return parseDuckDuckGo(body)
}

// fetch does req and returns the body of a 2xx answer (DuckDuckGo answers
// its bot check with 202, so any 2xx is read).
func (t *web) fetch(req *http.Request) (string, error) {
	resp, err := t.r.client.Do(req)
	if err != nil {
		return "", netError(req.URL, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxPage))
	if err != nil {
		return "", fmt.Errorf("reading the answer from %s: %v", req.URL.Host, err)
	}
	if resp.StatusCode/100 != 2 {
		msg := fmt.Sprintf("%s answered %s", req.URL.Host, resp.Status)
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusForbidden {
			msg += " (rate limited or blocked; wait, or set QSH_AI_WEB_PROVIDER=searxng and QSH_AI_WEB_BASE_URL)"
		}
		return "", errors.New(msg)
	}
	return string(b), nil
}

// netError says plainly why a search could not reach its server.
func netError(u *url.URL, err error) error {
	var dns *net.DNSError
	var op *net.OpError
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%s did not answer in time", u.Host)
	case errors.Is(err, context.Canceled):
		return errors.New("canceled")
	case errors.As(err, &dns):
		return fmt.Errorf("cannot resolve %s (no network, or no DNS?)", dns.Name)
	case errors.As(err, &op) && op.Op == "dial":
		return fmt.Errorf("cannot connect to %s: %v", u.Host, op.Err)
	}
	return fmt.Errorf("cannot reach %s: %v", u.Host, err)
}

// parseDuckDuckGo reads the results of DuckDuckGo's HTML endpoint,
// skipping ads, and tells its bot check apart from an empty result list.
func parseDuckDuckGo(page string) ([]hit, error) {
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(page))
	if err != nil {
		return nil, fmt.Errorf("cannot parse the results page: %v", err)
	}
	if doc.Find("#challenge-form, .anomaly-modal, form[action*='anomaly']").Length() > 0 {
		return nil, errBotCheck
	}
	var hits []hit
	doc.Find(".result").Each(func(_ int, s *goquery.Selection) {
		if s.HasClass("result--ad") || s.Find(".badge--ad").Length() > 0 {
			return
		}
		a := s.Find("a.result__a").First()
		title := clean(a.Text())
		href, _ := a.Attr("href")
		link := realURL(href)
		if title == "" || link == "" || isAdLink(link) {
			return
		}
		hits = append(hits, hit{Title: title, URL: link, Snippet: clean(s.Find(".result__snippet").First().Text())})
	})
	if len(hits) == 0 && doc.Find(".result, .no-results, #links, .serp__results").Length() == 0 {
		return nil, errors.New("the answer is not a DuckDuckGo results page (is QSH_AI_WEB_BASE_URL right?)")
	}
	return hits, nil
}

// realURL decodes DuckDuckGo's redirect link (//duckduckgo.com/l/?uddg=…)
// to the address it leads to.
func realURL(href string) string {
	if href == "" {
		return ""
	}
	u, err := url.Parse(href)
	if err != nil {
		return ""
	}
	if target := u.Query().Get("uddg"); target != "" && strings.HasPrefix(u.Path, "/l/") {
		return target
	}
	if u.Scheme == "" && strings.HasPrefix(href, "//") {
		u.Scheme = "https"
	}
	return u.String()
}

func isAdLink(link string) bool {
	u, err := url.Parse(link)
	return err == nil && strings.HasSuffix(u.Host, "duckduckgo.com") && (strings.HasPrefix(u.Path, "/y.js") || u.Query().Has("ad_domain"))
}

// clean collapses the whitespace of text taken from HTML.
func clean(s string) string { return strings.Join(strings.Fields(s), " ") }

// searxngAnswer is the part of SearXNG's JSON answer web_search reads.
type searxngAnswer struct {
	Results []struct {
		Title   string `json:"title"`
		URL     string `json:"url"`
		Content string `json:"content"`
	} `json:"results"`
}

func (t *web) searxng(ctx context.Context, q string) ([]hit, error) {
	if t.r.cfg.WebBaseURL == "" {
		return nil, errors.New("QSH_AI_WEB_PROVIDER=searxng needs QSH_AI_WEB_BASE_URL, the address of a SearXNG instance")
	}
	u, err := url.Parse(strings.TrimSuffix(t.r.cfg.WebBaseURL, "/") + "/search")
	if err != nil {
		return nil, fmt.Errorf("bad QSH_AI_WEB_BASE_URL %q: %v", t.r.cfg.WebBaseURL, err)
	}
	u.RawQuery = url.Values{"q": {q}, "format": {"json"}}.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set("Accept", "application/json")
	body, err := t.fetch(req)
	if err != nil {
		return nil, err
	}
	var a searxngAnswer
	if err := json.Unmarshal([]byte(body), &a); err != nil {
		return nil, fmt.Errorf("the answer of %s is not SearXNG JSON (is format=json enabled in its settings?): %v", u.Host, err)
	}
	var hits []hit
	for _, r := range a.Results {
		if r.URL == "" {
			continue
		}
		hits = append(hits, hit{Title: clean(r.Title), URL: r.URL, Snippet: clean(r.Content)})
	}
	return hits, nil
}
