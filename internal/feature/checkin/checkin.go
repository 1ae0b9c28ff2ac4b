// Package checkin holds the event day's rules in one place: the signed
// ticket an attending applicant shows at the door, the door's lookup and
// search, the check-in itself (once per person, replayable by the tap's
// client_id, undone within 10 minutes), walk-ins from the waitlist within
// capacity, the edition's volunteers, and the caterer's counts. The API's
// check-in routes, the ticket routes, the dashboard and the EventDay
// workflow's activities read them here.
package checkin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/signing"
)

// UndoWindow is how long a check-in may be undone.
const UndoWindow = 10 * time.Minute

// The errors the API answers for check-ins and tickets.
var (
	ErrBadSignature = apperr.New(apperr.Forbidden, "Forbidden")
	ErrNotFound     = apperr.New(apperr.NotFound, "Application not found")
	ErrNotCurrent   = apperr.WithMessage(apperr.Conflict, "Not the current hackathon", "This ticket is for another hackathon")
	ErrNoTicket     = apperr.New(apperr.NotFound, "No ticket")
	ErrUndoPassed   = apperr.WithMessage(apperr.Conflict, "Undo window passed", "A check-in can be undone for 10 minutes")
	ErrNotCheckedIn = apperr.WithMessage(apperr.Conflict, "Not checked in", "This person is not checked in")
	ErrVolunteer    = apperr.New(apperr.NotFound, "Account not found")
)

// notAttending is the 409 of a check-in of someone who is not attending.
func notAttending(a db.Application) error {
	msg := "This person has not confirmed they are attending"
	switch {
	case a.Decision != nil && *a.Decision == "waitlist":
		msg = "This person is on the waitlist: check them in as a walk-in"
	case a.Rsvp != nil && *a.Rsvp == "declined":
		msg = "This person declined their offer"
	case a.Rsvp != nil && *a.Rsvp == "expired":
		msg = "This person's offer expired"
	case a.Decision != nil && *a.Decision == "reject":
		msg = "This person was not offered a place"
	}
	return apperr.WithMessage(apperr.Conflict, "Not attending", msg)
}

// AlreadyError is the 409 of a second check-in: when, and by whom.
type AlreadyError struct {
	At time.Time
	By string
}

func (e *AlreadyError) Error() string { return "checkin: already checked in" }

// OverCapacity is the 409 of a walk-in that would pass the capacity.
func OverCapacity(attending int64, capacity int32) error {
	return apperr.WithMessage(apperr.Conflict, "Over capacity",
		fmt.Sprintf("%d attending and a walk-in would pass the capacity of %d", attending, capacity))
}

// Signer signs ticket links (application ids); a key of its own purpose.
func Signer(master []byte) signing.Signer { return signing.New(master, signing.PurposeEventTicket) }

// TicketURL is the link a ticket's QR holds: the door's page for the
// application, signed so that the ticket opens it.
func TicketURL(publicURL string, s signing.Signer, id uuid.UUID) string {
	return ticketURL(publicURL, s, id)
}

// CheckSignature verifies each signature given for the application id as
// the path spells it (none given: staff searching). A signature that does
// not verify, in any spelling but Sign's, is ErrBadSignature.
func CheckSignature(s signing.Signer, id string, sigs ...*string) error {
	for _, sig := range sigs {
		if sig != nil && s.Verify(id, *sig) != nil {
			return ErrBadSignature
		}
	}
	return nil
}

// Person is one applicant as the door sees them.
type Person struct {
	ID                  uuid.UUID  `json:"id"`
	Name                string     `json:"name"`
	Email               string     `json:"email"`
	TshirtSize          *string    `json:"tshirt_size"`
	DietaryRestrictions *string    `json:"dietary_restrictions"`
	Team                []string   `json:"team"`
	Decision            *string    `json:"decision"`
	Rsvp                *string    `json:"rsvp"`
	CheckedInAt         *time.Time `json:"checked_in_at"`
	CheckedInBy         *string    `json:"checked_in_by"`
}

// Lookup is application id as the door sees it, when it belongs to the
// current edition (ErrNotCurrent otherwise; ErrNotFound when there is none).
func Lookup(ctx context.Context, q *db.Queries, id uuid.UUID) (Person, error) {
	row, err := q.CheckinPerson(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		return Person{}, ErrNotFound
	}
	if err != nil {
		return Person{}, err
	}
	cur, err := q.HackathonCurrent(ctx)
	if err != nil {
		return Person{}, err
	}
	if row.HackathonID != cur.ID {
		return Person{}, ErrNotCurrent
	}
	p := Person{ID: row.ID, Name: row.Name, Email: row.Email, TshirtSize: row.TshirtSize,
		DietaryRestrictions: row.DietaryRestrictions, Decision: row.Decision, Rsvp: row.Rsvp,
		CheckedInAt: row.CheckedInAt, CheckedInBy: checker(row), Team: []string{}}
	if err := json.Unmarshal(row.Team, &p.Team); err != nil {
		return Person{}, err
	}
	return p, nil
}

// checker is the name of who checked the person in (their email when
// they gave no name); nil when nobody did or their account is gone.
func checker(row db.CheckinPersonRow) *string {
	if row.CheckerName != nil {
		return row.CheckerName
	}
	return row.CheckerEmail
}

// MaxQuery bounds the door's search text.
const MaxQuery = 100

// Hit is one row of the door's search.
type Hit struct {
	ID          uuid.UUID  `json:"id"`
	Name        string     `json:"name"`
	Email       string     `json:"email"`
	Decision    *string    `json:"decision"`
	Rsvp        *string    `json:"rsvp"`
	CheckedInAt *time.Time `json:"checked_in_at"`
}

// Search finds the current edition's attending and waitlisted applicants
// whose name or email holds text (at most 10); text is 1 to 100
// characters once trimmed (a 400 on q otherwise).
func Search(ctx context.Context, q *db.Queries, text string) ([]Hit, error) {
	text = strings.ToLower(strings.TrimSpace(text))
	if n := len([]rune(text)); n < 1 || n > MaxQuery {
		return nil, apperr.ValidationFailed(apperr.Fields{"q": "must be 1 to 100 characters"})
	}
	cur, err := q.HackathonCurrent(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := q.CheckinSearch(ctx, db.CheckinSearchParams{HackathonID: cur.ID, Pattern: db.LikeContains(text)})
	if err != nil {
		return nil, err
	}
	out := make([]Hit, len(rows))
	for i, r := range rows {
		out[i] = Hit{ID: r.ID, Name: r.Name, Email: r.Email, Decision: r.Decision, Rsvp: r.Rsvp, CheckedInAt: r.CheckedInAt}
	}
	return out, nil
}

// Request is the body of a check-in.
type Request struct {
	Sig      *string    `json:"sig"`
	ClientID *uuid.UUID `json:"client_id"`
	WalkIn   bool       `json:"walk_in"`
}

// Validate has nothing to check beyond the types (client_id is a UUID).
func (r *Request) Validate() apperr.Fields { return apperr.Fields{} }

// Result is a check-in's answer.
type Result struct {
	CheckedInAt time.Time `json:"checked_in_at"`
}

// CheckIn checks application id in, by staff member actor, in one
// transaction: the current edition's application only (ErrNotCurrent); a
// waitlisted one only as a walk-in, within capacity (the offer, the RSVP
// and the check-in together); someone else not attending is 409 "Not
// attending"; someone checked in already is AlreadyError, except for a
// replay of the very tap that checked them in (the same client_id),
// which answers as the first time did.
func CheckIn(ctx context.Context, q *db.Queries, actor uuid.UUID, id uuid.UUID, req Request) (Result, error) {
	cur, err := q.HackathonCurrent(ctx)
	if err != nil {
		return Result{}, err
	}
	if req.WalkIn {
		// Walk-ins of an edition are decided one at a time: the capacity
		// count and the offer are one step.
		if _, err := q.HackathonLock(ctx, cur.ID); err != nil {
			return Result{}, err
		}
	}
	a, err := q.CheckinLock(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		return Result{}, ErrNotFound
	}
	if err != nil {
		return Result{}, err
	}
	if a.HackathonID != cur.ID {
		return Result{}, ErrNotCurrent
	}
	if a.CheckedInAt != nil {
		if req.ClientID != nil && a.CheckinClientID != nil && *a.CheckinClientID == *req.ClientID {
			return Result{CheckedInAt: *a.CheckedInAt}, nil
		}
		row, err := q.CheckinPerson(ctx, id)
		if err != nil {
			return Result{}, err
		}
		by := "a staff member"
		if name := checker(row); name != nil {
			by = *name
		}
		return Result{}, &AlreadyError{At: *a.CheckedInAt, By: by}
	}
	attending := a.Rsvp != nil && *a.Rsvp == "attending"
	waitlisted := a.Decision != nil && *a.Decision == "waitlist"
	if !attending && (!req.WalkIn || !waitlisted) {
		return Result{}, notAttending(a)
	}
	if !attending {
		counts, err := q.CheckinAttending(ctx, cur.ID)
		if err != nil {
			return Result{}, err
		}
		if cur.Capacity != nil && counts.Attending+1 > int64(*cur.Capacity) {
			return Result{}, OverCapacity(counts.Attending, *cur.Capacity)
		}
		if _, err := q.CheckinWalkIn(ctx, id); err != nil {
			return Result{}, err
		}
		if err := event(ctx, q, id, actor, "walk_in", map[string]any{"capacity": cur.Capacity}); err != nil {
			return Result{}, err
		}
	}
	at, err := q.CheckinSet(ctx, db.CheckinSetParams{ID: id, CheckedInBy: &actor, ClientID: req.ClientID})
	if err != nil {
		return Result{}, err
	}
	if err := event(ctx, q, id, actor, "checkin", map[string]any{"client_id": req.ClientID, "walk_in": !attending}); err != nil {
		return Result{}, err
	}
	return Result{CheckedInAt: *at}, nil
}

// Undo undoes application id's check-in when it is less than 10 minutes
// old by the database's clock (ErrUndoPassed after; ErrNotCheckedIn when
// there is none). Any staff member may undo. A walk-in stays an accepted
// offer: the person was let in.
func Undo(ctx context.Context, q *db.Queries, actor uuid.UUID, id uuid.UUID) error {
	cur, err := q.HackathonCurrent(ctx)
	if err != nil {
		return err
	}
	a, err := q.CheckinLock(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		return ErrNotFound
	}
	if err != nil {
		return err
	}
	if a.HackathonID != cur.ID {
		return ErrNotCurrent
	}
	if a.CheckedInAt == nil {
		return ErrNotCheckedIn
	}
	n, err := q.CheckinUndo(ctx, id)
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrUndoPassed
	}
	return event(ctx, q, id, actor, "checkin_undone", map[string]any{"checked_in_at": a.CheckedInAt})
}

func event(ctx context.Context, q *db.Queries, id, actor uuid.UUID, kind string, detail map[string]any) error {
	b, err := json.Marshal(detail)
	if err != nil {
		return err
	}
	return q.ApplicationEventInsert(ctx, db.ApplicationEventInsertParams{ApplicationID: id, ActorID: &actor, Kind: kind, Detail: b})
}

// Count is the door's headline: checked in of attending, in the current
// edition.
type Count struct {
	CheckedIn int64 `json:"checked_in"`
	Attending int64 `json:"attending"`
}

// CurrentCount is the current edition's Count.
func CurrentCount(ctx context.Context, q *db.Queries) (Count, error) {
	cur, err := q.HackathonCurrent(ctx)
	if err != nil {
		return Count{}, err
	}
	c, err := q.CheckinAttending(ctx, cur.ID)
	return Count{CheckedIn: c.CheckedIn, Attending: c.Attending}, err
}
