package e2e

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/dev/testenv"
	"hackdesk/dev/testenv/browser"
	"hackdesk/workflows"
)

// localInput is an instant as a person types it in the editions form:
// the test zone's (the browser's) date and 24-hour time.
func localInput(at time.Time) string { return at.In(time.Local).Format("2006-01-02 15:04") }

// stopWindow ends the edition's ApplicationWindow run when the test ends.
func stopWindow(t *testing.T, a interface {
	TerminateWorkflow(ctx context.Context, workflowID, runID, reason string, details ...any) error
}, id uuid.UUID) {
	t.Cleanup(func() {
		_ = a.TerminateWorkflow(context.Background(), workflows.ApplicationWindowID(id), "", "test over")
	})
}

// editionsOf is every edition as the superadmin's list answers it.
func editionsOf(t *testing.T, c *client) []editionJSON {
	t.Helper()
	var out struct {
		Hackathons []editionJSON `json:"hackathons"`
	}
	c.expect(http.StatusOK, "GET", "/api/admin/hackathons", nil).JSON(t, &out)
	return out.Hackathons
}

// A returning applicant of last year's edition, with last year's offer
// still open, finds on the home page that offer and this year's close
// ("in 2 days"), starts this year's application from last year's on
// /apply (the copied answers carry every step up to the questions),
// submits it inside the new window, answers last year's offer on
// /apply/submitted, and finds both applications on /application. axe on
// each new state.
func TestWebReturningApplicant(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		a, anon, site := webApp(t)
		super := as(t, a, anon, account(t, a, "root@x.test", "Root", "superadmin"))
		const email = "ada@example.com"
		adaID := account(t, a, email, "Ada Lovelace", "member")
		ada := as(t, a, anon, adaID)

		// Last year: submitted with a résumé, offered a place, not answered.
		last := createApplication(t, ada, adaID)
		for _, step := range completeSteps {
			ada.expect(http.StatusOK, "PATCH", "/api/applications", step)
		}
		if r := ada.upload("cv.pdf", pdfFile("ada's résumé")); r.Status != http.StatusOK {
			t.Fatalf("upload: %d %s", r.Status, r.Body)
		}
		ada.expect(http.StatusOK, "POST", "/api/applications/submit", nil)
		testenv.Decide(t, a.Store, last.ID, testenv.Decision{Decision: "offer"})
		lastYear := currentEdition(t, anon)
		now := time.Now()
		thisYear := createEdition(t, super, map[string]any{"name": "HackMUN 2026", "applications_open_at": rfc3339(now.Add(-time.Hour)),
			"applications_close_at": rfc3339(now.Add(50 * time.Hour)), "current": true})
		stopWindow(t, a.Temporal, thisYear.ID)
		stopWindow(t, a.Temporal, lastYear.ID)
		super.expect(http.StatusOK, "PATCH", "/api/admin/hackathons/"+lastYear.ID.String(), map[string]any{"name": "HackMUN 2025",
			"applications_open_at": rfc3339(now.Add(-400 * 24 * time.Hour)), "applications_close_at": rfc3339(now.Add(-370 * 24 * time.Hour))})

		p := browser.Open(t, site, vp)
		webSignIn(t, p, email, "password-"+email, "/")
		p.WaitFor("heading", "You’ve been offered a place at HackMUN 2025")
		p.WaitFor("heading", "Apply to the hackathon")
		p.WaitText(", in 2 days")
		p.Axe()
		peopleShot(p, "editions", "home")

		// The start: from last year's application, or blank.
		p.Visit("/apply")
		p.WaitFor("heading", "Start your application")
		p.WaitText("Welcome back. You applied to HackMUN 2025 before")
		p.WaitFor("button", "Start a blank application")
		if got := p.Heading(1); got != "Start your application" {
			t.Errorf("the h1 is %q", got)
		}
		p.Axe()
		peopleShot(p, "editions", "start")
		p.Click("button", "Start from your HackMUN 2025 application")
		f := &webApplyFlow{t: t, p: p, wide: !vp.Mobile}
		f.waitScreen()
		p.WaitText(", in 2 days")
		if got := p.Value("Phone number"); got != "+1 (613) 555-0100" {
			t.Errorf("the copied phone number is %q", got)
		}
		p.Axe()
		peopleShot(p, "editions", "copied")

		// Every copied step passes; the questions, the agreements are new.
		for webApplyPages[f.page].key != "team" {
			for _, i := range f.screen() {
				if k := webApplyPages[i].key; k == "q1" || k == "q2" {
					if got := p.Value(webApplyPages[i].fields[0].label); got != "" {
						t.Errorf("%s was copied: %q", webApplyPages[i].heading, got)
					}
					f.fill(i)
				}
			}
			if webApplyPages[f.page].key == "links" || (f.wide && webApplyPages[f.page].step == 1) {
				p.WaitText("Uploaded: cv.pdf")
			}
			f.next()
		}
		f.next() // Team Members
		if p.Checked("I agree to the code of conduct") {
			t.Error("the code of conduct box was copied")
		}
		p.Check("I agree to the code of conduct")
		p.Check("I authorize sharing my information")
		f.next()
		p.Click("button", "Submit application")
		p.WaitURL("/apply/submitted")
		p.WaitFor("heading", "Application submitted")

		// Last year's offer, answered here.
		p.WaitFor("heading", "You have a place at HackMUN 2025")
		p.Axe()
		peopleShot(p, "editions", "submitted")
		p.Check("Yes")
		p.Click("button", "Send RSVP")
		p.WaitText("Thank you. We have recorded that you will attend.")
		var mine struct {
			Status      string    `json:"status"`
			HackathonID uuid.UUID `json:"hackathon_id"`
			Phone       *string   `json:"phone"`
			ResumeKey   *string   `json:"resume_key"`
		}
		ada.expect(http.StatusOK, "GET", "/api/applications", nil).JSON(t, &mine)
		if mine.Status != "submitted" || mine.HackathonID != thisYear.ID || orNull(mine.Phone) != "+1 (613) 555-0100" ||
			orNull(mine.ResumeKey) != adaID.String()+"/cv-2.pdf" {
			t.Errorf("this year's application %+v", mine)
		}
		var history struct {
			Applications []struct {
				ID   uuid.UUID `json:"id"`
				Rsvp *string   `json:"rsvp"`
			} `json:"applications"`
		}
		ada.expect(http.StatusOK, "GET", "/api/applications/history", nil).JSON(t, &history)
		if len(history.Applications) != 1 || history.Applications[0].ID != last.ID || orNull(history.Applications[0].Rsvp) != "attending" {
			t.Errorf("history %+v", history)
		}

		// Both on /application.
		p.Visit("/application")
		p.WaitFor("heading", "Your application")
		p.WaitText("HackMUN 2026")
		p.WaitFor("table", "Your applications to earlier hackathons")
		rows := p.Table("Your applications to earlier hackathons")
		if len(rows) != 2 || strings.Join(rows[0], "|") != "Hackathon|Application|Decision" || rows[1][0] != "HackMUN 2025" ||
			!strings.HasPrefix(rows[1][1], "Submitted on ") || rows[1][2] != "Offered a place: you accepted Change your answer" {
			t.Errorf("the earlier applications: %q", rows)
		}
		p.Axe()
		peopleShot(p, "editions", "application")
	})
}

// /apply outside and inside the current edition's window: before it
// opens (when it opens, on /apply and on the home page), after it closed
// (when it closed), inside it (when it closes, "in 2 days"), a change
// refused once the close has passed meanwhile (the server's words, the
// draft unchanged), and a submitted application still sent to
// /apply/submitted with the window closed. axe on each state.
func TestWebApplyWindow(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		a, anon, site := webApp(t)
		super := as(t, a, anon, account(t, a, "root@x.test", "Root", "superadmin"))
		now := time.Now()
		h := createEdition(t, super, map[string]any{"name": "Spring Hack", "applications_open_at": rfc3339(now.Add(72 * time.Hour)),
			"applications_close_at": rfc3339(now.Add(30 * 24 * time.Hour)), "current": true})
		stopWindow(t, a.Temporal, h.ID)
		move := func(opens, closes time.Duration) {
			t.Helper()
			now := time.Now()
			super.expect(http.StatusOK, "PATCH", "/api/admin/hackathons/"+h.ID.String(), map[string]any{
				"applications_open_at": rfc3339(now.Add(opens)), "applications_close_at": rfc3339(now.Add(closes))})
		}
		const email = "grace@example.com"
		graceID := account(t, a, email, "Grace Hopper", "member")
		grace := as(t, a, anon, graceID)

		p := browser.Open(t, site, vp)
		webSignIn(t, p, email, "password-"+email, "/")
		p.WaitText("Applications for Spring Hack open ")
		if p.Exists("link", "Start your application") {
			t.Error("the home page offers to start an application before the window opens")
		}
		p.Visit("/apply")
		p.WaitText("Applications for Spring Hack open ")
		if got := p.Heading(1); !strings.HasPrefix(got, "Applications for Spring Hack open ") {
			t.Errorf("before the window the h1 is %q", got)
		}
		p.Axe()
		peopleShot(p, "editions", "before")

		move(-10*24*time.Hour, -24*time.Hour)
		p.Visit("/apply")
		p.WaitText("Applications for Spring Hack closed on ")
		if got := p.Heading(1); !strings.HasPrefix(got, "Applications for Spring Hack closed on ") {
			t.Errorf("after the window the h1 is %q", got)
		}
		p.Axe()
		peopleShot(p, "editions", "after")

		// Inside the window: the close, then a change refused once it passed.
		move(-time.Hour, 50*time.Hour)
		p.Visit("/apply")
		f := &webApplyFlow{t: t, p: p, wide: !vp.Mobile}
		f.waitScreen()
		p.WaitText(", in 2 days")
		p.Fill("Phone number", "+1 709 555 0199")
		testenv.Eventually(t, 30*time.Second, func() (bool, string) {
			r := grace.do("GET", "/api/applications", nil)
			return strings.Contains(string(r.Body), "+1 709 555 0199"), "the draft to be saved"
		})
		move(-time.Hour, -time.Minute)
		p.AllowConsoleError("status of 403 (Forbidden) (http://hackdesk.test/api/applications)")
		p.Fill("Discord username", "grace_h")
		p.WaitText("Your application was not saved to hackdesk")
		p.WaitText("Applications for Spring Hack closed on ")
		p.WaitText("Saved on this device only. Applications are closed.")
		if got := webOwnerAppOf(t, grace); got.Status != "draft" || orNull(got.Phone) != "+1 709 555 0199" {
			t.Errorf("the draft after the refusal: %+v", got)
		}
		var discord struct {
			Discord *string `json:"discord"`
		}
		grace.expect(http.StatusOK, "GET", "/api/applications", nil).JSON(t, &discord)
		if discord.Discord != nil {
			t.Errorf("the refused change reached the draft: %q", *discord.Discord)
		}
		p.Axe()
		peopleShot(p, "editions", "refused")

		// A submitted application still goes to its page.
		const doneEmail = "katherine@example.com"
		doneID := account(t, a, doneEmail, "Katherine Johnson", "member")
		testenv.Application(t, a.Store, doneID, testenv.ApplicationOpts{Hackathon: h.ID, Submitted: true})
		s := browser.Open(t, site, vp)
		webSignIn(t, s, doneEmail, "password-"+doneEmail, "/")
		s.Visit("/apply")
		s.WaitURL("/apply/submitted")
		s.WaitFor("heading", "Application submitted")
	})
}

// A superadmin creates next year's edition on /admin/hackathons (the
// browser refusing a missing name and dates out of order, the server a
// name taken), edits its capacity and makes it current after a
// confirmation; the staff pages follow it: the applications table shows
// the new edition's and, switched to last year's (in the address), last
// year's, whose details keep the edition; offers past the capacity are
// sent after a second confirmation (desktop, whose date-time field takes
// typed keys); the leaderboard and the dashboard (with its places) follow
// the switcher; a reviewer who opened last year's application before the
// switch reads the 409 in words and moves on to this year's. An admin
// opening /admin/hackathons is sent home. axe on each state.
func TestWebHackathons(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		a, anon, site := webApp(t)
		const rootEmail = "root@x.test"
		rootID := account(t, a, rootEmail, "Root", "superadmin")
		root := as(t, a, anon, rootID)
		shot := func(p *browser.Page, name string) {
			if dir := os.Getenv("WEB_SHOTS"); dir != "" {
				p.Screenshot(filepath.Join(dir, "hackathons-"+name+"-"+vp.Name+".png"))
			}
		}
		lastYear := currentEdition(t, anon)
		stopWindow(t, a.Temporal, lastYear.ID)
		root.expect(http.StatusOK, "PATCH", "/api/admin/hackathons/"+lastYear.ID.String(), map[string]any{"name": "HackMUN 2026"})
		olgaID := account(t, a, "olga@example.com", "Olga Oldyear", "member")
		olga := testenv.Application(t, a.Store, olgaID, testenv.ApplicationOpts{Submitted: true})
		rita := as(t, a, anon, account(t, a, "rita@x.test", "Rita Reviewer", "admin"))
		scoreWith(t, rita, olga.ID, [4]int{3, 2, 7, 3})

		// A reviewer (the superadmin, in a second window) opens last
		// year's application before the switch.
		r := browser.Open(t, site, vp)
		r.AllowConsoleError("status of 409 (Conflict) (http://hackdesk.test/api/review/submit)")
		webSignIn(t, r, rootEmail, "password-"+rootEmail, "/")
		r.Visit("/review")
		r.WaitFor("heading", "Scores")

		p := browser.Open(t, site, vp)
		p.AllowConsoleError("status of 409 (Conflict) (http://hackdesk.test/api/admin/")
		webSignIn(t, p, rootEmail, "password-"+rootEmail, "/")
		p.Visit("/admin/hackathons")
		p.WaitFor("table", "Hackathons, the latest first")
		if got := p.Heading(1); got != "Hackathons" {
			t.Errorf("the h1 is %q", got)
		}
		p.WaitText("HackMUN 2026 Current")
		p.Axe()
		shot(p, "list")

		// Create: the browser's rules first, then the server's 409.
		p.Click("button", "Create a hackathon")
		p.WaitFor("heading", "Create a hackathon")
		p.Click("button", "Create hackathon")
		p.WaitFor("link", "Enter a name for the hackathon")
		p.WaitFor("link", "Enter when applications open")
		now := time.Now()
		opens, closes := now.Add(-time.Hour).Truncate(time.Minute), now.Add(10*24*time.Hour).Truncate(time.Minute)
		p.Fill("Name", "hackmun 2026")
		p.Fill("Applications open", localInput(opens))
		p.Fill("Applications close (optional)", localInput(closes))
		p.Fill("Hackathon starts (optional)", localInput(closes.Add(-24*time.Hour)))
		p.Fill("Capacity (optional)", "5")
		p.Click("button", "Create hackathon")
		p.WaitFor("link", "The hackathon cannot start before applications close")
		p.Axe()
		shot(p, "errors")
		p.Fill("Hackathon starts (optional)", localInput(closes.Add(24*time.Hour)))
		p.Fill("Hackathon ends (optional)", localInput(closes.Add(48*time.Hour)))
		p.Click("button", "Create hackathon")
		p.WaitText("A hackathon with this name already exists. Choose another name.")
		p.Fill("Name", "HackMUN 2027")
		p.Click("button", "Create hackathon")
		p.WaitGone("heading", "Create a hackathon")
		p.WaitFor("button", "Make current HackMUN 2027")
		var next editionJSON
		for _, e := range editionsOf(t, root) {
			if e.Name == "HackMUN 2027" {
				next = e
			}
		}
		if next.ID == uuid.Nil || !next.ApplicationsOpenAt.Equal(opens) || next.ApplicationsCloseAt == nil ||
			!next.ApplicationsCloseAt.Equal(closes) || next.Capacity == nil || *next.Capacity != 5 || next.Current {
			t.Fatalf("the created edition %+v", next)
		}
		stopWindow(t, a.Temporal, next.ID)
		// Retention counts from the end: RETENTION_DAYS (365) after it, shown
		// as a date in the reader's zone.
		purge := closes.Add(48*time.Hour + 365*24*time.Hour)
		if next.PurgeAt == nil || !next.PurgeAt.Equal(purge) {
			t.Errorf("the created edition's purge_at is %v, want %v", next.PurgeAt, purge)
		}
		p.WaitText("Applications deleted on " + purge.In(time.Local).Format("January 2, 2006"))

		// Edit the capacity.
		p.Click("button", "Edit HackMUN 2027")
		p.WaitFor("heading", "Edit HackMUN 2027")
		if got := p.Value("Applications open"); got != localInput(opens) {
			t.Errorf("the edit form shows the opening as %q", got)
		}
		p.Fill("Capacity (optional)", "1")
		p.Click("button", "Save hackathon")
		p.WaitGone("heading", "Edit HackMUN 2027")
		testenv.Eventually(t, 10*time.Second, func() (bool, string) {
			for _, e := range editionsOf(t, root) {
				if e.ID == next.ID {
					return e.Capacity != nil && *e.Capacity == 1, "the capacity to be 1"
				}
			}
			return false, "the edition"
		})

		// Make it current, after a confirmation.
		p.Click("button", "Make current HackMUN 2027")
		const ask = "Make HackMUN 2027 the current hackathon?"
		p.WaitFor("dialog", ask)
		p.Axe()
		shot(p, "make-current")
		p.Within("dialog", ask).Click("button", "Make current")
		p.WaitGone("dialog", ask)
		p.WaitFor("button", "Make current HackMUN 2026")
		p.WaitGone("button", "Make current HackMUN 2027")
		if got := currentEdition(t, anon); got.ID != next.ID {
			t.Fatalf("the current edition is %+v", got)
		}
		p.Axe()
		shot(p, "current")

		// The reviewer's submission of last year's application.
		r.Click("link", "Go to the scores")
		scoreByKeyboard(r, [4]int{1, 1, 1, 1})
		r.WaitFocused("heading", "The current hackathon has changed")
		r.Axe()
		shot(r, "review-refused")
		nia := testenv.Application(t, a.Store, account(t, a, "nia@example.com", "Nia Newyear", "member"),
			testenv.ApplicationOpts{Hackathon: next.ID, Submitted: true})
		noor := testenv.Application(t, a.Store, account(t, a, "noor@example.com", "Noor Newyear", "member"),
			testenv.ApplicationOpts{Hackathon: next.ID, Submitted: true})
		r.Click("button", "Next application")
		r.WaitFor("heading", "Scores")
		if served := nextForReview(t, root); served != nia.ID && served != noor.ID {
			t.Errorf("the next application is %s, want this year's", served)
		}

		// The applications table follows the current edition.
		p.Visit("/admin/applications")
		p.WaitFor("table", "Applications")
		p.WaitFor("link", "Nia Newyear")
		p.WaitFor("link", "Noor Newyear")
		if p.Exists("link", "Olga Oldyear") {
			t.Error("the table of this year lists last year's application")
		}
		if got := p.Value("Hackathon"); got != "HackMUN 2027 (current)" {
			t.Errorf("the switcher starts at %q, want the current edition", got)
		}
		p.Axe()
		shot(p, "applications")

		// Offers past the capacity of 1, confirmed (the desktop types the
		// deadline).
		if !vp.Mobile {
			p.Check("Select Nia Newyear")
			p.Check("Select Noor Newyear")
			p.Fill("RSVP deadline (offers only)", "12312030")
			p.Press("ArrowRight")
			p.Type("0930A")
			p.Click("button", "Offer")
			p.WaitFor("dialog", "Send offers to 2 applicants?")
			p.Within("dialog", "Send offers to 2 applicants?").Click("button", "Send offers")
			const over = "Go over the hackathon’s capacity?"
			p.WaitFor("dialog", over)
			p.WaitText("2 offers and attending would pass the capacity of 1")
			p.Axe()
			shot(p, "over-capacity")
			if n := countRows(t, a, `SELECT count(*) FROM applications WHERE decision = 'offer'`); n != 0 {
				t.Fatalf("%d offers before the confirmation", n)
			}
			p.Within("dialog", over).Click("button", "Send offers anyway")
			p.WaitGone("dialog", over)
			testenv.Eventually(t, 10*time.Second, func() (bool, string) {
				rows := p.Table("Applications")
				return len(rows) == 3 && rows[1][3] == "Offer, no answer yet" && rows[2][3] == "Offer, no answer yet", "the offers in the table"
			})
			if n := countRows(t, a, `SELECT count(*) FROM applications WHERE decision = 'offer' AND id IN ($1, $2)`, nia.ID, noor.ID); n != 2 {
				t.Errorf("%d offers after the confirmation, want 2", n)
			}
		}

		// Switched to last year's: the address names it, and so do the
		// links to the details and back.
		p.Select("Hackathon", "HackMUN 2026")
		p.WaitFor("link", "Olga Oldyear")
		p.WaitURL("/admin/applications?hackathon=" + lastYear.ID.String())
		if p.Exists("link", "Nia Newyear") {
			t.Error("last year's table lists this year's application")
		}
		p.Click("link", "Olga Oldyear")
		p.WaitURL("/admin/applications/" + olga.ID.String() + "?hackathon=" + lastYear.ID.String())
		p.WaitFor("heading", "Application from olga@example.com")
		p.WaitText("Hackathon HackMUN 2026")
		p.Axe()
		shot(p, "details")
		p.Click("link", "Back to applications")
		p.WaitURL("/admin/applications?hackathon=" + lastYear.ID.String())
		p.WaitFor("link", "Olga Oldyear")

		// The leaderboard: this year's has no reviews; last year's Rita's.
		p.Visit("/admin/leaderboard")
		p.WaitFor("heading", "Nobody has reviewed yet")
		p.Select("Hackathon", "HackMUN 2026")
		p.WaitFor("heading", "Top reviewers")
		p.WaitText("Rita Reviewer")
		p.WaitURL("/admin/leaderboard?hackathon=" + lastYear.ID.String())
		p.Axe()
		shot(p, "leaderboard")

		// The dashboard: this year's places against the capacity, then
		// last year's.
		p.Visit("/admin/dashboard")
		p.WaitFor("heading", "Places")
		p.WaitText("Capacity 1")
		if !vp.Mobile {
			p.WaitText("Open offers 2")
			p.WaitText("Over the capacity by 1")
		}
		p.Axe()
		shot(p, "dashboard")
		p.Select("Hackathon", "HackMUN 2026")
		p.WaitText("Capacity No limit")
		p.WaitText("Applications submitted 1")
		p.WaitURL("/admin/dashboard?hackathon=" + lastYear.ID.String() + "&interval=24")

		// An admin is sent home.
		const adminEmail = "staff@x.test"
		account(t, a, adminEmail, "Staff", "admin")
		s := browser.Open(t, site, vp)
		webSignIn(t, s, adminEmail, "password-"+adminEmail, "/")
		s.Visit("/admin/hackathons")
		s.WaitURL("/")
	})
}

// The editions' pages reflow at 320 CSS pixels without scrolling
// sideways: /apply's start from an earlier application and its closed
// state, /application with an earlier edition, /apply/submitted with an
// earlier offer, and the staff pages with their edition switcher.
func TestWebEditionsReflow(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	a, anon, site := webApp(t)
	const email = "root@x.test"
	rootID := account(t, a, email, "Root Administrator", "superadmin")
	root := as(t, a, anon, rootID)
	lastYear := currentEdition(t, anon)
	stopWindow(t, a.Temporal, lastYear.ID)
	last := testenv.Application(t, a.Store, rootID, testenv.ApplicationOpts{Submitted: true})
	testenv.Decide(t, a.Store, last.ID, testenv.Decision{Decision: "offer"})
	now := time.Now()
	next := createEdition(t, root, map[string]any{"name": "HackMUN 2027 Winter Edition", "applications_open_at": rfc3339(now.Add(-time.Hour)),
		"applications_close_at": rfc3339(now.Add(50 * time.Hour)), "capacity": 100, "current": true})
	stopWindow(t, a.Temporal, next.ID)

	p := browser.Open(t, site, browser.Narrow)
	webSignIn(t, p, email, "password-"+email, "/")
	check := func(name, path string, wait func()) {
		t.Helper()
		p.Visit(path)
		wait()
		if n := p.SideScroll(); n != 0 {
			t.Errorf("%s scrolls %d px sideways at 320 px", path, n)
		}
		peopleShot(p, "editions", "reflow-"+name)
	}
	check("home", "/", func() { p.WaitText("Score the next application waiting in the queue.") })
	check("apply-start", "/apply", func() { p.WaitFor("button", "Start a blank application") })
	check("application", "/application", func() { p.WaitFor("table", "Your applications to earlier hackathons") })
	check("hackathons", "/admin/hackathons", func() { p.WaitFor("button", "Make current "+lastYear.Name) })
	check("applications", "/admin/applications?hackathon="+lastYear.ID.String(), func() { p.WaitFor("link", "Root Administrator") })
	check("leaderboard", "/admin/leaderboard", func() { p.WaitFor("heading", "Nobody has reviewed yet") })
	check("dashboard", "/admin/dashboard?hackathon="+lastYear.ID.String(), func() { p.WaitFor("heading", "Places") })
	p.Visit("/admin/hackathons")
	p.Click("button", "Create a hackathon")
	p.WaitFor("heading", "Create a hackathon")
	if n := p.SideScroll(); n != 0 {
		t.Errorf("the creation form scrolls %d px sideways at 320 px", n)
	}
	peopleShot(p, "editions", "reflow-create")

	// Closed: the message and the date, and the earlier offer after a
	// submission.
	root.expect(http.StatusOK, "PATCH", "/api/admin/hackathons/"+next.ID.String(), map[string]any{
		"applications_open_at": rfc3339(now.Add(-48 * time.Hour)), "applications_close_at": rfc3339(now.Add(-time.Hour))})
	check("apply-closed", "/apply", func() { p.WaitText("Applications for HackMUN 2027 Winter Edition closed on ") })
	testenv.Application(t, a.Store, rootID, testenv.ApplicationOpts{Hackathon: next.ID, Submitted: true})
	check("submitted", "/apply/submitted", func() { p.WaitFor("heading", "You have a place at "+lastYear.Name) })
}

// tabTo presses Tab until the element of role and name has the focus.
func tabTo(t *testing.T, p *browser.Page, role, name string) {
	t.Helper()
	for range 80 {
		if f := p.Focused(); f.Role == role && f.Name == name {
			return
		}
		p.Press("Tab")
	}
	t.Fatalf("Tab never reached %s %q; the focus is on %s", role, name, p.Focused())
}

// /admin/hackathons and the edition switcher with the keyboard alone: a
// superadmin creates an edition (Enter in a field sends the form), makes
// it current through the confirmation, and reaches the applications
// table's edition switcher with Tab.
func TestWebHackathonsKeyboard(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	a, anon, site := webApp(t)
	const email = "root@x.test"
	root := as(t, a, anon, account(t, a, email, "Root", "superadmin"))
	lastYear := currentEdition(t, anon)
	stopWindow(t, a.Temporal, lastYear.ID)
	root.expect(http.StatusOK, "PATCH", "/api/admin/hackathons/"+lastYear.ID.String(), map[string]any{"name": "HackMUN 2026"})

	p := browser.Open(t, site, browser.Desktop)
	webSignIn(t, p, email, "password-"+email, "/")
	p.Visit("/admin/hackathons")
	p.WaitFor("table", "Hackathons, the latest first")
	tabTo(t, p, "button", "Create a hackathon")
	p.Press("Enter")
	p.WaitFor("heading", "Create a hackathon")
	tabTo(t, p, "textbox", "Name")
	p.Type("HackMUN 2027")
	tabTo(t, p, "textbox", "Applications open")
	p.Type(localInput(time.Now().Add(-time.Hour)))
	p.Press("Enter")
	p.WaitGone("heading", "Create a hackathon")
	p.WaitFor("button", "Make current HackMUN 2027")
	for _, e := range editionsOf(t, root) {
		if e.Name == "HackMUN 2027" {
			stopWindow(t, a.Temporal, e.ID)
		}
	}

	tabTo(t, p, "button", "Make current HackMUN 2027")
	p.Press("Enter")
	const ask = "Make HackMUN 2027 the current hackathon?"
	p.WaitFor("dialog", ask)
	tabTo(t, p, "button", "Make current")
	p.Press("Enter")
	p.WaitGone("dialog", ask)
	p.WaitFor("button", "Make current HackMUN 2026")
	if got := currentEdition(t, anon); got.Name != "HackMUN 2027" {
		t.Fatalf("the current edition is %+v", got)
	}

	p.Visit("/admin/applications")
	p.WaitFor("combobox", "Hackathon")
	// The switcher is a native select, reached with Tab; the harness's
	// key events do not move a closed select's choice in headless
	// Chromium, so the choice itself is made as the other tests make it.
	tabTo(t, p, "combobox", "Hackathon")
	p.Select("Hackathon", "HackMUN 2026")
	p.WaitURL("/admin/applications?hackathon=" + lastYear.ID.String())
}
