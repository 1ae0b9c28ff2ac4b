package testenv

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"hackdesk/db"
)

// ApplicationOpts describes an application. The zero value is a complete
// draft: every field the submit rules require is filled in, with a stored
// resume at <owner id>/cv.pdf (no object is uploaded).
type ApplicationOpts struct {
	// ID is the application's id, for a test that needs an order of ids;
	// default: one the database draws.
	ID uuid.UUID
	// Submitted submits it (as POST /api/applications/submit does,
	// selections of PositionIDs included).
	Submitted bool
	// Email defaults to the owner's account email.
	Email       string
	TeamMembers string // comma-separated emails
	PositionIDs []uuid.UUID
	// NoResume leaves the resume out (only a draft can be without one).
	NoResume   bool
	ResumeType string // default "pdf"; "-" stores none (a resume stored before types were)
	// Q1Answer and Q2Answer default to "q1" and "q2".
	Q1Answer, Q2Answer string
	MarketingOptIn     bool
	// Hackathon is the edition; default: the current one.
	Hackathon uuid.UUID
	// ResumeName is the stored resume's file name, kept under
	// <owner id>/<name>; default "cv.pdf".
	ResumeName string
}

// Application inserts the owner's application.
func Application(t testing.TB, s *db.Store, owner uuid.UUID, o ApplicationOpts) db.Application {
	t.Helper()
	ctx := context.Background()
	if o.Email == "" {
		p, err := s.ProfileView(ctx, owner)
		if err != nil {
			t.Fatalf("testenv: application of %s: %v", owner, err)
		}
		o.Email = p.Email
	}
	// One transaction, on which the id can also be set by hand.
	tx, err := s.Pool().Begin(ctx)
	if err != nil {
		t.Fatalf("testenv: application of %s: %v", owner, err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // a no-op after commit
	app, err := insertApplication(ctx, tx, owner, o)
	if err == nil {
		err = tx.Commit(ctx)
	}
	if err != nil {
		t.Fatalf("testenv: application of %s: %v", owner, err)
	}
	return app
}

// insertApplication writes the application on tx.
func insertApplication(ctx context.Context, tx pgx.Tx, owner uuid.UUID, o ApplicationOpts) (db.Application, error) {
	q := db.New(tx)
	var edition *uuid.UUID
	if o.Hackathon != uuid.Nil {
		edition = &o.Hackathon
	}
	a, err := q.ApplicationInsert(ctx, db.ApplicationInsertParams{ProfileID: owner, HackathonID: edition, Email: &o.Email})
	if err != nil {
		return db.Application{}, err
	}
	if o.ID != uuid.Nil {
		// No generated query takes the id; nothing refers to the row yet.
		if err := tx.QueryRow(ctx, `UPDATE applications SET id = $2 WHERE id = $1 RETURNING id`, a.ID, o.ID).Scan(&a.ID); err != nil {
			return db.Application{}, err
		}
	}
	if err := q.ApplicationUpdate(ctx, db.ApplicationUpdateParams{ID: a.ID,
		Email: &o.Email, Phone: ptr("+1 613 555 0100"), Discord: ptr("handle"), TshirtSize: ptr("M"),
		Age: ptr(int32(20)), Country: ptr("Canada"), University: ptr("uOttawa"), Program: ptr("CS"),
		YearOfStudy: ptr("2"), ExperienceLevel: ptr("beginner"), HackathonsAttended: ptr(int32(1)),
		Q1Answer: ptr(nonEmpty(o.Q1Answer, "q1")), Q2Answer: ptr(nonEmpty(o.Q2Answer, "q2")),
		TeamMembers: o.TeamMembers, CocAgreed: true, InfoShareAuthorized: true, MarketingOptIn: o.MarketingOptIn,
	}); err != nil {
		return db.Application{}, err
	}
	if !o.NoResume {
		var kind *string
		if o.ResumeType != "-" {
			kind = ptr(nonEmpty(o.ResumeType, "pdf"))
		}
		name := nonEmpty(o.ResumeName, "cv.pdf")
		if err := q.ApplicationSetResume(ctx, db.ApplicationSetResumeParams{ID: a.ID,
			ResumeKey: ptr(owner.String() + "/" + name), ResumeName: ptr(name), ResumeType: kind}); err != nil {
			return db.Application{}, err
		}
	}
	if len(o.PositionIDs) > 0 {
		if err := q.ApplicationSetPositions(ctx, db.ApplicationSetPositionsParams{ID: a.ID, PositionIds: o.PositionIDs}); err != nil {
			return db.Application{}, err
		}
	}
	if o.Submitted {
		if _, err := q.ApplicationSubmit(ctx, a.ID); err != nil {
			return db.Application{}, err
		}
		if len(o.PositionIDs) > 0 {
			if _, err := q.SelectionsCreateForApplication(ctx, db.SelectionsCreateForApplicationParams{
				ApplicationID: a.ID, PositionIds: o.PositionIDs}); err != nil {
				return db.Application{}, err
			}
		}
	}
	return q.ApplicationGet(ctx, a.ID)
}

// Decision is the decision state of an application, written as it stands
// (no event is recorded, no rule is checked): for a test that needs an
// offer answered, expired or past its deadline.
type Decision struct {
	Decision     string     // offer, waitlist or reject
	RsvpDeadline *time.Time // an offer's defaults to a week from now
	Rsvp         string     // "" for none, attending, declined or expired
	RsvpAt       *time.Time
}

// Decide writes the decision state of a submitted application, decided now.
// No generated query writes an arbitrary state: the API's go through the
// rules this skips.
func Decide(t testing.TB, s *db.Store, application uuid.UUID, d Decision) db.Application {
	t.Helper()
	ctx := context.Background()
	if d.Decision == "offer" && d.RsvpDeadline == nil {
		week := time.Now().Add(7 * 24 * time.Hour)
		d.RsvpDeadline = &week
	}
	var rsvp *string
	if d.Rsvp != "" {
		rsvp = &d.Rsvp
		if d.RsvpAt == nil {
			now := time.Now()
			d.RsvpAt = &now
		}
	}
	if _, err := s.Pool().Exec(ctx, `
		UPDATE applications SET decision = $2, decided_at = now(), rsvp_deadline = $3, rsvp = $4, rsvp_at = $5
		WHERE id = $1`, application, d.Decision, d.RsvpDeadline, rsvp, d.RsvpAt); err != nil {
		t.Fatalf("testenv: decide %s: %v", application, err)
	}
	a, err := s.ApplicationGet(ctx, application)
	if err != nil {
		t.Fatalf("testenv: decide %s: %v", application, err)
	}
	return a
}

// Review inserts a review; scores default to 1 each. The trigger keeps the
// application's counters.
func Review(t testing.TB, s *db.Store, application, reviewer uuid.UUID, scores ...int32) db.Review {
	t.Helper()
	if len(scores) == 0 {
		scores = []int32{1, 1, 1, 1}
	}
	if len(scores) != 4 {
		t.Fatalf("testenv: review: %d scores, want 4 (resume, links, q1, q2)", len(scores))
	}
	r, err := s.ReviewInsert(context.Background(), db.ReviewInsertParams{
		ApplicationID: application, ReviewerID: reviewer,
		ResumeScore: scores[0], LinksScore: scores[1], Q1Score: scores[2], Q2Score: scores[3],
	})
	if err != nil {
		t.Fatalf("testenv: review of %s: %v", application, err)
	}
	return r
}

// Selection makes the application's selection for the position (in review)
// and moves it to status when one is given, recording no event.
func Selection(t testing.TB, s *db.Store, application, position uuid.UUID, status string) db.Selection {
	t.Helper()
	ctx := context.Background()
	rows, err := s.SelectionsCreateForApplication(ctx, db.SelectionsCreateForApplicationParams{
		ApplicationID: application, PositionIds: []uuid.UUID{position}})
	if err != nil || len(rows) != 1 {
		t.Fatalf("testenv: selection of %s for %s: %d rows, %v", application, position, len(rows), err)
	}
	sel := rows[0]
	if status != "" && status != sel.Status {
		if sel, err = s.SelectionSetStatus(ctx, db.SelectionSetStatusParams{ID: sel.ID, Status: status}); err != nil {
			t.Fatalf("testenv: selection %s to %s: %v", sel.ID, status, err)
		}
	}
	return sel
}

// Selections lists the application's selections by position.
func Selections(t testing.TB, s *db.Store, application uuid.UUID) map[uuid.UUID]db.Selection {
	t.Helper()
	// No generated query lists one application's selections.
	rows, err := s.Pool().Query(context.Background(),
		`SELECT id, application_id, position_id, term_id, status, created_at, updated_at, updated_by
		FROM selections WHERE application_id = $1`, application)
	if err != nil {
		t.Fatalf("testenv: selections of %s: %v", application, err)
	}
	defer rows.Close()
	out := map[uuid.UUID]db.Selection{}
	for rows.Next() {
		var r db.Selection
		if err := rows.Scan(&r.ID, &r.ApplicationID, &r.PositionID, &r.TermID, &r.Status, &r.CreatedAt, &r.UpdatedAt, &r.UpdatedBy); err != nil {
			t.Fatalf("testenv: selections of %s: %v", application, err)
		}
		out[r.PositionID] = r
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("testenv: selections of %s: %v", application, err)
	}
	return out
}
