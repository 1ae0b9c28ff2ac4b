package broadcast

import (
	"context"
	"errors"
	"slices"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/mail"
	"hackdesk/internal/platform/signing"
)

// BatchInput is one batch of a broadcast: the recipients numbered
// First..Last.
type BatchInput struct {
	BroadcastID uuid.UUID
	First, Last int
	// PublicURL is the base of the unsubscribe links.
	PublicURL string
}

// BatchResult is how the batch's recipients stand once it ran.
type BatchResult struct {
	Sent, Failed int
	// Skipped counts recipients of a marketing broadcast who had
	// unsubscribed by the time their batch ran.
	Skipped int
	// Cancelled is true when the broadcast was asked to stop (or had
	// ended) before the batch began: it sent nothing.
	Cancelled bool
}

// ErrNoSigningKey is Prepare's answer without a signer: broadcast emails
// carry signed unsubscribe links.
var ErrNoSigningKey = errors.New("SIGNING_KEY is not set: broadcast emails need signed unsubscribe links")

// Outcomes are the statuses of a batch's recipients, by seq, to mark on
// them (Mark).
type Outcomes struct {
	Seqs     []int32
	Statuses []string
}

// Add records the outcome of the recipient numbered seq.
func (o *Outcomes) Add(seq int32, s RecipientStatus) {
	o.Seqs, o.Statuses = append(o.Seqs, seq), append(o.Statuses, string(s))
}

// Len is how many outcomes o holds.
func (o *Outcomes) Len() int { return len(o.Seqs) }

// Batch is what a batch has to do, as Prepare found it.
type Batch struct {
	// Empty: no recipient is numbered First..Last (the list was deleted
	// when the broadcast ended); there is nothing to do or count.
	Empty bool
	// Cancelled: the broadcast was asked to stop or has ended; send nothing.
	Cancelled bool
	// Send are the recipients still pending, whose emails are to be
	// recorded and sent.
	Send []db.BroadcastBatchLoadRow
	// Outcomes are those skipped (unsubscribed since), to mark with the
	// outcomes of the sends.
	Outcomes Outcomes
}

// Prepare reads the batch's recipients. A broadcast no longer sending, or
// asked to stop, makes the batch Cancelled; without a signer it is
// ErrNoSigningKey.
// Whoever unsubscribed from marketing since the broadcast was created is
// skipped, unless an earlier attempt of this batch already tried to send
// them their email (its outcome is then reported as it stands).
func Prepare(ctx context.Context, q *db.Queries, in BatchInput, signer *signing.Signer) (Batch, error) {
	rows, err := q.BroadcastBatchLoad(ctx, db.BroadcastBatchLoadParams{
		BroadcastID: in.BroadcastID, First: int32(in.First), Last: int32(in.Last)})
	if err != nil || len(rows) == 0 {
		return Batch{Empty: true}, err
	}
	if Status(rows[0].BroadcastStatus) != Sending || rows[0].CancelRequested {
		return Batch{Cancelled: true}, nil
	}
	if signer == nil {
		return Batch{}, ErrNoSigningKey
	}
	var b Batch
	for _, r := range rows {
		if RecipientStatus(r.Status) != Pending {
			continue
		}
		if r.Unsubscribed {
			e, err := q.EmailGetByKey(ctx, EmailKey(in.BroadcastID, r.ProfileID))
			switch {
			case errors.Is(err, db.ErrNotFound), err == nil && mail.Status(e.Status) == mail.StatusPending:
				b.Outcomes.Add(r.Seq, Skipped)
				continue
			case err != nil:
				return Batch{}, err
			}
		}
		b.Send = append(b.Send, r)
	}
	return b, nil
}

// RecordEmails renders and records the recipients' emails under their
// keys (EmailKey), in the transaction behind q, each with the recipient's
// own unsubscribe link; a key recorded before changes nothing. Each goes
// to the account's address as it is now (BroadcastRecipientsLive, which
// share-locks the accounts until the commit); a recipient whose account is
// being erased gets a suppressed email instead (mail.RecordSuppressed),
// which is never sent and names nobody.
func RecordEmails(ctx context.Context, q *db.Queries, in BatchInput, s signing.Signer, rows []db.BroadcastBatchLoadRow) error {
	ids := make([]uuid.UUID, len(rows))
	for i, r := range rows {
		ids[i] = r.ProfileID
	}
	live, err := q.BroadcastRecipientsLive(ctx, ids)
	if err != nil {
		return err
	}
	to := make(map[uuid.UUID]string, len(live))
	for _, l := range live {
		to[l.ID] = l.Email
	}
	for _, r := range rows {
		key := EmailKey(in.BroadcastID, r.ProfileID)
		addr, ok := to[r.ProfileID]
		if !ok {
			if _, err := mail.RecordSuppressed(ctx, q, key, EmailKind); err != nil {
				return err
			}
			continue
		}
		data := map[string]string{"subject": r.Subject, "body": r.Body,
			"unsubscribe": UnsubscribeLink(in.PublicURL, s, r.ProfileID)}
		if _, err := mail.Record(ctx, q, key, EmailKind, addr, data); err != nil {
			return err
		}
	}
	return nil
}

// Mark records the outcomes on the recipients and counts them on the
// broadcast, once: a recipient already marked changes nothing.
func Mark(ctx context.Context, q *db.Queries, id uuid.UUID, o Outcomes) error {
	_, err := q.BroadcastRecipientsMark(ctx, db.BroadcastRecipientsMarkParams{BroadcastID: id, Seqs: o.Seqs, Statuses: o.Statuses})
	return err
}

// Tally is how the batch's recipients stand.
func Tally(ctx context.Context, q *db.Queries, in BatchInput) (BatchResult, error) {
	t, err := q.BroadcastRecipientsTally(ctx, db.BroadcastRecipientsTallyParams{
		BroadcastID: in.BroadcastID, First: int32(in.First), Last: int32(in.Last)})
	if err != nil {
		return BatchResult{}, err
	}
	return BatchResult{Sent: int(t.Sent), Failed: int(t.Failed), Skipped: int(t.Skipped)}, nil
}

// FinishInput ends a broadcast: done or cancelled.
type FinishInput struct {
	BroadcastID uuid.UUID
	Status      Status
}

// Counts are a broadcast's counts as stored.
type Counts struct {
	Status                       string
	Total, Sent, Failed, Skipped int
	// RecipientsDeleted is how many recipient rows this call deleted.
	RecipientsDeleted int
}

// ErrBadEnd is Finish's answer to a status other than done or cancelled.
var ErrBadEnd = errors.New("a broadcast ends done or cancelled")

// Finish records the end of a broadcast and deletes its recipient list, in
// the transaction behind q; the counts stay. A broadcast that has already
// ended keeps its status, and its list is deleted all the same, so a
// repeat is harmless. A broadcast that does not exist is db.ErrNotFound.
func Finish(ctx context.Context, q *db.Queries, in FinishInput) (Counts, error) {
	if !Ends(in.Status) {
		return Counts{}, ErrBadEnd
	}
	b, err := q.BroadcastFinish(ctx, db.BroadcastFinishParams{ID: in.BroadcastID, Status: string(in.Status)})
	if errors.Is(err, db.ErrNotFound) {
		b, err = q.BroadcastGet(ctx, in.BroadcastID)
	}
	if err != nil {
		return Counts{}, err
	}
	n, err := q.BroadcastRecipientsDelete(ctx, in.BroadcastID)
	if err != nil {
		return Counts{}, err
	}
	return Counts{Status: b.Status, Total: int(b.Total), Sent: int(b.Sent), Failed: int(b.Failed), Skipped: int(b.Skipped),
		RecipientsDeleted: int(n)}, nil
}

// Ends reports whether s is a status a broadcast ends in.
func Ends(s Status) bool { return slices.Contains([]Status{Done, Cancelled}, s) }
