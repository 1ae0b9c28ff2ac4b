package review_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/review"
	"hackdesk/internal/platform/apperr"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// person inserts a confirmed account and returns it as a reviewer.
func person(t *testing.T, s *db.Store, email, name string) review.Reviewer {
	t.Helper()
	var display *string
	if name != "" {
		display = &name
	}
	p, err := s.ProfileInsert(context.Background(), db.ProfileInsertParams{
		Email: email, DisplayName: display, PasswordHash: "$argon2id$test", Role: "admin",
	})
	if err != nil {
		t.Fatal(err)
	}
	return review.Reviewer{ProfileID: p.ID, Email: p.Email}
}

// application inserts an application of owner, complete enough to be
// submitted, with a status and a team list.
func application(t *testing.T, s *db.Store, owner review.Reviewer, status, team string) uuid.UUID {
	t.Helper()
	id := uuid.New()
	_, err := s.Pool().Exec(context.Background(), `
		INSERT INTO applications (id, profile_id, status, email, phone, discord, tshirt_size, age, country,
			university, program, year_of_study, experience_level, hackathons_attended,
			resume_key, resume_name, resume_type, q1_answer, q2_answer, coc_agreed, info_share_authorized,
			team_members, submitted_at)
		SELECT $1::uuid, p.id, $3::text, p.email, '+1 613 555 0100', 'handle', 'M', 20, 'Canada',
			'uOttawa', 'CS', '2', 'beginner', 1, p.id::text || '/cv.pdf', 'cv.pdf', 'pdf', 'q1', 'q2', true, true,
			$4::text, CASE WHEN $3::text = 'submitted' THEN now() END
		FROM profiles p WHERE p.id = $2::uuid`, id, owner.ProfileID, status, team)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// nobody is a reviewer with no account: the admin table as someone with
// no conflict of interest sees it.
var nobody = review.Reviewer{ProfileID: uuid.New(), Email: "nobody@example.invalid"}

// current is the current edition's id.
func current(t *testing.T, s *db.Store) uuid.UUID {
	t.Helper()
	h, err := s.HackathonCurrent(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return h.ID
}

func scores(id uuid.UUID, resume, links, q1, q2 int32) review.Request {
	return review.Request{ApplicationID: id.String(), ResumeScore: &resume, LinksScore: &links, Q1Score: &q1, Q2Score: &q2}
}

func submit(s *db.Store, r review.Reviewer, req review.Request) (out review.Submitted, err error) {
	ctx := context.Background()
	err = s.InTx(ctx, func(q *db.Queries) (err error) {
		out, err = review.Submit(ctx, q, r, req)
		return err
	})
	return out, err
}

// apiError is err's client-facing error, or a zero one.
func apiError(err error) apperr.Error {
	if e, ok := apperr.As(err); ok {
		return *e
	}
	return apperr.Error{}
}

func TestSubmit(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ana := person(t, s, "ana@example.com", "Ana")
	owner := person(t, s, "owner@example.com", "")
	mate := person(t, s, "mate@example.com", "")
	app := application(t, s, owner, "submitted", "Mate@Example.com")
	draft := application(t, s, person(t, s, "draft@example.com", ""), "draft", "")

	out, err := submit(s, ana, scores(app, 3, 2, 7, 1))
	if err != nil {
		t.Fatal(err)
	}
	if out.TotalReviews != 1 || out.Review.ApplicationID != app || out.Review.ReviewerID != ana.ProfileID ||
		out.Review.ResumeScore != 3 || out.Review.LinksScore != 2 || out.Review.Q1Score != 7 || out.Review.Q2Score != 1 {
		t.Fatalf("submitted %+v", out)
	}
	var count int32
	if err := s.Pool().QueryRow(context.Background(), `SELECT review_count FROM applications WHERE id = $1`, app).Scan(&count); err != nil || count != 1 {
		t.Fatalf("review_count %d (%v), want 1", count, err)
	}

	cases := []struct {
		name    string
		by      review.Reviewer
		req     review.Request
		code    apperr.Code
		title   string
		message string
	}{
		{"twice", ana, scores(app, 1, 1, 1, 1), apperr.Conflict, "Already reviewed", "You have already reviewed this application"},
		{"own", owner, scores(app, 1, 1, 1, 1), apperr.Forbidden, "Forbidden", "You cannot review your own application"},
		{"on the team", mate, scores(app, 1, 1, 1, 1), apperr.Forbidden, "Forbidden",
			"You cannot review an application that lists you as a team member"},
		{"draft", ana, scores(draft, 1, 1, 1, 1), apperr.NotFound, "Application not found", ""},
		{"unknown", ana, scores(uuid.New(), 1, 1, 1, 1), apperr.NotFound, "Application not found", ""},
		{"score out of range", mate, scores(app, 4, 1, 1, 1), apperr.Invalid, "Validation failed", "resume_score: must be from 0 to 3"},
	}
	for _, c := range cases {
		_, err := submit(s, c.by, c.req)
		if e := apiError(err); e.Code != c.code || e.Title != c.title || e.Message != c.message {
			t.Errorf("%s: %v, want %s %q %q", c.name, err, c.code, c.title, c.message)
		}
	}

	// A second review moves the reviewer's total.
	other := application(t, s, person(t, s, "other@example.com", ""), "submitted", "")
	if out, err := submit(s, ana, scores(other, 0, 0, 0, 0)); err != nil || out.TotalReviews != 2 {
		t.Fatalf("second review: %+v, %v", out, err)
	}
}

func TestNext(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	ana := person(t, s, "ana@example.com", "Ana")
	ben := person(t, s, "ben@example.com", "Ben")
	application(t, s, ana, "submitted", "")                                               // her own
	application(t, s, person(t, s, "p1@example.com", ""), "submitted", "ana@example.com") // lists her
	application(t, s, person(t, s, "p2@example.com", ""), "draft", "")
	a := application(t, s, person(t, s, "p3@example.com", ""), "submitted", "")
	b := application(t, s, person(t, s, "p4@example.com", ""), "submitted", "")

	// ben has reviewed a: ana is given b, which has fewer reviews, and
	// never her own application, her team's or a draft.
	if _, err := submit(s, ben, scores(a, 1, 1, 1, 1)); err != nil {
		t.Fatal(err)
	}
	got, err := review.Next(ctx, s.Queries, ana)
	if err != nil || got.Application.ID != b {
		t.Fatalf("ana's next %v (%v), want %v with no reviews", got.Application.ID, err, b)
	}
	for range 2 {
		row, err := review.Next(ctx, s.Queries, ana)
		if err != nil {
			t.Fatal(err)
		}
		if id := row.Application.ID; id != a && id != b {
			t.Fatalf("ana was given %v: her own, her team's or a draft", id)
		}
		if _, err := submit(s, ana, scores(row.Application.ID, 1, 1, 1, 1)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := review.Next(ctx, s.Queries, ana); !errors.Is(err, review.ErrQueueEmpty) {
		t.Fatalf("after every fit: %v, want ErrQueueEmpty", err)
	}
}

func TestReviewsOf(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	ana := person(t, s, "ana@example.com", "Ana")
	ben := person(t, s, "ben@example.com", "")
	owner := person(t, s, "owner@example.com", "")
	app := application(t, s, owner, "submitted", "ben@example.com")
	if _, err := submit(s, ana, scores(app, 3, 2, 7, 3)); err != nil {
		t.Fatal(err)
	}
	reviews, hidden, err := review.ReviewsOf(ctx, s.Queries, ana, app)
	if err != nil || hidden || len(reviews) != 1 || reviews[0].ReviewerEmail != "ana@example.com" ||
		*reviews[0].ReviewerName != "Ana" || reviews[0].Q1Score != 7 {
		t.Fatalf("reviews %+v hidden %v (%v)", reviews, hidden, err)
	}
	for _, who := range []review.Reviewer{owner, ben} {
		reviews, hidden, err := review.ReviewsOf(ctx, s.Queries, who, app)
		if err != nil || !hidden || reviews == nil || len(reviews) != 0 {
			t.Errorf("%s sees %+v hidden %v (%v), want none, hidden", who.Email, reviews, hidden, err)
		}
	}
	if _, _, err := review.ReviewsOf(ctx, s.Queries, ana, uuid.New()); !errors.Is(err, review.ErrApplicationNotFound) {
		t.Fatalf("unknown application: %v", err)
	}
}

func TestList(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	application(t, s, person(t, s, "ada@example.com", "Ada Lovelace"), "submitted", "")
	application(t, s, person(t, s, "grace@example.com", "Grace"), "draft", "")
	application(t, s, person(t, s, "a_b@example.com", ""), "submitted", "")
	cases := []struct {
		q      review.ListQuery
		emails []string
	}{
		{review.ListQuery{Sort: "email", Order: "asc"}, []string{"a_b@example.com", "ada@example.com", "grace@example.com"}},
		{review.ListQuery{Status: "draft"}, []string{"grace@example.com"}},
		{review.ListQuery{Q: "LOVELACE"}, []string{"ada@example.com"}},
		{review.ListQuery{Q: "a_b"}, []string{"a_b@example.com"}}, // _ is no wildcard
		{review.ListQuery{Q: "nobody"}, nil},
	}
	for _, c := range cases {
		if f := c.q.Validate(); len(f) != 0 {
			t.Fatal(f)
		}
		rows, total, err := review.List(ctx, s.Queries, nobody, c.q, 25, 0)
		if err != nil {
			t.Fatal(err)
		}
		if int(total) != len(c.emails) || len(rows) != len(c.emails) {
			t.Errorf("%+v: %d rows of %d, want %v", c.q, len(rows), total, c.emails)
			continue
		}
		for i, r := range rows {
			if r.Email != c.emails[i] {
				t.Errorf("%+v: row %d is %s, want %s", c.q, i, r.Email, c.emails[i])
			}
		}
	}
	// A page past the first holds the rest; the total counts every page.
	q := review.ListQuery{Sort: "email", Order: "desc"}
	q.Validate()
	rows, total, err := review.List(ctx, s.Queries, nobody, q, 2, 2)
	if err != nil || total != 3 || len(rows) != 1 || rows[0].Email != "a_b@example.com" {
		t.Fatalf("second page %+v of %d (%v)", rows, total, err)
	}
}

func TestLeaderboardAndStats(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	ana := person(t, s, "ana@example.com", "Ana")
	ben := person(t, s, "ben@example.com", "")
	apps := []uuid.UUID{
		application(t, s, person(t, s, "p1@example.com", ""), "submitted", ""),
		application(t, s, person(t, s, "p2@example.com", ""), "submitted", ""),
	}
	for _, r := range []struct {
		by  review.Reviewer
		app uuid.UUID
		req review.Request
	}{{ana, apps[0], scores(apps[0], 3, 2, 7, 3)}, {ana, apps[1], scores(apps[1], 0, 1, 2, 0)}, {ben, apps[0], scores(apps[0], 1, 1, 1, 1)}} {
		if _, err := submit(s, r.by, r.req); err != nil {
			t.Fatal(err)
		}
	}
	edition := current(t, s)
	board, err := review.Leaderboard(ctx, s.Queries, edition)
	if err != nil || len(board) != 2 || board[0].ReviewerID != ana.ProfileID || board[0].ReviewCount != 2 ||
		board[1].Name != nil || board[1].Email != "ben@example.com" {
		t.Fatalf("leaderboard %+v (%v)", board, err)
	}
	st, err := review.Stats(ctx, s.Queries, edition)
	if err != nil || st.TotalApplications != 2 || st.TotalReviews != 3 || st.TotalReviewers != 2 ||
		st.AvgReviewsPerApplication != 1.5 || st.AvgResumeScore != 1.33 || st.AvgQ1Score != 3.33 {
		t.Fatalf("statistics %+v (%v)", st, err)
	}
	sc, err := review.ScoresOf(ctx, s.Queries, edition, ana.ProfileID)
	if err != nil || sc != (review.ReviewerScores{TotalReviews: 2, AvgResumeScore: 1.5, AvgLinksScore: 1.5, AvgQ1Score: 4.5, AvgQ2Score: 1.5,
		MeanTotal: 9, StddevTotal: 6}) { // totals 15 and 3
		t.Fatalf("ana's scores %+v (%v)", sc, err)
	}
	if sc, err := review.ScoresOf(ctx, s.Queries, edition, uuid.New()); err != nil || sc != (review.ReviewerScores{}) {
		t.Fatalf("unknown reviewer's scores %+v (%v), want zeros", sc, err)
	}
}

func TestLoadDashboard(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	application(t, s, person(t, s, "p1@example.com", ""), "submitted", "")
	application(t, s, person(t, s, "p2@example.com", ""), "draft", "")
	var d review.Dashboard
	edition, err := s.HackathonCurrent(ctx)
	if err != nil {
		t.Fatal(err)
	}
	err = s.InSnapshot(ctx, func(q *db.Queries) (err error) {
		d, err = review.LoadDashboard(ctx, q, edition, 24)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if d.StatusBreakdown.Draft != 1 || d.StatusBreakdown.Submitted != 1 || d.Counts.Offers != 0 ||
		d.RsvpTimeline == nil || len(d.RsvpTimeline) != 0 {
		t.Fatalf("dashboard %+v", d)
	}
}
