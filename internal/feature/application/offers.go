package application

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/hackathon"
	"hackdesk/internal/platform/mail"
)

// The transactions of the RsvpDeadline workflow (through its activities):
// announce a batch's offers, remind the unanswered ones, expire them at
// the deadline and offer the freed places to the waitlist. Each is safe to
// run again: emails are recorded under keys per application and batch or
// deadline, and expiry and promotion find nothing left to do.

// Email templates of the offer workflow.
const (
	OfferKind    = "offer"
	ReminderKind = "rsvp_reminder"
)

// OfferKey is the idempotency key of an application's offer email of a
// batch.
func OfferKey(applicationID, batchID uuid.UUID) string {
	return fmt.Sprintf("offer:%s:%s", applicationID, batchID)
}

// ReminderKey is the idempotency key of an application's reminder before
// a deadline.
func ReminderKey(applicationID uuid.UUID, deadline time.Time) string {
	return fmt.Sprintf("rsvp-reminder:%s:%d", applicationID, deadline.Unix())
}

// RemindersInput names the offers of one deadline.
type RemindersInput struct {
	Deadline  time.Time
	PublicURL string // base of the link to the application page
}

// RecordReminders records one reminder per unanswered offer of the
// deadline and notes each new one in the audit trail. It returns every
// reminder, recorded now or before, for the caller to send.
func RecordReminders(ctx context.Context, q *db.Queries, in RemindersInput) ([]mail.Ref, error) {
	rows, err := q.RsvpUnansweredOffers(ctx, &in.Deadline)
	if err != nil {
		return nil, err
	}
	var refs []mail.Ref
	for _, row := range rows {
		key := ReminderKey(row.ID, in.Deadline)
		created, err := mail.Record(ctx, q, key, ReminderKind, row.Email, map[string]string{
			"name": row.Name, "deadline": mail.DateText(in.Deadline), "link": in.PublicURL + "/apply",
		})
		if err != nil {
			return nil, err
		}
		if created {
			detail, err := json.Marshal(map[string]any{"deadline": in.Deadline, "email": key})
			if err != nil {
				return nil, err
			}
			if err := q.ApplicationEventInsert(ctx, db.ApplicationEventInsertParams{
				ApplicationID: row.ID, Kind: "reminded", Detail: detail}); err != nil {
				return nil, err
			}
		}
		refs = append(refs, mail.Ref{Key: key, Kind: ReminderKind})
	}
	return refs, nil
}

// ExpireInput names the decision batch whose deadline has passed.
type ExpireInput struct {
	BatchID uuid.UUID
	// Deadline is the batch's deadline, which the workflow's clock has
	// passed. Zero (an activity scheduled before the field existed) falls
	// back to the database's clock.
	Deadline time.Time
}

// ExpireOffers expires the unanswered offers of one decision batch whose
// deadline is at or before in.Deadline, records who lost their place, and
// returns how many places are freed: those and the batch's offers declined
// by their person's erasure (privacy.EraseApplications). The deadline is the one the workflow woke for, not the
// database's now(): a database clock behind the workflow's would otherwise
// expire nothing and the run would end as if everyone had answered. An
// application offered again in a later batch with a later deadline is left
// to that batch.
func ExpireOffers(ctx context.Context, q *db.Queries, in ExpireInput) (int, error) {
	var deadline *time.Time
	if !in.Deadline.IsZero() {
		deadline = &in.Deadline
	}
	batch, err := q.DecisionBatchApplications(ctx, in.BatchID.String())
	if err != nil {
		return 0, err
	}
	ids, err := q.RsvpExpireOffers(ctx, db.RsvpExpireOffersParams{Ids: batch, Deadline: deadline})
	if err != nil {
		return 0, err
	}
	for _, id := range ids {
		if err := q.ApplicationEventInsert(ctx, db.ApplicationEventInsertParams{
			ApplicationID: id, Kind: "expired", Detail: json.RawMessage(`{"reason":"no answer by the deadline"}`)}); err != nil {
			return 0, err
		}
	}
	// An open offer whose person was erased counts as declined, and its
	// place is freed here like an expired one's.
	erased, err := q.RsvpErasedOffers(ctx, batch)
	if err != nil {
		return 0, err
	}
	return len(ids) + int(erased), nil
}

// OfferEmailsInput names a decision batch whose offers are announced.
type OfferEmailsInput struct {
	BatchID   uuid.UUID
	PublicURL string
}

// RecordOfferEmails records one offer email per application of the batch
// that still holds an unanswered offer and did not hold one before the
// batch (re-offering an open offer, say with a new deadline, sends no
// second offer email), and returns them for the caller to send.
func RecordOfferEmails(ctx context.Context, q *db.Queries, in OfferEmailsInput) ([]mail.Ref, error) {
	ids, err := q.DecisionBatchNewOffers(ctx, in.BatchID.String())
	if err != nil {
		return nil, err
	}
	rows, err := q.RsvpOfferRecipients(ctx, ids)
	if err != nil {
		return nil, err
	}
	var refs []mail.Ref
	for _, row := range rows {
		key := OfferKey(row.ID, in.BatchID)
		if _, err := mail.Record(ctx, q, key, OfferKind, row.Email, map[string]string{
			"name": row.Name, "deadline": mail.DateText(*row.RsvpDeadline), "link": in.PublicURL + "/apply",
		}); err != nil {
			return nil, err
		}
		refs = append(refs, mail.Ref{Key: key, Kind: OfferKind})
	}
	return refs, nil
}

// PromoteInput offers freed places to the waitlist.
type PromoteInput struct {
	BatchID  uuid.UUID // the promotion's own decision batch
	Places   int
	Deadline time.Time // of the new offers
	// FromBatch is the batch whose expired offers freed the places: the
	// waitlist is its edition's. Zero (an activity scheduled before the
	// field existed) means the current edition.
	FromBatch uuid.UUID
}

// PromoteWaitlist offers up to Places places to the first waitlisted
// applications of the freeing batch's edition (in the order they were
// waitlisted) as a new decision batch, and returns how many it promoted.
// The promotion is recorded under its batch id: run again, it finds it and
// promotes no one else.
func PromoteWaitlist(ctx context.Context, q *db.Queries, in PromoteInput) (int, error) {
	if in.Places <= 0 {
		return 0, nil
	}
	done, err := q.DecisionBatchApplications(ctx, in.BatchID.String())
	if err != nil || len(done) > 0 {
		return len(done), err
	}
	edition, err := batchEdition(ctx, q, in.FromBatch)
	if err != nil {
		return 0, err
	}
	ids, err := q.RsvpWaitlistHead(ctx, db.RsvpWaitlistHeadParams{HackathonID: edition, N: int32(in.Places)})
	if err != nil {
		return 0, err
	}
	detail, err := json.Marshal(map[string]any{"decision": DecisionOffer, "previous": DecisionWaitlist,
		"rsvp_deadline": in.Deadline, "batch_id": in.BatchID, "reason": "place freed by an expired offer"})
	if err != nil {
		return 0, err
	}
	for _, id := range ids {
		if err := q.RsvpOffer(ctx, db.RsvpOfferParams{ID: id, RsvpDeadline: &in.Deadline}); err != nil {
			return 0, err
		}
		if err := q.ApplicationEventInsert(ctx, db.ApplicationEventInsertParams{
			ApplicationID: id, Kind: "decision", Detail: detail}); err != nil {
			return 0, err
		}
	}
	return len(ids), nil
}

// batchEdition is the edition of a decision batch's applications; the
// current edition for the zero batch or one that decided nothing.
func batchEdition(ctx context.Context, q *db.Queries, batch uuid.UUID) (uuid.UUID, error) {
	if batch != uuid.Nil {
		id, err := q.DecisionBatchHackathon(ctx, batch.String())
		if !errors.Is(err, db.ErrNotFound) {
			return id, err
		}
	}
	h, err := hackathon.Current(ctx, q)
	return h.ID, err
}
