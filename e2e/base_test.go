package e2e

import (
	"bytes"
	"net/http"
	"testing"

	"hackdesk/api"
)

func TestHealth(t *testing.T) {
	t.Parallel()
	a, c := newApp(t)

	r := c.expect(http.StatusOK, "GET", "/healthz", nil)
	if r.Map(t)["status"] != "ok" {
		t.Fatalf("healthz body %s", r.Body)
	}
	if r.Header.Get("X-Request-Id") == "" {
		t.Fatal("no X-Request-Id on the response")
	}
	r = c.expect(http.StatusOK, "GET", "/healthz", nil, "X-Request-Id", "trace-42")
	if got := r.Header.Get("X-Request-Id"); got != "trace-42" {
		t.Fatalf("X-Request-Id = %q, want the caller's trace-42", got)
	}

	r = c.expect(http.StatusOK, "GET", "/readyz", nil)
	checks := r.Map(t)["checks"].(map[string]any)
	if checks["database"] != "ok" || checks["temporal"] != "ok" {
		t.Fatalf("readyz checks %v", checks)
	}
	ob, ok := r.Map(t)["outbox"].(map[string]any)
	if !ok || ob["pending"] != float64(0) || ob["lag_seconds"] != float64(0) {
		t.Fatalf("readyz outbox %v, want nothing pending", r.Map(t)["outbox"])
	}

	// With the database gone, readiness fails while liveness holds.
	a.Store.Close()
	r = c.expect(http.StatusServiceUnavailable, "GET", "/readyz", nil)
	checks = r.Map(t)["checks"].(map[string]any)
	if checks["database"] != "unavailable" || checks["temporal"] != "ok" {
		t.Fatalf("readyz checks with the database closed %v", checks)
	}
	c.expect(http.StatusOK, "GET", "/healthz", nil)
}

func TestOpenAPIServed(t *testing.T) {
	t.Parallel()
	_, c := newApp(t)
	r := c.expect(http.StatusOK, "GET", "/api/openapi.yaml", nil)
	if !bytes.Equal(r.Body, api.OpenAPISpec()) || !bytes.HasPrefix(r.Body, []byte("openapi: 3.1")) {
		t.Fatalf("served spec differs from api/openapi.yaml")
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/yaml" {
		t.Fatalf("content type %q", ct)
	}
}

func TestUnknownRoutes(t *testing.T) {
	t.Parallel()
	_, c := newApp(t)
	c.offSpec = true // these routes are undocumented on purpose
	r := c.expect(http.StatusNotFound, "GET", "/api/nope", nil)
	if r.Map(t)["error"] != "Not found" {
		t.Fatalf("404 body %s", r.Body)
	}
	r = c.expect(http.StatusMethodNotAllowed, "DELETE", "/healthz", nil)
	if r.Map(t)["error"] == nil {
		t.Fatalf("405 body %s", r.Body)
	}
}

func TestAdminEmailsNeedsSuperadmin(t *testing.T) {
	t.Parallel()
	_, c := newApp(t)
	r := c.expect(http.StatusUnauthorized, "GET", "/api/admin/emails", nil)
	if r.Map(t)["error"] != "Unauthorized" {
		t.Fatalf("body %s", r.Body)
	}
	c.token = "not-a-session"
	c.expect(http.StatusUnauthorized, "GET", "/api/admin/emails?kind=confirm", nil)
}
