package e2e

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/app"
	"hackdesk/dev/testenv"
	"hackdesk/dev/testenv/browser"
)

// reviewSeed makes three submitted applications: one with a PDF resume,
// two links, a teammate and a question-bank answer, and two with a Word
// resume (no preview); it returns the first one's id and each one's Question 1 answer
// by application id.
func reviewSeed(t *testing.T, a *app.App, anon *client) (uuid.UUID, map[uuid.UUID]string) {
	t.Helper()
	ctx := context.Background()
	pool := a.Store.Pool()
	account(t, a, "grace@example.com", "Grace Hopper", "member")
	first := submitted(t, a, anon, "ada@example.com", "cv.pdf", pdfFile("Ada's resume"))
	var question uuid.UUID
	if err := pool.QueryRow(ctx, `INSERT INTO questions (prompt, type) VALUES ('What would you like to learn?', 'textarea')
		RETURNING id`).Scan(&question); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `UPDATE applications SET team_members = 'grace@example.com',
		linkedin_url = 'https://www.linkedin.com/in/ada' WHERE id = $1`, first); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO application_answers (application_id, question_id, answer)
		VALUES ($1, $2, 'Compilers, and how to explain them.')`, first, question); err != nil {
		t.Fatal(err)
	}
	q1 := map[uuid.UUID]string{first: completeSteps[2]["q1_answer"].(string)}
	for _, who := range []string{"katherine", "mary"} {
		_, _, id := decApplicant(t, a, anon, who+"@example.com", "submitted")
		answer := who + " built a flight-path calculator."
		if _, err := pool.Exec(ctx, `UPDATE applications SET resume_key = profile_id::text || '/cv.docx',
			resume_name = 'cv.docx', resume_type = 'docx', q1_answer = $2 WHERE id = $1`, id, answer); err != nil {
			t.Fatal(err)
		}
		q1[id] = answer
	}
	return first, q1
}

// nextForReview is the application the assignment rule gives the reviewer
// now: the one the page shows.
func nextForReview(t *testing.T, c *client) uuid.UUID {
	t.Helper()
	var body struct {
		Application struct {
			ID uuid.UUID `json:"id"`
		} `json:"application"`
	}
	c.expect(http.StatusOK, "GET", "/api/applications/random", nil).JSON(t, &body)
	return body.Application.ID
}

// scoreByKeyboard scores the four groups from just before the first one:
// a pick of n > 0 is n presses of ArrowRight, 0 is Space on the first
// option; Tab moves on, past the private note. It ends on "Submit review"
// and presses Enter.
func scoreByKeyboard(p *browser.Page, picks [4]int) {
	p.Press("Tab")
	p.WaitFocused("radio", "0")
	for _, n := range picks {
		if n == 0 {
			p.Press("Space")
		}
		for range n {
			p.Press("ArrowRight")
		}
		p.Press("Tab")
	}
	p.WaitFocused("textbox", "Private note (optional)")
	p.Press("Tab")
	p.WaitFocused("button", "Submit review")
	p.Press("Enter")
}

// A reviewer opens /review, scores applications with the keyboard only,
// sees the running total, meets the 409 of an application already
// reviewed and, after the last one, the "nothing left" state; a member
// opening /review is sent home. axe-core finds nothing on each state.
func TestWebReview(t *testing.T) {
	a, anon, site := webApp(t)
	ada, q1 := reviewSeed(t, a, anon)

	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		email := "reviewer+" + vp.Name + "@x.test"
		reviewer, reviewerID := decAccount(t, a, anon, email, "admin")
		p := browser.Open(t, site, vp)
		// The refusals the page turns into states of its own.
		p.AllowConsoleError("status of 409 (Conflict) (http://hackdesk.test/api/review/submit)")
		p.AllowConsoleError("status of 404 (Not Found) (http://hackdesk.test/api/applications/random)")
		shot := func(name string) {
			if dir := os.Getenv("WEB_SHOTS"); dir != "" {
				p.Screenshot(filepath.Join(dir, "review-"+name+"-"+vp.Name+".png"))
			}
		}
		// shows waits for the application's answers and checks the rest.
		shows := func(id uuid.UUID) {
			t.Helper()
			p.WaitText(q1[id])
			if id != ada {
				p.WaitText("This resume cannot be shown here. Download it to read it.")
				p.WaitText("Applying alone")
				return
			}
			p.WaitFor("link", "https://github.com/ada (opens in a new tab)")
			p.WaitFor("link", "https://www.linkedin.com/in/ada (opens in a new tab)")
			p.WaitText("Grace Hopper (grace@example.com)")
			p.WaitText("What would you like to learn?")
			p.WaitText("Compilers, and how to explain them.")
			p.WaitFor("link", "Download the resume")
			// The PDF viewer takes the focus once it has loaded (the page
			// gives it back); keys pressed meanwhile would land in it.
			testenv.Eventually(t, 15*time.Second, func() (bool, string) {
				return !p.HasText("Loading the preview…"), "the resume preview to finish loading"
			})
			shot("resume")
		}
		scores := func(appID uuid.UUID) (s [4]int) {
			t.Helper()
			err := a.Store.Pool().QueryRow(context.Background(), `SELECT resume_score, links_score, q1_score, q2_score
				FROM reviews WHERE application_id = $1 AND reviewer_id = $2`, appID, reviewerID).Scan(&s[0], &s[1], &s[2], &s[3])
			if err != nil {
				t.Fatalf("the review of %s: %v", appID, err)
			}
			return s
		}
		webSignIn(t, p, email, "password-"+email, "/")
		p.WaitFor("link", "Review")

		// The first application: read, scored with the keyboard, submitted.
		first := nextForReview(t, reviewer)
		p.Visit("/review")
		p.WaitFor("heading", "Scores")
		shows(first)
		if got := p.Heading(1); got != "Review applications" {
			t.Errorf("the h1 is %q", got)
		}
		p.Axe()
		shot("application")
		p.Press("Tab")
		p.WaitFocused("link", "Skip to main content")
		p.Press("Enter")
		p.Press("Tab")
		p.WaitFocused("link", "Go to the scores")
		p.Press("Enter")
		scoreByKeyboard(p, [4]int{2, 1, 5, 0})
		p.WaitFocused("heading", "Review submitted")
		p.WaitText("You have submitted 1 review in total.")
		p.Axe()
		shot("submitted")
		if got := scores(first); got != [4]int{2, 1, 5, 0} {
			t.Errorf("the first review was stored as %v", got)
		}

		// The second: submitted empty, then reviewed elsewhere meanwhile,
		// so the page answers the 409 in words.
		p.Press("Tab")
		p.WaitFocused("button", "Next application")
		p.Press("Enter")
		p.WaitFocused("heading", "Review applications")
		second := nextForReview(t, reviewer)
		if second == first {
			t.Fatal("the rule served the reviewed application again")
		}
		shows(second)
		p.Press("Tab")
		p.WaitFocused("link", "Go to the scores")
		p.Press("Enter")
		for range 6 {
			p.Press("Tab")
		}
		p.WaitFocused("button", "Submit review")
		p.Press("Enter")
		p.WaitFocused("alert", "There is a problem")
		p.WaitText("Choose a resume score")
		p.Axe()
		shot("errors")
		p.Press("Tab")
		p.WaitFocused("link", "Choose a resume score")
		p.Press("Enter")
		score(t, reviewer, second, http.StatusOK)
		scoreByKeyboard(p, [4]int{3, 2, 7, 3})
		p.WaitFocused("heading", "You have already reviewed this application")
		p.Axe()
		if got := scores(second); got != [4]int{2, 1, 5, 2} {
			t.Errorf("the review of the second application is %v, want the first one sent (2 1 5 2)", got)
		}

		// The third and last, then nothing left.
		p.Press("Tab")
		p.WaitFocused("button", "Next application")
		p.Press("Enter")
		third := nextForReview(t, reviewer)
		shows(third)
		p.Press("Tab")
		p.WaitFocused("link", "Go to the scores")
		p.Press("Enter")
		scoreByKeyboard(p, [4]int{1, 0, 0, 1})
		p.WaitFocused("heading", "Review submitted")
		p.WaitText("You have submitted 3 reviews in total.")
		if got := scores(third); got != [4]int{1, 0, 0, 1} {
			t.Errorf("the third review was stored as %v", got)
		}
		p.Press("Tab")
		p.Press("Enter")
		p.WaitFor("heading", "Nothing left to review")
		p.Axe()
		shot("empty")

		// A member has no Review link and is sent home from /review.
		memberEmail := "member+" + vp.Name + "@x.test"
		decAccount(t, a, anon, memberEmail, "member")
		m := browser.Open(t, site, vp)
		webSignIn(t, m, memberEmail, "password-"+memberEmail, "/")
		m.WaitFor("heading", "Your next step")
		if m.Exists("link", "Review") {
			t.Error("a member's nav links to /review")
		}
		m.Visit("/review")
		m.WaitURL("/")
	})
}
