package e2e

import (
	"net/http"
	"testing"
	"time"

	"hackdesk/dev/testenv/browser"
)

// termsPageTerm is a term as the API answers it.
type termsPageTerm struct {
	ID                 string     `json:"id"`
	Name               string     `json:"name"`
	StartsOn           string     `json:"starts_on"`
	EndsOn             string     `json:"ends_on"`
	OnboardingOpensAt  *time.Time `json:"onboarding_opens_at"`
	OnboardingClosesAt *time.Time `json:"onboarding_closes_at"`
	ReturningOpensAt   *time.Time `json:"returning_opens_at"`
	ReturningClosesAt  *time.Time `json:"returning_closes_at"`
	Active             bool       `json:"active"`
}

func termsPageList(t *testing.T, c *client) []termsPageTerm {
	t.Helper()
	var out struct {
		Terms []termsPageTerm `json:"terms"`
	}
	c.expect(http.StatusOK, "GET", "/api/admin/terms", nil).JSON(t, &out)
	return out.Terms
}

// A superadmin starts from the blank slate, creates a term with the new
// execs' onboarding window (the browser first refuses a window that
// closes before it opens), edits the window's close and makes the term
// active; the API agrees at each step. The dates are date pickers and the
// window times date and time pickers, as the RSVP deadline is, chosen in
// the browser's zone (the test process's, which Chromium inherits); the
// term that starts last is marked as the hiring term, and only it. An admin opening
// /admin/terms is sent home. axe-core finds nothing on each state.
func TestWebTerms(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		a, anon, site := webApp(t)
		const rootEmail = "root@x.test"
		const opensLabel, closesLabel = "New execs’ onboarding opens (optional)", "New execs’ onboarding closes (optional)"
		root, _ := decAccount(t, a, anon, rootEmail, "superadmin")
		local := func(s string) time.Time {
			v, err := time.ParseInLocation("2006-01-02 15:04", s, time.Local)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}

		p := browser.Open(t, site, vp)
		webSignIn(t, p, rootEmail, "password-"+rootEmail, "/")
		p.Visit("/admin/terms")
		p.WaitFor("heading", "No terms yet")
		if got := p.Heading(1); got != "Terms" {
			t.Errorf("the h1 is %q", got)
		}
		p.Axe()
		peopleShot(p, "terms", "empty")

		// Create: the rules are checked in the browser first.
		p.Click("button", "Create a term")
		p.WaitFor("heading", "Create a term")
		p.Axe()
		peopleShot(p, "terms", "create")
		p.Click("button", "Create term")
		p.WaitFor("link", "Enter a name for the term")
		p.WaitFor("link", "Enter the date the term starts")
		p.Fill("Name", "Fall 2026")
		// A picker is typed into as a person does: from its first part
		// (month), the date then, past the year, the time.
		first := func(label string) {
			p.Fill(label, "")
			for range 6 {
				p.Press("ArrowLeft")
			}
		}
		first("Starts on")
		p.Type("09012026")
		first("Ends on")
		p.Type("12202026")
		if got := p.Value("Starts on") + " " + p.Value("Ends on"); got != "2026-09-01 2026-12-20" {
			t.Fatalf("the date pickers hold %q", got)
		}
		pick := func(label, date, clock string) {
			first(label)
			p.Type(date)
			p.Press("ArrowRight")
			p.Type(clock)
		}
		pick(opensLabel, "09012026", "0900A")
		pick(closesLabel, "08012026", "0900A")
		if got := p.Value(opensLabel); got != "2026-09-01T09:00" {
			t.Fatalf("the opening picker holds %q", got)
		}
		p.Click("button", "Create term")
		p.WaitFor("link", "The new execs’ onboarding window must close after it opens")
		p.Axe()
		peopleShot(p, "terms", "errors")
		if got := termsPageList(t, root); len(got) != 0 {
			t.Fatalf("a refused form made terms %+v", got)
		}
		pick(closesLabel, "09152026", "0500P")
		p.Click("button", "Create term")
		p.WaitFor("heading", "Fall 2026")
		p.WaitGone("heading", "Create a term")
		// The windows are the execs' and the hiring term is marked.
		p.WaitText("New execs’ onboarding window")
		p.WaitText("Returning execs’ onboarding window")
		p.WaitText("Hiring term")
		if p.HasText("Returning members") || p.HasText("new members") {
			t.Error("/admin/terms still names the windows as members'")
		}
		p.Axe()
		peopleShot(p, "terms", "list")
		terms := termsPageList(t, root)
		if len(terms) != 1 || terms[0].Name != "Fall 2026" || terms[0].StartsOn != "2026-09-01" || terms[0].EndsOn != "2026-12-20" ||
			terms[0].OnboardingOpensAt == nil || !terms[0].OnboardingOpensAt.Equal(local("2026-09-01 09:00")) ||
			terms[0].OnboardingClosesAt == nil || !terms[0].OnboardingClosesAt.Equal(local("2026-09-15 17:00")) ||
			terms[0].ReturningOpensAt != nil || terms[0].Active {
			t.Fatalf("the API shows %+v", terms)
		}

		// Edit the window's close.
		p.Click("button", "Edit Fall 2026")
		p.WaitFor("heading", "Edit Fall 2026")
		if got := p.Value(closesLabel); got != "2026-09-15T17:00" {
			t.Errorf("the edit form shows the close as %q", got)
		}
		pick(closesLabel, "09202026", "0530P")
		p.Click("button", "Save term")
		p.WaitGone("heading", "Edit Fall 2026")
		if got := termsPageList(t, root)[0].OnboardingClosesAt; got == nil || !got.Equal(local("2026-09-20 17:30")) {
			t.Errorf("the onboarding window closes at %v after the edit", got)
		}

		// A term that starts earlier is listed after it, not marked.
		root.expect(http.StatusCreated, "POST", "/api/admin/terms",
			map[string]any{"name": "Spring 2026", "starts_on": "2026-01-05", "ends_on": "2026-04-30"})
		p.Reload()
		p.WaitFor("heading", "Spring 2026")
		if !p.Within("listitem", "Fall 2026").HasText("Hiring term") || p.Within("listitem", "Spring 2026").HasText("Hiring term") {
			t.Error("the hiring term is not marked on Fall 2026 alone")
		}

		// Make it active, after a confirmation.
		p.Click("button", "Make active Fall 2026")
		p.WaitFor("heading", "Make Fall 2026 the active term?")
		p.Axe()
		peopleShot(p, "terms", "activate")
		p.Click("button", "Make active")
		p.WaitText("Active term")
		p.WaitGone("button", "Make active Fall 2026")
		p.Axe()
		peopleShot(p, "terms", "active")
		var active struct {
			Term termsPageTerm `json:"term"`
		}
		root.expect(http.StatusOK, "GET", "/api/terms/active", nil).JSON(t, &active)
		if active.Term.Name != "Fall 2026" || !active.Term.Active {
			t.Errorf("the active term is %+v", active.Term)
		}

		// An admin is sent home.
		const adminEmail = "staff@x.test"
		account(t, a, adminEmail, "Staff", "admin")
		s := browser.Open(t, site, vp)
		webSignIn(t, s, adminEmail, "password-"+adminEmail, "/")
		s.Visit("/admin/terms")
		s.WaitURL("/")
	})
}
