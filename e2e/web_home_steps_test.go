package e2e

import (
	"testing"
	"time"

	"hackdesk/dev/testenv/browser"
)

// A new exec whose onboarding window is open finds the form: the home
// page's first step is the form (not "Start your application", which staff
// are not offered) and the header links it until it is sent. A President
// of the active term's first steps are reviewing and hiring. axe-core finds
// nothing on each state.
func TestWebHomeStaffSteps(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	a, anon, site := webApp(t)
	super, _ := decAccount(t, a, anon, "super@x.test", "superadmin")
	now := time.Now().UTC().Truncate(time.Minute)
	open := [2]time.Time{now.Add(-time.Hour), now.Add(24 * time.Hour)}
	term := termWithWindows(t, super, "2026-2027", "2026-09-01", "2027-08-31", open, open)

	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		email := "exec+" + vp.Name + "@x.test"
		execAccount(t, a, email, "admin", "Exec", "Tech", &term)
		p := browser.Open(t, site, vp)
		webSignIn(t, p, email, "password-"+email, "/")
		p.WaitFor("heading", "Fill in your onboarding form for 2026-2027")
		p.WaitFor("link", "Fill in the onboarding form")
		if p.Exists("link", "Start your application") {
			t.Error("staff are offered to start an application")
		}
		p.WaitFor("link", "Onboarding")
		p.Axe()
		webShot(p, "home", "new-exec", vp)
		p.Click("link", "Fill in the onboarding form")
		p.WaitURL("/onboarding")
		p.WaitFor("button", "Submit")

		presEmail := "pres+" + vp.Name + "@x.test"
		execAccount(t, a, presEmail, "admin", "President", "Board", &term)
		h := browser.Open(t, site, vp)
		webSignIn(t, h, presEmail, "password-"+presEmail, "/")
		h.WaitFor("heading", "Fill in your onboarding form for 2026-2027")
		h.WaitFor("link", "Review applications")
		h.WaitFor("link", "Open hiring")
		if h.Exists("link", "Start your application") {
			t.Error("a President is offered to start an application")
		}
		h.Axe()
		webShot(h, "home", "president", vp)
	})
}
