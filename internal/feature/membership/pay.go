package membership

import (
	"context"
	"errors"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/mail"
	"hackdesk/internal/platform/receipts"
)

// ConfirmationKind is the template of the confirmation email.
const ConfirmationKind = "membership_paid"

// ConfirmationKey is the idempotency key of a membership's confirmation
// email: one per membership, whichever path paid it.
func ConfirmationKey(id uuid.UUID) string { return "membership-paid:" + id.String() }

// maxAmountCents is the most an exec may record for one payment.
const maxAmountCents = 100_000_00

// PaymentInput is an exec's payment in person, as posted.
type PaymentInput struct {
	Method      string `json:"method"`
	AmountCents *int64 `json:"amount_cents"`
	// Sig is the signature of the member's QR link; it may come in the
	// query (?sig=, as the QR page's URL has it) instead.
	Sig *string `json:"sig"`
	// DuesCents is the least amount accepted (MEMBERSHIP_DUES_CENTS), set
	// by the caller; it is not read from the body.
	DuesCents int64 `json:"-"`
}

// Validate checks the method and the amount: at least the dues.
func (in *PaymentInput) Validate() apperr.Fields {
	f := apperr.Fields{}
	if !ValidInPerson(in.Method) {
		f.Add("method", "must be cash, etransfer or card")
	}
	switch {
	case in.AmountCents == nil:
		f.Add("amount_cents", "is required")
	case *in.AmountCents < in.DuesCents:
		f.Add("amount_cents", "must be at least the dues ("+receipts.FormatCents(in.DuesCents)+")")
	case *in.AmountCents > maxAmountCents:
		f.Add("amount_cents", "must be at most 10000000")
	}
	return f
}

// Payment is one payment of a membership.
type Payment struct {
	MembershipID uuid.UUID
	Method       Method
	AmountCents  int64
	ConfirmedBy  *uuid.UUID // the exec, for a payment in person
	ReceiptID    *uuid.UUID // the receipt, for a shop payment
}

// Pay marks an unpaid membership paid and records its confirmation email,
// both in the transaction behind q. The caller delivers the email once the
// transaction commits. A paid membership is ErrAlreadyPaid; a membership
// that does not exist is db.ErrNotFound.
func Pay(ctx context.Context, q *db.Queries, p Payment) (db.Membership, Email, error) {
	m, err := q.MembershipMarkPaid(ctx, db.MembershipMarkPaidParams{
		ID: p.MembershipID, Method: ptr(string(p.Method)), AmountCents: &p.AmountCents,
		ConfirmedBy: p.ConfirmedBy, ReceiptID: p.ReceiptID,
	})
	if errors.Is(err, db.ErrNotFound) {
		if _, gerr := q.MembershipGet(ctx, p.MembershipID); gerr != nil {
			return db.Membership{}, Email{}, gerr
		}
		return db.Membership{}, Email{}, ErrAlreadyPaid
	}
	if err != nil {
		return db.Membership{}, Email{}, err
	}
	e, err := recordConfirmation(ctx, q, m.ID)
	return m, e, err
}

// RecordPayment is an exec's payment in person of membership id, once:
// the membership paid by exec, its confirmation email recorded (the
// caller delivers it in the same transaction) and the membership as the
// exec's page shows it. in has been validated. A membership that does not
// exist is ErrMembershipNotFound, a paid one ErrAlreadyPaid.
func RecordPayment(ctx context.Context, q *db.Queries, id, exec uuid.UUID, in PaymentInput) (Detail, Email, error) {
	_, e, err := Pay(ctx, q, Payment{MembershipID: id, Method: Method(in.Method), AmountCents: *in.AmountCents, ConfirmedBy: &exec})
	if errors.Is(err, db.ErrNotFound) {
		return Detail{}, Email{}, ErrMembershipNotFound
	}
	if err != nil {
		return Detail{}, Email{}, err
	}
	d, err := GetDetail(ctx, q, id)
	return d, e, err
}

// recordConfirmation records the confirmation email of a paid membership.
func recordConfirmation(ctx context.Context, q *db.Queries, id uuid.UUID) (Email, error) {
	d, err := q.MembershipDetail(ctx, id)
	if err != nil {
		return Email{}, err
	}
	name := d.Email
	if d.DisplayName != nil && *d.DisplayName != "" {
		name = *d.DisplayName
	}
	var amount int64
	if d.Membership.AmountCents != nil {
		amount = *d.Membership.AmountCents
	}
	method := ""
	if d.Membership.Method != nil {
		method = *d.Membership.Method
	}
	return mail.RecordRef(ctx, q, ConfirmationKey(id), ConfirmationKind, d.Email, map[string]string{
		"name": name, "term": d.TermName, "amount": receipts.FormatCents(amount), "method": MethodLabel(method),
	})
}
