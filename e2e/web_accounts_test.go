package e2e

import (
	"net/http"
	"net/url"
	"testing"

	"hackdesk/dev/testenv/browser"
)

// A new person signs up on /signup, confirms the address by the emailed
// link (which acts only when "Confirm email" is pressed, since mail
// scanners open links) and signs in on /login.
func TestWebAccounts(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	a, _, site := webApp(t)
	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		email := "ada.lovelace+" + vp.Name + "@example.com"
		const password, name = "violet-harbour-tangent-1843", "Ada Lovelace"
		p := browser.Open(t, site, vp)

		p.Visit("/signup")
		p.WaitFor("heading", "Create your hackdesk account")
		p.Fill("Email", email)
		p.Fill("Password", password)
		p.Fill("Display name", name)
		p.Click("button", "Sign up")
		p.WaitFocused("heading", "Check your email")
		p.WaitText("We’ve sent a link to " + email)

		// Not confirmed yet: signing in says so.
		p.Visit("/login")
		p.Fill("Email", email)
		p.Fill("Password", password)
		p.AllowConsoleError("status of 403 (Forbidden) (http://hackdesk.test/api/auth/login)") // the refused sign-in, as the browser logs it
		p.Click("button", "Sign in")
		p.WaitText("Confirm your email address first")
		if p.URL() != "/login" {
			t.Fatalf("an unconfirmed sign-in left /login for %s", p.URL())
		}

		tok := tokenIn(t, sentEmail(t, a, email, "confirm"), "/auth/confirm")
		p.Visit("/auth/confirm?token=" + url.QueryEscape(tok))
		p.WaitFor("heading", "Confirm your email address")
		// Opening the link alone confirms nothing.
		var confirmed bool
		if err := a.Store.Pool().QueryRow(t.Context(),
			`SELECT email_confirmed_at IS NOT NULL FROM profiles WHERE lower(email) = lower($1)`, email).Scan(&confirmed); err != nil {
			t.Fatal(err)
		}
		if confirmed {
			t.Fatal("opening the confirmation link confirmed the address before the button was pressed")
		}
		p.Click("button", "Confirm email")
		p.WaitFocused("heading", "Email address confirmed")

		// The same link again is spent.
		p.Visit("/auth/confirm?token=" + url.QueryEscape(tok))
		p.AllowConsoleError("status of 400 (Bad Request) (http://hackdesk.test/api/auth/confirm)")
		p.Click("button", "Confirm email")
		p.WaitFor("heading", "This link has expired or has already been used")

		webSignIn(t, p, email, password, "/")
		p.WaitFor("button", "Account menu for "+name)
		if p.Exists("link", "Sign in") {
			t.Fatal("the home page still offers to sign in after signing in")
		}
	})
}

// An anonymous visitor opening /apply is sent to sign in and, once signed
// in there, lands back on /apply.
func TestWebSignInReturnsToApply(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	a, anon, site := webApp(t)
	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		email := "grace+" + vp.Name + "@example.com"
		member(t, a, anon, email, "Grace Hopper")
		p := browser.Open(t, site, vp)

		p.Visit("/apply")
		p.WaitURL("/login")
		if u := p.URL(); u != "/login?next=%2Fapply" && u != "/login?next=/apply" {
			t.Fatalf("anonymous /apply went to %s, want /login?next=%%2Fapply", u)
		}
		p.WaitFor("heading", "Sign in")
		p.Fill("Email", email)
		p.Fill("Password", "password-"+email)
		p.Click("button", "Sign in")
		p.WaitURL("/apply")
		if u := p.URL(); u != "/apply" {
			t.Fatalf("after signing in the page is at %s, want /apply", u)
		}
		p.WaitFor("heading", "Your Info")
		if got := p.Value("Email"); got != email {
			t.Fatalf("the application's Email starts as %q, want the account's %q", got, email)
		}
	})
}

// /profile turns "Send me marketing emails" off and on; the API agrees
// after each change, and a reload shows the saved choice.
func TestWebProfileMarketing(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	a, anon, site := webApp(t)
	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		email := "katherine+" + vp.Name + "@example.com"
		api, _ := member(t, a, anon, email, "Katherine Johnson")
		api.expect(http.StatusOK, "PATCH", "/api/profile", map[string]any{"marketing_opt_in": true})
		optIn := func() bool {
			t.Helper()
			return profileOptIn(t, api.expect(http.StatusOK, "GET", "/api/profile", nil))
		}
		const box = "Send me marketing emails"

		p := browser.Open(t, site, vp)
		webSignIn(t, p, email, "password-"+email, "/")
		p.Visit("/profile")
		p.WaitFor("heading", "Your profile")
		if !p.Checked(box) {
			t.Fatal("the marketing box starts unchecked although the profile opted in")
		}

		p.Uncheck(box)
		p.WaitText("Saved: you won’t get marketing emails.")
		if optIn() {
			t.Fatal("after turning marketing email off, GET /api/profile still has marketing_opt_in true")
		}
		p.Reload()
		p.WaitFor("heading", "Email preferences")
		if p.Checked(box) {
			t.Fatal("after a reload the marketing box is checked again")
		}

		p.Check(box)
		p.WaitText("Saved: you’ll get marketing emails.")
		if !optIn() {
			t.Fatal("after turning marketing email on, GET /api/profile has marketing_opt_in false")
		}
		p.Reload()
		p.WaitFor("heading", "Email preferences")
		if !p.Checked(box) {
			t.Fatal("after a reload the marketing box is unchecked")
		}
	})
}
