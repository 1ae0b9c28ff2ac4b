package e2e

import (
	"strings"
	"testing"

	"hackdesk/dev/testenv/browser"
)

// The hiring pages name the term they show and land on the one that has
// positions: a Tech VP whose positions are in 2026-2027, while a later
// term (2027-2028, so the hiring term) has none yet, sees their
// selections on Selections naming 2026-2027. Once the hiring term has a
// Tech position too, it is the one shown, and a term picker offers both
// and keeps the choice in the address; Hiring shows the term the address
// names, saying only the hiring term can be finalized. axe-core finds
// nothing on each state.
func TestWebHiringPagesNameTheTerm(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		a, anon, site := webApp(t)
		super, _ := decAccount(t, a, anon, "super@x.test", "superadmin")
		active := hiringTermVia(t, super, "2025-2026", "2025-09-01", "2026-08-31", true)
		mid := hiringTermVia(t, super, "2026-2027", "2026-09-01", "2027-08-31", false)
		dev := hiringPosition(t, super, mid, "Developer", "Tech", "exec")
		applyFor(t, a, anon, account(t, a, "ann+"+vp.Name+"@x.test", "Ann Applicant", "member"), dev)
		later := hiringTermVia(t, super, "2027-2028", "2027-09-01", "2028-08-31", false)
		vpEmail := "vp+" + vp.Name + "@x.test"
		execAccount(t, a, vpEmail, "admin", "VP", "Tech", &active)
		presEmail := "pres+" + vp.Name + "@x.test"
		execAccount(t, a, presEmail, "admin", "President", "Board", &active)

		p := browser.Open(t, site, vp)
		shot := shooter(p, "hiring-terms", vp)
		webSignIn(t, p, vpEmail, "password-"+vpEmail, "/")
		p.Visit("/admin/applications/review")
		p.WaitFor("article", "Ann Applicant — Developer")
		p.WaitText("Term: 2026-2027")
		p.Axe()
		shot("selections")

		// A second term with a Tech position: the picker, kept in the address.
		hiringPosition(t, super, later, "Designer", "Tech", "exec")
		p.Reload()
		p.WaitText("No selections yet")
		p.Select("Term", "2026-2027")
		p.WaitURL("/admin/applications/review?term_id=" + mid.String())
		p.WaitFor("article", "Ann Applicant — Developer")
		p.Axe()
		shot("selections-picker")

		h := browser.Open(t, site, vp)
		webSignIn(t, h, presEmail, "password-"+presEmail, "/")
		h.Visit("/admin/applications/hiring?term_id=" + mid.String())
		h.WaitFor("heading", "Applicants")
		h.WaitText("Ann Applicant")
		if got := h.Value("Term"); !strings.HasPrefix(got, "2026-2027") {
			t.Errorf("the Hiring page's term is %q, want 2026-2027", got)
		}
		h.WaitText("Only the hiring term, 2027-2028, can be finalized; 2026-2027 is not it.")
		h.Axe()
		shooter(h, "hiring-terms", vp)("hiring")
	})
}
