package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/swaggest/swgui"
	"github.com/swaggest/swgui/v5emb"
)

// docs is the API reference: Swagger UI, with its assets embedded in the
// binary (swgui/v5emb), rendering the API description. Nothing is fetched
// from another origin.
type docs struct {
	ui   http.Handler
	page []byte // the rendered page, the same on every request
	csp  string
}

// inlineScript matches the page's inline <script> blocks (those with a src
// attribute have attributes and are loaded from 'self').
var inlineScript = regexp.MustCompile(`(?s)<script>(.*?)</script>`)

func newDocs(base, spec string) *docs {
	ui := v5emb.NewHandlerWithConfig(swgui.Config{
		Title:       "hackdesk API",
		SwaggerJSON: spec,
		BasePath:    base + "/",
		// Proxy stays off: it would make this process fetch any URL.
	})
	// Render the page once: it does not depend on the request, and its
	// inline scripts are allowed by hash in the Content-Security-Policy.
	rec := &pageRecorder{header: http.Header{}}
	ui.ServeHTTP(rec, &http.Request{Method: http.MethodGet, URL: &url.URL{Path: base + "/"}, Header: http.Header{}})
	page := rec.body.Bytes()

	scripts := []string{"'self'"}
	for _, m := range inlineScript.FindAllSubmatch(page, -1) {
		sum := sha256.Sum256(m[1])
		scripts = append(scripts, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'")
	}
	csp := strings.Join([]string{
		"default-src 'none'",
		"script-src " + strings.Join(scripts, " "),
		// Swagger UI sets style attributes from script.
		"style-src 'self' 'unsafe-inline'",
		"img-src 'self' data:",
		"font-src 'self' data:",
		"connect-src 'self'",
		"base-uri 'none'",
		"form-action 'none'",
		"frame-ancestors 'none'",
	}, "; ")
	return &docs{ui: ui, page: page, csp: csp}
}

// Docs serves the API reference page of the description at spec: the
// page at base (and base/), its scripts, styles and icons below base/. The
// page is rendered on first use, its inline scripts allowed by hash in its
// own Content-Security-Policy.
func Docs(base, spec string) http.Handler {
	page := sync.OnceValue(func() *docs { return newDocs(base, spec) })
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { page().serve(w, r, base) })
}

func (d *docs) serve(w http.ResponseWriter, r *http.Request, base string) {
	h := w.Header()
	h.Set("Content-Security-Policy", d.csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	if strings.TrimSuffix(r.URL.Path, "/") == base {
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Cache-Control", "no-cache")
		_, _ = w.Write(d.page)
		return
	}
	d.ui.ServeHTTP(w, r)
}

// pageRecorder captures the page rendered at start-up.
type pageRecorder struct {
	header http.Header
	body   bytes.Buffer
}

func (p *pageRecorder) Header() http.Header         { return p.header }
func (p *pageRecorder) Write(b []byte) (int, error) { return p.body.Write(b) }
func (p *pageRecorder) WriteHeader(int)             {}
