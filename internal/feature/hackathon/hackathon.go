// Package hackathon holds the hackathon's editions: one a year, each with
// its application window (open, close), its event dates and capacity, and
// exactly one current edition, which the applicant routes and the review
// queue act on. Staff routes about applications are scoped to an edition
// (Scope); the window rule (WindowAt, OpenForWrites) guards every write of
// an application. The API's edition routes, the application and review
// features and the ApplicationWindow workflow's activities read editions
// here, so "current", "closed" and "not found" are answered one way.
package hackathon

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
)

// The errors the API answers for editions.
var (
	// ErrNotFound is a 404: the edition asked for does not exist.
	ErrNotFound = apperr.New(apperr.NotFound, "Hackathon not found")
	// ErrExists is a 409: names are unique whatever their case.
	ErrExists = apperr.WithMessage(apperr.Conflict, "Hackathon exists", "A hackathon with this name exists already")
	// ErrNotCurrent is the 409 of a write that acts on the current edition
	// only (a review) given an application of another.
	ErrNotCurrent = apperr.New(apperr.Conflict, "That hackathon is not the current one")
	// errNoCurrent is internal: the migration makes a current edition and
	// moving the flag sets another in the same transaction.
	errNoCurrent = errors.New("hackathon: no current edition")
)

// Phase is where an edition stands at one instant.
type Phase string

const (
	Upcoming Phase = "upcoming" // before applications open
	Open     Phase = "open"     // applications open (no close date: open for good)
	Closed   Phase = "closed"   // applications closed, the event not started (or no event dates)
	Running  Phase = "running"  // the event is on
	Over     Phase = "over"     // the event has ended
)

// Phases lists every Phase in the order an edition goes through them.
func Phases() []Phase { return []Phase{Upcoming, Open, Closed, Running, Over} }

// PhaseAt is h's phase at now: applications open from their opening
// (inclusive) to their close (exclusive); after the close the edition is
// running from starts_at and over from ends_at, when those are set.
func PhaseAt(h db.Hackathon, now time.Time) Phase {
	switch {
	case now.Before(h.ApplicationsOpenAt):
		return Upcoming
	case h.ApplicationsCloseAt == nil || now.Before(*h.ApplicationsCloseAt):
		return Open
	case h.EndsAt != nil && !now.Before(*h.EndsAt):
		return Over
	case h.StartsAt != nil && !now.Before(*h.StartsAt):
		return Running
	}
	return Closed
}

// Ref names an edition in other resources' answers.
type Ref struct {
	ID   uuid.UUID `json:"id"`
	Name string    `json:"name"`
}

// RefOf is h's Ref.
func RefOf(h db.Hackathon) Ref { return Ref{ID: h.ID, Name: h.Name} }

// View is an edition as anyone may see it (GET /api/hackathons/current),
// with its phase at the database's clock.
type View struct {
	ID                  uuid.UUID  `json:"id"`
	Name                string     `json:"name"`
	ApplicationsOpenAt  time.Time  `json:"applications_open_at"`
	ApplicationsCloseAt *time.Time `json:"applications_close_at"`
	StartsAt            *time.Time `json:"starts_at"`
	EndsAt              *time.Time `json:"ends_at"`
	Capacity            *int32     `json:"capacity"`
	Phase               Phase      `json:"phase"`
	Venue               *string    `json:"venue"`
	WaiverURL           *string    `json:"waiver_url"`
	FeedbackURL         *string    `json:"feedback_url"`
}

// ToView is h as View at now.
func ToView(h db.Hackathon, now time.Time) View {
	return View{ID: h.ID, Name: h.Name, ApplicationsOpenAt: h.ApplicationsOpenAt, ApplicationsCloseAt: h.ApplicationsCloseAt,
		StartsAt: h.StartsAt, EndsAt: h.EndsAt, Capacity: h.Capacity, Phase: PhaseAt(h, now),
		Venue: h.Venue, WaiverURL: h.WaiverUrl, FeedbackURL: h.FeedbackUrl}
}

// AdminView is an edition as staff see it: View with the flags and dates
// of its record.
type AdminView struct {
	View
	Announce  bool      `json:"announce"`
	Current   bool      `json:"current"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// PurgeAt is when retention purges the edition's applications
	// (WithPurge); null while it has neither an end nor a close.
	PurgeAt *time.Time `json:"purge_at"`
}

// PurgeAt is when an edition's applications are purged: retentionDays
// (RETENTION_DAYS) after it ends, or after it closes when it has no end;
// nil when it has neither (an edition open for good is kept).
func PurgeAt(endsAt, closeAt *time.Time, retentionDays int) *time.Time {
	base := endsAt
	if base == nil {
		base = closeAt
	}
	if base == nil {
		return nil
	}
	t := base.Add(time.Duration(retentionDays) * 24 * time.Hour)
	return &t
}

// WithPurge is v with its purge date under retentionDays.
func (v AdminView) WithPurge(retentionDays int) AdminView {
	v.PurgeAt = PurgeAt(v.EndsAt, v.ApplicationsCloseAt, retentionDays)
	return v
}

// ToAdminView is h as AdminView at now.
func ToAdminView(h db.Hackathon, now time.Time) AdminView {
	return AdminView{View: ToView(h, now), Announce: h.Announce, Current: h.Current, CreatedAt: h.CreatedAt, UpdatedAt: h.UpdatedAt}
}

// Current is the current edition.
func Current(ctx context.Context, q db.Querier) (db.Hackathon, error) {
	h, err := q.HackathonCurrent(ctx)
	if errors.Is(err, db.ErrNotFound) {
		return h, errNoCurrent
	}
	return h, err
}

// CurrentAt is the current edition and the database's clock.
func CurrentAt(ctx context.Context, q db.Querier) (db.Hackathon, time.Time, error) {
	row, err := q.HackathonCurrentAt(ctx)
	if errors.Is(err, db.ErrNotFound) {
		return row.Hackathon, row.DbNow, errNoCurrent
	}
	return row.Hackathon, row.DbNow, err
}

// Get is edition id, or ErrNotFound.
func Get(ctx context.Context, q db.Querier, id uuid.UUID) (db.Hackathon, error) {
	h, err := q.HackathonGet(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		return h, ErrNotFound
	}
	return h, err
}

// List is every edition as staff see it, the latest opening first (a club
// has one a year: the list is read whole), phased at the database's clock.
func List(ctx context.Context, q db.Querier) ([]AdminView, error) {
	rows, err := q.HackathonList(ctx)
	if err != nil {
		return nil, err
	}
	now, err := q.DBNow(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]AdminView, len(rows))
	for i, h := range rows {
		out[i] = ToAdminView(h, now)
	}
	return out, nil
}

// AdminViewOf is h as staff see it, phased at the database's clock.
func AdminViewOf(ctx context.Context, q db.Querier, h db.Hackathon) (AdminView, error) {
	now, err := q.DBNow(ctx)
	return ToAdminView(h, now), err
}

// Scope is the edition a staff request is about: ?hackathon=<id>, or the
// current edition when raw is empty. A value that is not a UUID is a 400
// on the field "hackathon"; an unknown edition is ErrNotFound.
func Scope(ctx context.Context, q db.Querier, raw string) (db.Hackathon, error) {
	if raw == "" {
		return Current(ctx, q)
	}
	id, err := uuid.Parse(raw)
	if err != nil {
		return db.Hackathon{}, apperr.ValidationFailed(apperr.Fields{"hackathon": "must be a UUID"})
	}
	return Get(ctx, q, id)
}
