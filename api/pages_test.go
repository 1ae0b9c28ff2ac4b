package api

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/account"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/config"
	"hackdesk/web"
)

// testBuild is a front-end build as Vite writes it: entries at the top,
// hashed assets below assets/, precompressed siblings for some. The
// siblings' bytes only need to differ from the original's.
func testBuild() fstest.MapFS {
	f := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	build := fstest.MapFS{
		"index.html":              f("<!doctype html><title>home</title>"),
		"index.html.br":           f("br(home)"),
		"index.html.gz":           f("gz(home)"),
		"account.html":            f("<!doctype html><title>account</title>"),
		"profile.html":            f("<!doctype html><title>profile</title>"),
		"apply.html":              f("<!doctype html><title>apply</title>"),
		"application.html":        f("<!doctype html><title>application</title>"),
		"events.html":             f("<!doctype html><title>events</title>"),
		"review.html":             f("<!doctype html><title>review</title>"),
		"404.html":                f("<!doctype html><title>not found</title>"),
		"assets/app-a1b2.js":      f("console.log('app')"),
		"assets/app-a1b2.js.br":   f("br(app)"),
		"assets/app-a1b2.js.gz":   f("gz(app)"),
		"assets/site-c3d4.css":    f("body{}"),
		"assets/site-c3d4.css.gz": f("gz(site)"),
		"assets/font-e5f6.woff2":  f("wOF2"),
		"assets/icon-g7h8.svg":    f("<svg/>"),
		"assets/sub/deep-i9.js":   f("deep"),
	}
	// Every other entry of the page table, named for itself.
	for _, p := range (&Server{}).pages() {
		if _, ok := build[p.entry]; !ok {
			build[p.entry] = f("<!doctype html><title>" + p.entry + "</title>")
		}
	}
	return build
}

const testS3 = "http://127.0.0.1:7070"

// wantCSP is the pages' policy for S3_ENDPOINT testS3, written out.
const wantCSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; " +
	"frame-src http://127.0.0.1:7070; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'"

// fakeApplications answers the page guards' read of the caller's
// application.
type fakeApplications struct {
	db.Querier
	status string // "" means none
	err    error
}

func (f fakeApplications) ApplicationGetByProfile(context.Context, uuid.UUID) (db.Application, error) {
	if f.err != nil {
		return db.Application{}, f.err
	}
	if f.status == "" {
		return db.Application{}, db.ErrNotFound
	}
	return db.Application{Status: f.status}, nil
}

// newPageServer serves build to the caller p (nil: anonymous).
func newPageServer(t *testing.T, p *Principal, build fstest.MapFS, reads db.Querier) *Server {
	t.Helper()
	cfg := config.Defaults()
	cfg.S3Endpoint = testS3
	if reads == nil {
		reads = fakeApplications{}
	}
	return New(Deps{Config: cfg, Auth: fixedAuth{p}, Web: build, Reads: reads})
}

func do(s *Server, method, target string, headers ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		r.Header.Set(headers[i], headers[i+1])
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	return w
}

// Every page route, with every kind of caller: allowed callers get the
// page's entry, anonymous ones are sent to sign in with the path as next,
// signed-in ones without the role are sent home. The expectations are
// written out here, independently of the Policy code.
func TestPageGate(t *testing.T) {
	t.Parallel()
	callers := []struct {
		name string
		p    *Principal
	}{
		{"anonymous", nil},
		{"member", &Principal{Role: "member"}},
		{"admin", &Principal{Role: "admin"}},
		{"superadmin", &Principal{Role: "superadmin"}},
		{"VP", &Principal{Role: "member", ExecPosition: "VP"}},
		{"President", &Principal{Role: "member", ExecPosition: "President"}},
		{"volunteer", &Principal{Role: "member", Volunteer: true}},
	}
	allowed := map[Policy]map[string]bool{
		Public:        {"anonymous": true, "member": true, "admin": true, "superadmin": true, "VP": true, "President": true, "volunteer": true},
		Authenticated: {"member": true, "admin": true, "superadmin": true, "VP": true, "President": true, "volunteer": true},
		Checkin:       {"admin": true, "superadmin": true, "volunteer": true},
		Admin:         {"admin": true, "superadmin": true},
		Superadmin:    {"superadmin": true},
		VP:            {"superadmin": true, "VP": true, "President": true},
		President:     {"superadmin": true, "President": true},
	}
	build := testBuild()
	entries := map[string]string{}
	for _, p := range (&Server{}).pages() {
		entries[p.pattern] = p.entry
	}
	walked := 0
	for _, c := range callers {
		s := newPageServer(t, c.p, build, nil)
		err := chi.Walk(s.Router(), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
			if !s.IsPage(method, route) {
				return nil
			}
			walked++
			policy, _ := s.PolicyOf(method, route)
			path := strings.ReplaceAll(route, "{id}", "42")
			w := do(s, method, path)
			loc := w.Header().Get("Location")
			switch {
			case allowed[policy][c.name] && method == http.MethodPost:
				// A form posted without its script: back to the page.
				if w.Code != http.StatusSeeOther || loc != path {
					t.Errorf("%s %s (%v) as %s = %d to %q, want 303 to itself", method, path, policy, c.name, w.Code, loc)
				}
			case allowed[policy][c.name]:
				body := string(build[entries[route]].Data)
				if method == http.MethodHead {
					body = ""
				}
				if w.Code != http.StatusOK || w.Header().Get("Content-Type") != "text/html; charset=utf-8" || w.Body.String() != body {
					t.Errorf("%s %s (%v) as %s = %d %q %q, want 200 with %s", method, path, policy, c.name,
						w.Code, w.Header().Get("Content-Type"), w.Body, entries[route])
				}
			case c.p == nil:
				if want := "/login?next=" + url.QueryEscape(path); w.Code != http.StatusSeeOther || loc != want {
					t.Errorf("%s %s (%v) as anonymous = %d to %q, want 303 to %q", method, path, policy, w.Code, loc, want)
				}
			default:
				if w.Code != http.StatusSeeOther || loc != "/" {
					t.Errorf("%s %s (%v) as %s = %d to %q, want 303 to /", method, path, policy, c.name, w.Code, loc)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// Every page, GET, HEAD and POST, 6 callers.
	if want := len(entries) * 3 * len(callers); walked != want {
		t.Fatalf("walked %d page answers, want %d", walked, want)
	}
}

// next carries the whole path and query, percent-encoded, and the sign-in
// page's rule gives it back unchanged.
func TestPageRedirectKeepsPathAndQuery(t *testing.T) {
	t.Parallel()
	s := newPageServer(t, nil, testBuild(), nil)
	for _, target := range []string{
		"/admin/memberships/42?sig=a_b-c",
		"/events?x=1&y=a%20b",
		"/profile?",
	} {
		for _, method := range []string{http.MethodGet, http.MethodHead} {
			w := do(s, method, target)
			u, err := url.Parse(w.Header().Get("Location"))
			if w.Code != http.StatusSeeOther || err != nil || u.Path != "/login" {
				t.Fatalf("%s %s = %d to %q, want 303 to /login", method, target, w.Code, w.Header().Get("Location"))
			}
			if next := u.Query().Get("next"); web.SafeNext(next) != target || next != target {
				t.Errorf("%s %s: next = %q, want %q", method, target, next, target)
			}
			if !strings.HasPrefix(u.RawQuery, "next=%2F") {
				t.Errorf("%s %s: query %q, want next percent-encoded", method, target, u.RawQuery)
			}
			if cc := w.Header().Get("Cache-Control"); cc != "no-store" {
				t.Errorf("%s %s: Cache-Control %q, want no-store", method, target, cc)
			}
		}
	}
}

// A session that is no longer valid on a page is a visit to sign in; any
// other failure to authenticate stays the API's error (the page cannot be
// answered honestly without knowing the caller).
func TestPageGateBadSession(t *testing.T) {
	t.Parallel()
	s := New(Deps{Auth: failingAuth{account.ErrBadSession}, Web: testBuild()})
	w := do(s, http.MethodGet, "/profile")
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/login?next=%2Fprofile" {
		t.Errorf("GET /profile with an expired session = %d to %q, want 303 to sign in", w.Code, w.Header().Get("Location"))
	}
	if w := do(s, http.MethodGet, "/"); w.Code != http.StatusOK {
		t.Errorf("GET / (public) with an expired session = %d, want 200", w.Code)
	}
	s = New(Deps{Auth: failingAuth{apperr.New(apperr.Unavailable, "Service unavailable")}, Web: testBuild()})
	if w := do(s, http.MethodGet, "/profile"); w.Code != http.StatusServiceUnavailable {
		t.Errorf("GET /profile with the session store down = %d, want 503", w.Code)
	}
}

type failingAuth struct{ err error }

func (f failingAuth) Authenticate(*http.Request) (*Principal, error) { return nil, f.err }

// /apply sends a caller whose application is submitted to
// /apply/submitted; a draft, no application, or an error reading it
// serves the page.
func TestApplyRedirectsWhenSubmitted(t *testing.T) {
	t.Parallel()
	member := &Principal{ProfileID: uuid.New(), Role: "member"}
	for _, c := range []struct {
		name   string
		reads  fakeApplications
		status int
		loc    string
	}{
		{"Submitted", fakeApplications{status: "submitted"}, http.StatusSeeOther, "/apply/submitted"},
		{"Draft", fakeApplications{status: "draft"}, http.StatusOK, ""},
		{"NoApplication", fakeApplications{}, http.StatusOK, ""},
		{"ErrRead", fakeApplications{err: errors.New("connection refused")}, http.StatusOK, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := newPageServer(t, member, testBuild(), c.reads)
			for _, method := range []string{http.MethodGet, http.MethodHead} {
				w := do(s, method, "/apply")
				if w.Code != c.status || w.Header().Get("Location") != c.loc {
					t.Errorf("%s /apply = %d to %q, want %d to %q", method, w.Code, w.Header().Get("Location"), c.status, c.loc)
				}
			}
			// The submitted page itself never redirects.
			if w := do(s, http.MethodGet, "/apply/submitted"); w.Code != http.StatusOK {
				t.Errorf("GET /apply/submitted = %d, want 200", w.Code)
			}
		})
	}
}

func TestPageHeaders(t *testing.T) {
	t.Parallel()
	s := newPageServer(t, nil, testBuild(), nil)
	w := do(s, http.MethodGet, "/")
	h := w.Header()
	for k, want := range map[string]string{
		"Content-Security-Policy": wantCSP,
		"Cache-Control":           "no-cache",
		"Content-Type":            "text/html; charset=utf-8",
		"Vary":                    "Accept-Encoding",
		"X-Content-Type-Options":  "nosniff",
		"Content-Length":          "34",
	} {
		if got := h.Get(k); got != want {
			t.Errorf("GET /: %s = %q, want %q", k, got, want)
		}
	}
	etag := h.Get("ETag")
	if w.Code != http.StatusOK || etag == "" {
		t.Fatalf("GET / = %d, ETag %q", w.Code, etag)
	}
	// Revalidation: the same page is a 304, a changed one is not.
	if w := do(s, http.MethodGet, "/", "If-None-Match", etag); w.Code != http.StatusNotModified {
		t.Errorf("GET / If-None-Match its ETag = %d, want 304", w.Code)
	}
	if w := do(s, http.MethodGet, "/", "If-None-Match", `"other"`); w.Code != http.StatusOK {
		t.Errorf("GET / If-None-Match another ETag = %d, want 200", w.Code)
	}
	// An entry is sent precompressed too, with its own ETag.
	w = do(s, http.MethodGet, "/", "Accept-Encoding", "gzip, deflate, br")
	if w.Header().Get("Content-Encoding") != "br" || w.Body.String() != "br(home)" || w.Header().Get("ETag") == etag {
		t.Errorf("GET / accepting br: Content-Encoding %q, body %q, ETag %q", w.Header().Get("Content-Encoding"), w.Body, w.Header().Get("ETag"))
	}

	// Without S3_ENDPOINT nothing may be framed.
	s = New(Deps{Auth: fixedAuth{}, Web: testBuild()})
	if got := do(s, http.MethodGet, "/").Header().Get("Content-Security-Policy"); !strings.Contains(got, "frame-src 'none';") {
		t.Errorf("CSP without S3_ENDPOINT = %q, want frame-src 'none'", got)
	}
	// The API reference keeps its own policy.
	if got := do(s, http.MethodGet, "/api/docs").Header().Get("Content-Security-Policy"); !strings.HasPrefix(got, "default-src 'none'; script-src 'self' 'sha256-") {
		t.Errorf("GET /api/docs CSP = %q, want its own", got)
	}
}

func TestNotFoundPage(t *testing.T) {
	t.Parallel()
	member := &Principal{Role: "member"}
	s := newPageServer(t, member, testBuild(), nil)
	notFound := string(testBuild()["404.html"].Data)
	for _, c := range []struct {
		method, target string
		status         int
		html           bool
	}{
		{"GET", "/no-such-page", 404, true},
		{"GET", "/index.html", 404, true},
		{"GET", "/apply/", 404, true},
		{"GET", "/healthz/x", 404, true},
		{"HEAD", "/no-such-page", 404, true},
		{"GET", "/api/nope", 404, false},
		{"GET", "/api", 404, false},
		{"GET", "//api/nope", 404, false},
		{"GET", "/API/nope", 404, false},
		{"GET", "/x/../api/nope", 404, false},
		{"POST", "/no-such-page", 404, false},
		{"DELETE", "/no-such-page", 404, false},
		{"PUT", "/apply", 405, false},
		{"DELETE", "/login", 405, false},
	} {
		w := do(s, c.method, c.target)
		ct := w.Header().Get("Content-Type")
		switch {
		case w.Code != c.status:
			t.Errorf("%s %s = %d, want %d", c.method, c.target, w.Code, c.status)
		case c.html && (ct != "text/html; charset=utf-8" || w.Header().Get("Content-Security-Policy") != wantCSP):
			t.Errorf("%s %s: Content-Type %q, CSP %q; want the HTML 404 page", c.method, c.target, ct, w.Header().Get("Content-Security-Policy"))
		case c.html && c.method == "GET" && w.Body.String() != notFound:
			t.Errorf("%s %s: body %q, want 404.html", c.method, c.target, w.Body)
		case c.html && c.method == "HEAD" && w.Body.Len() != 0:
			t.Errorf("%s %s: a body on HEAD", c.method, c.target)
		case !c.html && ct != "application/json":
			t.Errorf("%s %s: Content-Type %q, want JSON", c.method, c.target, ct)
		}
	}

	// An entry missing from the build is the 404 page, never a 500; with
	// no 404 page either, a built-in one.
	build := testBuild()
	delete(build, "events.html")
	s = newPageServer(t, member, build, nil)
	if w := do(s, http.MethodGet, "/events"); w.Code != http.StatusNotFound || w.Body.String() != notFound {
		t.Errorf("GET /events without events.html = %d %q, want the 404 page", w.Code, w.Body)
	}
	delete(build, "404.html")
	s = newPageServer(t, member, build, nil)
	w := do(s, http.MethodGet, "/events")
	if w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), "<h1>Page not found</h1>") ||
		w.Header().Get("Content-Security-Policy") != wantCSP {
		t.Errorf("GET /events without events.html or 404.html = %d %q, want the built-in 404 page", w.Code, w.Body)
	}
}

// The assets are served under /assets/ by their name below it (the
// encodings and types are package web's tests), and only clean names
// reach a file.
func TestAssets(t *testing.T) {
	t.Parallel()
	s := newPageServer(t, nil, testBuild(), nil)
	for _, c := range []struct {
		name, target, accept string
		body, coding, ctype  string
	}{
		{"Brotli", "/assets/app-a1b2.js", "gzip, deflate, br, zstd", "br(app)", "br", "text/javascript; charset=utf-8"},
		{"Identity", "/assets/app-a1b2.js", "", "console.log('app')", "", "text/javascript; charset=utf-8"},
		{"Subdirectory", "/assets/sub/deep-i9.js", "", "deep", "", "text/javascript; charset=utf-8"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := do(s, http.MethodGet, c.target, "Accept-Encoding", c.accept)
			h := w.Header()
			if w.Code != http.StatusOK || w.Body.String() != c.body {
				t.Fatalf("GET %s (Accept-Encoding %q) = %d %q, want 200 %q", c.target, c.accept, w.Code, w.Body, c.body)
			}
			for k, want := range map[string]string{
				"Content-Encoding": c.coding,
				"Content-Type":     c.ctype,
				"Content-Length":   strconv.Itoa(len(c.body)),
				"Cache-Control":    "public, max-age=31536000, immutable",
				"Vary":             "Accept-Encoding",
			} {
				if got := h.Get(k); got != want {
					t.Errorf("%s = %q, want %q", k, got, want)
				}
			}
			if h.Get("ETag") == "" || h.Get("Content-Security-Policy") != "" {
				t.Errorf("ETag %q, CSP %q; want an ETag and no page CSP", h.Get("ETag"), h.Get("Content-Security-Policy"))
			}
			if w := do(s, http.MethodGet, c.target, "Accept-Encoding", c.accept, "If-None-Match", h.Get("ETag")); w.Code != http.StatusNotModified {
				t.Errorf("If-None-Match its ETag = %d, want 304", w.Code)
			}
			w = do(s, http.MethodHead, c.target, "Accept-Encoding", c.accept)
			if w.Code != http.StatusOK || w.Body.Len() != 0 || w.Header().Get("Content-Length") != strconv.Itoa(len(c.body)) {
				t.Errorf("HEAD = %d, %d bytes, Content-Length %q", w.Code, w.Body.Len(), w.Header().Get("Content-Length"))
			}
		})
	}

	// Only the original names are files: the siblings, directories, other
	// paths and unknown names are plain 404s, never the HTML page.
	for _, target := range []string{
		"/assets/app-a1b2.js.br",
		"/assets/app-a1b2.js.gz",
		"/assets/site-c3d4.css.gz",
		"/assets/nope.js",
		"/assets/",
		"/assets/sub",
		"/assets/sub/",
		"/assets/../index.html",
		"/assets/%2e%2e/index.html",
		"/assets/sub/../app-a1b2.js",
		"/assets//app-a1b2.js",
		"/assets/./app-a1b2.js",
		"/assets/app-a1b2.js/",
	} {
		w := do(s, http.MethodGet, target, "Accept-Encoding", "br, gzip")
		if w.Code != http.StatusNotFound || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") ||
			w.Header().Get("Cache-Control") != "" || w.Header().Get("Content-Encoding") != "" {
			t.Errorf("GET %s = %d %q (Cache-Control %q, Content-Encoding %q), want a plain 404", target, w.Code,
				w.Header().Get("Content-Type"), w.Header().Get("Cache-Control"), w.Header().Get("Content-Encoding"))
		}
	}
}

// With WEB_DIR the build is read from disk on every request: a rebuilt
// page shows on reload, and a build being rewritten answers 404, not 500.
func TestWebDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("index.html", "one")
	write("assets/app-1.js", "a")
	cfg := config.Defaults()
	cfg.WebDir = dir
	s := New(Deps{Config: cfg, Auth: fixedAuth{}})
	if w := do(s, http.MethodGet, "/"); w.Code != http.StatusOK || w.Body.String() != "one" {
		t.Fatalf("GET / = %d %q, want one", w.Code, w.Body)
	}
	write("index.html", "two")
	write("index.html.gz", "gz(two)")
	if w := do(s, http.MethodGet, "/"); w.Body.String() != "two" {
		t.Errorf("GET / after a rebuild = %q, want two", w.Body)
	}
	if w := do(s, http.MethodGet, "/", "Accept-Encoding", "gzip"); w.Body.String() != "gz(two)" {
		t.Errorf("GET / accepting gzip after a rebuild = %q, want gz(two)", w.Body)
	}
	if w := do(s, http.MethodGet, "/assets/app-1.js"); w.Code != http.StatusOK || w.Body.String() != "a" {
		t.Errorf("GET /assets/app-1.js = %d %q", w.Code, w.Body)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if w := do(s, http.MethodGet, "/"); w.Code != http.StatusNotFound {
		t.Errorf("GET / with the build gone = %d, want 404", w.Code)
	}
}

// The embedded build serves its own entries (what `make run` shows).
func TestEmbeddedBuild(t *testing.T) {
	t.Parallel()
	s := New(Deps{Auth: fixedAuth{}})
	w := do(s, http.MethodGet, "/")
	if w.Code != http.StatusOK || !strings.Contains(strings.ToLower(w.Body.String()), "<!doctype html>") {
		t.Fatalf("GET / from the embedded build = %d %.80q", w.Code, w.Body)
	}
	if _, err := web.FS().Open("404.html"); err != nil {
		t.Fatal(err)
	}
}
