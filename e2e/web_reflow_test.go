package e2e

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"hackdesk/api"
	"hackdesk/dev/testenv"
	"hackdesk/dev/testenv/browser"
)

// TestWebReflowEveryPage opens every page of the page table at 320 CSS
// pixels, once loaded with data, and measures how far it scrolls
// sideways: WCAG 1.4.10 (reflow) asks for none. Signed-out pages are
// opened signed out; the others as a superadmin who is also the active
// term's President (so every staff page opens), with an application, a
// membership, a project and an attending applicant to open by id. A page
// added to the table without a path here fails the test.
func TestWebReflowEveryPage(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	a, _, site := webApp(t)
	now := time.Now()
	opens, closes := now.Add(-time.Hour), now.Add(48*time.Hour)
	term := testenv.Term(t, a.Store, testenv.TermOpts{Name: "2026-2027 Reflow", Active: true,
		OnboardingOpensAt: &opens, OnboardingClosesAt: &closes, ReturningOpensAt: &opens, ReturningClosesAt: &closes})
	const email = "root@x.test"
	rootID := account(t, a, email, "Root Administrator with a long display name", "superadmin")
	testenv.ExecRole(t, a.Store, rootID, testenv.ExecRoleOpts{Position: "President", Subteam: "Board", Term: &term.ID})
	ada := account(t, a, "ada.lovelace.with.a.long.address@university.example.com", "Ada Lovelace-Byron of the Analytical Engine", "member")
	app := testenv.Application(t, a.Store, ada, testenv.ApplicationOpts{Submitted: true})
	testenv.Decide(t, a.Store, app.ID, testenv.Decision{Decision: "offer", Rsvp: "attending"})
	grace := account(t, a, "grace@example.com", "Grace Hopper", "member")
	testenv.Application(t, a.Store, grace, testenv.ApplicationOpts{Submitted: true})
	member := testenv.Membership(t, a.Store, ada, term.ID, testenv.MembershipOpts{Paid: true})
	project := testenv.FoundryProject(t, a.Store, rootID, testenv.FoundryProjectOpts{Name: "a-project-with-a-rather-long-repository-name"})

	ids := map[string]string{
		"/admin/applications/{id}": app.ID.String(),
		"/admin/memberships/{id}":  member.ID.String(),
		"/nexus/projects/{id}":     project.ID.String(),
		"/checkin/{id}":            app.ID.String(),
	}
	public := map[string]bool{"/": true, "/signup": true, "/login": true, "/forgot-password": true,
		"/reset-password": true, "/auth/confirm": true}

	out := browser.Open(t, site, browser.Narrow)
	in := browser.Open(t, site, browser.Narrow)
	// The superadmin is neither a new nor a returning exec of the term: the
	// onboarding forms' requests are refused and the pages say so.
	in.AllowConsoleError("status of 403 (Forbidden) (http://hackdesk.test/api/onboarding")
	webSignIn(t, in, email, "password-"+email, "/")
	measured := 0
	for _, pattern := range api.PagePatterns() {
		path := pattern
		if strings.Contains(pattern, "{id}") {
			id, ok := ids[pattern]
			if !ok {
				t.Errorf("no id to open %s with: add one to the sweep", pattern)
				continue
			}
			path = strings.Replace(pattern, "{id}", id, 1)
		}
		pages := []*browser.Page{in}
		if public[pattern] {
			pages = []*browser.Page{out}
			if pattern == "/" {
				pages = append(pages, in) // the home page signed in is another page
			}
		}
		for _, p := range pages {
			p.Visit(path)
			p.WaitLoaded()
			if n := p.SideScroll(); n != 0 {
				u, _ := url.Parse(p.URL())
				t.Errorf("%s (shown at %s) scrolls %d px sideways at 320 px", path, u.Path, n)
			}
			measured++
			peopleShot(p, "reflow", strings.NewReplacer("/", "_", "{", "", "}", "").Replace(pattern))
		}
	}
	if measured < len(api.PagePatterns()) {
		t.Errorf("measured %d pages of %d", measured, len(api.PagePatterns()))
	}
}
