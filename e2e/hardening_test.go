package e2e

import (
	"bytes"
	"context"
	"fmt"
	acct "hackdesk/internal/feature/account"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"hackdesk/api"
	"hackdesk/dev/testenv"
)

// TestForgotPasswordNoLockout: the 429 of forgot-password counts per email
// and client IP, so posts from elsewhere never lock the owner out; above
// the per-email mailing rate the answer stays 200 and nothing more is sent,
// so the link mailed last stays live.
func TestForgotPasswordNoLockout(t *testing.T) {
	t.Parallel()
	cfg := testenv.Config(t)
	cfg.TrustedProxies = "127.0.0.0/8" // the test client is the proxy; X-Forwarded-For names the client
	a := testenv.App(t, cfg)
	anon := &client{t: t, base: a.URL()}
	const victim = "victim@example.com"
	account(t, a, victim, "Victim", "member")
	forgot := func(ip, email string) response {
		t.Helper()
		return anon.do("POST", "/api/auth/forgot-password", map[string]string{"email": email}, "X-Forwarded-For", ip)
	}
	resets := func() int {
		t.Helper()
		return countRows(t, a, `SELECT count(*) FROM emails WHERE to_address = $1 AND kind = 'reset'`, victim)
	}

	// Someone posts the victim's email three times: three links go out
	// (each retiring the one before), then that client gets 429.
	for i := range 3 {
		if r := forgot("203.0.113.9", victim); r.Status != http.StatusOK {
			t.Fatalf("post %d: %d %s", i+1, r.Status, r.Body)
		}
	}
	check429(t, forgot("203.0.113.9", victim))
	if n := resets(); n != 3 {
		t.Fatalf("%d reset emails, want 3", n)
	}
	last := tokenIn(t, sentEmail(t, a, victim, "reset"), "/reset-password")

	// The owner, from elsewhere, is answered 200, not 429; the per-email
	// rate is used up, so nothing is sent and the last link is not retired.
	r := forgot("198.51.100.20", victim)
	if r.Status != http.StatusOK || r.Map(t)["success"] != true {
		t.Fatalf("the owner's request: %d %s, want 200", r.Status, r.Body)
	}
	if n := resets(); n != 3 {
		t.Fatalf("%d reset emails after the per-email rate, want still 3", n)
	}
	anon.expect(http.StatusOK, "POST", "/api/auth/reset-password", map[string]string{"token": last, "password": "a-fresh-password-42"})
}

// TestAccountExistsMailCapped: sign-ups with an email that has an account
// tell its owner by email, at most as often as reset links are mailed to
// one address (3 per 15 minutes), whichever clients post: five sign-ups
// from five addresses send three emails, and every answer is the same 201.
// A new account's confirmation is never held back.
func TestAccountExistsMailCapped(t *testing.T) {
	// Not parallel: every sign-up hashes a password at full cost.
	cfg := testenv.Config(t)
	cfg.TrustedProxies = "127.0.0.0/8" // the test client is the proxy; X-Forwarded-For names the client
	a := testenv.App(t, cfg)
	anon := &client{t: t, base: a.URL()}
	const owner = "owner@example.com"
	account(t, a, owner, "Owner", "member")
	var first string
	for i := range 5 {
		r := anon.expect(http.StatusCreated, "POST", "/api/auth/signup",
			map[string]string{"email": owner, "password": "correct horse battery", "display_name": "Someone"},
			"X-Forwarded-For", fmt.Sprintf("198.51.100.%d", 10+i))
		if i == 0 {
			first = string(r.Body)
		} else if string(r.Body) != first {
			t.Fatalf("sign-up %d answered %s, the first %s", i+1, r.Body, first)
		}
	}
	if n := emailCount(t, a, "account_exists", owner); n != 3 {
		t.Fatalf("%d account-exists emails after five sign-ups, want 3", n)
	}
	anon.expect(http.StatusCreated, "POST", "/api/auth/signup",
		map[string]string{"email": "new@example.com", "password": "correct horse battery", "display_name": "New"})
	if n := emailCount(t, a, "confirm", "new@example.com"); n != 1 {
		t.Fatalf("%d confirmation emails for a new account, want 1", n)
	}
}

// TestRateLimitsIPv6Prefix: the per-IP limits count an IPv6 client by its
// /64, so the addresses of one network share a bucket.
func TestRateLimitsIPv6Prefix(t *testing.T) {
	t.Parallel()
	a, _ := newApp(t)
	cfg := a.Config
	cfg.TrustedProxies = "127.0.0.0/8" // the test client is the proxy; X-Forwarded-For names the client
	limits := api.RateLimits{ForgotPerIP: api.RateLimit{Requests: 3, Window: time.Minute}}
	ts := httptest.NewServer(api.New(api.Deps{Config: cfg, Store: a.Store, Temporal: a.Temporal, Blob: a.Blob, Logger: a.Log, Limits: &limits}))
	defer ts.Close()
	c := &client{t: t, base: ts.URL}
	forgot := func(ip string, i int) response {
		t.Helper()
		return c.do("POST", "/api/auth/forgot-password", map[string]string{"email": fmt.Sprintf("v6-%d@example.com", i)}, "X-Forwarded-For", ip)
	}
	for i, ip := range []string{"2001:db8:7:1::1", "2001:db8:7:1:aaaa::2", "2001:db8:7:1:ffff:ffff:ffff:ffff"} {
		if r := forgot(ip, i); r.Status != http.StatusOK {
			t.Fatalf("post %d from %s: %d %s", i+1, ip, r.Status, r.Body)
		}
	}
	check429(t, forgot("2001:db8:7:1:1234::5", 4))
	// Another /64 has its own bucket; so has an IPv4 client.
	for i, ip := range []string{"2001:db8:7:2::1", "198.51.100.7"} {
		if r := forgot(ip, 5+i); r.Status != http.StatusOK {
			t.Fatalf("%s: %d %s", ip, r.Status, r.Body)
		}
	}
}

// TestTeamMembersRateLimit: the team members named in PATCH
// /api/applications are looked up under the team search's per-caller
// limit (they tell whether an email has an account), with 429 and
// Retry-After beyond it, sharing the search's counter.
func TestTeamMembersRateLimit(t *testing.T) {
	t.Parallel()
	a, _ := newApp(t)
	limits := api.RateLimits{SearchPerCaller: api.RateLimit{Requests: 3, Window: time.Minute}}
	ts := httptest.NewServer(api.New(api.Deps{Config: a.Config, Store: a.Store, Temporal: a.Temporal, Blob: a.Blob, Logger: a.Log, Limits: &limits}))
	defer ts.Close()
	base := &client{t: t, base: ts.URL}
	me := account(t, a, "me@example.com", "Me", "member")
	account(t, a, "mate@example.com", "Mate", "member")
	seedApplication(t, a, me, "draft")
	c := as(t, a, base, me)

	c.expect(http.StatusBadRequest, "PATCH", "/api/applications", map[string]any{"team_members": "ghost1@example.com"})
	c.expect(http.StatusOK, "PATCH", "/api/applications", map[string]any{"team_members": "mate@example.com"})
	// A patch that names no team looks nothing up and is not counted.
	c.expect(http.StatusOK, "PATCH", "/api/applications", map[string]any{"phone": "+1 613 555 0101"})
	c.expect(http.StatusOK, "GET", "/api/users/emails?q=mate", nil)
	check429(t, c.do("PATCH", "/api/applications", map[string]any{"team_members": "ghost2@example.com"}))
	check429(t, c.do("GET", "/api/users/emails?q=mate", nil))
	// Clearing the team looks nothing up.
	c.expect(http.StatusOK, "PATCH", "/api/applications", map[string]any{"team_members": nil})
}

// TestNoStoreOnPersonalData: every answer of a signed-in route carries
// Cache-Control: no-store (applications, membership, admin views, exports),
// not only the account routes.
func TestNoStoreOnPersonalData(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	super := as(t, a, anon, account(t, a, "root@example.com", "Root", "superadmin"))
	hiringTermVia(t, super, "2026-2027", "2026-09-01", "2027-08-31", true)
	me := account(t, a, "me@example.com", "Me", "member")
	seedApplication(t, a, me, "draft")
	c := as(t, a, anon, me)
	c.expect(http.StatusCreated, "POST", "/api/membership", nil)
	c.offSpec, super.offSpec = true, true // headers only: the bodies are checked where their routes are tested
	for _, rt := range []struct {
		c    *client
		path string
	}{
		{c, "/api/applications"},
		{c, "/api/applications/resumes"},
		{c, "/api/membership"},
		{super, "/api/admin/applications"},
		{super, "/api/admin/memberships"},
		{super, "/api/onboarding/export.csv"},
		{super, "/api/terms/active"},
	} {
		r := rt.c.expect(http.StatusOK, "GET", rt.path, nil)
		if cc := r.Header.Get("Cache-Control"); cc != "no-store" {
			t.Errorf("GET %s: Cache-Control %q, want no-store", rt.path, cc)
		}
	}
}

// TestDisplayNameControlChars: sign-up, the profile and `hackdesk users
// create` refuse display names holding control or format characters.
func TestDisplayNameControlChars(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	for _, name := range []string{"Eve\r\nBcc: all@example.com", "Eve \u202Egpj.exe", "Ad\u200Bmin", "Eve\tX"} {
		r := anon.expect(http.StatusBadRequest, "POST", "/api/auth/signup",
			map[string]string{"email": "eve@example.com", "password": "cobol-compiler-77", "display_name": name})
		var e errorJSON
		r.JSON(t, &e)
		if e.Details["display_name"] == "" {
			t.Errorf("sign-up with %q: %s", name, r.Body)
		}
	}
	c := as(t, a, anon, account(t, a, "me@example.com", "Me", "member"))
	for _, name := range []string{"Me\nAdmin", "\u2066Me\u2069", "\uFEFFMe"} {
		r := c.expect(http.StatusBadRequest, "PATCH", "/api/profile", map[string]any{"display_name": name})
		var e errorJSON
		r.JSON(t, &e)
		if e.Details["display_name"] == "" {
			t.Errorf("profile with %q: %s", name, r.Body)
		}
	}
	c.expect(http.StatusOK, "PATCH", "/api/profile", map[string]any{"display_name": "Zoë 李 🚀"})
	if _, err := acct.Create(context.Background(), a.Store.Queries, "cli@example.com", "CLI\r\nUser", "cobol-compiler-77", "member"); err == nil {
		t.Error("users create accepted a name with CR LF")
	}
	if _, err := acct.Create(context.Background(), a.Store.Queries, "cli2@example.com", "", "cobol-compiler-77", "member"); err != nil {
		t.Errorf("users create without a name: %v", err)
	}
}

// countingReader counts the bytes read from it.
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// multipartResume is an upload form with one file part.
func multipartResume(t *testing.T, name string, data []byte) ([]byte, string) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	pw, err := mw.CreateFormFile("file", name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return body.Bytes(), mw.FormDataContentType()
}

// TestResumeUploadGuards: an upload by someone without a draft is refused
// before its body is read (with Expect: 100-continue the client never
// sends it), and one account runs at most two uploads at once (429 beyond).
func TestResumeUploadGuards(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	noApp := as(t, a, anon, account(t, a, "none@example.com", "None", "member"))
	doneID := account(t, a, "done@example.com", "Done", "member")
	seedApplication(t, a, doneID, "submitted")
	done := as(t, a, anon, doneID)
	busyID := account(t, a, "busy@example.com", "Busy", "member")
	seedApplication(t, a, busyID, "draft")
	busy := as(t, a, anon, busyID)

	big, ct := multipartResume(t, "cv.pdf", append(pdfFile("big"), bytes.Repeat([]byte("x"), 4<<20)...))
	hc := &http.Client{Transport: &http.Transport{ExpectContinueTimeout: 30 * time.Second}}
	for _, tc := range []struct {
		c     *client
		want  int
		title string
	}{
		{noApp, http.StatusNotFound, "No application found"},
		{done, http.StatusConflict, "Application already submitted"},
	} {
		body := &countingReader{r: bytes.NewReader(big)}
		req, _ := http.NewRequest("POST", anon.base+"/api/applications/resumes", body)
		req.ContentLength = int64(len(big))
		req.Header.Set("Content-Type", ct)
		req.Header.Set("Expect", "100-continue")
		req.Header.Set("Authorization", "Bearer "+tc.c.token)
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.want || !strings.Contains(string(data), tc.title) {
			t.Errorf("upload: %d %s, want %d %s", resp.StatusCode, data, tc.want, tc.title)
		}
		if n := body.n.Load(); n > 0 {
			t.Errorf("%s: the client sent %d bytes of the body, want none", tc.title, n)
		}
	}

	// Two uploads that stall hold the account's two places: a third is 429.
	type result struct {
		status int
		err    error
	}
	var pipes []*io.PipeWriter
	var results []chan result
	for range 2 {
		pr, pw := io.Pipe()
		mw := multipart.NewWriter(pw)
		req, _ := http.NewRequest("POST", anon.base+"/api/applications/resumes", pr)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		req.Header.Set("Authorization", "Bearer "+busy.token)
		done := make(chan result, 1)
		go func() {
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				done <- result{err: err}
				return
			}
			resp.Body.Close()
			done <- result{status: resp.StatusCode}
		}()
		go func() {
			part, _ := mw.CreateFormFile("file", "slow.pdf")
			// Blocks until the server reads; fails once the test closes the pipe.
			_, _ = part.Write(pdfFile("slow"))
		}()
		pipes, results = append(pipes, pw), append(results, done)
	}
	time.Sleep(2 * time.Second) // both reach the handler and wait for the rest of their file
	check429(t, busy.upload("cv.pdf", pdfFile("third")))
	// Another account is not held back.
	other := account(t, a, "other@example.com", "Other", "member")
	seedApplication(t, a, other, "draft")
	if r := as(t, a, anon, other).upload("cv.pdf", pdfFile("other")); r.Status != http.StatusOK {
		t.Fatalf("another account's upload: %d %s", r.Status, r.Body)
	}
	for _, pw := range pipes {
		pw.CloseWithError(io.ErrUnexpectedEOF)
	}
	for _, done := range results {
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Fatal("a stalled upload did not end")
		}
	}
	// The places are given back once the server has ended the stalled
	// uploads' handlers (a moment after their clients saw them fail).
	testenv.Eventually(t, 10*time.Second, func() (bool, string) {
		r := busy.upload("cv.pdf", pdfFile("after"))
		return r.Status == http.StatusOK, fmt.Sprintf("upload after the others ended: %d %s", r.Status, r.Body)
	})
}
