package web

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestDocs serves the reference page at its base, with or without the
// slash, under a policy that allows exactly its inline scripts by hash, and
// its assets below the base.
func TestDocs(t *testing.T) {
	t.Parallel()
	h := Docs("/ref", "/spec.yaml")
	get := func(path string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
		return w
	}
	page := get("/ref")
	body := page.Body.String()
	csp := page.Header().Get("Content-Security-Policy")
	if page.Code != http.StatusOK || page.Header().Get("Content-Type") != "text/html; charset=utf-8" ||
		!strings.Contains(body, "/spec.yaml") || !strings.Contains(body, "/ref/swagger-ui-bundle.js") {
		t.Fatalf("GET /ref = %d %q: %.200s", page.Code, page.Header().Get("Content-Type"), body)
	}
	if !strings.HasPrefix(csp, "default-src 'none'; script-src 'self' 'sha256-") || !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("CSP %q", csp)
	}
	for _, m := range inlineScript.FindAllStringSubmatch(body, -1) {
		sum := sha256.Sum256([]byte(m[1]))
		if hash := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"; !strings.Contains(csp, hash) {
			t.Errorf("inline script %.40q not allowed by the CSP", m[1])
		}
	}
	if again := get("/ref/"); again.Body.String() != body || again.Header().Get("Cache-Control") != "no-cache" {
		t.Errorf("GET /ref/ differs from GET /ref")
	}
	if js := get("/ref/swagger-ui-bundle.js"); js.Code != http.StatusOK || js.Body.Len() == 0 ||
		js.Header().Get("Content-Security-Policy") != csp {
		t.Errorf("GET /ref/swagger-ui-bundle.js = %d, %d bytes", js.Code, js.Body.Len())
	}
	if nope := get("/ref/nope.js"); nope.Code != http.StatusNotFound {
		t.Errorf("GET /ref/nope.js = %d, want 404", nope.Code)
	}
}
