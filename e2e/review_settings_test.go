package e2e

import (
	"context"
	"fmt"
	"hackdesk/dev/testenv"
	"math"
	"net/http"
	"testing"

	"github.com/google/uuid"

	"hackdesk/app"
)

const reviewSettingsPath = "/api/admin/review-settings"

// seedIdentifiedApplication writes a submitted application that says who
// its applicant is in every field blind mode leaves out, and what is
// scored in every field it keeps.
func seedIdentifiedApplication(t *testing.T, a *app.App, owner uuid.UUID, team string) uuid.UUID {
	t.Helper()
	id := uuid.New()
	_, err := a.Store.Pool().Exec(context.Background(), `
		INSERT INTO applications (id, profile_id, status, email, phone, discord, tshirt_size, age, country, gender,
			ethnicity, university, program, year_of_study, experience_level, hackathons_attended, github_url,
			linkedin_url, website_url, resume_key, resume_name, resume_type, q1_answer, q2_answer, coc_agreed,
			info_share_authorized, team_members, submitted_at)
		SELECT $1::uuid, p.id, 'submitted', p.email, '+1 613 555 0100', 'ada#1', 'M', 20, 'Canada', 'woman',
			'prefer not to say', 'uOttawa', 'CS', '2', 'beginner', 1, 'https://github.com/ada',
			'https://linkedin.com/in/ada', 'https://ada.dev', p.id::text || '/cv.pdf', 'cv.pdf', 'pdf',
			'my first answer', 'my second answer', true, true, $3::text, now()
		FROM profiles p WHERE p.id = $2::uuid`, id, owner, team)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// settingsJSON is GET/PATCH /api/admin/review-settings's answer.
type settingsJSON struct {
	Blind bool `json:"blind"`
	Cap   *int `json:"cap"`
}

func TestReviewSettingsBlind(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	super := as(t, a, anon, account(t, a, "super@example.com", "Super", "superadmin"))
	reviewer := as(t, a, anon, account(t, a, "reviewer@example.com", "Reviewer", "admin"))
	account(t, a, "mate@example.com", "Mate Person", "member")
	app := seedIdentifiedApplication(t, a, account(t, a, "ada@example.com", "Ada Lovelace", "member"), "mate@example.com")

	var got settingsJSON
	super.expect(http.StatusOK, "PATCH", reviewSettingsPath, map[string]any{"blind": true}).JSON(t, &got)
	if !got.Blind || got.Cap != nil {
		t.Fatalf("settings %+v, want blind without a cap", got)
	}

	var body struct {
		Application map[string]any `json:"application"`
		Blind       bool           `json:"blind"`
	}
	reviewer.expect(http.StatusOK, "GET", "/api/applications/random", nil).JSON(t, &body)
	v := body.Application
	if !body.Blind || v["id"] != app.String() {
		t.Fatalf("blind %v application %v, want the seeded one, blind", body.Blind, v["id"])
	}
	for _, f := range []string{"email", "phone", "discord", "age", "gender", "ethnicity", "country", "university"} {
		if val, ok := v[f]; !ok || val != nil {
			t.Errorf("blind view: %s = %v, want null", f, val)
		}
	}
	if v["team_members"] != "" {
		t.Errorf("blind view: team_members = %v, want empty", v["team_members"])
	}
	if team, ok := v["team_members_with_names"].([]any); !ok || len(team) != 0 {
		t.Errorf("blind view: team_members_with_names = %v, want []", v["team_members_with_names"])
	}
	for f, want := range map[string]string{
		"github_url": "https://github.com/ada", "linkedin_url": "https://linkedin.com/in/ada", "website_url": "https://ada.dev",
		"q1_answer": "my first answer", "q2_answer": "my second answer",
	} {
		if v[f] != want {
			t.Errorf("blind view: %s = %v, want %q kept", f, v[f], want)
		}
	}
	if url, ok := v["resume_url"].(string); !ok || url == "" {
		t.Errorf("blind view: resume_url = %v, want the signed link", v["resume_url"])
	}
	if _, ok := v["answers"].(map[string]any); !ok {
		t.Errorf("blind view: answers = %v, want kept", v["answers"])
	}

	// The admin details still show everything.
	var details adminDetailsJSON
	reviewer.expect(http.StatusOK, "GET", "/api/admin/applications/"+app.String(), nil).JSON(t, &details)
	if details.Application.Email == nil || *details.Application.Email != "ada@example.com" ||
		len(details.Application.TeamMembersWithNames) != 1 || details.Application.University == nil {
		t.Fatalf("details under blind %+v", details.Application)
	}

	// Blind off: the reviewer view says who applied again.
	super.expect(http.StatusOK, "PATCH", reviewSettingsPath, map[string]any{"blind": false})
	reviewer.expect(http.StatusOK, "GET", "/api/applications/random", nil).JSON(t, &body)
	if body.Blind || body.Application["email"] != "ada@example.com" || body.Application["university"] != "uOttawa" {
		t.Fatalf("not blind: %v", body)
	}
}

func TestReviewSettingsCap(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	super := as(t, a, anon, account(t, a, "super@example.com", "Super", "superadmin"))
	me := as(t, a, anon, account(t, a, "reviewer@example.com", "Reviewer", "admin"))
	x := account(t, a, "x@example.com", "X", "admin")
	y := account(t, a, "y@example.com", "Y", "admin")
	var full, half uuid.UUID
	full = seedApplication(t, a, account(t, a, "full@example.com", "", "member"), "submitted")
	testenv.Review(t, a.Store, full, x)
	testenv.Review(t, a.Store, full, y)

	var got settingsJSON
	super.expect(http.StatusOK, "PATCH", reviewSettingsPath, map[string]any{"cap": 2}).JSON(t, &got)
	if got.Cap == nil || *got.Cap != 2 || got.Blind {
		t.Fatalf("settings %+v, want cap 2", got)
	}
	r := me.expect(http.StatusNotFound, "GET", "/api/applications/random", nil)
	if r.Map(t)["error"] != "No applications left to review" {
		t.Fatalf("queue at the cap: %s", r.Body)
	}
	// An application below the cap is given; the one at the cap is not.
	half = seedApplication(t, a, account(t, a, "half@example.com", "", "member"), "submitted")
	testenv.Review(t, a.Store, half, x)
	if id, status := next(t, me); status != http.StatusOK || id != half {
		t.Fatalf("next %v (%d), want %v below the cap", id, status, half)
	}
	// No cap: the one with two reviews is back (after the one with one).
	super.expect(http.StatusOK, "PATCH", reviewSettingsPath, map[string]any{"cap": nil})
	score(t, me, half, http.StatusOK)
	if id, status := next(t, me); status != http.StatusOK || id != full {
		t.Fatalf("no cap: next %v (%d), want %v", id, status, full)
	}
}

func TestReviewSettingsValidationAndRoles(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	super := as(t, a, anon, account(t, a, "super@example.com", "Super", "superadmin"))
	admin := as(t, a, anon, account(t, a, "admin@example.com", "Admin", "admin"))

	var got settingsJSON
	super.expect(http.StatusOK, "GET", reviewSettingsPath, nil).JSON(t, &got)
	if got.Blind || got.Cap != nil {
		t.Fatalf("initial settings %+v", got)
	}
	r := super.expect(http.StatusBadRequest, "PATCH", reviewSettingsPath, map[string]any{"cap": 0})
	if m := r.Map(t); m["error"] != "Validation failed" || m["message"] != "cap: must be null or at least 1" {
		t.Fatalf("cap 0: %s", r.Body)
	}
	super.expect(http.StatusBadRequest, "PATCH", reviewSettingsPath, map[string]any{"cap": 1.5})
	super.expect(http.StatusBadRequest, "PATCH", reviewSettingsPath, map[string]any{"blind": nil})
	super.expect(http.StatusBadRequest, "PATCH", reviewSettingsPath, map[string]any{"extra": true})
	super.expect(http.StatusOK, "PATCH", reviewSettingsPath, map[string]any{"cap": 3, "blind": true})
	super.expect(http.StatusOK, "PATCH", reviewSettingsPath, map[string]any{"cap": nil}).JSON(t, &got)
	if !got.Blind || got.Cap != nil {
		t.Fatalf("cap null: %+v, want blind kept and no cap", got)
	}
	super.expect(http.StatusOK, "GET", reviewSettingsPath, nil).JSON(t, &got)
	if !got.Blind || got.Cap != nil {
		t.Fatalf("stored settings %+v", got)
	}
	var changes int
	if err := a.Store.Pool().QueryRow(context.Background(), `SELECT count(*) FROM review_settings_history`).Scan(&changes); err != nil || changes != 2 {
		t.Fatalf("%d changes recorded (%v), want 2", changes, err)
	}

	// Admins and anonymous callers may not read or change them; the 403
	// comes before the body's 400.
	admin.expect(http.StatusForbidden, "GET", reviewSettingsPath, nil)
	admin.expect(http.StatusForbidden, "PATCH", reviewSettingsPath, map[string]any{"cap": 0})
	anon.expect(http.StatusUnauthorized, "GET", reviewSettingsPath, nil)
	anon.expect(http.StatusUnauthorized, "PATCH", reviewSettingsPath, map[string]any{"cap": 2})
}

func TestReviewSettingsNormalizedScores(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	super := as(t, a, anon, account(t, a, "super@example.com", "Super", "superadmin"))
	generous := account(t, a, "generous@example.com", "Generous", "admin")
	harsh := account(t, a, "harsh@example.com", "Harsh", "admin")
	apps := make([]uuid.UUID, 5)
	for i := range apps {
		apps[i] = seedApplication(t, a, account(t, a, fmt.Sprintf("p%d@example.com", i), "", "member"), "submitted")
		q1 := int32(7 - i)
		testenv.Review(t, a.Store, apps[i], generous, 3, 2, q1, 3) // totals 15..11
		testenv.Review(t, a.Store, apps[i], harsh, 0, 0, q1-2, 0)  // totals 5..1
	}
	unreviewed := seedApplication(t, a, account(t, a, "none@example.com", "", "member"), "submitted")

	type row struct {
		ID              uuid.UUID `json:"id"`
		Score           *float64  `json:"score"`
		NormalizedScore *float64  `json:"normalized_score"`
	}
	var page struct {
		Applications []row `json:"applications"`
	}
	super.expect(http.StatusOK, "GET", "/api/admin/applications?sort=normalized_score&order=desc", nil).JSON(t, &page)
	if len(page.Applications) != 6 {
		t.Fatalf("%d rows, want 6", len(page.Applications))
	}
	z0 := math.Sqrt2 // (15 - 13) / sqrt(2): the first application's z for either reviewer
	for i, r := range page.Applications[:5] {
		if r.ID != apps[i] || r.Score == nil || *r.Score != float64(10-i) || r.NormalizedScore == nil {
			t.Fatalf("row %d: %+v, want %v with score %d", i, r, apps[i], 10-i)
		}
	}
	if n := *page.Applications[0].NormalizedScore; math.Abs(n-z0) > 1e-9 {
		t.Errorf("first normalized score %v, want %v", n, z0)
	}
	if last := page.Applications[5]; last.ID != unreviewed || last.Score != nil || last.NormalizedScore != nil {
		t.Errorf("unreviewed row %+v, want last with null scores", last)
	}
	super.expect(http.StatusOK, "GET", "/api/admin/applications?sort=score&order=asc", nil).JSON(t, &page)
	if page.Applications[0].ID != apps[4] || page.Applications[5].ID != unreviewed {
		t.Errorf("by score ascending: %v first, %v last", page.Applications[0].ID, page.Applications[5].ID)
	}

	// The details list each review's total and z: equal for both reviewers.
	var details struct {
		Reviews []struct {
			ReviewerID      uuid.UUID `json:"reviewer_id"`
			Total           int       `json:"total"`
			NormalizedScore float64   `json:"normalized_score"`
		} `json:"reviews"`
	}
	super.expect(http.StatusOK, "GET", "/api/admin/applications/"+apps[0].String(), nil).JSON(t, &details)
	if len(details.Reviews) != 2 || details.Reviews[0].NormalizedScore != details.Reviews[1].NormalizedScore ||
		details.Reviews[0].Total+details.Reviews[1].Total != 20 || math.Abs(details.Reviews[0].NormalizedScore-z0) > 1e-9 {
		t.Fatalf("reviews %+v, want totals 15 and 5 with z %v", details.Reviews, z0)
	}

	var scores struct {
		ReviewerScores map[string]float64 `json:"reviewerScores"`
	}
	super.expect(http.StatusOK, "GET", "/api/admin/leaderboard?reviewerId="+harsh.String(), nil).JSON(t, &scores)
	if s := scores.ReviewerScores; s["mean_total"] != 3 || s["stddev_total"] != 1.41 || s["total_reviews"] != 5 {
		t.Fatalf("harsh reviewer's scores %v, want mean 3, deviation 1.41", s)
	}
}
