package e2e

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/dev/testenv"
	"hackdesk/dev/testenv/browser"
)

// hiringPageSelection is the status of an applicant's selection as stored.
func hiringPageSelection(t *testing.T, c *client, sel uuid.UUID) string {
	t.Helper()
	var board hiringBoardView
	c.expect(http.StatusOK, "GET", "/api/applications/hiring", nil).JSON(t, &board)
	for _, a := range board.Applicants {
		for _, s := range a.Selections {
			if s.ID == sel {
				return s.Status
			}
		}
	}
	t.Fatalf("selection %s is not on the board", sel)
	return ""
}

// A President runs hiring on /admin/applications/hiring: sends an offer
// (the applicant is emailed), meets a refused move in words beside its
// control, is told there is nothing to finalize yet, records the accepted
// offer, opens the Finalize dialog naming
// who is promoted and demoted, gives a bad then a good all-hands link and
// follows the finalization to its end; a reload shows it again. The new
// exec's /profile shows their role and the demoted exec is a member. A
// VP opening the page is sent home. Each viewport has its own stack (the
// finalization's workflow id is the term's). axe-core finds nothing on
// each state.
func TestWebHiring(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		a, anon, site := webApp(t)
		super, _ := decAccount(t, a, anon, "super@x.test", "superadmin")
		oldTerm := hiringTermVia(t, super, "2025-2026", "2025-09-01", "2026-08-31", true)
		newTerm := hiringTermVia(t, super, "2026-2027", "2026-09-01", "2027-08-31", false)
		presEmail := "pres+" + vp.Name + "@x.test"
		presID := account(t, a, presEmail, "Paula President", "admin")
		testenv.ExecRole(t, a.Store, presID, testenv.ExecRoleOpts{Position: "President", Subteam: "Board", Term: &newTerm})
		pres := as(t, a, anon, presID)
		vpEmail := "vp+" + vp.Name + "@x.test"
		testenv.ExecRole(t, a.Store, account(t, a, vpEmail, "Victor VP", "admin"), testenv.ExecRoleOpts{Position: "VP", Subteam: "Tech", Term: &newTerm})
		oldID := account(t, a, "grace+"+vp.Name+"@x.test", "Grace Outgoing", "admin")
		testenv.ExecRole(t, a.Store, oldID, testenv.ExecRoleOpts{Position: "Exec", Subteam: "Tech", Term: &oldTerm})

		dev := hiringPosition(t, pres, newTerm, "Developer", "Tech", "exec")
		annEmail := "ann+" + vp.Name + "@x.test"
		annID := account(t, a, annEmail, "Ann Applicant", "member")
		ann := applyFor(t, a, anon, annID, dev)[dev]
		bob := applyFor(t, a, anon, account(t, a, "bob+"+vp.Name+"@x.test", "Bob Builder", "member"), dev)[dev]
		pres.expect(http.StatusOK, "PATCH", "/api/applications/hiring/selections/"+ann.String(), map[string]any{"status": "wanted"})

		p := browser.Open(t, site, vp)
		p.AllowConsoleError("status of 409 (Conflict)")
		p.AllowConsoleError("status of 400 (Bad Request)")
		shot := func(name string) {
			if dir := os.Getenv("WEB_SHOTS"); dir != "" {
				p.Screenshot(filepath.Join(dir, "hiring-"+name+"-"+vp.Name+".png"))
			}
		}
		webSignIn(t, p, presEmail, "password-"+presEmail, "/")
		p.Visit("/admin/applications/hiring")
		p.WaitFor("heading", "Hiring")
		p.WaitFor("heading", "Applicants")
		if got := p.Heading(1); got != "Hiring" {
			t.Errorf("the h1 is %q", got)
		}
		p.WaitText("No accepted offers yet.")
		p.WaitText("Grace Outgoing")
		p.Axe()
		shot("board")

		// The offer: only the allowed moves are offered; the applicant is
		// emailed.
		annStatus := "New status for Ann Applicant, Developer"
		p.Select(annStatus, "Offer Sent")
		p.Click("button", "Save status for Ann Applicant, Developer")
		sentEmail(t, a, annEmail, "hiring_offer")
		testenv.Eventually(t, 10*time.Second, func() (bool, string) {
			s := hiringPageSelection(t, pres, ann)
			return s == "offer_sent", "Ann's selection is " + s
		})

		// A move refused meanwhile is said beside its control.
		pres.expect(http.StatusOK, "PATCH", "/api/applications/hiring/selections/"+bob.String(), map[string]any{"status": "rejection_sent"})
		p.Select("New status for Bob Builder, Developer", "Wanted")
		p.Click("button", "Save status for Bob Builder, Developer")
		p.WaitText("This change is not allowed: the selection is Rejection Sent now, and Rejection Sent cannot move to Wanted.")
		p.Axe()
		shot("refused")

		// Finalizing without an accepted offer is refused in words.
		p.Click("button", "Finalize")
		d := p.Within("dialog", "Finalize the new team")
		d.Fill("All-hands scheduling link", "https://cal.example.com/all-hands")
		d.Click("button", "Finalize hiring")
		d.WaitText("There is nothing to finalize: record at least one accepted offer first.")
		p.Axe()
		d.Click("button", "Cancel")
		p.WaitGone("dialog", "Finalize the new team")

		// The applicant accepted: recorded, and the team preview names them.
		p.Select(annStatus, "Accepted Offer")
		p.Click("button", "Save status for Ann Applicant, Developer")
		p.WaitText("Developer (Tech), Exec")
		if got := hiringPageSelection(t, pres, ann); got != "accepted_offer" {
			t.Fatalf("Ann's selection is %s after Accepted Offer", got)
		}

		// Finalize: the dialog names who is promoted and demoted.
		p.Click("button", "Finalize")
		d.WaitText("Ann Applicant, Developer (Tech), Exec")
		d.WaitText("Grace Outgoing")
		p.Axe()
		shot("dialog")
		d.Fill("All-hands scheduling link", "http://cal.example.com/all-hands")
		d.Click("button", "Finalize hiring")
		d.WaitText("All-hands scheduling link must be an https URL.")
		p.Axe()
		shot("bad-link")
		d.Fill("All-hands scheduling link", "https://cal.example.com/all-hands")
		d.Click("button", "Finalize hiring")
		p.WaitFor("heading", "Finalization")
		p.WaitText("1 promoted, 1 demoted, 1 welcome email sent.")
		p.WaitFor("link", "View the run in Temporal (opens in a new tab)")
		p.Axe()
		shot("completed")

		// A reload shows the finalization and the team it made.
		p.Reload()
		p.WaitFor("heading", "Finalization")
		p.WaitText("1 promoted, 1 demoted, 1 welcome email sent.")
		p.WaitText("Finalized on ")
		if p.Exists("button", "Finalize") {
			t.Error("the Finalize button is offered again after finalizing")
		}
		p.Axe()

		// The new exec sees their role; the demoted exec is a member.
		var prof struct {
			Role string `json:"role"`
		}
		as(t, a, anon, oldID).expect(http.StatusOK, "GET", "/api/profile", nil).JSON(t, &prof)
		if prof.Role != "member" {
			t.Errorf("the demoted exec's role is %q, want member", prof.Role)
		}
		n := browser.Open(t, site, vp)
		webSignIn(t, n, annEmail, "password-"+annEmail, "/")
		n.Visit("/profile")
		n.WaitFor("heading", "Your profile")
		n.WaitText("Executive, Tech subteam")
		n.WaitText("Admin")

		// A VP is sent home.
		v := browser.Open(t, site, vp)
		webSignIn(t, v, vpEmail, "password-"+vpEmail, "/")
		v.Visit("/admin/applications/hiring")
		v.WaitURL("/")
	})
}

// The President of the outgoing term finalizes: the dialog warns them
// that they will be a member when it finishes, and the page follows the
// finalization to its end although it ends their role (the result is
// theirs to read: they requested it), says they are a member now and
// offers no status control any more. axe-core finds nothing on each state.
func TestWebHiringFinalizeDemotesPresident(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		a, anon, site := webApp(t)
		super, _ := decAccount(t, a, anon, "super@x.test", "superadmin")
		oldTerm := hiringTermVia(t, super, "2025-2026", "2025-09-01", "2026-08-31", true)
		newTerm := hiringTermVia(t, super, "2026-2027", "2026-09-01", "2027-08-31", false)
		presEmail := "pres+" + vp.Name + "@x.test"
		presID := account(t, a, presEmail, "Olga Outgoing", "admin")
		testenv.ExecRole(t, a.Store, presID, testenv.ExecRoleOpts{Position: "President", Subteam: "Board", Term: &oldTerm})
		pres := as(t, a, anon, presID)
		dev := hiringPosition(t, pres, newTerm, "Developer", "Tech", "exec")
		ann := applyFor(t, a, anon, account(t, a, "ann+"+vp.Name+"@x.test", "Ann Applicant", "member"), dev)[dev]
		for _, s := range []string{"wanted", "offer_sent", "accepted_offer"} {
			pres.expect(http.StatusOK, "PATCH", "/api/applications/hiring/selections/"+ann.String(), map[string]any{"status": s})
		}

		p := browser.Open(t, site, vp)
		shot := func(name string) {
			if dir := os.Getenv("WEB_SHOTS"); dir != "" {
				p.Screenshot(filepath.Join(dir, "hiring-demoted-"+name+"-"+vp.Name+".png"))
			}
		}
		webSignIn(t, p, presEmail, "password-"+presEmail, "/")
		p.Visit("/admin/applications/hiring")
		p.WaitFor("heading", "Applicants")
		p.WaitText("2026-2027")
		p.Click("button", "Finalize")
		d := p.Within("dialog", "Finalize the new team")
		d.WaitText("You will become a member when this finishes")
		d.WaitText("Olga Outgoing")
		p.Axe()
		shot("dialog")
		d.Fill("All-hands scheduling link", "https://cal.example.com/all-hands")
		d.Click("button", "Finalize hiring")
		p.WaitFor("heading", "Finalization")
		p.WaitText("1 promoted, 1 demoted, 1 welcome email sent.")
		p.WaitText("You are a member now")
		p.WaitText("Finalized: no more changes")
		if p.Exists("button", "Save status for Ann Applicant, Developer") {
			t.Error("the status control is still offered after finalizing")
		}
		if p.Exists("button", "Finalize") {
			t.Error("the Finalize button is offered after finalizing")
		}
		p.Axe()
		shot("completed")
	})
}
