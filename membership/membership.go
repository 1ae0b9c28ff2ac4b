// Package membership holds the rules of club dues: how a membership is
// paid (once, by an exec in person or by a shop receipt), the confirmation
// email that goes with it, and the signed link of a member's QR code. The
// API and the ReceiptProcessing activity both pay through Pay, so the rule
// and the email live in one place.
package membership

import (
	"context"
	"errors"
	"strings"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/mail"
	"hackdesk/receipts"
	"hackdesk/signing"
)

// Status is a membership's state, as the memberships.status CHECK allows.
type Status string

const (
	Unpaid Status = "unpaid"
	Paid   Status = "paid"
)

// Method is how dues were paid (memberships.method).
type Method string

const (
	Cash      Method = "cash"
	ETransfer Method = "etransfer"
	Card      Method = "card"
	// Shop is a payment through the campus shop, proven by a receipt.
	Shop Method = "shop"
)

// InPersonMethods are the methods an exec may record by hand.
var InPersonMethods = []Method{Cash, ETransfer, Card}

// ValidInPerson reports whether m is a method an exec may record.
func ValidInPerson(m string) bool {
	for _, v := range InPersonMethods {
		if string(v) == m {
			return true
		}
	}
	return false
}

// ErrAlreadyPaid is returned by Pay for a membership that is paid.
var ErrAlreadyPaid = errors.New("membership already paid")

// ConfirmationKind is the template of the confirmation email.
const ConfirmationKind = "membership_paid"

// ConfirmationKey is the idempotency key of a membership's confirmation
// email: one per membership, whichever path paid it.
func ConfirmationKey(id uuid.UUID) string { return "membership-paid:" + id.String() }

// Email is a recorded email still to be delivered by a SendEmail workflow.
type Email = mail.Ref

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
	key := ConfirmationKey(id)
	if _, err := mail.Record(ctx, q, key, ConfirmationKind, d.Email, map[string]string{
		"name": name, "term": d.TermName, "amount": receipts.FormatCents(amount), "method": MethodLabel(method),
	}); err != nil {
		return Email{}, err
	}
	return Email{Key: key, Kind: ConfirmationKind, To: d.Email}, nil
}

// MethodLabel is how the confirmation email names a method.
func MethodLabel(m string) string {
	switch Method(m) {
	case Cash:
		return "cash"
	case ETransfer:
		return "e-transfer"
	case Card:
		return "card"
	case Shop:
		return "the campus shop"
	}
	return m
}

// QRSigner signs membership ids for the QR link.
func QRSigner(key []byte) signing.Signer { return signing.New(key, signing.PurposeMembershipQR) }

// QRLink is the link a member's QR code holds: the exec's confirmation page
// for the membership, signed so that only a member's own code opens it.
func QRLink(publicURL string, s signing.Signer, id uuid.UUID) string {
	return strings.TrimRight(publicURL, "/") + "/admin/memberships/" + id.String() + "?sig=" + s.Sign(id.String())
}

func ptr[T any](v T) *T { return &v }
