package activities

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"hackdesk/broadcast"
	"hackdesk/db"
	"hackdesk/mail"
	"hackdesk/signing"
)

// ErrTypeNoSigningKey is a non-retryable error: the worker has no
// SIGNING_KEY to sign unsubscribe links with.
const ErrTypeNoSigningKey = "SigningKeyNotConfigured"

// BroadcastActivities send broadcasts. SendBroadcastBatch runs on the
// broadcast task queue, whose dispatch rate the Temporal server limits
// (worker.NewBroadcast); FinishBroadcast runs on the main queue.
type BroadcastActivities struct {
	Store    *db.Store
	Mailer   mail.Sender
	MailFrom string
	// Unsubscribe signs the unsubscribe tokens; nil until the app sets it
	// from SIGNING_KEY, and a batch refuses to send without it.
	Unsubscribe *signing.Signer
	// Rate is BROADCAST_RATE. Besides the server's limit on the queue,
	// each worker spaces the emails of all its batches 1/Rate apart, so
	// batches the server lets start together (its limiter has a burst) do
	// not send in a burst. Zero sends without spacing.
	Rate float64

	mu       sync.Mutex
	nextSlot time.Time // when this worker may send its next email
}

// BroadcastBatchInput is one batch: the recipients numbered First..Last.
type BroadcastBatchInput struct {
	BroadcastID uuid.UUID
	First, Last int
	// PublicURL is the base of the unsubscribe links.
	PublicURL string
}

// BroadcastBatchResult is how the batch's recipients stand once it ran.
type BroadcastBatchResult struct {
	Sent, Failed int
	// Skipped counts recipients of a marketing broadcast who had
	// unsubscribed by the time their batch ran.
	Skipped int
	// Cancelled is true when the broadcast was asked to stop (or had
	// ended) before the batch began: it sent nothing.
	Cancelled bool
}

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
	rows, err := a.Store.BroadcastBatchLoad(ctx, db.BroadcastBatchLoadParams{
		BroadcastID: in.BroadcastID, First: int32(in.First), Last: int32(in.Last)})
	if err != nil || len(rows) == 0 {
		return BroadcastBatchResult{}, err
	}
	if broadcast.Status(rows[0].BroadcastStatus) != broadcast.Sending || rows[0].CancelRequested {
		return BroadcastBatchResult{Cancelled: true}, nil
	}
	if a.Unsubscribe == nil {
		return BroadcastBatchResult{}, temporal.NewNonRetryableApplicationError(
			"SIGNING_KEY is not set: broadcast emails need signed unsubscribe links", ErrTypeNoSigningKey, nil)
	}
	pending := slices.DeleteFunc(rows, func(r db.BroadcastBatchLoadRow) bool {
		return broadcast.RecipientStatus(r.Status) != broadcast.Pending
	})
	var marks db.BroadcastRecipientsMarkParams
	marks.BroadcastID = in.BroadcastID
	// Whoever unsubscribed from marketing since the broadcast was created
	// is skipped, and marked so with the batch's outcomes, unless an
	// earlier attempt of this batch already tried to send them their email
	// (its outcome is then reported as it stands).
	var skipErr error
	pending = slices.DeleteFunc(pending, func(r db.BroadcastBatchLoadRow) bool {
		if !r.Unsubscribed || skipErr != nil {
			return false
		}
		e, err := a.Store.EmailGetByKey(ctx, broadcast.EmailKey(in.BroadcastID, r.ProfileID))
		switch {
		case errors.Is(err, db.ErrNotFound), err == nil && mail.Status(e.Status) == mail.StatusPending:
			marks.Seqs, marks.Statuses = append(marks.Seqs, r.Seq), append(marks.Statuses, string(broadcast.Skipped))
			return true
		case err != nil:
			skipErr = err
		}
		return false
	})
	if skipErr != nil {
		return BroadcastBatchResult{}, skipErr
	}
	if err := a.record(ctx, in, pending); err != nil {
		return BroadcastBatchResult{}, err
	}
	sendErr := func() error {
		for _, r := range pending {
			if err := waitUntil(ctx, a.slot(), len(marks.Seqs)); err != nil {
				return err
			}
			status, err := a.deliver(ctx, in, r.ProfileID)
			if err != nil {
				return err
			}
			marks.Seqs, marks.Statuses = append(marks.Seqs, r.Seq), append(marks.Statuses, string(status))
			activity.RecordHeartbeat(ctx, len(marks.Seqs))
		}
		return nil
	}()
	// The outcomes are written down even if the activity is being
	// cancelled, as DeliverEmail does for the email itself.
	if len(marks.Seqs) > 0 {
		bctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), bookkeepingTimeout)
		_, err := a.Store.BroadcastRecipientsMark(bctx, marks)
		cancel()
		if err != nil {
			return BroadcastBatchResult{}, err
		}
	}
	if sendErr != nil {
		return BroadcastBatchResult{}, sendErr
	}
	t, err := a.Store.BroadcastRecipientsTally(ctx, db.BroadcastRecipientsTallyParams{
		BroadcastID: in.BroadcastID, First: int32(in.First), Last: int32(in.Last)})
	if err != nil {
		return BroadcastBatchResult{}, err
	}
	return BroadcastBatchResult{Sent: int(t.Sent), Failed: int(t.Failed), Skipped: int(t.Skipped)}, nil
}

// record renders and records the recipients' emails under their keys in
// one transaction (a key recorded before changes nothing), each with the
// recipient's own unsubscribe link. An email the emails table refuses
// fails the batch for good; none should be, as its rules are looser than
// those of profiles and broadcasts.
func (a *BroadcastActivities) record(ctx context.Context, in BroadcastBatchInput, rows []db.BroadcastBatchLoadRow) error {
	if len(rows) == 0 {
		return nil
	}
	id := in.BroadcastID
	err := a.Store.InTx(ctx, func(q *db.Queries) error {
		for _, r := range rows {
			data := map[string]string{"subject": r.Subject, "body": r.Body,
				"unsubscribe": broadcast.UnsubscribeLink(in.PublicURL, *a.Unsubscribe, r.ProfileID)}
			if _, err := mail.Record(ctx, q, broadcast.EmailKey(id, r.ProfileID), broadcast.EmailKind, r.Email, data); err != nil {
				return err
			}
		}
		return nil
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
	email := &EmailActivities{Store: a.Store, MailFrom: a.MailFrom,
		Mailer: mail.WithHeaders(a.Mailer, broadcast.UnsubscribeHeaders(in.PublicURL, *a.Unsubscribe, profileID))}
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

// FinishBroadcastInput ends a broadcast: done or cancelled.
type FinishBroadcastInput struct {
	BroadcastID uuid.UUID
	Status      broadcast.Status
}

// BroadcastCounts are a broadcast's counts as stored.
type BroadcastCounts struct {
	Status                       string
	Total, Sent, Failed, Skipped int
	// RecipientsDeleted is how many recipient rows this call deleted.
	RecipientsDeleted int
}

// FinishBroadcast records the end of a broadcast and deletes its
// recipient list in one transaction; the counts stay. A broadcast that has
// already ended keeps its status, and its list is deleted all the same, so
// a repeat is harmless.
func (a *BroadcastActivities) FinishBroadcast(ctx context.Context, in FinishBroadcastInput) (BroadcastCounts, error) {
	if in.Status != broadcast.Done && in.Status != broadcast.Cancelled {
		return BroadcastCounts{}, temporal.NewNonRetryableApplicationError("a broadcast ends done or cancelled", "BadInput", nil)
	}
	var out BroadcastCounts
	err := a.Store.InTx(ctx, func(q *db.Queries) error {
		b, err := q.BroadcastFinish(ctx, db.BroadcastFinishParams{ID: in.BroadcastID, Status: string(in.Status)})
		if errors.Is(err, db.ErrNotFound) {
			b, err = q.BroadcastGet(ctx, in.BroadcastID)
		}
		if err != nil {
			return err
		}
		n, err := q.BroadcastRecipientsDelete(ctx, in.BroadcastID)
		if err != nil {
			return err
		}
		out = BroadcastCounts{Status: b.Status, Total: int(b.Total), Sent: int(b.Sent), Failed: int(b.Failed), Skipped: int(b.Skipped),
			RecipientsDeleted: int(n)}
		return nil
	})
	if errors.Is(err, db.ErrNotFound) {
		return BroadcastCounts{}, temporal.NewNonRetryableApplicationError("no such broadcast", "BadInput", err)
	}
	return out, err
}
