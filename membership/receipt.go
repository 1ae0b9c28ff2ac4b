package membership

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/receipts"
)

// ReceiptStatus is a stored receipt's state (the receipts.status CHECK):
// received (stored, not yet verified), processing (verified, its
// transaction claimed, ReceiptProcessing running), processed (the
// membership is paid), parked (kept for an admin, with a reason),
// rejected (sender or DKIM failed) and duplicate (another copy of a
// claimed transaction).
type ReceiptStatus string

const (
	ReceiptReceived   ReceiptStatus = "received"
	ReceiptProcessing ReceiptStatus = "processing"
	ReceiptProcessed  ReceiptStatus = "processed"
	ReceiptParked     ReceiptStatus = "parked"
	ReceiptRejected   ReceiptStatus = "rejected"
	ReceiptDuplicate  ReceiptStatus = "duplicate"
)

// ErrNotApplicable is returned by ApplyReceipt for a receipt that was never
// verified (received, rejected) or is a duplicate: there is nothing to pay.
var ErrNotApplicable = errors.New("receipt cannot be applied")

// Match names the account an admin matched a parked receipt to.
type Match struct {
	Email string
	By    uuid.UUID
}

// Outcome is what applying a receipt did.
type Outcome struct {
	Status       ReceiptStatus // processed or parked
	Reason       string        // why it is parked
	MembershipID *uuid.UUID
	// Email is the confirmation to deliver; nil when parked.
	Email *Email
}

// ApplyReceipt applies a verified receipt in the transaction behind q: it
// reads the stored email, finds the account by the customer email (or the
// admin's match), the term by the membership item, checks the total
// against the dues and pays the membership once, creating it paid when the
// member had not joined the term. Anything that does not fit parks the
// receipt with a reason. Applying a processed receipt again changes
// nothing and returns the same outcome, so the activity can be retried.
func ApplyReceipt(ctx context.Context, q *db.Queries, receiptID uuid.UUID, duesCents int64, match *Match) (Outcome, error) {
	r, err := q.ReceiptLock(ctx, receiptID)
	if err != nil {
		return Outcome{}, err
	}
	switch ReceiptStatus(r.Status) {
	case ReceiptProcessed:
		return processedOutcome(ctx, q, r.ID)
	case ReceiptProcessing, ReceiptParked:
	default:
		return Outcome{}, fmt.Errorf("%w: it is %s", ErrNotApplicable, r.Status)
	}
	if match != nil && ReceiptStatus(r.Status) != ReceiptParked {
		return Outcome{}, fmt.Errorf("%w: only a parked receipt is matched by hand", ErrNotApplicable)
	}
	park := func(reason string) (Outcome, error) {
		if err := q.ReceiptSetStatus(ctx, db.ReceiptSetStatusParams{ID: r.ID, Status: string(ReceiptParked), Reason: reason}); err != nil {
			return Outcome{}, err
		}
		return Outcome{Status: ReceiptParked, Reason: reason}, nil
	}

	rc, err := receipts.Parse(r.Raw)
	if err != nil {
		return park(receipts.Reason(err))
	}
	email := rc.CustomerEmail
	var matchedBy *uuid.UUID
	if match != nil {
		email, matchedBy = match.Email, &match.By
	}
	profile, err := q.ProfileGetByEmail(ctx, email)
	if errors.Is(err, db.ErrNotFound) {
		return park("no account with the email " + email)
	}
	if err != nil {
		return Outcome{}, err
	}
	termName := rc.MembershipTerm()
	if termName == "" {
		return park("no membership item on the receipt")
	}
	term, err := q.TermGetByName(ctx, termName)
	if errors.Is(err, db.ErrNotFound) || (err == nil && !rc.MembershipFor(term.Name)) {
		return park("unknown term " + termName)
	}
	if err != nil {
		return Outcome{}, err
	}
	if rc.TotalCents < duesCents {
		return park(fmt.Sprintf("total paid %s is below the dues of %s", receipts.FormatCents(rc.TotalCents), receipts.FormatCents(duesCents)))
	}

	var m db.Membership
	var mail Email
	existing, err := q.MembershipLockByProfileTerm(ctx, db.MembershipLockByProfileTermParams{ProfileID: profile.ID, TermID: term.ID})
	switch {
	case errors.Is(err, db.ErrNotFound):
		m, err = q.MembershipInsertPaid(ctx, db.MembershipInsertPaidParams{
			ProfileID: profile.ID, TermID: term.ID, AmountCents: &rc.TotalCents, ReceiptID: &r.ID})
		if err != nil {
			return Outcome{}, err
		}
		if mail, err = recordConfirmation(ctx, q, m.ID); err != nil {
			return Outcome{}, err
		}
	case err != nil:
		return Outcome{}, err
	case Status(existing.Status) == Paid:
		return park("the " + term.Name + " membership of " + profile.Email + " is already paid")
	default:
		m, mail, err = Pay(ctx, q, Payment{MembershipID: existing.ID, Method: Shop, AmountCents: rc.TotalCents, ReceiptID: &r.ID})
		if err != nil {
			return Outcome{}, err
		}
	}
	if err := q.ReceiptSetStatus(ctx, db.ReceiptSetStatusParams{
		ID: r.ID, Status: string(ReceiptProcessed), Reason: "", MatchedBy: matchedBy,
	}); err != nil {
		return Outcome{}, err
	}
	return Outcome{Status: ReceiptProcessed, MembershipID: &m.ID, Email: &mail}, nil
}

// processedOutcome rebuilds the outcome of a receipt already applied.
func processedOutcome(ctx context.Context, q *db.Queries, receiptID uuid.UUID) (Outcome, error) {
	m, err := q.MembershipGetByReceipt(ctx, &receiptID)
	if err != nil {
		return Outcome{}, err
	}
	d, err := q.MembershipDetail(ctx, m.ID)
	if err != nil {
		return Outcome{}, err
	}
	return Outcome{Status: ReceiptProcessed, MembershipID: &m.ID,
		Email: &Email{Key: ConfirmationKey(m.ID), Kind: ConfirmationKind, To: d.Email}}, nil
}
