package application

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/patch"
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
// With it the applicant confirms (or changes) the T-shirt size and dietary
// restrictions of their application, under the form's rules, and accepts
// the edition's waiver when it has one.
type RsvpRequest struct {
	Attending           *bool   `json:"attending"`
	DietaryRestrictions *string `json:"dietary_restrictions"`
	TshirtSize          *string `json:"tshirt_size"`
	WaiverAccepted      *bool   `json:"waiver_accepted"`
}

// Validate requires attending and checks the confirmed fields as the
// application form does.
func (r *RsvpRequest) Validate() apperr.Fields {
	f := apperr.Fields{}
	if r.Attending == nil {
		f.Add("attending", "is required")
	}
	if r.TshirtSize != nil {
		text(f, "tshirt_size", patch.Field[string]{Set: true, V: *r.TshirtSize}, OneOf(TshirtSizes))
	}
	if r.DietaryRestrictions != nil {
		text(f, "dietary_restrictions", patch.Field[string]{Set: true, V: *r.DietaryRestrictions}, MaxChars(300))
	}
	return f
}

// ErrCheckedIn is the 409 of declining after being checked in at the door.
var ErrCheckedIn = apperr.WithMessage(apperr.Conflict, "Already checked in", "You were checked in at the door")

// confirmDetails writes the RSVP's confirmations onto the application: the
// size and the restrictions given (blank clears), and the waiver, which an
// edition with a waiver requires of an attending answer (a 400 naming it).
func confirmDetails(ctx context.Context, q *db.Queries, a db.Application, req RsvpRequest) (db.Application, error) {
	h, err := q.HackathonGet(ctx, a.HackathonID)
	if err != nil {
		return a, err
	}
	accepted := req.WaiverAccepted != nil && *req.WaiverAccepted
	if req.Answer() == RsvpAttending && h.WaiverUrl != nil && !accepted && a.WaiverAcceptedAt == nil {
		return a, apperr.ValidationFailed(apperr.Fields{"waiver_accepted": "is required: accept the waiver at " + *h.WaiverUrl})
	}
	if req.TshirtSize == nil && req.DietaryRestrictions == nil && !accepted {
		return a, nil
	}
	size, diet := a.TshirtSize, a.DietaryRestrictions
	trimmed := func(s *string) *string {
		v := strings.TrimSpace(*s)
		if v == "" {
			return nil
		}
		return &v
	}
	if req.TshirtSize != nil {
		size = trimmed(req.TshirtSize)
	}
	if req.DietaryRestrictions != nil {
		diet = trimmed(req.DietaryRestrictions)
	}
	return q.RsvpDetailsSet(ctx, db.RsvpDetailsSetParams{ID: a.ID, TshirtSize: size, DietaryRestrictions: diet,
		WaiverAccepted: accepted && h.WaiverUrl != nil})
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
	if a.CheckedInAt != nil && answer != RsvpAttending {
		return View{}, ErrCheckedIn
	}
	if a, err = confirmDetails(ctx, q, a, req); err != nil {
		return View{}, err
	}
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
