package activities

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"

	"hackdesk/db"
	"hackdesk/internal/platform/mail"
)

// Error types workflows see as non-retryable.
const (
	ErrTypeBadEmail       = "BadEmail"
	ErrTypeDeliveryFailed = "DeliveryFailed"
	ErrTypeOutcomeUnknown = "DeliveryOutcomeUnknown"
)

// RecordEmailInput is an email to record before sending.
type RecordEmailInput struct {
	Key  string
	Kind string
	To   string
	Data map[string]string
}

// errNotRecordedYet means the email was to be recorded by the transaction
// that started the workflow, and that transaction has not committed (yet).
var errNotRecordedYet = errors.New("email not recorded yet")

// RecordEmail renders the email and stores it under its idempotency key.
// Recording the same key again changes nothing and returns false.
//
// Callers that record the email themselves, in the transaction that
// creates what the email is about (a sign-up and its confirmation token),
// start the workflow with no Data: then the row must appear, and until it
// does the activity fails with a retryable error. Their secrets (links with
// tokens) thus never enter the workflow history.
func (a *EmailActivities) RecordEmail(ctx context.Context, in RecordEmailInput) (bool, error) {
	_, err := a.Store.EmailGetByKey(ctx, in.Key)
	if err == nil {
		return false, nil
	}
	if !errors.Is(err, db.ErrNotFound) {
		return false, err
	}
	if in.Data == nil {
		return false, errNotRecordedYet
	}
	if _, err := mail.Render(in.Kind, in.Data); err != nil {
		return false, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeBadEmail, err)
	}
	created, err := mail.Record(ctx, a.Store.Queries, in.Key, in.Kind, in.To, in.Data)
	if errors.Is(err, db.ErrInvalid) {
		return false, temporal.NewNonRetryableApplicationError("email breaks a data rule", ErrTypeBadEmail, err)
	}
	return created, err
}

// ClaimTimeout is how long a claim ("sending") is honoured. It is well
// above the activity's start-to-close timeout, after which the attempt that
// made the claim has been abandoned.
const ClaimTimeout = 2 * time.Minute

// BookkeepingTimeout bounds the writes after a send, which run even when
// the activity's context is cancelled and are retried while the database
// is out of reach (db.Persist). With the start-to-close timeout it stays
// under ClaimTimeout, so no other attempt takes the email over while the
// outcome is still being written down. A stopping process waits for these
// writes before it closes the database pool (activities.InFlight,
// app.App.Close).
const BookkeepingTimeout = 45 * time.Second

var errInProgress = errors.New("another attempt is delivering this email")

// DeliverEmailResult says what DeliverEmail did.
type DeliverEmailResult struct {
	Status     string // mail.StatusSent or mail.StatusFailed
	ProviderID string
	// AlreadyDone is true when an earlier attempt had finished the job.
	AlreadyDone bool
}

// DeliverEmail sends the recorded email with the given key at most once.
//
// The row is claimed (status "sending") in a transaction before the driver
// is called. A transient driver failure puts it back to "pending" and the
// activity is retried; a permanent one marks it "failed". An attempt that
// finds the row still "sending" knows an earlier attempt died after the
// claim and cannot tell whether the message left, so it marks the row
// failed instead of risking a second copy. A claim younger than
// ClaimTimeout belongs to an attempt that may still be running: that is a
// retryable error.
func (a *EmailActivities) DeliverEmail(ctx context.Context, key string) (DeliverEmailResult, error) {
	var (
		msg     mail.Message
		id      uuid.UUID
		attempt int32 // the claim's attempt number
		done    *DeliverEmailResult
	)
	err := a.Store.InTx(ctx, func(q *db.Queries) error {
		e, err := q.EmailLockByKey(ctx, key)
		if err != nil {
			return err
		}
		switch mail.Status(e.Status) {
		case mail.StatusSent:
			done = &DeliverEmailResult{Status: string(mail.StatusSent), AlreadyDone: true}
			if e.ProviderID != nil {
				done.ProviderID = *e.ProviderID
			}
			return nil
		case mail.StatusFailed:
			done = &DeliverEmailResult{Status: string(mail.StatusFailed), AlreadyDone: true}
			return nil
		case mail.StatusSending:
			if time.Since(e.UpdatedAt) < ClaimTimeout {
				return errInProgress
			}
			done = &DeliverEmailResult{Status: string(mail.StatusFailed)}
			reason := "an earlier attempt was interrupted during delivery; not resent to avoid a duplicate"
			return q.EmailMarkFailed(ctx, a.markFailed(e.ID, reason))
		}
		id, attempt = e.ID, e.Attempts+1
		msg = mail.Message{Key: e.IdempotencyKey, From: a.MailFrom, To: e.ToAddress,
			Subject: e.Subject, Text: e.TextBody, HTML: e.HtmlBody}
		return q.EmailMarkSending(ctx, e.ID)
	})
	if errors.Is(err, db.ErrNotFound) {
		return DeliverEmailResult{}, temporal.NewNonRetryableApplicationError("no email recorded under this key", ErrTypeBadEmail, err)
	}
	if err != nil {
		if id != uuid.Nil && db.Unreachable(err) {
			// The claim may have committed before the connection dropped.
			// Nothing was sent, so give it back rather than leave the next
			// attempt to find it "sending" and report the email failed.
			bctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), BookkeepingTimeout)
			defer cancel()
			if rerr := db.Persist(bctx, func(ctx context.Context) error {
				return a.Store.EmailReleaseClaim(ctx, db.EmailReleaseClaimParams{ID: id, Attempts: attempt})
			}); rerr != nil {
				return DeliverEmailResult{}, fmt.Errorf("claim failed (%w), and so did releasing it: %v", err, rerr)
			}
		}
		return DeliverEmailResult{}, err
	}
	if done != nil {
		if done.Status == string(mail.StatusFailed) && !done.AlreadyDone {
			return *done, temporal.NewNonRetryableApplicationError("delivery outcome unknown", ErrTypeOutcomeUnknown, nil)
		}
		return *done, nil
	}

	providerID, sendErr := a.Mailer.Send(ctx, msg)
	// Once the driver has been called, what it answered must be written
	// down even if the activity is being cancelled (a worker shutting down):
	// otherwise a sent email would be left "sending" and reported failed.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), BookkeepingTimeout)
	defer cancel()
	// A connection dropped here would leave a sent email "sending", to be
	// reported failed by the next attempt: the writes are retried.
	if sendErr != nil {
		reason := sendErr.Error()
		if mail.IsPermanent(sendErr) {
			if err := db.Persist(ctx, func(ctx context.Context) error {
				return a.Store.EmailMarkFailed(ctx, a.markFailed(id, reason))
			}); err != nil {
				return DeliverEmailResult{}, err
			}
			return DeliverEmailResult{Status: string(mail.StatusFailed)}, temporal.NewNonRetryableApplicationError("email rejected", ErrTypeDeliveryFailed, sendErr)
		}
		if err := db.Persist(ctx, func(ctx context.Context) error {
			return a.Store.EmailMarkPending(ctx, db.EmailMarkPendingParams{ID: id, LastError: &reason})
		}); err != nil {
			return DeliverEmailResult{}, fmt.Errorf("send failed (%v), and so did releasing the claim: %w", sendErr, err)
		}
		return DeliverEmailResult{}, fmt.Errorf("send email: %w", sendErr)
	}
	if err := db.Persist(ctx, func(ctx context.Context) error {
		return a.Store.EmailMarkSent(ctx, db.EmailMarkSentParams{ID: id, ProviderID: &providerID,
			Redact: !a.KeepSecretBodies, RedactedText: mail.RedactedText, RedactedHtml: mail.RedactedHTML})
	}); err != nil {
		return DeliverEmailResult{}, err
	}
	return DeliverEmailResult{Status: string(mail.StatusSent), ProviderID: providerID}, nil
}

// markFailed gives up on an email. Failing is final, so a secret-bearing
// body is redacted as it would be once sent.
func (a *EmailActivities) markFailed(id uuid.UUID, reason string) db.EmailMarkFailedParams {
	return db.EmailMarkFailedParams{ID: id, LastError: &reason,
		Redact: !a.KeepSecretBodies, RedactedText: mail.RedactedText, RedactedHtml: mail.RedactedHTML}
}
