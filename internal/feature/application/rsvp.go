package application

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
)

// ErrNoOffer is the 409 for an answer to an application without an offer.
var ErrNoOffer = apperr.WithMessage(apperr.Conflict, "No offer", "Only an application with an offer can be answered")

// rsvpClosed is the 409 for an answer at or after the deadline.
func rsvpClosed(deadline *time.Time) error {
	msg := "The RSVP deadline has passed"
	if deadline != nil {
		msg = "RSVPs closed at " + deadline.UTC().Format(time.RFC3339)
	}
	return apperr.WithMessage(apperr.Conflict, "RSVP closed", msg)
}

// RsvpRequest is the applicant's answer to their offer.
type RsvpRequest struct {
	Attending *bool `json:"attending"`
}

// Validate requires attending.
func (r *RsvpRequest) Validate() apperr.Fields {
	f := apperr.Fields{}
	if r.Attending == nil {
		f.Add("attending", "is required")
	}
	return f
}

// Answer is the Rsvp the request gives.
func (r *RsvpRequest) Answer() Rsvp {
	if r.Attending != nil && *r.Attending {
		return RsvpAttending
	}
	return RsvpDeclined
}

// RsvpOpen checks that a may answer its offer: it holds an offer
// (ErrNoOffer otherwise), not expired, whose deadline is still ahead (a
// 409 naming the deadline otherwise). open says whether the deadline is
// ahead by the database's clock, the one the deadline workflow and the
// write use.
func RsvpOpen(a db.Application, open bool) error {
	switch {
	case a.Decision == nil || Decision(*a.Decision) != DecisionOffer:
		return ErrNoOffer
	case !open || (a.Rsvp != nil && Rsvp(*a.Rsvp) == RsvpExpired):
		return rsvpClosed(a.RsvpDeadline)
	}
	return nil
}

// AnswerOffer answers the profile's offer (RsvpOpen). The answer may change
// until the deadline; each change is an 'rsvp' event, and repeating the
// current answer changes nothing. It answers the application.
func AnswerOffer(ctx context.Context, q *db.Queries, me uuid.UUID, req RsvpRequest) (View, error) {
	row, err := q.RsvpLockByProfile(ctx, me)
	if errors.Is(err, db.ErrNotFound) {
		return View{}, ErrNoApplication
	}
	if err != nil {
		return View{}, err
	}
	a := row.Application
	if err := RsvpOpen(a, row.Open); err != nil {
		return View{}, err
	}
	answer := req.Answer()
	if a.Rsvp != nil && Rsvp(*a.Rsvp) == answer {
		return WithAnswers(ctx, q, a) // the same answer again: nothing changes
	}
	detail, err := json.Marshal(map[string]any{"attending": answer == RsvpAttending, "previous": a.Rsvp})
	if err != nil {
		return View{}, err
	}
	out, err := q.RsvpSet(ctx, db.RsvpSetParams{Rsvp: string(answer), ID: a.ID})
	if err != nil {
		return View{}, err
	}
	if err := q.ApplicationEventInsert(ctx, db.ApplicationEventInsertParams{
		ApplicationID: a.ID, ActorID: &me, Kind: "rsvp", Detail: detail,
	}); err != nil {
		return View{}, err
	}
	return WithAnswers(ctx, q, out)
}
