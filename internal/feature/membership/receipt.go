package membership

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/mail"
	"hackdesk/internal/platform/receipts"
)

// ErrNotApplicable is returned by Apply for a receipt that was never
// verified (received, rejected) or is a duplicate: there is nothing to pay.
var ErrNotApplicable = errors.New("receipt cannot be applied")

// The errors of the admins' receipt pages, as the API answers them.
var (
	ErrReceiptNotFound = apperr.New(apperr.NotFound, "Receipt not found")
	ErrNotParked       = apperr.WithMessage(apperr.Conflict, "Receipt not parked", "Only a parked receipt can be matched")
	ErrAccountNotFound = apperr.New(apperr.NotFound, "Account not found")
)

// Result is where a receipt ended up: the ReceiptProcessing workflow's
// result.
type Result struct {
	Status       ReceiptStatus // processed or parked
	Reason       string        // why it is parked
	MembershipID *uuid.UUID
}

// Outcome is what applying a receipt did: the ApplyReceipt activity's
// result, which the workflow reads as it is.
type Outcome struct {
	Result
	// Email is the confirmation to deliver; nil when parked.
	Email *Email
}

// Match names the account an admin matched a parked receipt to.
type Match struct {
	Email string
	By    uuid.UUID
}

// Apply applies a verified receipt in the transaction behind q, from what
// Claim stored of it: it finds the account by the customer email (or the
// admin's match), the term by the membership item, checks the total
// against the dues and pays the membership once, creating it paid when the
// member had not joined the term. Anything that does not fit parks the
// receipt with a reason. Applying a processed receipt again changes
// nothing and returns the same outcome, so the activity can be retried.
func Apply(ctx context.Context, q *db.Queries, receiptID uuid.UUID, duesCents int64, match *Match) (Outcome, error) {
	r, err := q.ReceiptLock(ctx, receiptID)
	if err != nil {
		return Outcome{}, err
	}
	status := ReceiptStatus(r.Status)
	switch {
	case status == ReceiptProcessed:
		return processedOutcome(ctx, q, r.ID)
	case !status.Applicable():
		return Outcome{}, fmt.Errorf("%w: it is %s", ErrNotApplicable, r.Status)
	case match != nil && status != ReceiptParked:
		return Outcome{}, fmt.Errorf("%w: only a parked receipt is matched by hand", ErrNotApplicable)
	case r.TransactionID == "":
		// Parked as unreadable: it stays so, for the reason it has.
		return Outcome{Result: Result{Status: ReceiptParked, Reason: r.Reason}}, nil
	}
	park := func(reason string) (Outcome, error) {
		if err := moveReceipt(ctx, q, r, receiptMove{To: ReceiptParked, Reason: reason}); err != nil {
			return Outcome{}, err
		}
		return Outcome{Result: Result{Status: ReceiptParked, Reason: reason}}, nil
	}

	email := r.CustomerEmail
	var matchedBy *uuid.UUID
	if match != nil {
		email, matchedBy = match.Email, &match.By
	}
	profile, err := q.ProfileGetByEmail(ctx, email)
	if errors.Is(err, db.ErrNotFound) {
		// A reason names no address: the receipt's email is its own column,
		// which an erasure blanks, and a reason is shown and kept for good.
		return park("no account with the receipt's email")
	}
	if err != nil {
		return Outcome{}, err
	}
	if r.TermName == "" {
		return park("no membership item on the receipt")
	}
	term, err := q.TermGetByName(ctx, r.TermName)
	if errors.Is(err, db.ErrNotFound) {
		return park("unknown term " + r.TermName)
	}
	if err != nil {
		return Outcome{}, err
	}
	var total int64
	if r.AmountCents != nil {
		total = *r.AmountCents
	}
	if total < duesCents {
		return park(fmt.Sprintf("total paid %s is below the dues of %s", receipts.FormatCents(total), receipts.FormatCents(duesCents)))
	}

	var m db.Membership
	var mail Email
	existing, err := q.MembershipLockByProfileTerm(ctx, db.MembershipLockByProfileTermParams{ProfileID: profile.ID, TermID: term.ID})
	switch {
	case errors.Is(err, db.ErrNotFound):
		m, err = q.MembershipInsertPaid(ctx, db.MembershipInsertPaidParams{
			ProfileID: profile.ID, TermID: term.ID, AmountCents: &total, ReceiptID: &r.ID})
		if err != nil {
			return Outcome{}, err
		}
		if mail, err = recordConfirmation(ctx, q, m.ID); err != nil {
			return Outcome{}, err
		}
	case err != nil:
		return Outcome{}, err
	case Status(existing.Status) == Paid:
		return park("the account's " + term.Name + " membership is already paid")
	default:
		m, mail, err = Pay(ctx, q, Payment{MembershipID: existing.ID, Method: Shop, AmountCents: total, ReceiptID: &r.ID})
		if err != nil {
			return Outcome{}, err
		}
	}
	if err := moveReceipt(ctx, q, r, receiptMove{To: ReceiptProcessed, MatchedBy: matchedBy}); err != nil {
		return Outcome{}, err
	}
	return Outcome{Result: Result{Status: ReceiptProcessed, MembershipID: &m.ID}, Email: &mail}, nil
}

// processedOutcome rebuilds the outcome of a receipt already applied.
func processedOutcome(ctx context.Context, q *db.Queries, receiptID uuid.UUID) (Outcome, error) {
	m, err := q.MembershipGetByReceipt(ctx, &receiptID)
	if err != nil {
		return Outcome{}, err
	}
	return Outcome{Result: Result{Status: ReceiptProcessed, MembershipID: &m.ID},
		Email: &Email{Key: ConfirmationKey(m.ID), Kind: ConfirmationKind}}, nil
}

// MatchInput is the account an admin matches a parked receipt to.
type MatchInput struct {
	Email string `json:"email"`
}

// Validate trims the email and checks it looks like one.
func (in *MatchInput) Validate() apperr.Fields {
	f := apperr.Fields{}
	in.Email = strings.TrimSpace(in.Email)
	if in.Email == "" || utf8.RuneCountInString(in.Email) > mail.MaxAddress || !strings.Contains(in.Email, "@") {
		f.Add("email", "must be an email address")
	}
	return f
}

// MatchReceipt applies parked receipt id to the account with in's email,
// matched by admin, through Apply: it returns the receipt, processed, and
// the confirmation email to deliver in the same transaction. A receipt
// that still does not fit (its total, its term) is a conflict carrying
// the reason, and the caller's transaction rolls back: nothing changes.
func MatchReceipt(ctx context.Context, q *db.Queries, id, admin uuid.UUID, in MatchInput, duesCents int64) (ReceiptView, Email, error) {
	cur, err := q.ReceiptGet(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		return ReceiptView{}, Email{}, ErrReceiptNotFound
	}
	if err != nil {
		return ReceiptView{}, Email{}, err
	}
	if !Matchable(ReceiptStatus(cur.Status), cur.TransactionID) {
		return ReceiptView{}, Email{}, ErrNotParked
	}
	if _, err := q.ProfileGetByEmail(ctx, in.Email); errors.Is(err, db.ErrNotFound) {
		return ReceiptView{}, Email{}, ErrAccountNotFound
	} else if err != nil {
		return ReceiptView{}, Email{}, err
	}
	out, err := Apply(ctx, q, id, duesCents, &Match{Email: in.Email, By: admin})
	switch {
	case errors.Is(err, db.ErrNotFound):
		return ReceiptView{}, Email{}, ErrReceiptNotFound
	case errors.Is(err, ErrNotApplicable):
		return ReceiptView{}, Email{}, ErrNotParked
	case err != nil:
		return ReceiptView{}, Email{}, err
	case out.Email == nil:
		return ReceiptView{}, Email{}, apperr.WithMessage(apperr.Conflict, "Receipt cannot be matched", out.Reason)
	}
	r, err := q.ReceiptGet(ctx, id)
	if err != nil {
		return ReceiptView{}, Email{}, err
	}
	return toReceiptView(r), *out.Email, nil
}

// ReceiptFilter is the admins' receipt list's ?status=.
type ReceiptFilter struct {
	Status *string
}

// Validate checks the status.
func (f *ReceiptFilter) Validate() apperr.Fields {
	fields := apperr.Fields{}
	if f.Status != nil && !ReceiptStatus(*f.Status).Valid() {
		fields.Add("status", "must be one of processed, parked, rejected, processing, received, duplicate")
	}
	return fields
}

// ListReceipts is a page of the stored receipts, newest first, and how
// many match the filter in all; f has been validated.
func ListReceipts(ctx context.Context, q *db.Queries, f ReceiptFilter, limit, offset int32) ([]ReceiptView, int64, error) {
	rows, err := q.ReceiptList(ctx, db.ReceiptListParams{Status: f.Status, PageSize: limit, PageOffset: offset})
	if err != nil {
		return nil, 0, err
	}
	total, err := q.ReceiptCount(ctx, f.Status)
	if err != nil {
		return nil, 0, err
	}
	items := make([]ReceiptView, len(rows))
	for i, r := range rows {
		items[i] = ReceiptView{ID: r.ID, TransactionID: r.TransactionID, CustomerEmail: r.CustomerEmail,
			AmountCents: r.AmountCents, Status: r.Status, Reason: r.Reason, CreatedAt: r.CreatedAt}
	}
	return items, total, nil
}
