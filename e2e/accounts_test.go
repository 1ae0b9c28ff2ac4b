package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"hackdesk/app"
	"hackdesk/db"
	"hackdesk/dev/testenv"
	acct "hackdesk/internal/feature/account"
)

var linkToken = regexp.MustCompile(`\?token=([A-Za-z0-9_%-]+)`)

// sentEmail waits until the newest email of kind to the address has been
// sent by the SendEmail workflow, and returns it.
func sentEmail(t *testing.T, a *app.App, to, kind string) db.Email {
	t.Helper()
	var sent db.Email
	testenv.Eventually(t, 20*time.Second, func() (bool, string) {
		rows, err := a.Store.EmailList(context.Background(), db.EmailListParams{ToAddress: &to, Kind: &kind, PageLimit: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) == 1 && rows[0].Status == "sent" {
			sent = rows[0]
			return true, ""
		}
		return false, fmt.Sprintf("no sent %s email to %s (rows %+v)", kind, to, rows)
	})
	return sent
}

// tokenIn pulls the token out of the link in an email. Once sent, the
// stored row holds no link (the test stack is not the local mail catcher),
// so the link is read from what the log driver printed, as a developer
// would.
func tokenIn(t *testing.T, e db.Email, wantPath string) string {
	t.Helper()
	text := e.TextBody
	if printed, ok := testenv.Mail.Text(e.IdempotencyKey); ok && !strings.Contains(text, "?token=") {
		text = printed
	}
	if !strings.Contains(text, "http://hackdesk.test"+wantPath+"?token=") {
		t.Fatalf("email has no %s link built from PUBLIC_URL:\n%s", wantPath, text)
	}
	m := linkToken.FindStringSubmatch(text)
	tok, err := url.QueryUnescape(m[1])
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// signup registers an account and confirms it through the mailed link.
func signup(t *testing.T, a *app.App, c *client, email, password, name string) {
	t.Helper()
	c.expect(http.StatusCreated, "POST", "/api/auth/signup",
		map[string]string{"email": email, "password": password, "display_name": name})
	tok := tokenIn(t, sentEmail(t, a, email, "confirm"), "/auth/confirm")
	c.expect(http.StatusOK, "POST", "/api/auth/confirm", map[string]string{"token": tok})
}

// login returns a client holding a fresh session token.
func login(t *testing.T, base *client, email, password string) *client {
	t.Helper()
	r := base.expect(http.StatusOK, "POST", "/api/auth/login", map[string]string{"email": email, "password": password})
	var body struct {
		Token string `json:"token"`
	}
	r.JSON(t, &body)
	if body.Token == "" {
		t.Fatalf("login body has no token: %s", r.Body)
	}
	return &client{t: t, base: base.base, token: body.Token}
}

func TestAccountLifecycle(t *testing.T) {
	// Not parallel: its many full-cost hashes would keep the process's
	// hashing slots, shared by the Apps of all tests, from the others.
	a, anon := newApp(t)
	const email, pw = "Ada.Lovelace@example.com", "analytical-engine"

	r := anon.expect(http.StatusCreated, "POST", "/api/auth/signup",
		map[string]string{"email": email, "password": pw, "display_name": "  Ada Lovelace "})
	signupBody := string(r.Body)
	if m := r.Map(t); m["success"] != true || m["message"] == "" || len(m) != 2 {
		t.Fatalf("signup answer %s, want {success, message}", r.Body)
	}

	// A taken email gets the very same answer (no enumeration); the owner
	// is told by email, with sign-in and reset links and no token, and no
	// second account or confirmation is made.
	t.Run("DuplicateEmailSameAnswer", func(t *testing.T) {
		r := anon.expect(http.StatusCreated, "POST", "/api/auth/signup",
			map[string]string{"email": "ada.lovelace@EXAMPLE.com", "password": "a different one entirely", "display_name": "Other"})
		if string(r.Body) != signupBody {
			t.Fatalf("signup with a taken email answered %s, a new one %s", r.Body, signupBody)
		}
		e := sentEmail(t, a, email, "account_exists")
		if !strings.Contains(e.TextBody, "http://hackdesk.test/login") || !strings.Contains(e.TextBody, "http://hackdesk.test/forgot-password") ||
			strings.Contains(e.TextBody, "token") || e.Secret {
			t.Fatalf("account_exists email:\n%s", e.TextBody)
		}
		if n := emailCount(t, a, "confirm", email); n != 1 {
			t.Fatalf("%d confirmation emails, want 1", n)
		}
		var accounts int
		if err := a.Store.Pool().QueryRow(context.Background(), `SELECT count(*) FROM profiles WHERE lower(email) = lower($1)`, email).Scan(&accounts); err != nil || accounts != 1 {
			t.Fatalf("%d accounts (%v), want 1", accounts, err)
		}
	})
	t.Run("ErrSignupValidation", func(t *testing.T) {
		r := anon.expect(http.StatusBadRequest, "POST", "/api/auth/signup",
			map[string]string{"email": "not-an-email", "password": "short", "display_name": ""})
		var body errorJSON
		r.JSON(t, &body)
		if body.Error != "Validation failed" || len(body.Details) != 3 {
			t.Fatalf("body %s", r.Body)
		}
	})
	t.Run("ErrUnconfirmedLogin", func(t *testing.T) {
		r := anon.expect(http.StatusForbidden, "POST", "/api/auth/login", map[string]string{"email": email, "password": pw})
		if r.Map(t)["error"] != "Email not confirmed" {
			t.Fatalf("body %s", r.Body)
		}
		// The password is checked first: a wrong one is 401 even unconfirmed.
		anon.expect(http.StatusUnauthorized, "POST", "/api/auth/login", map[string]string{"email": email, "password": "wrong-password"})
	})

	confirmTok := tokenIn(t, sentEmail(t, a, email, "confirm"), "/auth/confirm")
	anon.expect(http.StatusOK, "POST", "/api/auth/confirm", map[string]string{"token": confirmTok})
	t.Run("ErrConfirmTokenReused", func(t *testing.T) {
		r := anon.expect(http.StatusBadRequest, "POST", "/api/auth/confirm", map[string]string{"token": confirmTok})
		if r.Map(t)["error"] != "Invalid or expired token" {
			t.Fatalf("body %s", r.Body)
		}
	})

	t.Run("ErrWrongPassword", func(t *testing.T) {
		r := anon.expect(http.StatusUnauthorized, "POST", "/api/auth/login", map[string]string{"email": email, "password": "wrong-password"})
		if r.Map(t)["error"] != "Invalid email or password" {
			t.Fatalf("body %s", r.Body)
		}
		r = anon.expect(http.StatusUnauthorized, "POST", "/api/auth/login", map[string]string{"email": "nobody@example.com", "password": pw})
		if r.Map(t)["error"] != "Invalid email or password" {
			t.Fatalf("unknown email body %s", r.Body)
		}
	})

	// Login is case-insensitive in the email.
	me := login(t, anon, "ada.lovelace@example.com", pw)
	r = me.expect(http.StatusOK, "GET", "/api/profile", nil)
	profile := r.Map(t)
	if profile["email"] != email || profile["email_confirmed"] != true || profile["exec_role"] != nil ||
		profile["membership"] != nil || profile["role"] != "member" {
		t.Fatalf("profile = %v", profile)
	}
	r = me.expect(http.StatusOK, "PATCH", "/api/profile", map[string]string{"display_name": "Countess Lovelace"})
	if r.Map(t)["display_name"] != "Countess Lovelace" {
		t.Fatalf("patched profile %s", r.Body)
	}
	me.expect(http.StatusBadRequest, "PATCH", "/api/profile", map[string]string{"display_name": "   "})
	me.expect(http.StatusBadRequest, "PATCH", "/api/profile", map[string]string{"email": "x@example.com"})

	t.Run("Cookie", func(t *testing.T) {
		r := anon.expect(http.StatusOK, "GET", "/api/profile", nil, "Cookie", "hackdesk_session="+me.token)
		if r.Map(t)["email"] != email {
			t.Fatalf("cookie profile %s", r.Body)
		}
	})

	t.Run("RoleChangeTakesEffectOnNextRequest", func(t *testing.T) {
		me.expect(http.StatusForbidden, "GET", "/api/admin/emails", nil)
		if err := acct.GrantByEmail(context.Background(), a.Store, email, acct.Change{Role: "superadmin"}); err != nil {
			t.Fatal(err)
		}
		sessionBound() // the grant is another process's (the CLI's)
		r := me.expect(http.StatusOK, "GET", "/api/admin/emails?kind=confirm", nil)
		var list struct {
			Emails []map[string]any `json:"emails"`
			Total  int              `json:"total"`
		}
		r.JSON(t, &list)
		if list.Total != 1 || list.Emails[0]["to"] != email || list.Emails[0]["status"] != "sent" {
			t.Fatalf("admin emails %s", r.Body)
		}
		// The confirmation link is a secret: never shown outside the local stack.
		if strings.Contains(string(r.Body), "token=") || list.Emails[0]["text"] != "[Redacted: this email carried a one-time link. Its body is not kept once sent and never shown.]\n" {
			t.Fatalf("admin emails show a secret body: %s", r.Body)
		}
		if err := acct.GrantByEmail(context.Background(), a.Store, email, acct.Change{Role: "member"}); err != nil {
			t.Fatal(err)
		}
		sessionBound()
		me.expect(http.StatusForbidden, "GET", "/api/admin/emails", nil)
	})

	// Forgot and reset.
	other := login(t, anon, email, pw)
	start := time.Now()
	r = anon.expect(http.StatusOK, "POST", "/api/auth/forgot-password", map[string]string{"email": email})
	knownBody := string(r.Body)
	knownTook := time.Since(start)
	r = anon.expect(http.StatusOK, "POST", "/api/auth/forgot-password", map[string]string{"email": "ghost@example.com"})
	if string(r.Body) != knownBody {
		t.Fatalf("forgot-password answers differ: %s vs %s", knownBody, r.Body)
	}
	if knownTook < 400*time.Millisecond {
		t.Fatalf("forgot-password took %v, below its constant floor", knownTook)
	}
	resetTok := tokenIn(t, sentEmail(t, a, email, "reset"), "/reset-password")
	anon.expect(http.StatusBadRequest, "POST", "/api/auth/reset-password", map[string]string{"token": resetTok, "password": "short"})
	// A weak password is refused with the reason, and the link still works.
	r = anon.expect(http.StatusBadRequest, "POST", "/api/auth/reset-password", map[string]string{"token": resetTok, "password": "lovelace1815"})
	var weak errorJSON
	r.JSON(t, &weak)
	if weak.Error != "Validation failed" || !strings.Contains(weak.Details["password"], "too easy to guess") {
		t.Fatalf("weak reset password answered %s", r.Body)
	}
	anon.expect(http.StatusOK, "POST", "/api/auth/reset-password", map[string]string{"token": resetTok, "password": "difference-engine"})

	t.Run("OldSessionsRevokedByReset", func(t *testing.T) {
		me.expect(http.StatusUnauthorized, "GET", "/api/profile", nil)
		other.expect(http.StatusUnauthorized, "GET", "/api/profile", nil)
		anon.expect(http.StatusUnauthorized, "POST", "/api/auth/login", map[string]string{"email": email, "password": pw})
	})
	t.Run("ErrResetTokenReused", func(t *testing.T) {
		r := anon.expect(http.StatusBadRequest, "POST", "/api/auth/reset-password",
			map[string]string{"token": resetTok, "password": "another-password"})
		if r.Map(t)["error"] != "Invalid or expired token" {
			t.Fatalf("body %s", r.Body)
		}
	})
	t.Run("ErrResetTokenExpired", func(t *testing.T) {
		anon.expect(http.StatusOK, "POST", "/api/auth/forgot-password", map[string]string{"email": email})
		tok := tokenIn(t, sentEmail(t, a, email, "reset"), "/reset-password")
		if tok == resetTok {
			t.Fatal("a second reset mailed the same token")
		}
		if _, err := a.Store.Pool().Exec(context.Background(),
			`UPDATE auth_tokens SET created_at = now() - interval '31 minutes', expires_at = now() - interval '1 minute' WHERE purpose = 'reset' AND used_at IS NULL`); err != nil {
			t.Fatal(err)
		}
		anon.expect(http.StatusBadRequest, "POST", "/api/auth/reset-password", map[string]string{"token": tok, "password": "another-password"})
	})

	// Logout revokes the session.
	fresh := login(t, anon, email, "difference-engine")
	fresh.expect(http.StatusOK, "GET", "/api/profile", nil)
	r = fresh.expect(http.StatusOK, "POST", "/api/auth/logout", nil)
	if sc := r.Header.Get("Set-Cookie"); !strings.Contains(sc, "hackdesk_session=;") || !strings.Contains(sc, "Max-Age=0") {
		t.Fatalf("logout Set-Cookie = %q, want the cookie cleared", sc)
	}
	fresh.expect(http.StatusUnauthorized, "GET", "/api/profile", nil)
}

func TestLoginSetsCookie(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	signup(t, a, anon, "grace@example.com", "cobol-compiler", "Grace Hopper")
	r := anon.expect(http.StatusOK, "POST", "/api/auth/login", map[string]string{"email": "grace@example.com", "password": "cobol-compiler"})
	sc := r.Header.Get("Set-Cookie")
	for _, want := range []string{"hackdesk_session=", "HttpOnly", "SameSite=Lax", "Path=/"} {
		if !strings.Contains(sc, want) {
			t.Fatalf("Set-Cookie %q lacks %q", sc, want)
		}
	}
	if strings.Contains(sc, "Secure") {
		t.Fatalf("Set-Cookie %q is Secure although PUBLIC_URL is http", sc)
	}
}

func TestSessionExpiry(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	signup(t, a, anon, "linus@example.com", "penguin-kernel", "Linus")
	idle := login(t, anon, "linus@example.com", "penguin-kernel")
	absolute := login(t, anon, "linus@example.com", "penguin-kernel")
	ctx := context.Background()
	if _, err := a.Store.Pool().Exec(ctx, `UPDATE sessions SET last_seen_at = now() - interval '8 days' WHERE token_hash = sha256($1::text::bytea)`, idle.token); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Store.Pool().Exec(ctx, `UPDATE sessions SET created_at = now() - interval '31 days', expires_at = now() - interval '1 second' WHERE token_hash = sha256($1::text::bytea)`, absolute.token); err != nil {
		t.Fatal(err)
	}
	idle.expect(http.StatusUnauthorized, "GET", "/api/profile", nil)
	absolute.expect(http.StatusUnauthorized, "GET", "/api/profile", nil)
	anon.expect(http.StatusUnauthorized, "GET", "/api/profile", nil, "Authorization", "Basic dXNlcjpwYXNz")
}

type errorJSON struct {
	Error   string            `json:"error"`
	Message string            `json:"message"`
	Details map[string]string `json:"details"`
}
