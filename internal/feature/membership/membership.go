// Package membership holds the rules of club dues and the transactions
// that apply them: joining a term, how a membership is paid (once, by an
// exec in person or by a shop receipt) with the confirmation email that
// goes with it, the signed link of a member's QR code, and the life of a
// shop receipt from the webhook's post to the paid membership. The API,
// the CLI and the ReceiptProcessing activity all call these functions, so
// each rule lives in one place.
package membership

import (
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/mail"
)

// Status is a membership's state, as the memberships.status CHECK allows.
type Status string

const (
	Unpaid Status = "unpaid"
	Paid   Status = "paid"
)

// Valid reports whether s is a membership status.
func (s Status) Valid() bool { return s == Unpaid || s == Paid }

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

// Email is a recorded email still to be delivered by a SendEmail workflow.
type Email = mail.Ref

// The errors the API answers as they are.
var (
	ErrMembershipNotFound = apperr.New(apperr.NotFound, "Membership not found")
	ErrNotAMember         = apperr.WithMessage(apperr.NotFound, "Membership not found", "Join the active term first (POST /api/membership)")
	ErrAlreadyPaid        = apperr.New(apperr.Conflict, "Membership already paid")
	ErrBadQRSignature     = apperr.New(apperr.Forbidden, "Invalid signature")
)

func ptr[T any](v T) *T { return &v }
