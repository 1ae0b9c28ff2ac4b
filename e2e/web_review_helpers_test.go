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
)

// /review's helpers, by keyboard at both sizes: who the applicant is
// (hidden under blind review), how many are left, the rubric under each
// score, "Skip for now" (the skipped one comes back last) and a private
// note that a superadmin reads in the details, where the rubric is also
// edited. axe-core finds nothing on each state.
func TestWebReviewHelpers(t *testing.T) {
	a, anon, site := webApp(t)
	ctx := context.Background()
	pool := a.Store.Pool()
	super, _ := decAccount(t, a, anon, "super@x.test", "superadmin")
	var apps []uuid.UUID
	for _, who := range []string{"ada", "bea"} {
		_, _, id := decApplicant(t, a, anon, who+"@example.com", "submitted")
		apps = append(apps, id)
	}
	if _, err := pool.Exec(ctx, `UPDATE applications SET university = 'University of ' || split_part(email, '@', 1),
		program = 'Computer Science', year_of_study = '2nd year', experience_level = 'Beginner', hackathons_attended = 3
		WHERE id = ANY($1)`, apps); err != nil {
		t.Fatal(err)
	}

	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		super.expect(http.StatusOK, "PATCH", "/api/admin/review-settings", map[string]any{"blind": false})
		email := "reviewer+" + vp.Name + "@x.test"
		reviewer, reviewerID := decAccount(t, a, anon, email, "admin")
		first := nextForReview(t, reviewer)
		second := apps[0]
		if first == apps[0] {
			second = apps[1]
		}
		nameOf := func(id uuid.UUID) string {
			var e string
			if err := pool.QueryRow(ctx, `SELECT email FROM applications WHERE id = $1`, id).Scan(&e); err != nil {
				t.Fatal(err)
			}
			return e
		}
		p := browser.Open(t, site, vp)
		shot := func(name string) {
			if dir := os.Getenv("WEB_SHOTS"); dir != "" {
				p.Screenshot(filepath.Join(dir, "review-helpers-"+name+"-"+vp.Name+".png"))
			}
		}
		webSignIn(t, p, email, "password-"+email, "/")
		p.Visit("/review")
		p.WaitFor("heading", "Applicant")
		p.WaitText("University of " + strings.TrimSuffix(nameOf(first), "@example.com"))
		p.WaitText("Computer Science")
		p.WaitText("2 applications are left in your queue, this one included.")
		p.WaitText("0: No résumé, or nothing relevant to building things. 3: Strong projects or experience, clearly described.")
		p.Axe()
		shot("applicant")

		// Skip, by keyboard: the other one comes, then the skipped one last.
		p.Press("Tab")
		p.WaitFocused("link", "Skip to main content")
		p.Press("Enter")
		p.Press("Tab")
		p.WaitFocused("link", "Go to the scores")
		p.Press("Tab")
		p.WaitFocused("button", "Skip for now")
		p.Press("Enter")
		p.WaitFocused("heading", "Review applications")
		p.WaitText("University of " + strings.TrimSuffix(nameOf(second), "@example.com"))
		if got := nextForReview(t, reviewer); got != second {
			t.Fatalf("after the skip the queue serves %s, want %s", got, second)
		}

		// Scored with a private note.
		p.Press("Tab")
		p.WaitFocused("link", "Go to the scores")
		p.Press("Enter")
		p.Press("Tab")
		p.WaitFocused("radio", "0")
		for range 4 {
			p.Press("ArrowRight")
			p.Press("Tab")
		}
		p.WaitFocused("textbox", "Private note (optional)")
		p.Type("Ask about the robot.")
		p.Press("Tab")
		p.WaitFocused("button", "Submit review")
		p.Press("Enter")
		p.WaitFocused("heading", "Review submitted")
		var note *string
		if err := pool.QueryRow(ctx, `SELECT note FROM reviews WHERE application_id = $1 AND reviewer_id = $2`,
			second, reviewerID).Scan(&note); err != nil || note == nil || *note != "Ask about the robot." {
			t.Fatalf("the note stored is %v (%v)", note, err)
		}
		p.Press("Tab")
		p.WaitFocused("button", "Next application")
		p.Press("Enter")
		p.WaitText("This is the last application in your queue.")
		p.WaitText("University of " + strings.TrimSuffix(nameOf(first), "@example.com"))

		// Blind review: none of who the applicant is.
		super.expect(http.StatusOK, "PATCH", "/api/admin/review-settings", map[string]any{"blind": true})
		p.Reload()
		p.WaitText("Blind review is on: who the applicant is stays hidden.")
		if p.Exists("heading", "Applicant") || p.HasText("University of") || p.HasText("Computer Science") || p.HasText(nameOf(first)) {
			t.Error("the blind view shows who the applicant is")
		}
		p.Axe()
		shot("blind")

		// The superadmin reads the note in the details and edits the rubric.
		s := browser.Open(t, site, vp)
		webSignIn(t, s, "super@x.test", "password-super@x.test", "/")
		s.Visit("/admin/applications/" + second.String())
		s.WaitFor("heading", "Reviewers’ private notes")
		s.WaitText("Ask about the robot.")
		s.Axe()
		if w := s.SideScroll(); w > 0 {
			t.Errorf("the details scroll sideways by %d px", w)
		}
		if dir := os.Getenv("WEB_SHOTS"); dir != "" {
			s.Screenshot(filepath.Join(dir, "review-helpers-note-"+vp.Name+".png"))
		}
		s.Visit("/admin/leaderboard")
		s.WaitFor("heading", "Review settings")
		s.Fill("Question 1: what a 7 means", "Brilliant and specific "+vp.Name)
		s.Click("button", "Save settings")
		testenv.Eventually(t, 10*time.Second, func() (bool, string) {
			var r assignment
			reviewer.expect(http.StatusOK, "GET", "/api/applications/random", nil).JSON(t, &r)
			return r.Rubric["q1_score"].High == "Brilliant and specific "+vp.Name, "the rubric saved"
		})
		s.Axe()
		if dir := os.Getenv("WEB_SHOTS"); dir != "" {
			s.Screenshot(filepath.Join(dir, "review-helpers-settings-"+vp.Name+".png"))
		}
	})
}
