package activities

import (
	"context"
	"errors"

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
	recorded, err := mail.IsRecorded(ctx, a.Store.Queries, in.Key)
	if err != nil || recorded {
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

// DeliverEmailResult says what DeliverEmail did.
type DeliverEmailResult struct {
	Status     string // mail.StatusSent or mail.StatusFailed
	ProviderID string
	// AlreadyDone is true when an earlier attempt had finished the job.
	AlreadyDone bool
}

// DeliverEmail sends the recorded email with the given key at most once
// (mail.Deliver: claimed before the Sender is called, released after a
// transient failure, failed after a permanent one or an interrupted
// attempt). What cannot change by retrying is non-retryable: no email
// under the key (BadEmail), a rejection (DeliveryFailed), an attempt that
// died after its claim (DeliveryOutcomeUnknown). A claim still held by
// another attempt, and every other error, is retried.
func (a *EmailActivities) DeliverEmail(ctx context.Context, key string) (DeliverEmailResult, error) {
	d, err := mail.Deliver(ctx, a.Store, mail.Outbound{Sender: a.Mailer, From: a.MailFrom, KeepSecretBodies: a.KeepSecretBodies}, key)
	res := DeliverEmailResult{Status: string(d.Status), ProviderID: d.ProviderID, AlreadyDone: d.AlreadyDone}
	switch {
	case err == nil:
		return res, nil
	case errors.Is(err, db.ErrNotFound):
		return res, temporal.NewNonRetryableApplicationError("no email recorded under this key", ErrTypeBadEmail, err)
	case errors.Is(err, mail.ErrOutcomeUnknown):
		return res, temporal.NewNonRetryableApplicationError("delivery outcome unknown", ErrTypeOutcomeUnknown, nil)
	case mail.IsPermanent(err):
		return res, temporal.NewNonRetryableApplicationError("email rejected", ErrTypeDeliveryFailed, err)
	}
	return res, err
}
