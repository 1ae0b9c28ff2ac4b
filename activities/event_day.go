package activities

import (
	"context"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/checkin"
)

// The inputs and outputs of the event day's activities are the checkin
// package's types.
type (
	// EventDates are an edition's event dates as stored.
	EventDates = checkin.EventDates
	// EventNotice names an edition whose attendees are emailed.
	EventNotice = checkin.EventNotice
)

// EventDayDates reads an edition's event dates as they are now: EventDay
// reads them whenever it is told they changed. An edition that no longer
// exists fails with the non-retryable HackathonNotFound.
func (a *HackathonActivities) EventDayDates(ctx context.Context, id uuid.UUID) (EventDates, error) {
	d, err := checkin.ReadEventDates(ctx, a.Store.Queries, id)
	return d, hackathonGone(id, err)
}

// RecordEventTickets records each attending applicant's ticket email
// (checkin.RecordTickets), once per application.
func (a *HackathonActivities) RecordEventTickets(ctx context.Context, in EventNotice) ([]EmailRef, error) {
	if a.Tickets == nil {
		return nil, permanent(ErrTypeNoSigningKey, "SIGNING_KEY is not set: tickets carry signed links")
	}
	if in.PublicURL == "" {
		in.PublicURL = a.PublicURL
	}
	var refs []EmailRef
	err := a.Store.InTx(ctx, func(q *db.Queries) (err error) {
		refs, err = checkin.RecordTickets(ctx, q, *a.Tickets, in)
		return err
	})
	return refs, hackathonGone(in.HackathonID, err)
}

// RecordEventThanks records each attending applicant's thank-you
// (checkin.RecordThanks), once per application.
func (a *HackathonActivities) RecordEventThanks(ctx context.Context, in EventNotice) ([]EmailRef, error) {
	var refs []EmailRef
	err := a.Store.InTx(ctx, func(q *db.Queries) (err error) {
		refs, err = checkin.RecordThanks(ctx, q, in)
		return err
	})
	return refs, hackathonGone(in.HackathonID, err)
}
