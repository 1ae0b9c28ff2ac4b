package activities

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"hackdesk/db"
	"hackdesk/internal/feature/broadcast"
	"hackdesk/internal/platform/mail"
	"hackdesk/internal/platform/signing"
)

// ErrTypeNoSigningKey is a non-retryable error: the worker has no
// SIGNING_KEY to sign unsubscribe links with.
const ErrTypeNoSigningKey = "SigningKeyNotConfigured"

// BroadcastActivities send broadcasts. SendBroadcastBatch runs on the
// broadcast task queue, whose dispatch rate the Temporal server limits
// (worker.NewBroadcast); FinishBroadcast runs on the main queue.
type BroadcastActivities struct {
	Store *db.Store
	// Email delivers each recipient's email, as every other email is
	// delivered, with the recipient's unsubscribe headers added.
	Email *EmailActivities
	// Unsubscribe signs the unsubscribe tokens (SIGNING_KEY); a batch
	// refuses to send without it.
	Unsubscribe *signing.Signer
	// Rate is BROADCAST_RATE. Besides the server's limit on the queue,
	// each worker spaces the emails of all its batches 1/Rate apart, so
	// batches the server lets start together (its limiter has a burst) do
	// not send in a burst. Zero sends without spacing.
	Rate float64

	mu       sync.Mutex
	nextSlot time.Time // when this worker may send its next email
}

// The values the broadcast activities take and return (package broadcast).
type (
	BroadcastBatchInput  = broadcast.BatchInput
	BroadcastBatchResult = broadcast.BatchResult
	FinishBroadcastInput = broadcast.FinishInput
	BroadcastCounts      = broadcast.Counts
)

// pollHeartbeat is the longest a batch waits between heartbeats while it
// spaces its emails.
const pollHeartbeat = 5 * time.Second

// SendBroadcastBatch records the broadcast's email to each recipient of
// the batch still pending (one transaction), sends them one after the
// other, and then records the outcomes on the recipients (counted on the
// broadcast once). It is safe to run again: the email key
// (broadcast.EmailKey) records and sends each email once, and a recipient
// already marked is skipped, so a batch retried after a crash sends
// nothing twice and counts nothing twice. It heartbeats after each email.
// A cancel request is seen when a batch starts (it then sends nothing); a
// batch under way stops only when its activity is cancelled (the workflow
// does so once a batch has seen the request), after writing down what it
// sent.
//
// A recipient whose email is refused for good (a rejected address, an
// interrupted delivery whose outcome is unknown) is marked failed and the
// batch goes on; any other error fails the attempt, to be retried, after
// writing down the outcomes so far.
func (a *BroadcastActivities) SendBroadcastBatch(ctx context.Context, in BroadcastBatchInput) (BroadcastBatchResult, error) {
	var b broadcast.Batch
	err := a.Store.InSnapshot(ctx, func(q *db.Queries) (err error) {
		b, err = broadcast.Prepare(ctx, q, in, a.Unsubscribe)
		return err
	})
	switch {
	case errors.Is(err, broadcast.ErrNoSigningKey):
		return BroadcastBatchResult{}, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeNoSigningKey, nil)
	case err != nil || b.Empty:
		return BroadcastBatchResult{}, err
	case b.Cancelled:
		return BroadcastBatchResult{Cancelled: true}, nil
	}
	if err := a.record(ctx, in, b.Send); err != nil {
		return BroadcastBatchResult{}, err
	}
	marks := b.Outcomes
	sendErr := func() error {
		for _, r := range b.Send {
			if err := waitUntil(ctx, a.slot(), marks.Len()); err != nil {
				return err
			}
			status, err := a.deliver(ctx, in, r.ProfileID)
			if err != nil {
				return err
			}
			marks.Add(r.Seq, status)
			activity.RecordHeartbeat(ctx, marks.Len())
		}
		return nil
	}()
	// The outcomes are written down even if the activity is being
	// cancelled, as DeliverEmail does for the email itself.
	if marks.Len() > 0 {
		bctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), mail.BookkeepingTimeout)
		err := broadcast.Mark(bctx, a.Store.Queries, in.BroadcastID, marks)
		cancel()
		if err != nil {
			return BroadcastBatchResult{}, err
		}
	}
	if sendErr != nil {
		return BroadcastBatchResult{}, sendErr
	}
	return broadcast.Tally(ctx, a.Store.Queries, in)
}

// record records the recipients' emails in one transaction
// (broadcast.RecordEmails). An email the emails table refuses fails the
// batch for good; none should be, as its rules are looser than those of
// profiles and broadcasts.
func (a *BroadcastActivities) record(ctx context.Context, in BroadcastBatchInput, rows []db.BroadcastBatchLoadRow) error {
	if len(rows) == 0 {
		return nil
	}
	err := a.Store.InTx(ctx, func(q *db.Queries) error {
		return broadcast.RecordEmails(ctx, q, in, *a.Unsubscribe, rows)
	})
	if errors.Is(err, db.ErrInvalid) {
		return temporal.NewNonRetryableApplicationError("a broadcast email breaks a data rule", ErrTypeBadEmail, err)
	}
	return err
}

// slot reserves the worker's next sending time, 1/Rate after the last.
func (a *BroadcastActivities) slot() time.Time {
	if a.Rate <= 0 {
		return time.Time{}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	t := time.Now()
	if a.nextSlot.After(t) {
		t = a.nextSlot
	}
	a.nextSlot = t.Add(time.Duration(float64(time.Second) / a.Rate))
	return t
}

// waitUntil sleeps until t, heartbeating the progress meanwhile.
func waitUntil(ctx context.Context, t time.Time, progress int) error {
	for {
		d := time.Until(t)
		if d <= 0 {
			return nil
		}
		timer := time.NewTimer(min(d, pollHeartbeat))
		select {
		case <-ctx.Done():
			timer.Stop()
			return ctx.Err()
		case <-timer.C:
		}
		if d > pollHeartbeat {
			activity.RecordHeartbeat(ctx, progress)
		}
	}
}

// deliver sends the recipient's recorded email once, with their one-click
// unsubscribe headers, through the same claim-then-send path as every
// other email (DeliverEmail).
func (a *BroadcastActivities) deliver(ctx context.Context, in BroadcastBatchInput, profileID uuid.UUID) (broadcast.RecipientStatus, error) {
	email := *a.Email
	email.Mailer = mail.WithHeaders(a.Email.Mailer, broadcast.UnsubscribeHeaders(in.PublicURL, *a.Unsubscribe, profileID))
	out, err := email.DeliverEmail(ctx, broadcast.EmailKey(in.BroadcastID, profileID))
	if err != nil {
		var app *temporal.ApplicationError
		if errors.As(err, &app) && app.NonRetryable() {
			return broadcast.Failed, nil
		}
		return "", err
	}
	if mail.Status(out.Status) == mail.StatusSent {
		return broadcast.Sent, nil
	}
	return broadcast.Failed, nil
}

// FinishBroadcast records the end of a broadcast and deletes its
// recipient list in one transaction (broadcast.Finish); a repeat is
// harmless. A status other than done or cancelled, or an unknown
// broadcast, fails for good.
func (a *BroadcastActivities) FinishBroadcast(ctx context.Context, in FinishBroadcastInput) (BroadcastCounts, error) {
	var out BroadcastCounts
	err := a.Store.InTx(ctx, func(q *db.Queries) (err error) {
		out, err = broadcast.Finish(ctx, q, in)
		return err
	})
	switch {
	case errors.Is(err, broadcast.ErrBadEnd):
		return BroadcastCounts{}, temporal.NewNonRetryableApplicationError(err.Error(), "BadInput", nil)
	case errors.Is(err, db.ErrNotFound):
		return BroadcastCounts{}, temporal.NewNonRetryableApplicationError("no such broadcast", "BadInput", err)
	}
	return out, err
}
