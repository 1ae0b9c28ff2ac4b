package api

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/google/uuid"
	"go.yaml.in/yaml/v3"

	"hackdesk/internal/platform/config"
	"hackdesk/internal/platform/edge"
)

// The headers chi's RealIP believed are never read: with nothing trusted
// (the default) no header moves the address, and behind a trusted proxy
// only X-Forwarded-For does.
func TestRealIPIgnoresClientHeaders(t *testing.T) {
	t.Parallel()
	spoof := http.Header{
		"X-Forwarded-For": {"198.51.100.1"}, "X-Real-Ip": {"198.51.100.2"},
		"True-Client-Ip": {"198.51.100.3"}, "Forwarded": {"for=198.51.100.4"},
	}
	for _, tc := range []struct {
		name, trusted string
		header        http.Header
		want          string
	}{
		{"NothingTrusted", "", spoof, "127.0.0.1:1234"},
		{"TrustedProxyUsesXFF", "127.0.0.1", spoof, "198.51.100.1"},
		{"TrustedProxyOtherHeaders", "127.0.0.1/32", http.Header{"X-Real-Ip": {"198.51.100.2"}, "True-Client-Ip": {"198.51.100.3"}}, "127.0.0.1:1234"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEdge(config.Config{TrustedProxies: tc.trusted}, nil)
			var got string
			h := e.realIP(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got = r.RemoteAddr }))
			r := httptest.NewRequest(http.MethodPost, "/api/auth/login", nil)
			r.RemoteAddr = "127.0.0.1:1234"
			r.Header = tc.header.Clone()
			h.ServeHTTP(httptest.NewRecorder(), r)
			if got != tc.want {
				t.Errorf("RemoteAddr = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestRequestIDMiddleware(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, sent string
		kept       bool
	}{
		{"Safe", "trace-42", true},
		{"TooLong", strings.Repeat("x", 65), false},
		{"Unsafe", "x\r\ninjected: 1", false},
		{"Missing", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var inCtx string
			h := requestID(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { inCtx = middleware.GetReqID(r.Context()) }))
			r := httptest.NewRequest(http.MethodGet, "/healthz", nil)
			if tc.sent != "" {
				r.Header["X-Request-Id"] = []string{tc.sent}
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			got := w.Header().Get("X-Request-Id")
			if got != inCtx {
				t.Errorf("response id %q, context id %q: want the same", got, inCtx)
			}
			if tc.kept && got != tc.sent {
				t.Errorf("id = %q, want the client's %q", got, tc.sent)
			}
			if !tc.kept && (got == tc.sent || !edge.SafeRequestID(got)) {
				t.Errorf("id = %q, want a new safe id", got)
			}
		})
	}
}

func TestSecurityHeaders(t *testing.T) {
	t.Parallel()
	s := New(Deps{Auth: fixedAuth{}})
	for _, tc := range []struct {
		path    string
		noStore bool
	}{
		{"/api/auth/login", true},
		{"/api/auth/nope", true},
		{"/api/profile", true},
		{"/api/applications", true},        // every route that needs a signed-in caller
		{"/api/admin/memberships/x", true}, // the gate's refusals too
		{"/api/openapi.yaml", false},
		{"/api/nope", false},
		{"/api/profiles", false},
	} {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest(http.MethodGet, tc.path, nil))
		h := w.Header()
		if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("GET %s: X-Content-Type-Options %q, Referrer-Policy %q", tc.path, h.Get("X-Content-Type-Options"), h.Get("Referrer-Policy"))
		}
		if got := h.Get("Cache-Control") == "no-store"; got != tc.noStore {
			t.Errorf("GET %s: Cache-Control %q, want no-store: %v", tc.path, h.Get("Cache-Control"), tc.noStore)
		}
		checkIsolationHeaders(t, "GET "+tc.path, h, false, "") // no PUBLIC_URL
	}
}

// checkIsolationHeaders checks the headers that keep other sites and
// browser features away from every answer: the camera for this origin
// only (the check-in page), no other powerful feature, no opener shared
// with another origin where browsers apply it (coop), and HSTS exactly
// when PUBLIC_URL is https (hsts is the header's value then, "" otherwise).
func checkIsolationHeaders(t *testing.T, what string, h http.Header, coop bool, hsts string) {
	t.Helper()
	if got := h.Get("Cross-Origin-Opener-Policy"); got != map[bool]string{true: "same-origin"}[coop] {
		t.Errorf("%s: Cross-Origin-Opener-Policy %q, want it: %v", what, got, coop)
	}
	if got := h.Get("Permissions-Policy"); got != "camera=(self), microphone=(), geolocation=(), payment=(), usb=()" {
		t.Errorf("%s: Permissions-Policy %q", what, got)
	}
	if got := h.Get("Strict-Transport-Security"); got != hsts {
		t.Errorf("%s: Strict-Transport-Security %q, want %q", what, got, hsts)
	}
}

// HSTS is sent when the service is reached over https (PUBLIC_URL), on
// every answer, and never over http; the opener policy over https and on
// loopback (where browsers apply it; elsewhere they log an error).
func TestStrictTransportSecurity(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		url  string
		coop bool
		hsts string
	}{
		{"https://hackdesk.example", true, "max-age=31536000"},
		{"HTTPS://hackdesk.example:8443", true, "max-age=31536000"},
		{"http://hackdesk.example", false, ""},
		{"http://localhost:8080", true, ""},
		{"http://127.0.0.1:8080", true, ""},
		{"http://[::1]:8080", true, ""},
		{"http://localhost.example", false, ""},
		{"", false, ""},
	} {
		s := New(Deps{Config: config.Config{PublicURL: c.url}, Auth: fixedAuth{}, Web: testBuild()})
		for _, path := range []string{"/api/openapi.yaml", "/api/nope", "/", "/healthz", "/api/profile"} {
			w := httptest.NewRecorder()
			s.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
			checkIsolationHeaders(t, c.url+" GET "+path, w.Header(), c.coop, c.hsts)
		}
	}
}

// Every state-changing route that needs a caller, pages included, refuses
// the session cookie on a cross-site or same-site request, or with a
// foreign Origin (403 before any handler runs), whatever the body; the
// same request's cookie from the site's own origin reaches the route.
func TestGateRefusesCrossSiteCookieOnEveryRoute(t *testing.T) {
	t.Parallel()
	super := &Principal{Role: "superadmin", ExecPosition: "President"}
	s := New(Deps{Config: config.Config{PublicURL: "https://hackdesk.example"}, Auth: fixedAuth{super}, Web: testBuild()})
	walked := 0
	for _, rt := range s.routes() {
		if !unsafeMethod(rt.method) || rt.policy == Public {
			continue
		}
		walked++
		path := strings.NewReplacer("{id}", uuid.NewString(), "{term_id}", uuid.NewString(), "{key}", "k", "*", "x").Replace(rt.pattern)
		for _, h := range []map[string]string{
			{"Sec-Fetch-Site": "cross-site"},
			{"Sec-Fetch-Site": "same-site"},
			{"Origin": "https://evil.example"},
			{"Origin": "https://hackdesk.example.evil.example", "Sec-Fetch-Site": "same-origin"},
			{"Origin": "null"},
		} {
			r := httptest.NewRequest(rt.method, path, strings.NewReader(`{}`))
			r.Header.Set("Content-Type", "application/json")
			r.AddCookie(&http.Cookie{Name: sessionCookie, Value: "tok"})
			for k, v := range h {
				r.Header.Set(k, v)
			}
			w := httptest.NewRecorder()
			s.ServeHTTP(w, r)
			if w.Code != http.StatusForbidden || !strings.Contains(w.Body.String(), "Forbidden") {
				t.Errorf("%s %s with the cookie and %v = %d %s, want 403", rt.method, path, h, w.Code, w.Body)
			}
		}
	}
	if walked < 40 {
		t.Fatalf("walked %d state-changing routes", walked)
	}
}

// Cross-site unsafe requests may be refused with 403 on every route that
// needs a caller, and any body not in JSON with 415 on every route that
// takes one: the document lists both answers wherever they can happen.
func TestOpenAPIListsEdgeRefusals(t *testing.T) {
	t.Parallel()
	var doc struct {
		Paths map[string]map[string]struct {
			Responses map[string]any `yaml:"responses"`
		} `yaml:"paths"`
	}
	if err := yaml.Unmarshal(openAPISpec, &doc); err != nil {
		t.Fatalf("openapi.yaml: %v", err)
	}
	s := New(Deps{})
	for _, rt := range s.routes() {
		if !unsafeMethod(rt.method) {
			continue
		}
		op, ok := doc.Paths[rt.pattern][strings.ToLower(rt.method)]
		if !ok {
			continue // TestOpenAPICoversRoutes reports it
		}
		if _, ok := op.Responses["415"]; !ok {
			t.Errorf("%s %s does not list 415 (a body that is not the expected type)", rt.method, rt.pattern)
		}
		if _, ok := op.Responses["403"]; !ok && rt.policy != Public {
			t.Errorf("%s %s does not list 403 (a cross-site request with the session cookie)", rt.method, rt.pattern)
		}
	}
}

// The gate resolves the route on the escaped path, as the router does.
func TestGateResolvesEscapedPath(t *testing.T) {
	t.Parallel()
	s := New(Deps{Auth: fixedAuth{}})
	for _, path := range []string{
		"/api/admin/applications/a%2Fb",
		"/api/admin/applications/a%252Fb",
		"/api/admin/applications/%2e%2e",
		"/api/admin/applications/x",
	} {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
		if w.Code != http.StatusUnauthorized {
			t.Errorf("anonymous GET %s = %d, want 401; body %s", path, w.Code, w.Body)
		}
	}
}

func TestRoutePath(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ target, want string }{
		{"/api/admin/applications/a%2Fb", "/api/admin/applications/a%2Fb"},
		// Path "a%2Fb" re-encodes to what was sent, so there is no RawPath.
		{"/api/admin/applications/a%252Fb", "/api/admin/applications/a%2Fb"},
		{"/api/admin/applications/ab", "/api/admin/applications/ab"},
		{"/api/%61dmin", "/api/%61dmin"},
	} {
		r := httptest.NewRequest(http.MethodGet, tc.target, nil)
		if _, got := routePath(r); got != tc.want {
			t.Errorf("routePath(%s) = %q, want %q", tc.target, got, tc.want)
		}
	}
	r := httptest.NewRequest(http.MethodGet, "/x", nil)
	rctx := chi.NewRouteContext()
	rctx.RoutePath, rctx.RouteMethod = "/sub", http.MethodPost
	r = r.WithContext(context.WithValue(r.Context(), chi.RouteCtxKey, rctx))
	if m, p := routePath(r); m != http.MethodPost || p != "/sub" {
		t.Errorf("routePath with a sub-router context = %s %s, want POST /sub", m, p)
	}
}

// A handler in the table runs only for a request the gate resolved to its
// own route.
func TestGatedHandlerNeedsTheGate(t *testing.T) {
	t.Parallel()
	s := New(Deps{Auth: fixedAuth{}})
	called := false
	h := s.gated("GET /api/admin/applications/{id}", http.HandlerFunc(func(http.ResponseWriter, *http.Request) { called = true }))
	for _, gate := range []string{"", "GET /api/admin/applications"} {
		r := httptest.NewRequest(http.MethodGet, "/api/admin/applications/x", nil)
		if gate != "" {
			r = r.WithContext(context.WithValue(r.Context(), gateKey{}, gate))
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if called || w.Code != http.StatusNotFound {
			t.Fatalf("gate %q: status %d, handler called %v; want 404, not called", gate, w.Code, called)
		}
	}
	r := httptest.NewRequest(http.MethodGet, "/api/admin/applications/x", nil)
	h.ServeHTTP(httptest.NewRecorder(), r.WithContext(context.WithValue(r.Context(), gateKey{}, "GET /api/admin/applications/{id}")))
	if !called {
		t.Fatal("handler not called for its own route")
	}
}
