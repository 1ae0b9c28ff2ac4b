package e2e

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"hackdesk/app"
	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/platform/auth"
	"hackdesk/internal/platform/mail"
)

func dbEmailFilter(to, kind string) db.EmailListParams {
	return db.EmailListParams{ToAddress: &to, Kind: &kind, PageLimit: 10}
}

// adminEmails lists the recorded emails of a kind as a superadmin sees them.
func adminEmails(t *testing.T, admin *client, kind string) []map[string]any {
	t.Helper()
	var list struct {
		Emails []map[string]any `json:"emails"`
	}
	admin.expect(http.StatusOK, "GET", "/api/admin/emails?kind="+kind, nil).JSON(t, &list)
	return list.Emails
}

func check429(t *testing.T, r response) {
	t.Helper()
	if r.Status != http.StatusTooManyRequests {
		t.Fatalf("status %d, want 429 (%s)", r.Status, r.Body)
	}
	if ra, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || ra <= 0 {
		t.Fatalf("Retry-After = %q, want seconds", r.Header.Get("Retry-After"))
	}
	if r.Map(t)["error"] != "Too many requests" {
		t.Fatalf("body %s", r.Body)
	}
}

// Outside the local stack (here: the log driver with PUBLIC_URL
// http://hackdesk.test, as a misconfigured production would be), a
// superadmin never sees a confirmation or reset link: not while the email
// waits to be sent, and not afterwards, when the stored row itself holds
// only the redaction notice. The recipient still gets the link.
func TestEmailSecretsHiddenOutsideLocalStack(t *testing.T) {
	t.Parallel()
	cfg := testenv.Config(t)
	ctx := context.Background()

	// An API with no worker and no dispatcher: the email stays pending.
	apiOnly, err := app.Open(ctx, cfg, testenv.Logger(t), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if err := apiOnly.Listen(); err != nil {
		t.Fatal(err)
	}
	anon := &client{t: t, base: apiOnly.URL()}
	root := as(t, apiOnly, anon, account(t, apiOnly, "root@example.com", "Root", "superadmin"))
	const email = "hopper@example.com"
	anon.expect(http.StatusCreated, "POST", "/api/auth/signup",
		map[string]string{"email": email, "password": "cobol-compiler", "display_name": "Grace"})
	pending, err := apiOnly.Store.EmailList(ctx, dbEmailFilter(email, "confirm"))
	if err != nil || len(pending) != 1 || pending[0].Status != "pending" || !strings.Contains(pending[0].TextBody, "?token=") {
		t.Fatalf("pending confirmation row %+v (%v), want it recorded with its link", pending, err)
	}
	list := adminEmails(t, root, "confirm")
	if len(list) != 1 || list[0]["text"] != mail.RedactedText || list[0]["html"] != mail.RedactedHTML {
		t.Fatalf("pending secret email listed as %v, want the redaction notice", list)
	}
	apiOnly.Close()

	// The full app sends it; then the row keeps no link.
	a := testenv.App(t, cfg)
	anon = &client{t: t, base: a.URL()}
	root = as(t, a, anon, account(t, a, "root2@example.com", "Root", "superadmin"))
	sent := sentEmail(t, a, email, "confirm")
	if !sent.Secret || sent.TextBody != mail.RedactedText || sent.HtmlBody != mail.RedactedHTML {
		t.Fatalf("sent confirmation row keeps %q / %q, want the redaction notice", sent.TextBody, sent.HtmlBody)
	}
	// The recipient got the link (the log driver printed it) and it works.
	anon.expect(http.StatusOK, "POST", "/api/auth/confirm", map[string]string{"token": tokenIn(t, sent, "/auth/confirm")})

	anon.expect(http.StatusOK, "POST", "/api/auth/forgot-password", map[string]string{"email": email})
	reset := sentEmail(t, a, email, "reset")
	if reset.TextBody != mail.RedactedText || strings.Contains(reset.HtmlBody, "token") {
		t.Fatalf("sent reset row keeps %q / %q", reset.TextBody, reset.HtmlBody)
	}
	r := root.expect(http.StatusOK, "GET", "/api/admin/emails", nil)
	if bytes.Contains(r.Body, []byte("token=")) {
		t.Fatalf("the admin list shows a link with a token: %s", r.Body)
	}
	if tokenIn(t, reset, "/reset-password") == "" {
		t.Fatal("no reset token was delivered")
	}
}

// In the local stack (the log driver and a loopback PUBLIC_URL) the list
// is the developer's mail catcher: links are shown and kept after sending.
func TestEmailSecretsMailCatcher(t *testing.T) {
	t.Parallel()
	cfg := testenv.Config(t)
	cfg.PublicURL = "http://127.0.0.1:8080"
	a := testenv.App(t, cfg)
	anon := &client{t: t, base: a.URL()}
	root := as(t, a, anon, account(t, a, "root@example.com", "Root", "superadmin"))
	const email = "local@example.com"
	anon.expect(http.StatusCreated, "POST", "/api/auth/signup",
		map[string]string{"email": email, "password": "cobol-compiler", "display_name": "Local"})
	sent := sentEmail(t, a, email, "confirm")
	if !strings.Contains(sent.TextBody, "http://127.0.0.1:8080/auth/confirm?token=") {
		t.Fatalf("the local stack's stored row lost its link:\n%s", sent.TextBody)
	}
	list := adminEmails(t, root, "confirm")
	text, _ := list[0]["text"].(string)
	html, _ := list[0]["html"].(string)
	if !strings.Contains(text, "http://127.0.0.1:8080/auth/confirm?token=") || !strings.Contains(html, "/auth/confirm?token=") {
		t.Fatalf("the mail catcher hides the link: %v", list[0])
	}
	m := linkToken.FindStringSubmatch(text)
	anon.expect(http.StatusOK, "POST", "/api/auth/confirm", map[string]string{"token": m[1]})
}

// Sign-up is limited to 10 an hour per client IP (a taken email counts like
// any other), with Retry-After; another client is not affected.
func TestSignupRateLimit(t *testing.T) {
	// Not parallel: its many full-cost hashes would keep the process's
	// hashing slots, shared by the Apps of all tests, from the others.
	cfg := testenv.Config(t)
	cfg.TrustedProxies = "127.0.0.1/32" // X-Forwarded-For names the client
	a := testenv.App(t, cfg)
	anon := &client{t: t, base: a.URL()}
	account(t, a, "taken@example.com", "Taken", "member")
	body := func(i int) map[string]string {
		email := fmt.Sprintf("signup-%d@example.com", i)
		if i == 5 {
			email = "taken@example.com"
		}
		return map[string]string{"email": email, "password": "correct horse battery", "display_name": "Someone"}
	}
	for i := 1; i <= 10; i++ {
		anon.expect(http.StatusCreated, "POST", "/api/auth/signup", body(i), "X-Forwarded-For", "198.51.100.7")
	}
	r := anon.do("POST", "/api/auth/signup", body(11), "X-Forwarded-For", "198.51.100.7")
	check429(t, r)
	if ra, _ := strconv.Atoi(r.Header.Get("Retry-After")); ra < 60 {
		t.Fatalf("Retry-After %d s for an hourly limit", ra)
	}
	anon.expect(http.StatusCreated, "POST", "/api/auth/signup", body(12), "X-Forwarded-For", "203.0.113.9")
}

// Reset-password is limited per client IP (10 in 15 minutes), bad tokens
// included.
func TestResetPasswordRateLimit(t *testing.T) {
	t.Parallel()
	_, anon := newApp(t)
	for i := 1; i <= 10; i++ {
		tok, _, _ := auth.NewToken()
		r := anon.expect(http.StatusBadRequest, "POST", "/api/auth/reset-password",
			map[string]string{"token": tok, "password": "correct horse battery"})
		if r.Map(t)["error"] != "Invalid or expired token" {
			t.Fatalf("attempt %d: %s", i, r.Body)
		}
	}
	tok, _, _ := auth.NewToken()
	check429(t, anon.do("POST", "/api/auth/reset-password", map[string]string{"token": tok, "password": "correct horse battery"}))
}

// argon2id is bounded: with every hashing slot taken, a request that needs
// a hash waits about two seconds and answers 503 with Retry-After. A reset
// with a bad token answers at once: the token is checked before hashing.
// A 503 reset leaves its link usable.
func TestPasswordHashingBound(t *testing.T) {
	// Not parallel: it takes every hashing slot of the process, which
	// the Apps of all tests share.
	a, anon := newApp(t)
	account(t, a, "bound@example.com", "Bound", "member")
	anon.expect(http.StatusOK, "POST", "/api/auth/forgot-password", map[string]string{"email": "bound@example.com"})
	resetTok := tokenIn(t, sentEmail(t, a, "bound@example.com", "reset"), "/reset-password")

	release, err := auth.HoldHashSlots(context.Background(), auth.MaxConcurrentHashes)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { release() }()

	bogus, _, _ := auth.NewToken()
	start := time.Now()
	anon.expect(http.StatusBadRequest, "POST", "/api/auth/reset-password", map[string]string{"token": bogus, "password": "correct horse battery"})
	if took := time.Since(start); took > time.Second {
		t.Fatalf("a reset with a bad token took %v while hashing was saturated: it waited for a hash", took)
	}
	busy := func(r response) {
		t.Helper()
		if r.Status != http.StatusServiceUnavailable || r.Header.Get("Retry-After") == "" {
			t.Fatalf("status %d, Retry-After %q, want 503 with Retry-After; body %s", r.Status, r.Header.Get("Retry-After"), r.Body)
		}
		var body errorJSON
		r.JSON(t, &body)
		if body.Error != "Service unavailable" || body.Message == "" {
			t.Fatalf("503 body %s", r.Body)
		}
	}
	start = time.Now()
	busy(anon.do("POST", "/api/auth/reset-password", map[string]string{"token": resetTok, "password": "correct horse battery"}))
	if took := time.Since(start); took < auth.SlotWait {
		t.Fatalf("gave up after %v, want a wait of %v first", took, auth.SlotWait)
	}
	busy(anon.do("POST", "/api/auth/signup", map[string]string{"email": "new@example.com", "password": "correct horse battery", "display_name": "New"}))
	busy(anon.do("POST", "/api/auth/login", map[string]string{"email": "bound@example.com", "password": "password-bound@example.com"}))

	release()
	release = func() {}
	anon.expect(http.StatusOK, "POST", "/api/auth/reset-password", map[string]string{"token": resetTok, "password": "correct horse battery"})
	login(t, anon, "bound@example.com", "correct horse battery")
}

// Failed logins are counted per email and client IP, successes not at all:
// an attacker guessing a known user's password from one address is stopped
// after 20 failures (even with the right password), while the owner, from
// elsewhere, keeps signing in.
func TestLoginFailuresLimitedPerEmailAndIP(t *testing.T) {
	t.Parallel()
	cfg := testenv.Config(t)
	cfg.TrustedProxies = "127.0.0.1/32" // X-Forwarded-For names the client
	a := testenv.App(t, cfg)
	anon := &client{t: t, base: a.URL()}
	const email, pw = "owner@example.com", "password-owner@example.com"
	account(t, a, email, "Owner", "member")
	const owner, attacker = "203.0.113.5", "198.51.100.66"

	// Successes never count: more of them than the failure ceiling.
	for i := 0; i < 22; i++ {
		anon.expect(http.StatusOK, "POST", "/api/auth/login", map[string]string{"email": email, "password": pw}, "X-Forwarded-For", owner)
	}
	for i := 1; i <= 20; i++ {
		anon.expect(http.StatusUnauthorized, "POST", "/api/auth/login",
			map[string]string{"email": strings.ToUpper(email), "password": fmt.Sprintf("guess-%d", i)}, "X-Forwarded-For", attacker)
	}
	check429(t, anon.do("POST", "/api/auth/login", map[string]string{"email": email, "password": pw}, "X-Forwarded-For", attacker))
	// The owner is not locked out, and the attacker's address may still
	// try other accounts (within the per-IP limit).
	anon.expect(http.StatusOK, "POST", "/api/auth/login", map[string]string{"email": email, "password": pw}, "X-Forwarded-For", owner)
	anon.expect(http.StatusUnauthorized, "POST", "/api/auth/login",
		map[string]string{"email": "someone-else@example.com", "password": "guess"}, "X-Forwarded-For", attacker)
}

// Team search needs at least 3 characters (a whole email qualifies) and is
// limited to 60 a minute per caller; another caller is not affected.
func TestTeamSearchRules(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	me, _ := member(t, a, anon, "ada@example.com", "Ada Lovelace")
	other, _ := member(t, a, anon, "alan@example.com", "Alan Turing")
	member(t, a, anon, "alonzo@example.com", "Alonzo Church")
	requests := 0
	search := func(want int, q string) response {
		t.Helper()
		requests++
		return me.expect(want, "GET", "/api/users/emails"+q, nil)
	}
	for _, q := range []string{"", "?q=", "?q=al", "?q=%20%20a%20", "?q=%C3%A9t"} {
		var body errorJSON
		search(http.StatusBadRequest, q).JSON(t, &body)
		if body.Error != "Validation failed" || body.Details["q"] == "" {
			t.Fatalf("search %q answered %+v", q, body)
		}
	}
	var found struct {
		Emails []struct {
			Email string `json:"email"`
		} `json:"emails"`
	}
	search(http.StatusOK, "?q=alo").JSON(t, &found)
	if len(found.Emails) != 1 || found.Emails[0].Email != "alonzo@example.com" {
		t.Fatalf("search alo = %+v", found.Emails)
	}
	search(http.StatusOK, "?q=ALAN@example.com").JSON(t, &found)
	if len(found.Emails) != 1 || found.Emails[0].Email != "alan@example.com" {
		t.Fatalf("search by exact email = %+v", found.Emails)
	}
	for requests < 60 {
		search(http.StatusOK, "?q=example")
	}
	check429(t, me.do("GET", "/api/users/emails?q=example", nil))
	other.expect(http.StatusOK, "GET", "/api/users/emails?q=example", nil)
}

// Weak passwords are refused at sign-up with the reason, and no account is
// made; so is a password built from the account's own email or name.
func TestSignupRefusesWeakPasswords(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	for pw, why := range map[string]string{
		"password123":              "common words or passwords",
		"qwertyuiop":               "too easy to guess",
		"ada.lovelace@example.com": "your name or email address",
		"AdaLovelace!":             "too easy to guess",
	} {
		r := anon.expect(http.StatusBadRequest, "POST", "/api/auth/signup",
			map[string]string{"email": "ada.lovelace@example.com", "password": pw, "display_name": "Ada Lovelace"})
		var body errorJSON
		r.JSON(t, &body)
		if body.Error != "Validation failed" || !strings.Contains(body.Details["password"], why) {
			t.Fatalf("signup with %q answered %s, want details.password mentioning %q", pw, r.Body, why)
		}
	}
	if n := emailCount(t, a, "confirm", "ada.lovelace@example.com"); n != 0 {
		t.Fatalf("%d confirmation emails after refused sign-ups", n)
	}
}

// Two forgot-password requests for one account that run at the same time
// leave exactly one live reset link. The test holds a lock on auth_tokens
// so that both requests are inside their transactions before either
// writes; without the profile row lock each retires nothing and inserts its
// own token.
func TestConcurrentForgotPasswordOneLiveToken(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	id := account(t, a, "race@example.com", "Race", "member")
	ctx := context.Background()
	tx, err := a.Store.Pool().Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // a no-op after commit
	if _, err := tx.Exec(ctx, "LOCK TABLE auth_tokens IN SHARE ROW EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	statuses := make([]int, 2)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := http.Post(anon.base+"/api/auth/forgot-password", "application/json",
				strings.NewReader(`{"email":"race@example.com"}`))
			if err != nil {
				return
			}
			resp.Body.Close()
			statuses[i] = resp.StatusCode
		}()
	}
	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		var n int
		if err := a.Store.Pool().QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n == 2, "both requests waiting on a lock"
	})
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if statuses[0] != http.StatusOK || statuses[1] != http.StatusOK {
		t.Fatalf("forgot-password answered %v", statuses)
	}
	var issued, live int
	if err := a.Store.Pool().QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE used_at IS NULL AND expires_at > now())
		FROM auth_tokens WHERE profile_id = $1 AND purpose = 'reset'`, id).Scan(&issued, &live); err != nil {
		t.Fatal(err)
	}
	if issued != 2 || live != 1 {
		t.Fatalf("%d reset tokens issued, %d live; want 2 and 1", issued, live)
	}
}
