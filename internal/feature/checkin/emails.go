package checkin

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/mail"
	"hackdesk/internal/platform/signing"
)

// The transactions of the EventDay workflow (through its activities): the
// tickets a day before the start and the thank-you a day after the end.
// Each is safe to run again: one email per application and kind.

// Email templates of the event day.
const (
	TicketKind = "event_ticket"
	ThanksKind = "event_thanks"
)

// Leads of the event day's emails: the ticket a day before the start, the
// thank-you a day after the end.
const (
	TicketLead  = 24 * time.Hour
	ThanksDelay = 24 * time.Hour
)

// EventDates are an edition's event dates as the EventDay workflow acts on
// them: its input, its signal and the dates it reads back.
type EventDates struct {
	StartsAt *time.Time
	EndsAt   *time.Time
}

// EventDatesOf are h's event dates.
func EventDatesOf(h db.Hackathon) EventDates {
	return EventDates{StartsAt: h.StartsAt, EndsAt: h.EndsAt}
}

// ReadEventDates reads edition id's event dates as they are now; an
// edition that does not exist is db.ErrNotFound.
func ReadEventDates(ctx context.Context, q *db.Queries, id uuid.UUID) (EventDates, error) {
	h, err := q.HackathonGet(ctx, id)
	if err != nil {
		return EventDates{}, fmt.Errorf("hackathon %s: %w", id, err)
	}
	return EventDatesOf(h), nil
}

// EventNotice names the edition whose attendees are emailed, and the base
// of the links.
type EventNotice struct {
	HackathonID uuid.UUID
	PublicURL   string
}

// TicketKey and ThanksKey are the emails' idempotency keys: once per
// application, whatever the dates move to.
func TicketKey(applicationID uuid.UUID) string { return "event-ticket:" + applicationID.String() }

// ThanksKey is the thank-you's key.
func ThanksKey(applicationID uuid.UUID) string { return "event-thanks:" + applicationID.String() }

const emailDate = "Mon 2 Jan 2006 15:04 MST"

// RecordTickets records one ticket email per attending applicant of the
// edition (its signed link, the venue and the start), once per
// application, and returns them for the caller to send.
func RecordTickets(ctx context.Context, q *db.Queries, tickets signing.Signer, n EventNotice) ([]mail.Ref, error) {
	h, err := q.HackathonGet(ctx, n.HackathonID)
	if err != nil {
		return nil, fmt.Errorf("hackathon %s: %w", n.HackathonID, err)
	}
	rows, err := q.EventTicketRecipients(ctx, h.ID)
	if err != nil {
		return nil, err
	}
	base := strings.TrimRight(n.PublicURL, "/")
	starts, venue := "soon", "to be announced"
	if h.StartsAt != nil {
		starts = h.StartsAt.UTC().Format(emailDate)
	}
	if h.Venue != nil {
		venue = *h.Venue
	}
	refs := make([]mail.Ref, 0, len(rows))
	for _, r := range rows {
		ref, err := mail.RecordRef(ctx, q, TicketKey(r.ApplicationID), TicketKind, r.Email, map[string]string{
			"name": r.Name, "hackathon": h.Name, "starts": starts, "venue": venue,
			"ticket": ticketURL(base, tickets, r.ApplicationID), "link": base + "/apply/submitted",
		})
		if err != nil {
			return nil, err
		}
		refs = append(refs, ref)
	}
	return refs, nil
}

// RecordThanks records one thank-you per attending applicant, with the
// edition's feedback link when it has one, once per application.
func RecordThanks(ctx context.Context, q *db.Queries, n EventNotice) ([]mail.Ref, error) {
	h, err := q.HackathonGet(ctx, n.HackathonID)
	if err != nil {
		return nil, fmt.Errorf("hackathon %s: %w", n.HackathonID, err)
	}
	rows, err := q.EventTicketRecipients(ctx, h.ID)
	if err != nil {
		return nil, err
	}
	feedback := "We would love to hear how it went: reply to this email."
	if h.FeedbackUrl != nil {
		feedback = "Tell us how it went: " + *h.FeedbackUrl
	}
	refs := make([]mail.Ref, 0, len(rows))
	for _, r := range rows {
		ref, err := mail.RecordRef(ctx, q, ThanksKey(r.ApplicationID), ThanksKind, r.Email, map[string]string{
			"name": r.Name, "hackathon": h.Name, "feedback": feedback,
		})
		if err != nil {
			return nil, err
		}
		refs = append(refs, ref)
	}
	return refs, nil
}

// EventWorkflowID is the workflow ID of an edition's EventDay run, from
// its business key (workflows.EventDayID).
func EventWorkflowID(hackathonID uuid.UUID) string { return "event-day:" + hackathonID.String() }
