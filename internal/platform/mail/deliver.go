package mail

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
)

// ClaimTimeout is how long a claim ("sending") is honoured. It is well
// above the delivering activity's start-to-close timeout, after which the
// attempt that made the claim has been abandoned.
const ClaimTimeout = 2 * time.Minute

// BookkeepingTimeout bounds the writes after a send, which run even when
// the caller's context is cancelled and are retried while the database is
// out of reach (db.Persist). With the delivering activity's start-to-close
// timeout it stays under ClaimTimeout, so no other attempt takes the email
// over while the outcome is still being written down.
// A stopping process waits for these writes before it closes the
// database pool (activities.InFlight, app.App.Close).
const BookkeepingTimeout = 45 * time.Second

// Errors of Deliver, besides the store's and the Sender's.
var (
	// ErrInProgress is a claim younger than ClaimTimeout: another attempt
	// may still be delivering the email. Trying again later is right.
	ErrInProgress = errors.New("another attempt is delivering this email")
	// ErrOutcomeUnknown is a claim older than ClaimTimeout: the attempt
	// that made it died after calling the Sender or before, nobody can
	// tell. The email has been marked failed rather than risk a second
	// copy; it is final.
	ErrOutcomeUnknown = errors.New("delivery outcome unknown")
)

// Outbound is how Deliver sends: through Sender, from From. Unless
// KeepSecretBodies is set (the local stack's mail catcher), the body of a
// secret-bearing email (a link with a one-time token) is replaced by
// RedactedText once the email is sent or given up.
type Outbound struct {
	Sender           Sender
	From             string
	KeepSecretBodies bool
}

// Delivered is what Deliver did.
type Delivered struct {
	Status     Status // StatusSent or StatusFailed
	ProviderID string
	// AlreadyDone is true when an earlier attempt had finished the job.
	AlreadyDone bool
}

// Deliver sends the email recorded under key at most once.
//
// The row is claimed (StatusSending) in a transaction before the Sender is
// called. A transient Sender failure puts it back to StatusPending and
// returns the error, to be tried again; a permanent one (IsPermanent)
// marks it StatusFailed and returns the Sender's error with that status.
// An attempt that finds the row still sending knows an earlier attempt
// died after the claim and cannot tell whether the message left: a claim
// younger than ClaimTimeout is ErrInProgress, an older one is marked
// failed and answered with ErrOutcomeUnknown. An email already sent or
// failed is answered as it ended, AlreadyDone. No email under key is
// db.ErrNotFound.
func Deliver(ctx context.Context, s *db.Store, o Outbound, key string) (Delivered, error) {
	var (
		msg     Message
		id      uuid.UUID
		attempt int32 // the claim's attempt number
		done    *Delivered
	)
	err := s.InTx(ctx, func(q *db.Queries) error {
		e, err := q.EmailLockByKey(ctx, key)
		if err != nil {
			return err
		}
		switch Status(e.Status) {
		case StatusSent:
			done = &Delivered{Status: StatusSent, AlreadyDone: true}
			if e.ProviderID != nil {
				done.ProviderID = *e.ProviderID
			}
			return nil
		case StatusFailed:
			done = &Delivered{Status: StatusFailed, AlreadyDone: true}
			return nil
		case StatusSending:
			if time.Since(e.UpdatedAt) < ClaimTimeout {
				return ErrInProgress
			}
			done = &Delivered{Status: StatusFailed}
			reason := "an earlier attempt was interrupted during delivery; not resent to avoid a duplicate"
			return q.EmailMarkFailed(ctx, o.markFailed(e.ID, reason))
		}
		id, attempt = e.ID, e.Attempts+1
		msg = Message{Key: e.IdempotencyKey, From: o.From, To: e.ToAddress,
			Subject: e.Subject, Text: e.TextBody, HTML: e.HtmlBody}
		return q.EmailMarkSending(ctx, e.ID)
	})
	if err != nil {
		if id != uuid.Nil && db.Unreachable(err) {
			// The claim may have committed before the connection dropped.
			// Nothing was sent, so give it back rather than leave the next
			// attempt to find it sending and report the email failed.
			bctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), BookkeepingTimeout)
			defer cancel()
			if rerr := db.Persist(bctx, func(ctx context.Context) error {
				return s.EmailReleaseClaim(ctx, db.EmailReleaseClaimParams{ID: id, Attempts: attempt})
			}); rerr != nil {
				return Delivered{}, fmt.Errorf("claim failed (%w), and so did releasing it: %v", err, rerr)
			}
		}
		return Delivered{}, err
	}
	if done != nil {
		if done.Status == StatusFailed && !done.AlreadyDone {
			return *done, ErrOutcomeUnknown
		}
		return *done, nil
	}

	providerID, sendErr := o.Sender.Send(ctx, msg)
	// Once the Sender has been called, what it answered must be written
	// down even if the caller is being cancelled (a worker shutting down):
	// otherwise a sent email would be left sending and reported failed.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), BookkeepingTimeout)
	defer cancel()
	// A connection dropped here would leave a sent email sending, to be
	// reported failed by the next attempt: the writes are retried.
	if sendErr != nil {
		reason := sendErr.Error()
		if IsPermanent(sendErr) {
			if err := db.Persist(ctx, func(ctx context.Context) error {
				return s.EmailMarkFailed(ctx, o.markFailed(id, reason))
			}); err != nil {
				return Delivered{}, err
			}
			return Delivered{Status: StatusFailed}, sendErr
		}
		if err := db.Persist(ctx, func(ctx context.Context) error {
			return s.EmailMarkPending(ctx, db.EmailMarkPendingParams{ID: id, LastError: &reason})
		}); err != nil {
			return Delivered{}, fmt.Errorf("send failed (%v), and so did releasing the claim: %w", sendErr, err)
		}
		return Delivered{}, fmt.Errorf("send email: %w", sendErr)
	}
	if err := db.Persist(ctx, func(ctx context.Context) error {
		return s.EmailMarkSent(ctx, db.EmailMarkSentParams{ID: id, ProviderID: &providerID,
			Redact: !o.KeepSecretBodies, RedactedText: RedactedText, RedactedHtml: RedactedHTML})
	}); err != nil {
		return Delivered{}, err
	}
	return Delivered{Status: StatusSent, ProviderID: providerID}, nil
}

// markFailed gives up on an email. Failing is final, so a secret-bearing
// body is redacted as it would be once sent.
func (o Outbound) markFailed(id uuid.UUID, reason string) db.EmailMarkFailedParams {
	return db.EmailMarkFailedParams{ID: id, LastError: &reason,
		Redact: !o.KeepSecretBodies, RedactedText: RedactedText, RedactedHtml: RedactedHTML}
}
