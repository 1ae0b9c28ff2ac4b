package e2e

import (
	"testing"
	"time"

	"hackdesk/dev/testenv/browser"
)

// axe-core (the quality bar's tags: WCAG 2.0, 2.1 and 2.2, A and AA) finds
// nothing on the pages of the applicant's journey, at a phone's and a
// desktop's size: the public account pages (and one with its error
// summary), the HTML 404, and signed in the home page, the profile,
// /events, /application with no application and with a submitted one, and
// /apply/submitted before and after an offer with its RSVP form. (/apply's
// steps are checked by TestWebApply, /events after joining by
// TestWebEvents.)
func TestWebAxe(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	a, anon, site := webApp(t)
	super, _ := decAccount(t, a, anon, "super@x.test", "superadmin")
	hiringTermVia(t, super, "2026-2027", "2026-09-01", "2027-04-30", true)

	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		p := browser.Open(t, site, vp)
		// check opens path, waits for its h1 (and what loads after it)
		// and runs axe-core on it.
		check := func(path, h1 string, loaded ...string) {
			t.Helper()
			p.Visit(path)
			p.WaitFor("heading", h1)
			for _, name := range loaded {
				p.WaitFor("heading", name)
			}
			if got := p.Heading(1); got != h1 {
				t.Errorf("%s: the first h1 is %q, want %q", path, got, h1)
			}
			p.Axe()
		}

		check("/", "Hackathons, events and membership, in one place")
		check("/signup", "Create your hackdesk account")
		// The sign-up form refused in the browser: an error summary and
		// fields in error.
		p.Click("button", "Sign up")
		p.WaitFocused("alert", "There is a problem")
		p.Axe()
		check("/login", "Sign in")
		check("/forgot-password", "Reset your password")
		check("/reset-password?token=x", "Set a new password")
		check("/auth/confirm?token=x", "Confirm your email address")
		p.AllowConsoleError("status of 404 (Not Found) (http://hackdesk.test/no-such-page)") // the page's own status
		check("/no-such-page", "Page not found")

		email := "dorothy+" + vp.Name + "@example.com"
		_, id := member(t, a, anon, email, "Dorothy Vaughan")
		webSignIn(t, p, email, "password-"+email, "/")
		check("/", "Hackathons, events and membership, in one place", "Your next step")
		check("/profile", "Your profile", "Email preferences", "Where you’re signed in")
		check("/events", "Events and membership", "Membership for 2026-2027")
		check("/application", "No Application Found")
		if !p.Exists("link", "Start your application") {
			t.Error("/application without an application has no link to start one")
		}

		appID := seedApplication(t, a, id, "submitted")
		check("/apply/submitted", "Application submitted", "What happens next")
		check("/application", "Your application")

		decSet(t, a, appID, "offer", time.Now().Add(72*time.Hour).Format(time.RFC3339), "", "")
		check("/apply/submitted", "Application submitted", "You have a place at the hackathon", "RSVP")
		p.WaitFor("button", "Send RSVP")
	})
}
