package e2e

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/google/uuid"

	"hackdesk/api"
	"hackdesk/db"
	"hackdesk/dev/testenv"
)

func next(t *testing.T, c *client) (uuid.UUID, int) {
	t.Helper()
	r := c.do("GET", "/api/applications/random", nil)
	if r.Status != http.StatusOK {
		return uuid.Nil, r.Status
	}
	var body struct {
		Application struct {
			ID                   uuid.UUID        `json:"id"`
			ResumeURL            *string          `json:"resume_url"`
			TeamMembersWithNames []map[string]any `json:"team_members_with_names"`
			Email                *string          `json:"email"`
		} `json:"application"`
	}
	r.JSON(t, &body)
	if body.Application.ResumeURL == nil || body.Application.Email == nil || body.Application.TeamMembersWithNames == nil {
		t.Fatalf("reviewer view lacks resume_url, email or team: %s", r.Body)
	}
	return body.Application.ID, r.Status
}

func score(t *testing.T, c *client, appID uuid.UUID, want int) response {
	t.Helper()
	return c.expect(want, "POST", "/api/review/submit", map[string]any{
		"application_id": appID, "resume_score": 2, "links_score": 1, "q1_score": 5, "q2_score": 2,
	})
}

// TestAssignmentRule checks the rule on a data set whose answer is known.
func TestAssignmentRule(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	me := account(t, a, "reviewer@example.com", "Reviewer", "admin")
	x := account(t, a, "x@example.com", "X", "admin")
	y := account(t, a, "y@example.com", "Y", "admin")
	id := uuid.MustParse
	var (
		own    = id("00000000-0000-0000-0000-000000000001") // the caller's: smallest id, no reviews
		draft  = id("00000000-0000-0000-0000-000000000002") // never served
		mine   = id("00000000-0000-0000-0000-000000000003") // reviewed by the caller
		e9     = id("9fffffff-0000-0000-0000-000000000000") // 0 reviews; '9' < 'a' lexicographically
		fa     = id("a0000000-0000-0000-0000-000000000000") // 0 reviews
		h1     = id("10000000-0000-0000-0000-000000000000") // 1 review
		g2     = id("01000000-0000-0000-0000-000000000000") // 2 reviews
		owners = map[uuid.UUID]uuid.UUID{}
	)
	owners[own] = me
	for i, appID := range []uuid.UUID{draft, mine, e9, fa, h1, g2} {
		owners[appID] = account(t, a, fmt.Sprintf("applicant%d@example.com", i), fmt.Sprintf("Applicant %d", i), "member")
	}
	for appID, owner := range owners {
		status := "submitted"
		if appID == draft {
			status = "draft"
		}
		testenv.Application(t, a.Store, owner, testenv.ApplicationOpts{ID: appID, Submitted: status == "submitted"})
	}
	testenv.Review(t, a.Store, mine, me)
	testenv.Review(t, a.Store, h1, x)
	testenv.Review(t, a.Store, g2, x)
	testenv.Review(t, a.Store, g2, y)

	c := as(t, a, anon, me)
	want := []uuid.UUID{
		e9, // fewest (0), and "9fff..." sorts before "a000..."
		fa, // the other 0
		h1, // 1 review; "mine" also has 1 but the caller reviewed it
		g2, // 2 reviews
	}
	for i, w := range want {
		got, status := next(t, c)
		if status != http.StatusOK || got != w {
			t.Fatalf("call %d: got %v (status %d), want %v", i+1, got, status, w)
		}
		score(t, c, got, http.StatusOK)
	}
	r := c.expect(http.StatusNotFound, "GET", "/api/applications/random", nil)
	if r.Map(t)["error"] != "No applications left to review" {
		t.Fatalf("exhausted body %s", r.Body)
	}
	// Another reviewer sees their own order: x reviewed h1 and g2 already.
	cx := as(t, a, anon, x)
	if got, _ := next(t, cx); got != own {
		t.Fatalf("x's first = %v, want the other reviewer's application %v (fewest reviews, smallest id)", got, own)
	}
	// Members cannot use the queue.
	m := as(t, a, anon, owners[e9])
	m.expect(http.StatusForbidden, "GET", "/api/applications/random", nil)
}

func TestSubmitReview(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	me := account(t, a, "rev@example.com", "Rev", "admin")
	owner := account(t, a, "owner@example.com", "Owner", "member")
	other := account(t, a, "drafter@example.com", "Drafter", "member")
	appID := seedApplication(t, a, owner, "submitted")
	draftID := seedApplication(t, a, other, "draft")
	ownApp := seedApplication(t, a, me, "submitted")
	c := as(t, a, anon, me)

	valid := func() map[string]any {
		return map[string]any{"application_id": appID, "resume_score": 3, "links_score": 2, "q1_score": 7, "q2_score": 3}
	}
	for _, f := range []struct {
		field string
		bad   any
	}{{"resume_score", 4}, {"links_score", 3}, {"q1_score", 8}, {"q2_score", 4}, {"resume_score", -1}, {"q1_score", 2.5}} {
		t.Run(fmt.Sprintf("ErrRange_%s_%v", f.field, f.bad), func(t *testing.T) {
			body := valid()
			body[f.field] = f.bad
			var e errorJSON
			c.expect(http.StatusBadRequest, "POST", "/api/review/submit", body).JSON(t, &e)
			if e.Error != "Validation failed" || e.Details[f.field] == "" {
				t.Fatalf("body %+v", e)
			}
		})
	}
	for _, field := range []string{"resume_score", "links_score", "q1_score", "q2_score", "application_id"} {
		t.Run("ErrMissing_"+field, func(t *testing.T) {
			body := valid()
			delete(body, field)
			var e errorJSON
			c.expect(http.StatusBadRequest, "POST", "/api/review/submit", body).JSON(t, &e)
			if e.Details[field] == "" {
				t.Fatalf("no reason for %s: %+v", field, e)
			}
		})
	}
	t.Run("ErrDraft", func(t *testing.T) {
		body := valid()
		body["application_id"] = draftID
		c.expect(http.StatusNotFound, "POST", "/api/review/submit", body)
	})
	t.Run("ErrUnknown", func(t *testing.T) {
		body := valid()
		body["application_id"] = uuid.New()
		c.expect(http.StatusNotFound, "POST", "/api/review/submit", body)
	})
	t.Run("ErrOwnApplication", func(t *testing.T) {
		body := valid()
		body["application_id"] = ownApp
		c.expect(http.StatusForbidden, "POST", "/api/review/submit", body)
	})
	t.Run("ErrMember", func(t *testing.T) {
		as(t, a, anon, owner).expect(http.StatusForbidden, "POST", "/api/review/submit", valid())
	})

	var ok struct {
		Success      bool           `json:"success"`
		Message      string         `json:"message"`
		Review       map[string]any `json:"review"`
		TotalReviews int            `json:"total_reviews"`
	}
	c.expect(http.StatusOK, "POST", "/api/review/submit", valid()).JSON(t, &ok)
	if !ok.Success || ok.TotalReviews != 1 || ok.Review["application_id"] != appID.String() ||
		ok.Review["q1_score"] != float64(7) || ok.Review["reviewer_id"] != me.String() || ok.Review["id"] == nil {
		t.Fatalf("answer %+v", ok)
	}
	r := c.expect(http.StatusConflict, "POST", "/api/review/submit", valid())
	if r.Map(t)["error"] != "Already reviewed" {
		t.Fatalf("duplicate body %s", r.Body)
	}
	if row, err := a.Store.ApplicationReviewView(context.Background(), appID); err != nil || row.Application.ReviewCount != 1 {
		t.Fatalf("review_count = %d (%v), want 1", row.Application.ReviewCount, err)
	}
	// The schema holds the ranges too.
	_, err := a.Store.ReviewInsert(context.Background(), db.ReviewInsertParams{ApplicationID: ownApp, ReviewerID: owner, ResumeScore: 9})
	if !errors.Is(err, db.ErrInvalid) && !errors.Is(db.MapError(err), db.ErrInvalid) {
		t.Fatalf("out-of-range insert: %v, want a check violation", err)
	}
}

// TestConcurrentReviewers runs 32 admins looping random → submit until the
// queue is exhausted for each of them.
func TestConcurrentReviewers(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	const reviewers, applications = 32, 25
	for i := 0; i < applications; i++ {
		owner := account(t, a, fmt.Sprintf("app%d@example.com", i), "", "member")
		seedApplication(t, a, owner, "submitted")
	}
	clients := make([]*client, reviewers)
	for i := range clients {
		clients[i] = as(t, a, anon, account(t, a, fmt.Sprintf("rev%d@example.com", i), fmt.Sprintf("Rev %d", i), "admin"))
	}
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		problems []string
	)
	for _, c := range clients {
		wg.Add(1)
		go func(c *client) {
			defer wg.Done()
			for n := 0; n <= applications; n++ {
				r := c.do("GET", "/api/applications/random", nil)
				if r.Status == http.StatusNotFound {
					return
				}
				var body struct {
					Application struct {
						ID uuid.UUID `json:"id"`
					} `json:"application"`
				}
				if r.Status != http.StatusOK {
					mu.Lock()
					problems = append(problems, fmt.Sprintf("random = %d %s", r.Status, r.Body))
					mu.Unlock()
					return
				}
				r.JSON(t, &body)
				s := c.do("POST", "/api/review/submit", map[string]any{
					"application_id": body.Application.ID, "resume_score": 1, "links_score": 1, "q1_score": 1, "q2_score": 1,
				})
				if s.Status != http.StatusOK {
					mu.Lock()
					problems = append(problems, fmt.Sprintf("submit = %d %s", s.Status, s.Body))
					mu.Unlock()
				}
			}
			mu.Lock()
			problems = append(problems, "a reviewer never reached the end of the queue")
			mu.Unlock()
		}(c)
	}
	wg.Wait()
	if len(problems) > 0 {
		t.Fatalf("%d problems, first: %s", len(problems), problems[0])
	}
	var rows, distinct, mismatched, statsOff int
	err := a.Store.Pool().QueryRow(context.Background(), `
		SELECT (SELECT count(*) FROM reviews),
		       (SELECT count(DISTINCT (application_id, reviewer_id)) FROM reviews),
		       (SELECT count(*) FROM applications a
		         WHERE a.review_count <> (SELECT count(*) FROM reviews r WHERE r.application_id = a.id)),
		       (SELECT count(*) FROM reviewer_stats s
		         WHERE s.review_count <> (SELECT count(*) FROM reviews r WHERE r.reviewer_id = s.reviewer_id))`).
		Scan(&rows, &distinct, &mismatched, &statsOff)
	if err != nil {
		t.Fatal(err)
	}
	if rows != reviewers*applications || distinct != rows || mismatched != 0 || statsOff != 0 {
		t.Fatalf("reviews %d (distinct %d, want %d); applications with a wrong count %d; reviewer totals off %d",
			rows, distinct, reviewers*applications, mismatched, statsOff)
	}
}

// failingStats makes the statistics part of the leaderboard fail.
type failingStats struct{ db.Querier }

func (failingStats) ReviewStatistics(context.Context, uuid.UUID) (db.ReviewStatisticsRow, error) {
	return db.ReviewStatisticsRow{}, errors.New("statistics unavailable")
}

func TestLeaderboard(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	super := as(t, a, anon, account(t, a, "super@example.com", "Super", "superadmin"))
	ana := account(t, a, "ana@example.com", "Ana", "admin")
	ben := account(t, a, "ben@example.com", "", "admin")
	cai := account(t, a, "cai@example.com", "Cai", "admin")
	apps := make([]uuid.UUID, 4)
	for i := range apps {
		apps[i] = seedApplication(t, a, account(t, a, fmt.Sprintf("p%d@example.com", i), "", "member"), "submitted")
	}
	seedApplication(t, a, account(t, a, "draft@example.com", "", "member"), "draft")
	// ana: 3 reviews, ben: 2, cai: 1.
	testenv.Review(t, a.Store, apps[0], ana, 3, 2, 7, 3)
	testenv.Review(t, a.Store, apps[1], ana, 1, 0, 4, 1)
	testenv.Review(t, a.Store, apps[2], ana, 2, 1, 5, 2)
	testenv.Review(t, a.Store, apps[0], ben, 0, 0, 0, 0)
	testenv.Review(t, a.Store, apps[1], ben, 3, 2, 6, 3)
	testenv.Review(t, a.Store, apps[3], cai, 1, 1, 1, 1)

	as(t, a, anon, ana).expect(http.StatusForbidden, "GET", "/api/admin/leaderboard", nil)
	anon.expect(http.StatusUnauthorized, "GET", "/api/admin/leaderboard", nil)

	type entry struct {
		ReviewerID  uuid.UUID `json:"reviewer_id"`
		ReviewCount int       `json:"review_count"`
		Name        *string   `json:"name"`
		Email       string    `json:"email"`
	}
	var body struct {
		Leaderboard []entry            `json:"leaderboard"`
		Statistics  map[string]float64 `json:"statistics"`
	}
	super.expect(http.StatusOK, "GET", "/api/admin/leaderboard", nil).JSON(t, &body)
	if len(body.Leaderboard) != 3 ||
		body.Leaderboard[0].ReviewerID != ana || body.Leaderboard[0].ReviewCount != 3 || *body.Leaderboard[0].Name != "Ana" ||
		body.Leaderboard[1].ReviewerID != ben || body.Leaderboard[1].ReviewCount != 2 || body.Leaderboard[1].Name != nil ||
		body.Leaderboard[2].Email != "cai@example.com" || body.Leaderboard[2].ReviewCount != 1 {
		t.Fatalf("leaderboard %+v", body.Leaderboard)
	}
	// By hand: 6 reviews of 4 submitted applications; score sums
	// resume 3+1+2+0+3+1=10, links 2+0+1+0+2+1=6, q1 7+4+5+0+6+1=23, q2 3+1+2+0+3+1=10.
	want := map[string]float64{
		"total_applications": 4, "total_reviews": 6, "total_reviewers": 3, "avg_reviews_per_application": 1.5,
		"avg_resume_score": 1.67, "avg_links_score": 1, "avg_q1_score": 3.83, "avg_q2_score": 1.67,
	}
	for k, v := range want {
		if body.Statistics[k] != v {
			t.Errorf("statistics.%s = %v, want %v", k, body.Statistics[k], v)
		}
	}
	if len(body.Statistics) != len(want) {
		t.Errorf("statistics has %d fields, want %d", len(body.Statistics), len(want))
	}

	var scores struct {
		ReviewerScores map[string]float64 `json:"reviewerScores"`
	}
	super.expect(http.StatusOK, "GET", "/api/admin/leaderboard?reviewerId="+ana.String(), nil).JSON(t, &scores)
	// ana: resume 6/3=2, links 3/3=1, q1 16/3=5.33, q2 6/3=2.
	for k, v := range map[string]float64{"avg_resume_score": 2, "avg_links_score": 1, "avg_q1_score": 5.33, "avg_q2_score": 2, "total_reviews": 3} {
		if scores.ReviewerScores[k] != v {
			t.Errorf("reviewerScores.%s = %v, want %v", k, scores.ReviewerScores[k], v)
		}
	}
	super.expect(http.StatusOK, "GET", "/api/admin/leaderboard?reviewerId="+uuid.NewString(), nil).JSON(t, &scores)
	if scores.ReviewerScores["total_reviews"] != 0 {
		t.Fatalf("unknown reviewer scores %v", scores.ReviewerScores)
	}
	super.expect(http.StatusBadRequest, "GET", "/api/admin/leaderboard?reviewerId=nope", nil)

	t.Run("StatisticsFailureFallsBack", func(t *testing.T) {
		srv := httptest.NewServer(api.New(api.Deps{Config: a.Config, Store: a.Store, Temporal: a.Temporal,
			Blob: a.Blob, Logger: a.Log, Reads: failingStats{a.Store.Queries}}))
		defer srv.Close()
		c := &client{t: t, base: srv.URL, token: super.token}
		var got struct {
			Leaderboard []entry            `json:"leaderboard"`
			Statistics  map[string]float64 `json:"statistics"`
		}
		c.expect(http.StatusOK, "GET", "/api/admin/leaderboard", nil).JSON(t, &got)
		if len(got.Leaderboard) != 3 || got.Leaderboard[0].ReviewerID != ana {
			t.Fatalf("leaderboard did not survive the statistics failure: %+v", got.Leaderboard)
		}
		for k, v := range got.Statistics {
			if v != 0 {
				t.Errorf("statistics.%s = %v, want the default 0", k, v)
			}
		}
		if len(got.Statistics) != 8 {
			t.Fatalf("default statistics has %d fields, want 8", len(got.Statistics))
		}
	})
}
