package membership

import (
	"context"
	"fmt"
	"slices"

	"github.com/google/uuid"

	"hackdesk/db"
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

// ReceiptStatuses are the statuses, in the order the admins' filter names
// them.
func ReceiptStatuses() []ReceiptStatus {
	return []ReceiptStatus{ReceiptProcessed, ReceiptParked, ReceiptRejected, ReceiptProcessing, ReceiptReceived, ReceiptDuplicate}
}

// Valid reports whether s is a receipt status.
func (s ReceiptStatus) Valid() bool { return slices.Contains(ReceiptStatuses(), s) }

// receiptMoves is every move a receipt's status makes, and the one place
// they are written: the webhook verifies a received receipt (rejected), or
// reads it (parked when unreadable) and claims its transaction (duplicate
// when another receipt holds it, else processing); applying it pays the
// membership (processed) or parks it, and an admin's match applies a
// parked one again. Processed, rejected and duplicate are final.
var receiptMoves = map[ReceiptStatus][]ReceiptStatus{
	ReceiptReceived:   {ReceiptRejected, ReceiptParked, ReceiptDuplicate, ReceiptProcessing},
	ReceiptProcessing: {ReceiptParked, ReceiptProcessed},
	ReceiptParked:     {ReceiptParked, ReceiptProcessed},
}

// CanMoveReceipt reports whether a receipt's status may move from one
// status to the other.
func CanMoveReceipt(from, to ReceiptStatus) bool { return slices.Contains(receiptMoves[from], to) }

// Applicable reports whether a receipt in status s can be applied to a
// membership: it was verified, its transaction claimed, and it is not
// processed yet.
func (s ReceiptStatus) Applicable() bool { return CanMoveReceipt(s, ReceiptProcessed) }

// Matchable reports whether an admin may match a receipt to an account by
// hand: a parked receipt that was read (it has its transaction), so not
// one parked as unreadable.
func Matchable(s ReceiptStatus, transactionID string) bool {
	return s == ReceiptParked && transactionID != ""
}

// MoveError is a move receiptMoves does not allow.
type MoveError struct{ From, To ReceiptStatus }

func (e *MoveError) Error() string {
	return fmt.Sprintf("receipt cannot move from %s to %s", e.From, e.To)
}

// receiptMove is where a receipt goes, and what is recorded with it.
type receiptMove struct {
	To         ReceiptStatus
	Reason     string     // why it is parked, rejected or a duplicate
	ShopDomain string     // the sender's domain, for a rejected receipt
	WorkflowID *string    // the ReceiptProcessing workflow, for a processing one
	MatchedBy  *uuid.UUID // the admin who matched it, for a processed one
}

// moveReceipt moves r, locked in the transaction behind q, when
// receiptMoves allows it (a *MoveError otherwise).
func moveReceipt(ctx context.Context, q *db.Queries, r db.Receipt, m receiptMove) error {
	from := ReceiptStatus(r.Status)
	if !CanMoveReceipt(from, m.To) {
		return &MoveError{From: from, To: m.To}
	}
	if m.To == ReceiptRejected {
		_, err := q.ReceiptReject(ctx, db.ReceiptRejectParams{ID: r.ID, Reason: m.Reason, ShopDomain: m.ShopDomain})
		return err
	}
	return q.ReceiptSetStatus(ctx, db.ReceiptSetStatusParams{ID: r.ID, Status: string(m.To), Reason: m.Reason,
		WorkflowID: m.WorkflowID, MatchedBy: m.MatchedBy})
}

// clipReason shortens a reason that quotes what a sender wrote.
func clipReason(s string) string {
	if len(s) > 500 {
		return s[:500]
	}
	return s
}
