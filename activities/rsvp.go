package activities

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"

	"hackdesk/application"
	"hackdesk/db"
	"hackdesk/mail"
)

// RsvpEmailsInput names the offers of one deadline.
type RsvpEmailsInput struct {
	Deadline  time.Time
	PublicURL string // base of the link to the application page
}

// EmailRef is an email recorded for a workflow to send with SendEmail.
type EmailRef = mail.Ref

func deadlineText(t time.Time) string { return t.UTC().Format("Mon 2 Jan 2006 15:04 MST") }

// RecordRsvpReminders records one reminder per unanswered offer of the
// deadline and notes each in the audit trail. Keys are per application and
// deadline, so a retry records nothing new.
func (a *RsvpActivities) RecordRsvpReminders(ctx context.Context, in RsvpEmailsInput) ([]EmailRef, error) {
	var refs []EmailRef
	err := a.Store.InTx(ctx, func(q *db.Queries) error {
		refs = refs[:0]
		rows, err := q.RsvpUnansweredOffers(ctx, &in.Deadline)
		if err != nil {
			return err
		}
		for _, row := range rows {
			key := fmt.Sprintf("rsvp-reminder:%s:%d", row.ID, in.Deadline.Unix())
			created, err := mail.Record(ctx, q, key, "rsvp_reminder", row.Email, map[string]string{
				"name": row.Name, "deadline": deadlineText(in.Deadline), "link": in.PublicURL + "/apply",
			})
			if err != nil {
				return err
			}
			if created {
				detail, _ := json.Marshal(map[string]any{"deadline": in.Deadline, "email": key})
				if err := q.ApplicationEventInsert(ctx, db.ApplicationEventInsertParams{
					ApplicationID: row.ID, Kind: "reminded", Detail: detail}); err != nil {
					return err
				}
			}
			refs = append(refs, EmailRef{Key: key, Kind: "rsvp_reminder", To: row.Email})
		}
		return nil
	})
	return refs, err
}

// ExpireOffersInput names the decision batch whose deadline has passed.
type ExpireOffersInput struct {
	BatchID uuid.UUID
	// Deadline is the batch's deadline, which the workflow's clock has
	// passed. Zero (an activity scheduled before the field existed) falls
	// back to the database's clock.
	Deadline time.Time
}

// ExpireOffers expires the unanswered offers of one decision batch whose
// deadline is at or before in.Deadline, and records who lost their place.
// The deadline is the one the workflow woke for, not the database's now():
// a database clock behind the workflow's would otherwise expire nothing
// and the run would end as if everyone had answered. An application
// offered again in a later batch with a later deadline is left to that
// batch. Running it again finds nothing to do.
func (a *RsvpActivities) ExpireOffers(ctx context.Context, in ExpireOffersInput) (int, error) {
	var deadline *time.Time
	if !in.Deadline.IsZero() {
		deadline = &in.Deadline
	}
	var n int
	err := a.Store.InTx(ctx, func(q *db.Queries) error {
		batch, err := q.DecisionBatchApplications(ctx, in.BatchID.String())
		if err != nil {
			return err
		}
		ids, err := q.RsvpExpireOffers(ctx, db.RsvpExpireOffersParams{Ids: batch, Deadline: deadline})
		if err != nil {
			return err
		}
		for _, id := range ids {
			if err := q.ApplicationEventInsert(ctx, db.ApplicationEventInsertParams{
				ApplicationID: id, Kind: "expired", Detail: json.RawMessage(`{"reason":"no answer by the deadline"}`)}); err != nil {
				return err
			}
		}
		n = len(ids)
		return nil
	})
	return n, err
}

// OfferEmailsInput names a decision batch whose offers are announced.
type OfferEmailsInput struct {
	BatchID   uuid.UUID
	PublicURL string
}

// RecordOfferEmails records one offer email per application of the batch
// that still holds an unanswered offer and did not hold one before the
// batch (re-offering an open offer, say with a new deadline, sends no
// second offer email). Keys are per application and batch, so a retry
// records nothing new.
func (a *RsvpActivities) RecordOfferEmails(ctx context.Context, in OfferEmailsInput) ([]EmailRef, error) {
	var refs []EmailRef
	err := a.Store.InTx(ctx, func(q *db.Queries) error {
		refs = refs[:0]
		ids, err := q.DecisionBatchNewOffers(ctx, in.BatchID.String())
		if err != nil {
			return err
		}
		rows, err := q.RsvpOfferRecipients(ctx, ids)
		if err != nil {
			return err
		}
		for _, row := range rows {
			key := fmt.Sprintf("offer:%s:%s", row.ID, in.BatchID)
			if _, err := mail.Record(ctx, q, key, "offer", row.Email, map[string]string{
				"name": row.Name, "deadline": deadlineText(*row.RsvpDeadline), "link": in.PublicURL + "/apply",
			}); err != nil {
				return err
			}
			refs = append(refs, EmailRef{Key: key, Kind: "offer", To: row.Email})
		}
		return nil
	})
	return refs, err
}

// PromoteInput offers freed places to the waitlist.
type PromoteInput struct {
	BatchID  uuid.UUID // the promotion's own decision batch
	Places   int
	Deadline time.Time // of the new offers
}

// PromoteWaitlist offers up to Places places to the first waitlisted
// applications (in the order they were waitlisted) as a new decision batch,
// and returns how many it promoted. The promotion is recorded under its
// batch id: a retry finds it and promotes no one else.
func (a *RsvpActivities) PromoteWaitlist(ctx context.Context, in PromoteInput) (int, error) {
	if in.Places <= 0 {
		return 0, nil
	}
	var n int
	err := a.Store.InTx(ctx, func(q *db.Queries) error {
		done, err := q.DecisionBatchApplications(ctx, in.BatchID.String())
		if err != nil || len(done) > 0 {
			n = len(done)
			return err
		}
		ids, err := q.RsvpWaitlistHead(ctx, int32(in.Places))
		if err != nil {
			return err
		}
		detail, _ := json.Marshal(map[string]any{"decision": application.DecisionOffer, "previous": application.DecisionWaitlist,
			"rsvp_deadline": in.Deadline, "batch_id": in.BatchID, "reason": "place freed by an expired offer"})
		for _, id := range ids {
			if err := q.RsvpOffer(ctx, db.RsvpOfferParams{ID: id, RsvpDeadline: &in.Deadline}); err != nil {
				return err
			}
			if err := q.ApplicationEventInsert(ctx, db.ApplicationEventInsertParams{
				ApplicationID: id, Kind: "decision", Detail: detail}); err != nil {
				return err
			}
		}
		n = len(ids)
		return nil
	})
	return n, err
}
