package e2e

import (
	"context"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/google/uuid"

	"hackdesk/db"
)

// assignment is GET /api/applications/random's answer, as the helpers
// of /review read it.
type assignment struct {
	Application struct {
		ID                 uuid.UUID `json:"id"`
		Name               *string   `json:"name"`
		Email              *string   `json:"email"`
		University         *string   `json:"university"`
		Program            *string   `json:"program"`
		YearOfStudy        *string   `json:"year_of_study"`
		ExperienceLevel    *string   `json:"experience_level"`
		HackathonsAttended *int32    `json:"hackathons_attended"`
	} `json:"application"`
	Blind  bool                                  `json:"blind"`
	Left   int                                   `json:"left"`
	Rubric map[string]struct{ Low, High string } `json:"rubric"`
}

func assigned(t *testing.T, c *client) assignment {
	t.Helper()
	var out assignment
	c.expect(http.StatusOK, "GET", "/api/applications/random", nil).JSON(t, &out)
	return out
}

func skip(c *client, id any, want int) response {
	return c.expect(want, "POST", "/api/review/skip", map[string]any{"application_id": id})
}

// Skip changes the queue of the reviewer who skipped, and only theirs:
// their skipped applications come after every other one, those skipped
// fewer times first, then by the assignment rule (fewest reviews, id);
// the count of what is left stays the same. A skip is refused as a review
// is.
func TestReviewSkip(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	r1, _ := decAccount(t, a, anon, "r1@example.com", "admin")
	r2, _ := decAccount(t, a, anon, "r2@example.com", "admin")
	var ids []uuid.UUID
	for _, who := range []string{"p", "q", "s"} {
		_, _, id := decApplicant(t, a, anon, who+"@example.com", "submitted")
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i].String() < ids[j].String() })
	want := func(c *client, id uuid.UUID, left int) {
		t.Helper()
		got := assigned(t, c)
		if got.Application.ID != id || got.Left != left {
			t.Fatalf("served %s with %d left, want %s with %d", got.Application.ID, got.Left, id, left)
		}
	}
	want(r1, ids[0], 3)
	var s struct{ Skips int }
	skip(r1, ids[0], http.StatusOK).JSON(t, &s)
	if s.Skips != 1 {
		t.Fatalf("skips = %d", s.Skips)
	}
	want(r1, ids[1], 3)
	want(r2, ids[0], 3) // another reviewer's queue is as it was
	skip(r1, ids[1], http.StatusOK)
	want(r1, ids[2], 3)
	skip(r1, ids[2], http.StatusOK)
	want(r1, ids[0], 3) // every one skipped once: the rule's order again
	skip(r1, ids[0], http.StatusOK).JSON(t, &s)
	if s.Skips != 2 {
		t.Fatalf("skips = %d after the second skip", s.Skips)
	}
	want(r1, ids[1], 3)
	score(t, r1, ids[1], http.StatusOK)
	want(r1, ids[2], 2)

	skip(r1, ids[1], http.StatusConflict) // reviewed
	skip(r1, uuid.New(), http.StatusNotFound)
	skip(r1, "nope", http.StatusBadRequest)
	member, _ := decAccount(t, a, anon, "m@example.com", "member")
	skip(member, ids[0], http.StatusForbidden)
	// The conflict-of-interest rule holds: the reviewer's own application
	// is neither served nor skipped.
	own, ownerID := decAccount(t, a, anon, "own@example.com", "admin")
	mine := seedApplication(t, a, ownerID, "submitted")
	skip(own, mine, http.StatusForbidden)
	if got := assigned(t, own); got.Application.ID == mine || got.Left != 3 {
		t.Fatalf("the owner was served %s with %d left", got.Application.ID, got.Left)
	}
}

// The reviewer view names the applicant unless blind review is on, when
// none of name, email, university, program, year, experience or
// hackathons attended is sent; the rubric rides with it and is edited
// with the review settings.
func TestReviewApplicantAndRubric(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	reviewer, _ := decAccount(t, a, anon, "r@example.com", "admin")
	super, _ := decAccount(t, a, anon, "super@example.com", "superadmin")
	_, _, id := decApplicant(t, a, anon, "ada@example.com", "submitted")
	if _, err := a.Store.Pool().Exec(context.Background(), `UPDATE applications SET university = 'Uni', program = 'CS',
		year_of_study = '2nd', experience_level = 'Beginner', hackathons_attended = 2 WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	got := assigned(t, reviewer)
	ap := got.Application
	if got.Blind || ap.Name == nil || *ap.Name != "ada@example.com" || ap.Email == nil || ap.University == nil ||
		ap.Program == nil || *ap.Program != "CS" || ap.YearOfStudy == nil || ap.ExperienceLevel == nil ||
		ap.HackathonsAttended == nil || *ap.HackathonsAttended != 2 {
		t.Fatalf("the open view lacks who the applicant is: %+v", ap)
	}
	if r := got.Rubric["q1_score"]; r.Low == "" || r.High == "" || len(got.Rubric) != 4 {
		t.Fatalf("rubric = %+v", got.Rubric)
	}

	super.expect(http.StatusOK, "PATCH", "/api/admin/review-settings", map[string]any{
		"blind": true, "rubric": map[string]any{"q1_score": map[string]string{"low": " Blank ", "high": "Brilliant"}}})
	got = assigned(t, reviewer)
	ap = got.Application
	if !got.Blind || ap.Name != nil || ap.Email != nil || ap.University != nil || ap.Program != nil ||
		ap.YearOfStudy != nil || ap.ExperienceLevel != nil || ap.HackathonsAttended != nil {
		t.Fatalf("the blind view shows who the applicant is: %+v", ap)
	}
	if r := got.Rubric["q1_score"]; r.Low != "Blank" || r.High != "Brilliant" {
		t.Fatalf("rubric after the change = %+v", got.Rubric)
	}
	for _, bad := range []map[string]any{
		{"q1_score": map[string]string{"low": "", "high": "x"}},
		{"q1_score": map[string]string{"low": strings.Repeat("x", 201), "high": "x"}},
		{"nope": map[string]string{"low": "x", "high": "x"}},
	} {
		super.expect(http.StatusBadRequest, "PATCH", "/api/admin/review-settings", map[string]any{"rubric": bad})
	}
	reviewer.expect(http.StatusForbidden, "PATCH", "/api/admin/review-settings", map[string]any{
		"rubric": map[string]any{"q1_score": map[string]string{"low": "a", "high": "b"}}})
	var s struct {
		Rubric map[string]struct{ Low, High string } `json:"rubric"`
	}
	super.expect(http.StatusOK, "GET", "/api/admin/review-settings", nil).JSON(t, &s)
	if s.Rubric["q1_score"].High != "Brilliant" || s.Rubric["resume_score"].Low == "" {
		t.Fatalf("settings' rubric = %+v", s.Rubric)
	}
}

// A private note is kept with the review, read by superadmins only in the
// details, length-limited, and blanked by retention's purge and by the
// erasure of the applicant or of the reviewer.
func TestReviewNote(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	ctx := context.Background()
	reviewer, reviewerID := decAccount(t, a, anon, "r@example.com", "admin")
	admin, _ := decAccount(t, a, anon, "admin@example.com", "admin")
	super, _ := decAccount(t, a, anon, "super@example.com", "superadmin")
	_, _, id := decApplicant(t, a, anon, "ada@example.com", "submitted")
	_, _, other := decApplicant(t, a, anon, "bea@example.com", "submitted")
	_, _, third := decApplicant(t, a, anon, "cy@example.com", "submitted")
	body := func(app uuid.UUID, note any) map[string]any {
		return map[string]any{"application_id": app, "resume_score": 1, "links_score": 1, "q1_score": 1, "q2_score": 1, "note": note}
	}
	reviewer.expect(http.StatusBadRequest, "POST", "/api/review/submit", body(id, strings.Repeat("é", 2001)))
	reviewer.expect(http.StatusOK, "POST", "/api/review/submit", body(id, "  Strong on compilers.  "))
	reviewer.expect(http.StatusOK, "POST", "/api/review/submit", body(other, "   "))
	notes := func(c *client, app uuid.UUID) []*string {
		t.Helper()
		var d struct {
			Reviews []struct {
				Note *string `json:"note"`
			} `json:"reviews"`
		}
		c.expect(http.StatusOK, "GET", "/api/admin/applications/"+app.String(), nil).JSON(t, &d)
		out := make([]*string, len(d.Reviews))
		for i, r := range d.Reviews {
			out[i] = r.Note
		}
		return out
	}
	if n := notes(super, id); len(n) != 1 || n[0] == nil || *n[0] != "Strong on compilers." {
		t.Fatalf("the superadmin reads %v", n)
	}
	if n := notes(admin, id); len(n) != 1 || n[0] != nil {
		t.Fatalf("an admin reads a note: %v", n)
	}
	if n := notes(super, other); len(n) != 1 || n[0] != nil {
		t.Fatalf("a blank note was kept: %v", n)
	}

	stored := func(app uuid.UUID) *string {
		t.Helper()
		var n *string
		if err := a.Store.Pool().QueryRow(ctx, `SELECT note FROM reviews WHERE application_id = $1`, app).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	// Retention (and an applicant's erasure, the same statement) blanks
	// the notes on the applications it purges.
	if _, err := a.Store.ApplicationsPurge(ctx, db.ApplicationsPurgeParams{Ids: []uuid.UUID{id}, Erase: false}); err != nil {
		t.Fatal(err)
	}
	if n := stored(id); n != nil {
		t.Fatalf("the note survived the purge: %q", *n)
	}
	// The reviewer's erasure blanks the notes they wrote; the scores stay.
	reviewer.expect(http.StatusOK, "POST", "/api/review/submit", body(third, "Ask about the robot."))
	if n := stored(third); n == nil {
		t.Fatal("the note was not kept")
	}
	if _, err := a.Store.ReviewNotesEraseByReviewer(ctx, reviewerID); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Store.Pool().Exec(ctx, `UPDATE reviews SET q1_score = 0 WHERE application_id = $1`, third); err == nil {
		t.Fatal("a review's score changed")
	}
	if n := stored(third); n != nil {
		t.Fatalf("the reviewer's note survived their erasure: %q", *n)
	}
}
