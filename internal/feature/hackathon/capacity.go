package hackathon

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
)

// OverCapacity is the 409 of a batch of offers that would take the offers
// and attending RSVPs of an edition past its capacity.
func OverCapacity(n int64, capacity int32) error {
	return apperr.WithMessage(apperr.Conflict, "Over capacity",
		fmt.Sprintf("%d offers and attending would pass the capacity of %d", n, capacity))
}

// CheckOffers checks a batch of offers on applications batch (locked and
// checked already) against the capacity of edition id: the attending
// RSVPs and open offers outside the batch, plus the batch, must not pass
// it unless allowOver (the page asked the admin first). An edition
// without a capacity takes any number. The edition's row is locked until
// the transaction ends, so two batches of offers are counted one after
// the other.
func CheckOffers(ctx context.Context, q *db.Queries, id uuid.UUID, batch []uuid.UUID, allowOver bool) error {
	h, err := q.HackathonLock(ctx, id)
	if err != nil {
		return err
	}
	if h.Capacity == nil || allowOver {
		return nil
	}
	held, err := q.HackathonCapacityLoad(ctx, db.HackathonCapacityLoadParams{HackathonID: id, Exclude: batch})
	if err != nil {
		return err
	}
	if n := held.Attending + held.OpenOffers + int64(len(batch)); n > int64(*h.Capacity) {
		return OverCapacity(n, *h.Capacity)
	}
	return nil
}

// Capacity is an edition's places and what holds them, as the dashboard
// shows it: Limit is null for an edition without a capacity.
type Capacity struct {
	Limit      *int32 `json:"limit"`
	Attending  int64  `json:"attending"`
	OpenOffers int64  `json:"open_offers"`
}
