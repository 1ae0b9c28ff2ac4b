package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/google/uuid"

	"hackdesk/dev/testenv"
)

// loginAttempt is a failed login from the same machine (loopback) for an
// email without an account, with the given extra headers. Each attempt uses
// its own email, so that only the per-IP limit (30 a minute) can answer 429.
func loginAttempt(c *client, i int, headers ...string) response {
	c.t.Helper()
	return c.do("POST", "/api/auth/login",
		map[string]string{"email": fmt.Sprintf("nobody-%d-%s@example.com", i, uuid.NewString()[:8]), "password": "guess-123"},
		headers...)
}

// An attacker varies the forwarding headers to get a fresh per-IP bucket
// on every attempt. With no trusted proxy (the default) they are ignored:
// the 31st attempt in the minute is refused.
func TestEdgeSpoofedForwardingHeadersIgnored(t *testing.T) {
	// Not parallel: its many full-cost hashes would keep the process's
	// hashing slots, shared by the Apps of all tests, from the others.
	_, c := newApp(t)
	for i := 1; i <= 40; i++ {
		spoof := fmt.Sprintf("198.51.100.%d", i)
		r := loginAttempt(c, i,
			"X-Forwarded-For", spoof+", 203.0.113."+fmt.Sprint(i),
			"X-Real-IP", spoof, "True-Client-IP", spoof, "Forwarded", "for="+spoof)
		want := http.StatusUnauthorized
		if i > 30 {
			want = http.StatusTooManyRequests
		}
		if r.Status != want {
			t.Fatalf("attempt %d with X-Forwarded-For %s = %d, want %d; body %s", i, spoof, r.Status, want, r.Body)
		}
		if want == http.StatusTooManyRequests && r.Header.Get("Retry-After") == "" {
			t.Fatalf("attempt %d: 429 without Retry-After", i)
		}
	}
}

// Behind a trusted proxy (here: loopback) X-Forwarded-For names the client:
// its right-most address that is not a trusted proxy is the per-IP key, so
// clients behind the proxy have buckets of their own, and an address the
// client prepends changes nothing.
func TestEdgeTrustedProxyForwardingHeader(t *testing.T) {
	// Not parallel: its many full-cost hashes would keep the process's
	// hashing slots, shared by the Apps of all tests, from the others.
	cfg := testenv.Config(t)
	cfg.TrustedProxies = "127.0.0.1/32"
	a := testenv.App(t, cfg)
	c := &client{t: t, base: a.URL()}

	// One client, seen through the proxy, reaches the limit. What it
	// puts in front of the header (its own forged hops) does not help.
	for i := 1; i <= 31; i++ {
		xff := fmt.Sprintf("10.0.0.%d, 198.51.100.7", i)
		r := loginAttempt(c, i, "X-Forwarded-For", xff)
		want := http.StatusUnauthorized
		if i > 30 {
			want = http.StatusTooManyRequests
		}
		if r.Status != want {
			t.Fatalf("attempt %d with X-Forwarded-For %q = %d, want %d; body %s", i, xff, r.Status, want, r.Body)
		}
	}
	// Other clients behind the proxy have buckets of their own, and so has
	// the proxy itself; the trusted hop at the right is skipped.
	for i, xff := range []string{"198.51.100.8", "198.51.100.9, 127.0.0.1", "203.0.113.1"} {
		if r := loginAttempt(c, 100+i, "X-Forwarded-For", xff); r.Status != http.StatusUnauthorized {
			t.Fatalf("X-Forwarded-For %q = %d, want 401 (its own bucket); body %s", xff, r.Status, r.Body)
		}
	}
	if r := loginAttempt(c, 200); r.Status != http.StatusUnauthorized {
		t.Fatalf("the proxy's own request = %d, want 401; body %s", r.Status, r.Body)
	}
	// X-Real-IP is not a forwarding header we read, even from the proxy.
	if r := loginAttempt(c, 201, "X-Forwarded-For", "198.51.100.7", "X-Real-IP", "203.0.113.99"); r.Status != http.StatusTooManyRequests {
		t.Fatalf("limited client with X-Real-IP = %d, want 429; body %s", r.Status, r.Body)
	}
}

// The policy gate resolves the route on the escaped path the router uses:
// no encoding of a path gets an anonymous (or member) request to a handler
// it may not call. A request either stops at the gate (401/403) or matches
// no route (the router's own 404 "Not found", or 405).
func TestEdgeEncodedPathsNeverPassTheGate(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	anon.offSpec = true // most of these paths are undocumented on purpose
	member := as(t, a, anon, account(t, a, "member@example.com", "Member", "member"))
	member.offSpec = true

	// The case the review reproduced: %2F in an {id}.
	r := anon.expect(http.StatusUnauthorized, "GET", "/api/admin/applications/a%2Fb", nil)
	if r.Map(t)["error"] != "Unauthorized" {
		t.Fatalf("body %s", r.Body)
	}
	member.expect(http.StatusForbidden, "GET", "/api/admin/applications/a%2Fb", nil)

	for _, path := range []string{
		"/api/admin/applications/a%2Fb",
		"/api/admin/applications/a%252Fb",
		"/api/admin/applications/%2e%2e",
		"/api/admin/applications/..%2Femails",
		"/api/admin/applications%2Fx",
		"/api/admin%2Fapplications/x",
		"/api/%61dmin/applications/x",
		"/api/admin/applications/x/",
		"/api/admin/applications/",
		"/api/admin/applications//x",
		"//api/admin/applications/x",
		"/api//admin/emails",
		"/api/admin/./emails",
		"/api/admin/../admin/emails",
		"/api/admin/emails/",
		"/api/admin/emails%2F",
		"/api/admin/emails;x",
		"/api/admin/dashboard/",
		"/API/admin/emails",
	} {
		for _, c := range []struct {
			who string
			cl  *client
		}{{"anonymous", anon}, {"member", member}} {
			r := c.cl.do("GET", path, nil)
			body := map[string]any{}
			_ = json.Unmarshal(r.Body, &body)
			switch {
			case r.Status == http.StatusUnauthorized && c.who == "anonymous",
				r.Status == http.StatusForbidden && c.who == "member":
			case r.Status == http.StatusNotFound && body["error"] == "Not found",
				r.Status == http.StatusMethodNotAllowed:
				// The router's answer: no route matched.
			default:
				t.Errorf("GET %s as %s = %d %s: reached a handler", path, c.who, r.Status, r.Body)
			}
		}
	}
}

// cookie returns the header pair that sends a session as the browser's
// cookie (the client sends no bearer token).
func cookie(token string) []string {
	return []string{"Cookie", "hackdesk_session=" + token}
}

func withHeaders(h []string, more ...string) []string {
	return append(append([]string{}, h...), more...)
}

// resumeBody is a multipart body with a PDF in the "file" part.
func resumeBody(t *testing.T) ([]byte, string) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("file", "cv.pdf")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fw.Write(pdfFile("csrf")); err != nil {
		t.Fatal(err)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return body.Bytes(), mw.FormDataContentType()
}

// A page on another site (or a sibling subdomain) makes the victim's
// browser send requests with the session cookie. Those that change state
// are refused and change nothing; bearer clients, same-origin pages and
// non-browser clients are not affected.
func TestEdgeCrossSiteCookieRequests(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	id := account(t, a, "victim@example.com", "Victim", "member")
	bearer := as(t, a, anon, id)
	tok := newSession(t, a.Store, id)
	jar := &client{t: t, base: anon.base} // the browser: cookie only
	victim := cookie(tok)

	bearer.expect(http.StatusCreated, "POST", "/api/applications", map[string]string{"profile_id": id.String()})
	profileName := func() string {
		return jar.expect(http.StatusOK, "GET", "/api/profile", nil, victim...).Map(t)["display_name"].(string)
	}
	application := func() map[string]any {
		return bearer.expect(http.StatusOK, "GET", "/api/applications", nil).Map(t)
	}
	refused := func(r response, what string) {
		t.Helper()
		if r.Status != http.StatusForbidden {
			t.Fatalf("%s = %d, want 403; body %s", what, r.Status, r.Body)
		}
		if m := r.Map(t); m["error"] != "Forbidden" || m["message"] == nil {
			t.Fatalf("%s body %s, want {error: Forbidden, message}", what, r.Body)
		}
	}

	// The clients fail the whole test, so these steps are not subtests.
	for _, site := range []string{"cross-site", "same-site"} {
		from := withHeaders(victim, "Sec-Fetch-Site", site)
		refused(jar.do("PATCH", "/api/profile", map[string]string{"display_name": "Mallory"}, from...), site+" PATCH /api/profile")
		if got := profileName(); got != "Victim" {
			t.Fatalf("display name = %q after a refused %s PATCH", got, site)
		}
		pdf, ct := resumeBody(t)
		refused(jar.do("POST", "/api/applications/resumes", pdf, withHeaders(from, "Content-Type", ct)...), site+" POST /api/applications/resumes")
		refused(jar.do("POST", "/api/applications/submit", nil, from...), site+" POST /api/applications/submit")
		if app := application(); app["resume_key"] != nil || app["status"] != "draft" {
			t.Fatalf("application changed by refused %s requests: resume_key %v, status %v", site, app["resume_key"], app["status"])
		}
		refused(jar.do("POST", "/api/auth/logout", nil, from...), site+" POST /api/auth/logout")
		profileName() // the session still works
	}

	{ // A foreign Origin.
		for _, origin := range []string{"https://evil.example", "http://hackdesk.test.evil.example", "https://hackdesk.test", "null"} {
			refused(jar.do("PATCH", "/api/profile", map[string]string{"display_name": "Mallory"}, withHeaders(victim, "Origin", origin)...),
				"PATCH /api/profile from "+origin)
		}
		refused(jar.do("POST", "/api/auth/logout", nil, withHeaders(victim, "Sec-Fetch-Site", "same-origin", "Origin", "https://evil.example")...),
			"POST /api/auth/logout same-origin with a foreign Origin")
		if got := profileName(); got != "Victim" {
			t.Fatalf("display name = %q after refused PATCHes", got)
		}
	}

	{ // A bearer token is never added by a browser on its own.
		r := bearer.expect(http.StatusOK, "PATCH", "/api/profile", map[string]string{"display_name": "Via Bearer"},
			"Sec-Fetch-Site", "cross-site", "Origin", "https://app.example")
		if r.Map(t)["display_name"] != "Via Bearer" {
			t.Fatalf("body %s", r.Body)
		}
	}

	{ // The site's own pages.
		same := withHeaders(victim, "Sec-Fetch-Site", "same-origin", "Origin", "http://hackdesk.test")
		jar.expect(http.StatusOK, "PATCH", "/api/profile", map[string]string{"display_name": "Same Origin"}, same...)
		// A user's own navigation, and a client that is no browser.
		jar.expect(http.StatusOK, "PATCH", "/api/profile", map[string]string{"display_name": "Typed"}, withHeaders(victim, "Sec-Fetch-Site", "none")...)
		jar.expect(http.StatusOK, "PATCH", "/api/profile", map[string]string{"display_name": "Scripted"}, victim...)
		if got := profileName(); got != "Scripted" {
			t.Fatalf("display name = %q", got)
		}
		pdf, ct := resumeBody(t)
		jar.expect(http.StatusOK, "POST", "/api/applications/resumes", pdf, withHeaders(same, "Content-Type", ct)...)
		if application()["resume_key"] == nil {
			t.Fatal("same-origin upload stored no resume")
		}
		jar.expect(http.StatusOK, "POST", "/api/auth/logout", nil, same...)
		jar.expect(http.StatusUnauthorized, "GET", "/api/profile", nil, victim...)
	}

	// Public routes: a cross-site cookie is not a credential there either,
	// but nothing is refused for it.
	anon.expect(http.StatusUnauthorized, "POST", "/api/auth/login",
		map[string]string{"email": "victim@example.com", "password": "wrong-password"},
		withHeaders(cookie(newSession(t, a.Store, id)), "Sec-Fetch-Site", "cross-site")...)
}

// JSON endpoints take only JSON: a body declared as anything else is 415
// (a form or text/plain body is what a cross-site page can send without
// asking), also on endpoints whose body is optional or ignored.
func TestEdgeJSONContentType(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	id := account(t, a, "json@example.com", "Json", "member")
	me := as(t, a, anon, id)
	creds := `{"email":"json@example.com","password":"password-json@example.com"}`
	for _, tc := range []struct {
		c            *client
		method, path string
		ct, body     string
	}{
		{anon, "POST", "/api/auth/login", "text/plain", creds},
		{anon, "POST", "/api/auth/login", "application/x-www-form-urlencoded", "email=json%40example.com"},
		{anon, "POST", "/api/auth/login", "multipart/form-data; boundary=b", "--b--\r\n"},
		{anon, "POST", "/api/auth/login", "", creds},
		{me, "PATCH", "/api/profile", "text/plain", `{"display_name":"Plain"}`},
		{me, "POST", "/api/applications/submit", "text/plain", `{}`},
		{me, "POST", "/api/auth/logout", "text/plain", `x`},
	} {
		headers := []string{"Content-Type", tc.ct}
		r := tc.c.do(tc.method, tc.path, []byte(tc.body), headers...)
		if r.Status != http.StatusUnsupportedMediaType {
			t.Fatalf("%s %s with Content-Type %q = %d, want 415; body %s", tc.method, tc.path, tc.ct, r.Status, r.Body)
		}
	}
	// Nothing happened: the profile keeps its name and the session lives.
	if got := me.expect(http.StatusOK, "GET", "/api/profile", nil).Map(t)["display_name"]; got != "Json" {
		t.Fatalf("display name = %v", got)
	}
	// JSON, with parameters or a +json type, and body-less requests pass.
	me.expect(http.StatusOK, "PATCH", "/api/profile", []byte(`{"display_name":"Charset"}`), "Content-Type", "application/json; charset=utf-8")
	me.expect(http.StatusOK, "POST", "/api/auth/logout", nil)
}

var safeID = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// Every answer carries nosniff, no-referrer and the permissions policy
// (no HSTS or opener policy over http), answers about credentials
// and the profile are not cached, and a client's request id is kept only
// when it is short and harmless.
func TestEdgeHeaders(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	me := as(t, a, anon, account(t, a, "headers@example.com", "Headers", "member"))
	check := func(r response, what string, noStore bool) {
		t.Helper()
		if got := r.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s: X-Content-Type-Options = %q", what, got)
		}
		if got := r.Header.Get("Referrer-Policy"); got != "no-referrer" {
			t.Errorf("%s: Referrer-Policy = %q", what, got)
		}
		if noStore && r.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s: Cache-Control = %q, want no-store", what, r.Header.Get("Cache-Control"))
		}
		// The harness's PUBLIC_URL is http on a host of its own: no HSTS,
		// and no opener policy (which browsers ignore there, with an error).
		if got := r.Header.Get("Cross-Origin-Opener-Policy"); got != "" {
			t.Errorf("%s: Cross-Origin-Opener-Policy = %q over http", what, got)
		}
		if got := r.Header.Get("Permissions-Policy"); !strings.HasPrefix(got, "camera=(self), microphone=()") {
			t.Errorf("%s: Permissions-Policy = %q", what, got)
		}
		if got := r.Header.Get("Strict-Transport-Security"); got != "" {
			t.Errorf("%s: Strict-Transport-Security = %q over http", what, got)
		}
	}
	check(anon.expect(http.StatusOK, "GET", "/healthz", nil), "GET /healthz", false)
	check(anon.expect(http.StatusOK, "GET", "/api/openapi.yaml", nil), "GET /api/openapi.yaml", false)
	check(anon.expect(http.StatusUnauthorized, "GET", "/api/admin/emails", nil), "GET /api/admin/emails 401", false)
	docs := anon.expect(http.StatusOK, "GET", "/api/docs", nil)
	check(docs, "GET /api/docs", false)
	if !strings.Contains(docs.Header.Get("Content-Security-Policy"), "default-src 'none'") {
		t.Errorf("GET /api/docs: Content-Security-Policy = %q", docs.Header.Get("Content-Security-Policy"))
	}
	check(anon.expect(http.StatusUnauthorized, "POST", "/api/auth/login",
		map[string]string{"email": "headers@example.com", "password": "wrong"}), "POST /api/auth/login 401", true)
	check(anon.expect(http.StatusOK, "POST", "/api/auth/login",
		map[string]string{"email": "headers@example.com", "password": "password-headers@example.com"}), "POST /api/auth/login 200", true)
	check(anon.expect(http.StatusUnauthorized, "GET", "/api/profile", nil), "GET /api/profile 401", true)
	check(me.expect(http.StatusOK, "GET", "/api/profile", nil), "GET /api/profile", true)
	check(me.expect(http.StatusOK, "PATCH", "/api/profile", map[string]string{"display_name": "Headers"}), "PATCH /api/profile", true)
	check(me.expect(http.StatusOK, "POST", "/api/auth/forgot-password", map[string]string{"email": "headers@example.com"}), "POST /api/auth/forgot-password", true)
	anon.offSpec = true
	check(anon.expect(http.StatusNotFound, "GET", "/api/nope", nil), "GET /api/nope 404", false)
	check(anon.expect(http.StatusMethodNotAllowed, "DELETE", "/healthz", nil), "DELETE /healthz 405", false)
	anon.offSpec = false

	{ // Request ids.
		long := strings.Repeat("a", 64)
		for _, id := range []string{"trace-42", "A.b_c-9", long} {
			if got := anon.expect(http.StatusOK, "GET", "/healthz", nil, "X-Request-Id", id).Header.Get("X-Request-Id"); got != id {
				t.Errorf("X-Request-Id %q answered as %q, want it kept", id, got)
			}
		}
		seen := map[string]bool{}
		for _, id := range []string{long + "a", "has space", "<script>alert(1)</script>", "a/b", "x\tinjected=1", "é", `"quoted"`} {
			got := anon.expect(http.StatusOK, "GET", "/healthz", nil, "X-Request-Id", id).Header.Get("X-Request-Id")
			if got == id || !safeID.MatchString(got) || seen[got] {
				t.Errorf("X-Request-Id %q answered as %q, want a new safe id", id, got)
			}
			seen[got] = true
		}
		if got := anon.expect(http.StatusOK, "GET", "/healthz", nil).Header.Get("X-Request-Id"); !safeID.MatchString(got) {
			t.Errorf("generated X-Request-Id %q is not safe", got)
		}
	}
}
