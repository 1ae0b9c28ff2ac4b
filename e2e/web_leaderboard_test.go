package e2e

import (
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/app"
	"hackdesk/dev/testenv"
	"hackdesk/dev/testenv/browser"
)

// boardJSON is GET /api/admin/leaderboard's answer without reviewerId.
type boardJSON struct {
	Leaderboard []struct {
		ReviewerID  uuid.UUID `json:"reviewer_id"`
		ReviewCount int       `json:"review_count"`
		Name        *string   `json:"name"`
		Email       string    `json:"email"`
	} `json:"leaderboard"`
	Statistics struct {
		TotalApplications        int     `json:"total_applications"`
		TotalReviews             int     `json:"total_reviews"`
		TotalReviewers           int     `json:"total_reviewers"`
		AvgReviewsPerApplication float64 `json:"avg_reviews_per_application"`
		AvgResumeScore           float64 `json:"avg_resume_score"`
	} `json:"statistics"`
	Failed []string `json:"failed"`
}

// reviewerScoresJSON is the answer with reviewerId.
type reviewerScoresJSON struct {
	ReviewerScores struct {
		AvgResumeScore float64 `json:"avg_resume_score"`
		AvgLinksScore  float64 `json:"avg_links_score"`
		AvgQ1Score     float64 `json:"avg_q1_score"`
		AvgQ2Score     float64 `json:"avg_q2_score"`
		TotalReviews   int     `json:"total_reviews"`
		MeanTotal      float64 `json:"mean_total"`
		StddevTotal    float64 `json:"stddev_total"`
	} `json:"reviewerScores"`
}

// boardShot saves a screenshot under WEB_SHOTS when it is set.
func boardShot(p *browser.Page, vp browser.Viewport, name string) {
	if dir := os.Getenv("WEB_SHOTS"); dir != "" {
		p.Screenshot(filepath.Join(dir, "leaderboard-"+name+"-"+vp.Name+".png"))
	}
}

// dec is a number as the page writes it (en, at most two decimals).
func dec(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// scoreWith submits a review with the given scores.
func scoreWith(t *testing.T, c *client, appID uuid.UUID, s [4]int) {
	t.Helper()
	c.expect(http.StatusOK, "POST", "/api/review/submit", map[string]any{
		"application_id": appID, "resume_score": s[0], "links_score": s[1], "q1_score": s[2], "q2_score": s[3],
	})
}

// boardSeed has four admins review three submitted applications: Ana
// three times, Ben twice, Cy and Dee once each (tied for third).
func boardSeed(t *testing.T, a *app.App, anon *client) map[string]uuid.UUID {
	t.Helper()
	apps := make([]uuid.UUID, 3)
	for i := range apps {
		_, _, apps[i] = decApplicant(t, a, anon, "applicant"+strconv.Itoa(i)+"@x.test", "submitted")
	}
	ids := map[string]uuid.UUID{}
	plan := []struct {
		name   string
		scores [][4]int
	}{
		{"Ana Admin", [][4]int{{3, 2, 7, 3}, {1, 0, 4, 1}, {2, 1, 5, 2}}},
		{"Ben Admin", [][4]int{{0, 1, 2, 3}, {3, 2, 6, 0}}},
		{"Cy Admin", [][4]int{{2, 2, 2, 2}}},
		{"Dee Admin", [][4]int{{1, 1, 1, 1}}},
	}
	for _, r := range plan {
		email := strings.ToLower(strings.Fields(r.name)[0]) + "@x.test"
		id := account(t, a, email, r.name, "admin")
		c := as(t, a, anon, id)
		for i, s := range r.scores {
			scoreWith(t, c, apps[i], s)
		}
		ids[r.name] = id
	}
	return ids
}

// A superadmin sees the podium (Ana, Ben, Cy; Cy and Dee tied), the
// ranking equal to the API's, the statistics, and a reviewer's averages
// equal to the API's; the chosen reviewer, search and sort live in the
// address and survive a reload. An admin is sent home. axe on each state.
func TestWebLeaderboard(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	a, anon, site := webApp(t)
	ids := boardSeed(t, a, anon)
	superID := account(t, a, "super@x.test", "Sue Super", "superadmin")
	super := as(t, a, anon, superID)
	account(t, a, "admin@x.test", "Al Admin", "admin")

	var board boardJSON
	super.expect(http.StatusOK, "GET", "/api/admin/leaderboard", nil).JSON(t, &board)
	if len(board.Leaderboard) != 4 || len(board.Failed) != 0 || board.Statistics.TotalReviews != 7 {
		t.Fatalf("the seeded board: %+v", board)
	}

	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		p := browser.Open(t, site, vp)
		webSignIn(t, p, "super@x.test", "password-super@x.test", "/")
		p.Visit("/admin/leaderboard")
		p.WaitFor("heading", "Top reviewers")
		if got := p.Heading(1); got != "Reviewer leaderboard" {
			t.Errorf("the h1 is %q", got)
		}

		// The podium: an ordered list, 1st to 3rd, Cy and Dee tied (Cy
		// first by email), ranks shown as they are.
		podium := p.Text("region", "Top reviewers")
		order := []string{"1st", "Ana Admin", "3 reviews", "2nd", "Ben Admin", "2 reviews", "Joint 3rd", "Cy Admin", "1 review"}
		at := 0
		for _, want := range order {
			i := strings.Index(podium[at:], want)
			if i < 0 {
				t.Fatalf("the podium %q lacks %q after position %d", podium, want, at)
			}
			at += i + len(want)
		}
		if strings.Contains(podium, "Dee Admin") {
			t.Errorf("the podium shows a fourth reviewer: %q", podium)
		}

		// The ranking equals the API's.
		rows := p.Table("Reviewers ranked by number of reviews")
		if len(rows) != 1+len(board.Leaderboard) {
			t.Fatalf("the ranking has %d rows: %v", len(rows), rows)
		}
		ranks := []string{"1st", "2nd", "Joint 3rd", "Joint 3rd"}
		for i, e := range board.Leaderboard {
			got := rows[i+1]
			if got[0] != ranks[i] || got[1] != *e.Name || got[2] != e.Email || got[3] != strconv.Itoa(e.ReviewCount) {
				t.Errorf("ranking row %d is %v, want %s %s %s %d", i+1, got, ranks[i], *e.Name, e.Email, e.ReviewCount)
			}
		}
		stats := p.Text("region", "Statistics")
		for _, want := range []string{
			"Submitted applications\n" + strconv.Itoa(board.Statistics.TotalApplications),
			"Reviewers\n" + strconv.Itoa(board.Statistics.TotalReviewers),
			"Average reviews per application\n" + dec(board.Statistics.AvgReviewsPerApplication),
			"Resume\n" + dec(board.Statistics.AvgResumeScore) + " out of 3",
		} {
			if !strings.Contains(stats, want) {
				t.Errorf("the statistics %q lack %q", stats, want)
			}
		}
		p.Axe()
		boardShot(p, vp, "board")

		// Ben's averages: the panel's heading takes the focus.
		var ben reviewerScoresJSON
		super.expect(http.StatusOK, "GET", "/api/admin/leaderboard?reviewerId="+ids["Ben Admin"].String(), nil).JSON(t, &ben)
		s := ben.ReviewerScores
		p.Click("button", "Show averages for Ben Admin")
		p.WaitFocused("heading", "Averages for Ben Admin")
		p.WaitText("Reviews given 2")
		panel := func() {
			t.Helper()
			text := p.Text("region", "Averages for Ben Admin")
			for _, want := range []string{
				"Mean total\n" + dec(s.MeanTotal) + " out of 15",
				"Spread of totals (standard deviation)\n" + dec(s.StddevTotal),
				"Resume\n" + dec(s.AvgResumeScore) + " out of 3",
				"Links\n" + dec(s.AvgLinksScore) + " out of 2",
				"Question 1\n" + dec(s.AvgQ1Score) + " out of 7",
				"Question 2\n" + dec(s.AvgQ2Score) + " out of 3",
			} {
				if !strings.Contains(text, want) {
					t.Errorf("Ben's panel %q lacks %q", text, want)
				}
			}
		}
		panel()
		if !strings.Contains(p.URL(), "reviewer="+ids["Ben Admin"].String()) {
			t.Errorf("the address %s does not hold the chosen reviewer", p.URL())
		}
		p.Axe()
		boardShot(p, vp, "reviewer")

		// The choice survives a reload; closing returns to Ben's row.
		p.Reload()
		p.WaitText("Reviews given 2")
		panel()
		p.Click("button", "Close averages")
		p.WaitGone("heading", "Averages for Ben Admin")
		p.WaitFocused("button", "Show averages for Ben Admin")
		if strings.Contains(p.URL(), "reviewer=") {
			t.Errorf("the address %s still holds a reviewer", p.URL())
		}

		// Sorted by name, newest first, and searched: in the address, kept
		// on reload.
		p.Click("button", "Name")
		p.Click("button", "Name")
		testenv.Eventually(t, 10*time.Second, func() (bool, string) {
			r := p.Table("Reviewers ranked by number of reviews")
			return len(r) == 5 && r[1][1] == "Dee Admin" && r[4][1] == "Ana Admin", "the ranking sorted by name, Z to A"
		})
		p.Fill("Search reviewers", "ana")
		p.WaitText("Showing 1 of 4 reviewers")
		if u := p.URL(); !strings.Contains(u, "sort=name") || !strings.Contains(u, "order=desc") || !strings.Contains(u, "q=ana") {
			t.Errorf("the address %s lacks the view", u)
		}
		p.Reload()
		p.WaitText("Showing 1 of 4 reviewers")
		if got := p.Value("Search reviewers"); got != "ana" {
			t.Errorf("after a reload the search is %q", got)
		}
		p.Fill("Search reviewers", "nobody")
		p.WaitFor("heading", "No reviewer matches “nobody”.")
		p.Axe()
		boardShot(p, vp, "nomatch")

		// An admin who is not a superadmin is sent home.
		m := browser.Open(t, site, vp)
		webSignIn(t, m, "admin@x.test", "password-admin@x.test", "/")
		m.Visit("/admin/leaderboard")
		m.WaitURL("/")
	})
}

// With no reviews the page says what to do next. The superadmin saves
// blind review with a cap of 2: the API's settings change, the reviewer
// view leaves out who the applicant is, and the history lists the change.
// A cap of 0 is refused beside its field. axe on each state.
func TestWebLeaderboardSettings(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	a, anon, site := webApp(t)
	superID := account(t, a, "super@x.test", "Sue Super", "superadmin")
	super := as(t, a, anon, superID)
	reviewer := as(t, a, anon, account(t, a, "reviewer@x.test", "Rae Reviewer", "admin"))
	seedIdentifiedApplication(t, a, account(t, a, "ada@example.com", "Ada Lovelace", "member"), "")

	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		// Each viewport starts from the defaults.
		super.expect(http.StatusOK, "PATCH", reviewSettingsPath, map[string]any{"blind": false, "cap": nil})
		p := browser.Open(t, site, vp)
		webSignIn(t, p, "super@x.test", "password-super@x.test", "/")
		p.Visit("/admin/leaderboard")
		p.WaitFor("heading", "Nobody has reviewed yet")
		p.WaitFor("link", "Go to Review applications")
		p.WaitFor("heading", "Review settings")
		if p.Checked("Blind review") || p.Value("Review cap") != "" {
			t.Fatalf("the form starts at blind %v cap %q", p.Checked("Blind review"), p.Value("Review cap"))
		}
		p.Axe()
		boardShot(p, vp, "empty")

		// A cap of 0: said beside the field and in the summary; nothing sent.
		p.Check("Blind review")
		p.Fill("Review cap", "0")
		p.Click("button", "Save settings")
		p.WaitFocused("alert", "There is a problem")
		p.WaitFor("link", "Enter the review cap as a whole number of 1 or more, or leave it empty for no cap")
		if !p.Checked("Blind review") {
			t.Error("the refused save lost the checkbox")
		}
		var now settingsJSON
		super.expect(http.StatusOK, "GET", reviewSettingsPath, nil).JSON(t, &now)
		if now.Blind || now.Cap != nil {
			t.Fatalf("a refused form changed the settings: %+v", now)
		}
		p.Axe()
		boardShot(p, vp, "settings-error")

		// Blind with a cap of 2.
		p.Fill("Review cap", "2")
		p.Click("button", "Save settings")
		testenv.Eventually(t, 10*time.Second, func() (bool, string) {
			return strings.Contains(p.Text("status", ""), "Review settings saved"), "the saved toast"
		})
		testenv.Eventually(t, 10*time.Second, func() (bool, string) {
			super.expect(http.StatusOK, "GET", reviewSettingsPath, nil).JSON(t, &now)
			return now.Blind && now.Cap != nil && *now.Cap == 2, "blind with a cap of 2"
		})
		var view struct {
			Application map[string]any `json:"application"`
			Blind       bool           `json:"blind"`
		}
		reviewer.expect(http.StatusOK, "GET", "/api/applications/random", nil).JSON(t, &view)
		if !view.Blind {
			t.Error("the reviewer view is not blind")
		}
		for _, f := range []string{"email", "phone", "discord", "age", "gender", "ethnicity", "country", "university"} {
			if v, ok := view.Application[f]; !ok || v != nil {
				t.Errorf("blind view: %s = %v, want null", f, v)
			}
		}

		// The history: the newest change first, by Sue, blind with cap 2.
		var rows [][]string
		testenv.Eventually(t, 10*time.Second, func() (bool, string) {
			rows = p.Table("Changes to the review settings, newest first")
			return len(rows) >= 2 && rows[1][2] == "On", "the change in the history"
		})
		if got := rows[1]; got[1] != "Sue Super (super@x.test)" || got[2] != "On" || got[3] != "2" || got[0] == "" {
			t.Errorf("the newest change reads %v", got)
		}
		p.Axe()
		boardShot(p, vp, "settings-saved")

		// The form shows the saved values after a reload.
		p.Reload()
		p.WaitFor("heading", "Review settings")
		testenv.Eventually(t, 10*time.Second, func() (bool, string) {
			return p.Checked("Blind review") && p.Value("Review cap") == "2", "the saved values in the form"
		})
	})
}
