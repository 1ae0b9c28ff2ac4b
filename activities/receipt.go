package activities

import (
	"context"
	"errors"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"

	"hackdesk/db"
	"hackdesk/internal/feature/membership"
)

// ReceiptActivities apply shop receipts to memberships.
type ReceiptActivities struct {
	Store     *db.Store
	DuesCents int64 // MEMBERSHIP_DUES_CENTS
}

// ErrTypeReceiptNotApplicable marks a receipt that was never verified or
// is a duplicate: retrying cannot help.
const ErrTypeReceiptNotApplicable = "ReceiptNotApplicable"

// ErrTypeReceiptRace marks a receipt that lost a race with a concurrent
// write of its membership: retried, unlike other conflicts (Classify).
const ErrTypeReceiptRace = "ReceiptRace"

// ReceiptOutcome is what ApplyReceipt did: the confirmation email to
// deliver, and the result ReceiptProcessing returns.
type ReceiptOutcome = membership.Outcome

// ApplyReceipt pays the membership a verified receipt is for, or parks the
// receipt with a reason (membership.Apply, the same function an admin's
// match runs). Running it again returns the same outcome.
func (a *ReceiptActivities) ApplyReceipt(ctx context.Context, receiptID uuid.UUID) (ReceiptOutcome, error) {
	var out ReceiptOutcome
	err := a.Store.InTx(ctx, func(q *db.Queries) error {
		var err error
		out, err = membership.Apply(ctx, q, receiptID, a.DuesCents, nil)
		return err
	})
	switch {
	case errors.Is(err, membership.ErrNotApplicable) || errors.Is(err, db.ErrNotFound):
		return ReceiptOutcome{}, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeReceiptNotApplicable, err)
	case errors.Is(err, db.ErrConflict):
		// A membership inserted by a concurrent request since this one read
		// that there was none: the retry reads it and pays or parks.
		return ReceiptOutcome{}, temporal.NewApplicationError(err.Error(), ErrTypeReceiptRace, err)
	case err != nil:
		return ReceiptOutcome{}, err
	}
	return out, nil
}
