package e2e

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/app"
	"hackdesk/dev/testenv"
)

// setTeam writes the team list of a submitted application, as it stands:
// no generated query edits a submitted application.
func setTeam(t *testing.T, a *app.App, appID uuid.UUID, team string) {
	t.Helper()
	if _, err := a.Store.Pool().Exec(context.Background(),
		`UPDATE applications SET team_members = $2 WHERE id = $1`, appID, team); err != nil {
		t.Fatal(err)
	}
}

// conflictFixture is an admin with a mixed-case email and applications that
// sort first in the queue: their own, two whose teams list them (other case,
// spaces around the comma), two whose teams only contain their email
// as part of a longer one, and the application of the friend their own
// application lists (the conflict the other way).
type conflictFixture struct {
	reviewer, other   uuid.UUID
	own, team, spaced uuid.UUID
	prefix, suffix    uuid.UUID
	clean, listed     uuid.UUID
}

func buildConflictFixture(t *testing.T, a *app.App) conflictFixture {
	t.Helper()
	id := uuid.MustParse
	f := conflictFixture{
		reviewer: account(t, a, "Grace.Hopper@Example.com", "Grace", "admin"),
		other:    account(t, a, "other.admin@example.com", "Other", "admin"),
		own:      id("00000000-0000-0000-0000-000000000001"),
		team:     id("00000000-0000-0000-0000-000000000002"),
		spaced:   id("00000000-0000-0000-0000-000000000003"),
		prefix:   id("00000000-0000-0000-0000-000000000004"),
		suffix:   id("00000000-0000-0000-0000-000000000005"),
		clean:    id("00000000-0000-0000-0000-000000000006"),
		listed:   id("00000000-0000-0000-0000-000000000007"),
	}
	// The reviewer's own application names a teammate, Friend, in another
	// case: the reviewer has a conflict with Friend's application (not
	// Friend's other reviewers). The team lists are written as they
	// stand, in spellings the PATCH endpoint would normalize.
	testenv.Application(t, a.Store, f.reviewer, testenv.ApplicationOpts{ID: f.own, Submitted: true, TeamMembers: "FRIEND@example.com"})
	friend := account(t, a, "friend@example.com", "Friend", "member")
	testenv.Application(t, a.Store, friend, testenv.ApplicationOpts{ID: f.listed, Submitted: true})
	teams := map[uuid.UUID]string{
		f.team:   "friend@example.com,grace.hopper@example.COM",
		f.spaced: "friend@example.com , GRACE.HOPPER@EXAMPLE.COM ",
		f.prefix: "xgrace.hopper@example.com",
		f.suffix: "grace.hopper@example.com.au,friend@example.com",
	}
	for i, appID := range []uuid.UUID{f.team, f.spaced, f.prefix, f.suffix, f.clean} {
		owner := account(t, a, "applicant"+string(rune('a'+i))+"@example.com", "Applicant", "member")
		testenv.Application(t, a.Store, owner, testenv.ApplicationOpts{ID: appID, Submitted: true, TeamMembers: teams[appID]})
	}
	return f
}

// TestReviewConflictQueue: the queue never serves the reviewer's own
// application, one whose team lists them, however the email is spelled,
// or the application of someone their own application lists; it still
// serves teams where their email is only part of another.
func TestReviewConflictQueue(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	f := buildConflictFixture(t, a)
	c := as(t, a, anon, f.reviewer)
	for i, want := range []uuid.UUID{f.prefix, f.suffix, f.clean} {
		got, status := next(t, c)
		if status != http.StatusOK || got != want {
			t.Fatalf("call %d: got %v (status %d), want %v", i+1, got, status, want)
		}
		score(t, c, got, http.StatusOK)
	}
	c.expect(http.StatusNotFound, "GET", "/api/applications/random", nil)

	// Another admin is served the same applications, conflicts included.
	if got, _ := next(t, as(t, a, anon, f.other)); got != f.own {
		t.Fatalf("other admin's first = %v, want %v", got, f.own)
	}
}

// TestReviewConflictSubmit: a review of one's own application, of one
// whose team lists the reviewer, or of the application of someone the
// reviewer's application lists is refused with 403 and records nothing.
func TestReviewConflictSubmit(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	f := buildConflictFixture(t, a)
	c := as(t, a, anon, f.reviewer)
	for _, tc := range []struct {
		name    string
		app     uuid.UUID
		message string
	}{
		{"own", f.own, "You cannot review your own application"},
		{"team", f.team, "You cannot review an application that lists you as a team member"},
		{"team with spaces and other case", f.spaced, "You cannot review an application that lists you as a team member"},
		{"listed by the reviewer's application", f.listed, "You cannot review the application of someone your application lists as a team member"},
	} {
		var e errorJSON
		score(t, c, tc.app, http.StatusForbidden).JSON(t, &e)
		if e.Error != "Forbidden" || e.Message != tc.message {
			t.Fatalf("%s: body %+v", tc.name, e)
		}
	}
	var n int
	if err := a.Store.Pool().QueryRow(context.Background(),
		`SELECT count(*) FROM reviews WHERE reviewer_id = $1`, f.reviewer).Scan(&n); err != nil || n != 0 {
		t.Fatalf("reviews by the reviewer = %d (%v), want 0", n, err)
	}
	// An email that only contains theirs is no conflict.
	score(t, c, f.prefix, http.StatusOK)
	score(t, c, f.suffix, http.StatusOK)
	// A second review of a conflicted application is still 403, not 409:
	// the conflict is checked first.
	testenv.Review(t, a.Store, f.team, f.reviewer)
	score(t, c, f.team, http.StatusForbidden)
	// Others may review them.
	o := as(t, a, anon, f.other)
	score(t, o, f.own, http.StatusOK)
	score(t, o, f.team, http.StatusOK)
	score(t, o, f.listed, http.StatusOK)
}

// TestReviewConflictAdminDetails: the admin details of one's own
// application, of one whose team lists the caller, or of one whose
// applicant the caller's application lists, withhold the reviews; others
// see them.
func TestReviewConflictAdminDetails(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	f := buildConflictFixture(t, a)
	third := account(t, a, "third.admin@example.com", "Third", "admin")
	for _, appID := range []uuid.UUID{f.own, f.team, f.spaced, f.prefix, f.listed} {
		testenv.Review(t, a.Store, appID, f.other)
		testenv.Review(t, a.Store, appID, third)
	}
	type details struct {
		Application struct {
			ID uuid.UUID `json:"id"`
		} `json:"application"`
		Reviews       []adminReviewJSON `json:"reviews"`
		ReviewsHidden *bool             `json:"reviews_hidden"`
	}
	get := func(c *client, appID uuid.UUID) details {
		t.Helper()
		var d details
		c.expect(http.StatusOK, "GET", "/api/admin/applications/"+appID.String(), nil).JSON(t, &d)
		if d.Application.ID != appID || d.ReviewsHidden == nil || d.Reviews == nil {
			t.Fatalf("details of %v: %+v", appID, d)
		}
		return d
	}
	me := as(t, a, anon, f.reviewer)
	for _, appID := range []uuid.UUID{f.own, f.team, f.spaced, f.listed} {
		if d := get(me, appID); !*d.ReviewsHidden || len(d.Reviews) != 0 {
			t.Fatalf("%v as the reviewer: hidden=%v reviews=%d, want hidden and none", appID, *d.ReviewsHidden, len(d.Reviews))
		}
	}
	if d := get(me, f.prefix); *d.ReviewsHidden || len(d.Reviews) != 2 {
		t.Fatalf("prefix as the reviewer: hidden=%v reviews=%d, want 2 shown", *d.ReviewsHidden, len(d.Reviews))
	}
	other := as(t, a, anon, f.other)
	for _, appID := range []uuid.UUID{f.own, f.team, f.listed} {
		if d := get(other, appID); *d.ReviewsHidden || len(d.Reviews) != 2 {
			t.Fatalf("%v as another admin: hidden=%v reviews=%d, want 2 shown", appID, *d.ReviewsHidden, len(d.Reviews))
		}
	}
	// A superadmin applicant is held to the same rule.
	super := account(t, a, "super@example.com", "Super", "superadmin")
	setTeam(t, a, f.clean, "Super@Example.com")
	testenv.Review(t, a.Store, f.clean, f.other)
	if d := get(as(t, a, anon, super), f.clean); !*d.ReviewsHidden || len(d.Reviews) != 0 {
		t.Fatalf("superadmin on the team: hidden=%v reviews=%d", *d.ReviewsHidden, len(d.Reviews))
	}
}

// TestReviewConflictAdminList: in the admin table the scores of the
// caller's own application, of one whose team lists them and of one whose
// applicant their application lists are null, and sort as unreviewed;
// another admin sees every score.
func TestReviewConflictAdminList(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	f := buildConflictFixture(t, a)
	third := account(t, a, "third.admin@example.com", "Third", "admin")
	conflicted := []uuid.UUID{f.own, f.team, f.spaced, f.listed}
	for _, appID := range append([]uuid.UUID{f.prefix, f.clean}, conflicted...) {
		testenv.Review(t, a.Store, appID, f.other, 3, 2, 7, 3)
		testenv.Review(t, a.Store, appID, third, 1, 1, 1, 1)
	}
	type row struct {
		ID              uuid.UUID `json:"id"`
		Score           *float64  `json:"score"`
		NormalizedScore *float64  `json:"normalized_score"`
	}
	list := func(c *client, query string) []row {
		t.Helper()
		var page struct {
			Applications []row `json:"applications"`
		}
		c.expect(http.StatusOK, "GET", "/api/admin/applications?page_size=50"+query, nil).JSON(t, &page)
		return page.Applications
	}
	me := as(t, a, anon, f.reviewer)
	hidden := map[uuid.UUID]bool{}
	for _, id := range conflicted {
		hidden[id] = true
	}
	rows := list(me, "")
	if len(rows) != 7 {
		t.Fatalf("%d rows, want 7", len(rows))
	}
	for _, r := range rows {
		shown := r.Score != nil && r.NormalizedScore != nil
		if hidden[r.ID] && (r.Score != nil || r.NormalizedScore != nil) || (r.ID == f.prefix || r.ID == f.clean) && !shown {
			t.Errorf("the reviewer's row %v: score %v normalized %v (hidden: %v)", r.ID, r.Score, r.NormalizedScore, hidden[r.ID])
		}
	}
	// Sorted by score, the hidden ones come with the unreviewed, last.
	rows = list(me, "&sort=score&order=desc")
	for i, r := range rows[:2] {
		if hidden[r.ID] || r.Score == nil {
			t.Fatalf("row %d by score is %v (score %v), want a scored one", i, r.ID, r.Score)
		}
	}
	for _, r := range list(as(t, a, anon, f.other), "") {
		if (hidden[r.ID] || r.ID == f.clean) && (r.Score == nil || r.NormalizedScore == nil) {
			t.Errorf("another admin's row %v has no score", r.ID)
		}
	}
}

// TestConflictDecisions: a decision batch naming the caller's own
// application, one whose team lists them, or one whose applicant their
// application lists, is refused as a whole with
// 403 naming each conflicted application; nothing changes. Other admins
// decide them.
func TestConflictDecisions(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	f := buildConflictFixture(t, a)
	c := as(t, a, anon, f.reviewer)
	deadline := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	for _, tc := range []struct {
		name    string
		ids     []uuid.UUID
		message string
	}{
		{"own", []uuid.UUID{f.clean, f.own}, "You cannot decide on your own application: " + f.own.String()},
		{"team", []uuid.UUID{f.spaced, f.clean, f.team},
			"You cannot decide on an application that lists you as a team member: " + f.team.String() + ", " + f.spaced.String()},
		{"both", []uuid.UUID{f.team, f.own},
			"You cannot decide on your own application: " + f.own.String() +
				"; you cannot decide on an application that lists you as a team member: " + f.team.String()},
		{"listed", []uuid.UUID{f.listed, f.clean},
			"You cannot decide on the application of someone your application lists as a team member: " + f.listed.String()},
	} {
		var e errorJSON
		decPost(t, c, http.StatusForbidden, tc.ids, "offer", deadline).JSON(t, &e)
		if e.Error != "Forbidden" || e.Message != tc.message {
			t.Errorf("%s: %+v, want Forbidden %q", tc.name, e, tc.message)
		}
	}
	for _, id := range []uuid.UUID{f.own, f.team, f.spaced, f.clean, f.listed} {
		if st := decState(t, a, id); st.Decision != nil {
			t.Fatalf("%s decided by a refused batch: %+v", id, st)
		}
	}
	// Teams that only contain the caller's email as part of a longer one
	// are no conflict; another admin decides the rest.
	decPost(t, c, http.StatusOK, []uuid.UUID{f.prefix, f.suffix, f.clean}, "waitlist", nil)
	decPost(t, as(t, a, anon, f.other), http.StatusOK, []uuid.UUID{f.own, f.team, f.spaced, f.listed}, "reject", nil)
}
