package e2e

import (
	"bytes"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"hackdesk/web"
)

// noFollow sends requests as a browser's first hop does: redirects are
// answers, not followed.
var noFollow = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// fetch sends one request without following redirects. Setting
// Accept-Encoding keeps the transport from decompressing the body.
func fetch(t *testing.T, base, method, path string, headers ...string) response {
	t.Helper()
	req, err := http.NewRequest(method, base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := noFollow.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{Status: resp.StatusCode, Header: resp.Header, Body: body}
}

// built returns a file of the embedded front-end build.
func built(t *testing.T, name string) []byte {
	t.Helper()
	b, err := fs.ReadFile(web.FS(), name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The front end as a browser meets it on the real stack: pages, the sign-in
// redirect, /apply after submitting, the HTML 404 and precompressed assets.
func TestPages(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	base := anon.base
	s3, err := url.Parse(a.Config.S3Endpoint)
	if err != nil || s3.Host == "" {
		t.Fatalf("S3_ENDPOINT %q", a.Config.S3Endpoint)
	}
	isPage := func(what string, r response, status int, entry string) {
		t.Helper()
		csp := r.Header.Get("Content-Security-Policy")
		switch {
		case r.Status != status:
			t.Errorf("%s = %d, want %d; body %.200s", what, r.Status, status, r.Body)
		case r.Header.Get("Content-Type") != "text/html; charset=utf-8":
			t.Errorf("%s: Content-Type %q", what, r.Header.Get("Content-Type"))
		case !bytes.Equal(r.Body, built(t, entry)):
			t.Errorf("%s: body is not %s: %.200s", what, entry, r.Body)
		case !strings.Contains(csp, "default-src 'self'; script-src 'self'; style-src 'self';") ||
			!strings.Contains(csp, "; frame-src "+s3.Scheme+"://"+s3.Host+";") ||
			!strings.Contains(csp, "; frame-ancestors 'none';"):
			t.Errorf("%s: Content-Security-Policy %q", what, csp)
		case r.Header.Get("Cache-Control") != "no-cache":
			t.Errorf("%s: Cache-Control %q, want no-cache", what, r.Header.Get("Cache-Control"))
		}
	}
	redirects := func(what string, r response, to string) {
		t.Helper()
		if r.Status != http.StatusSeeOther || r.Header.Get("Location") != to {
			t.Errorf("%s = %d to %q, want 303 to %q", what, r.Status, r.Header.Get("Location"), to)
		}
	}

	isPage("GET / anonymous", fetch(t, base, "GET", "/"), http.StatusOK, "index.html")
	isPage("GET /login anonymous", fetch(t, base, "GET", "/login?next=%2Fapply"), http.StatusOK, "account.html")
	redirects("GET /apply anonymous", fetch(t, base, "GET", "/apply"), "/login?next=%2Fapply")
	redirects("GET /events?x=1 anonymous", fetch(t, base, "GET", "/events?x=1"), "/login?next=%2Fevents%3Fx%3D1")
	// A session that has ended is the same as none.
	redirects("GET /profile with a stale cookie", fetch(t, base, "GET", "/profile", cookie("stale-session-token")...),
		"/login?next=%2Fprofile")

	// An applicant's /apply: the form while it is a draft, the submitted
	// page once it is submitted. The browser sends the session cookie.
	draft, _, _ := decApplicant(t, a, anon, "draft@example.com", "draft")
	isPage("GET /apply with a draft", fetch(t, base, "GET", "/apply", cookie(draft.token)...), http.StatusOK, "apply.html")
	done, _, _ := decApplicant(t, a, anon, "done@example.com", "submitted")
	redirects("GET /apply submitted", fetch(t, base, "GET", "/apply", cookie(done.token)...), "/apply/submitted")
	redirects("HEAD /apply submitted", fetch(t, base, "HEAD", "/apply", cookie(done.token)...), "/apply/submitted")
	isPage("GET /apply/submitted", fetch(t, base, "GET", "/apply/submitted", cookie(done.token)...), http.StatusOK, "application.html")
	isPage("GET /profile", fetch(t, base, "GET", "/profile", cookie(done.token)...), http.StatusOK, "profile.html")

	// Unknown paths: the HTML 404 page outside the API, JSON inside it.
	isPage("GET /no-such-page", fetch(t, base, "GET", "/no-such-page"), http.StatusNotFound, "404.html")
	if r := fetch(t, base, "GET", "/api/no-such-thing"); r.Status != http.StatusNotFound ||
		r.Header.Get("Content-Type") != "application/json" {
		t.Errorf("GET /api/no-such-thing = %d %q, want the JSON 404", r.Status, r.Header.Get("Content-Type"))
	}

	// An asset, precompressed as the client accepts.
	asset := precompressedAsset(t)
	for _, c := range []struct{ accept, coding, suffix string }{
		{"gzip, deflate, br", "br", ".br"},
		{"gzip", "gzip", ".gz"},
		{"identity", "", ""},
	} {
		r := fetch(t, base, "GET", "/"+asset, "Accept-Encoding", c.accept)
		h := r.Header
		switch {
		case r.Status != http.StatusOK:
			t.Errorf("GET /%s (%s) = %d", asset, c.accept, r.Status)
		case h.Get("Content-Encoding") != c.coding || !bytes.Equal(r.Body, built(t, asset+c.suffix)):
			t.Errorf("GET /%s (%s): Content-Encoding %q, want %q and the %q file", asset, c.accept, h.Get("Content-Encoding"), c.coding, c.suffix)
		case h.Get("Content-Type") != "text/javascript; charset=utf-8" || h.Get("Vary") != "Accept-Encoding" ||
			h.Get("Cache-Control") != "public, max-age=31536000, immutable":
			t.Errorf("GET /%s (%s): Content-Type %q, Vary %q, Cache-Control %q", asset, c.accept,
				h.Get("Content-Type"), h.Get("Vary"), h.Get("Cache-Control"))
		}
	}
	if r := fetch(t, base, "GET", "/"+asset+".br", "Accept-Encoding", "br"); r.Status != http.StatusNotFound {
		t.Errorf("GET /%s.br = %d, want 404: siblings are not files of their own", asset, r.Status)
	}
}

// precompressedAsset names a script of the embedded build with both
// precompressed siblings (the build writes them for every script).
func precompressedAsset(t *testing.T) string {
	t.Helper()
	entries, err := fs.ReadDir(web.FS(), "assets")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		name := "assets/" + e.Name()
		if !strings.HasSuffix(name, ".js") {
			continue
		}
		_, errBr := fs.Stat(web.FS(), name+".br")
		_, errGz := fs.Stat(web.FS(), name+".gz")
		if errBr == nil && errGz == nil {
			return name
		}
	}
	t.Fatal("the embedded build has no script with .br and .gz siblings")
	return ""
}

// formPost posts a form as a browser does without its script: urlencoded
// fields, no redirect followed.
func formPost(t *testing.T, base, path string, fields url.Values, headers ...string) response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, base+path, strings.NewReader(fields.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := noFollow.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return response{Status: resp.StatusCode, Header: resp.Header, Body: body}
}

// TestScriptlessPostToPages: a form submitted without its script (a
// password manager, automation, a page whose script failed) posts to the
// page itself; the page answers 303 back to itself (query kept) and
// processes nothing: no session, no account, no email, no change. A
// signed-in page does the same for its caller, and refuses others as a
// page does.
func TestScriptlessPostToPages(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	base := anon.base
	me := account(t, a, "ada@example.com", "Ada", "member")
	count := func(sql string, args ...any) int { t.Helper(); return countRows(t, a, sql, args...) }
	sessions := count(`SELECT count(*) FROM sessions`)
	same := []string{"Origin", "http://hackdesk.test", "Sec-Fetch-Site", "same-origin"}
	for _, c := range []struct {
		path   string
		fields url.Values
	}{
		{"/login?next=%2Fapply", url.Values{"email": {"ada@example.com"}, "password": {"password-ada@example.com"}}},
		{"/login", url.Values{"email": {"ada@example.com"}, "password": {"password-ada@example.com"}}},
		{"/signup", url.Values{"email": {"eve@example.com"}, "password": {"quiet lantern harbor"}, "display_name": {"Eve"}}},
		{"/forgot-password", url.Values{"email": {"ada@example.com"}}},
		{"/reset-password", url.Values{"password": {"a fresh password 42"}}},
		{"/", url.Values{"q": {"x"}}},
	} {
		r := formPost(t, base, c.path, c.fields, same...)
		if r.Status != http.StatusSeeOther || r.Header.Get("Location") != c.path {
			t.Errorf("script-less POST %s = %d to %q, want 303 to itself", c.path, r.Status, r.Header.Get("Location"))
		}
		if sc := r.Header.Get("Set-Cookie"); sc != "" {
			t.Errorf("script-less POST %s set a cookie %q", c.path, sc)
		}
	}
	if n := count(`SELECT count(*) FROM sessions`); n != sessions {
		t.Errorf("%d sessions after script-less posts, want %d", n, sessions)
	}
	if n := count(`SELECT count(*) FROM profiles WHERE email = 'eve@example.com'`); n != 0 {
		t.Error("a script-less sign-up made an account")
	}
	if n := count(`SELECT count(*) FROM emails`); n != 0 {
		t.Errorf("%d emails after script-less posts", n)
	}

	// Signed in: back to the page, the profile unchanged.
	token := newSession(t, a.Store, me)
	r := formPost(t, base, "/profile", url.Values{"display_name": {"Changed"}}, append(cookie(token), same...)...)
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/profile" {
		t.Errorf("script-less POST /profile = %d to %q", r.Status, r.Header.Get("Location"))
	}
	if n := count(`SELECT count(*) FROM profiles WHERE display_name = 'Ada'`); n != 1 {
		t.Error("a script-less post changed the profile")
	}
	// Refused as a page: anonymous to sign in, the wrong role home.
	r = formPost(t, base, "/profile", url.Values{"display_name": {"x"}}, same...)
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/login?next=%2Fprofile" {
		t.Errorf("anonymous script-less POST /profile = %d to %q", r.Status, r.Header.Get("Location"))
	}
	r = formPost(t, base, "/admin/terms", url.Values{"name": {"x"}}, append(cookie(token), same...)...)
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/" {
		t.Errorf("a member's script-less POST /admin/terms = %d to %q", r.Status, r.Header.Get("Location"))
	}
	// A cross-site post with the cookie is refused as any other.
	r = formPost(t, base, "/profile", url.Values{"display_name": {"x"}}, append(cookie(token), "Sec-Fetch-Site", "cross-site")...)
	if r.Status != http.StatusForbidden {
		t.Errorf("cross-site POST /profile = %d, want 403", r.Status)
	}
}
