package membership

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"slices"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/receipts"
)

// A shop receipt arrives through the inbound-email webhook and is taken in
// three steps: Intake stores it (once per token and per email), Verify
// checks its sender and DKIM signature (outside any transaction: DNS may
// be slow) and reads it, and Claim records the verdict. A claimed receipt is
// then applied by ReceiptProcessing (Apply).

// WebhookWindow is how far a post's signed timestamp may be from now.
const WebhookWindow = 300 * time.Second

// tokenKeep is how long a used token is kept: a token comes with a
// timestamp signed with it, accepted for WebhookWindow either side of now,
// so after twice the window it can never pass again.
const tokenKeep = 2 * WebhookWindow

// ErrWebhookSignature is a post whose signature does not hold, or whose
// token came before with another email.
var ErrWebhookSignature = apperr.New(apperr.Unauthorized, "Invalid signature")

// Stored is what became of a posted receipt, as the webhook answers it.
type Stored struct {
	Status ReceiptStatus `json:"status"`
	ID     uuid.UUID     `json:"receipt_id"`
}

// Intake records the post's token, bound to the email it came with, and
// stores the raw email unique by its SHA-256, in the transaction behind q.
// A token seen before with another email is ErrWebhookSignature; the same
// email again (a replay) finds the receipt already there, with the status
// it has reached.
func Intake(ctx context.Context, q *db.Queries, token string, raw []byte) (Stored, error) {
	sum := sha256.Sum256(raw)
	bound, err := retryRead(func() ([]byte, error) {
		return q.WebhookTokenUse(ctx, db.WebhookTokenUseParams{Token: token, BodySha256: sum[:]})
	})
	if err != nil {
		return Stored{}, err
	}
	if !bytes.Equal(bound, sum[:]) {
		return Stored{}, ErrWebhookSignature
	}
	row, err := retryRead(func() (db.ReceiptStoreRow, error) {
		return q.ReceiptStore(ctx, db.ReceiptStoreParams{BodySha256: sum[:], Raw: raw})
	})
	if err != nil {
		return Stored{}, err
	}
	return Stored{ID: row.ID, Status: ReceiptStatus(row.Status)}, nil
}

// PruneTokens deletes up to batch of the tokens that can no longer pass
// the signature check, and returns how many.
func PruneTokens(ctx context.Context, q *db.Queries, now time.Time, batch int32) (int64, error) {
	return q.WebhookTokensPrune(ctx, db.WebhookTokensPruneParams{Before: now.Add(-tokenKeep), BatchSize: batch})
}

// retryRead runs an insert-or-read statement again when it found neither
// (a concurrent insert committed after its snapshot was taken).
func retryRead[T any](f func() (T, error)) (T, error) {
	var v T
	var err error
	for try := 0; try < 3; try++ {
		if v, err = f(); !errors.Is(err, db.ErrNotFound) {
			return v, err
		}
	}
	return v, err
}

// Verified is a stored receipt with Verify's verdict and what
// receipts.Parse made of it.
type Verified struct {
	ID         uuid.UUID
	ShopDomain string // as far as it was read
	Rejection  error  // why the sender or the DKIM signature failed
	Receipt    receipts.Receipt
	ParseErr   error // why Parse refused it
	// WorkflowID is the ReceiptProcessing workflow that applies the
	// receipt once its transaction is claimed.
	WorkflowID string
}

// Verify checks that a raw email comes from one of the receipt senders and
// that its DKIM signature holds (v.Rejection says why not), then reads it;
// it needs nothing stored, and the caller sets v.ID to the receipt Intake
// stored. An error (wrapping receipts.ErrDKIMTemporary) is neither a pass
// nor a failure: the shop's key could not be read for now.
func Verify(raw []byte, senders []string, lookup receipts.LookupTXT) (Verified, error) {
	domain, err := receipts.SenderDomain(raw)
	if err == nil && !slices.Contains(senders, domain) {
		err = errors.New("sender domain " + domain + " is not a receipt sender")
	}
	if err == nil {
		err = receipts.VerifyDKIM(raw, domain, lookup)
	}
	v := Verified{ShopDomain: domain}
	switch {
	case errors.Is(err, receipts.ErrDKIMTemporary):
		return v, err
	case err != nil:
		v.Rejection = err
		return v, nil
	}
	v.Receipt, v.ParseErr = receipts.Parse(raw)
	return v, nil
}

// Claim records Verify's verdict on a received receipt in the transaction
// behind q. A rejected one keeps why (and is answered rejected whatever a
// concurrent copy of the post did); an unreadable one is parked for an
// admin; a readable one keeps what Parse read (Apply works from those
// columns, not the email) and claims its transaction, once per shop:
// another copy is a duplicate, the first is processing, and the caller
// starts v.WorkflowID in the same transaction. Otherwise the receipt is as
// a concurrent copy of the post left it, when that got here first.
func Claim(ctx context.Context, q *db.Queries, v Verified) (Stored, error) {
	r, err := q.ReceiptLock(ctx, v.ID)
	if err != nil {
		return Stored{}, err
	}
	status := ReceiptStatus(r.Status)
	to := func(m receiptMove) (Stored, error) { return Stored{ID: r.ID, Status: m.To}, moveReceipt(ctx, q, r, m) }
	switch {
	case v.Rejection != nil && CanMoveReceipt(status, ReceiptRejected):
		return to(receiptMove{To: ReceiptRejected, Reason: clipReason(v.Rejection.Error()), ShopDomain: v.ShopDomain})
	case v.Rejection != nil:
		return Stored{ID: r.ID, Status: ReceiptRejected}, nil
	case status != ReceiptReceived:
		return Stored{ID: r.ID, Status: status}, nil
	case v.ParseErr != nil:
		return to(receiptMove{To: ReceiptParked, Reason: clipReason(receipts.Reason(v.ParseErr))})
	}
	rc := v.Receipt
	if err := q.ReceiptSetParsed(ctx, db.ReceiptSetParsedParams{ID: r.ID, ShopDomain: v.ShopDomain,
		TransactionID: rc.TransactionID, OrderNumber: rc.OrderNumber, CustomerEmail: rc.CustomerEmail,
		AmountCents: &rc.TotalCents, TermName: rc.MembershipTerm()}); err != nil {
		return Stored{}, err
	}
	n, err := q.ReceiptTransactionClaim(ctx, db.ReceiptTransactionClaimParams{ShopDomain: v.ShopDomain, TransactionID: rc.TransactionID, ReceiptID: r.ID})
	if err != nil {
		return Stored{}, err
	}
	if n == 0 {
		return to(receiptMove{To: ReceiptDuplicate, Reason: "another receipt of transaction " + rc.TransactionID + " was received first"})
	}
	return to(receiptMove{To: ReceiptProcessing, WorkflowID: &v.WorkflowID})
}
