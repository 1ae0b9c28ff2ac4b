package mail

import (
	"context"
	"errors"

	"hackdesk/db"
)

// Record renders the email and stores it in the audit trail under its
// idempotency key, in the transaction behind q. Recording a key again
// changes nothing and returns false. It is the one place an email is
// recorded; the SendEmail workflow delivers what is recorded here.
func Record(ctx context.Context, q *db.Queries, key, kind, to string, data map[string]string) (bool, error) {
	r, err := Render(kind, data)
	if err != nil {
		return false, err
	}
	n, err := q.EmailInsert(ctx, db.EmailInsertParams{
		IdempotencyKey: key, Kind: kind, ToAddress: to, Subject: r.Subject, TextBody: r.Text, HtmlBody: r.HTML,
		Secret: r.Secret,
	})
	return n == 1, err
}

// Ref names a recorded email still to be delivered: what a feature's
// transaction returns so that its caller can deliver it after the commit
// (the API through the outbox, an activity by handing it to its workflow).
// It is the one email reference: activities.EmailRef is this type.
type Ref struct {
	Key  string
	Kind string
}

// RecordRef records the email like Record and returns its reference.
func RecordRef(ctx context.Context, q *db.Queries, key, kind, to string, data map[string]string) (Ref, error) {
	_, err := Record(ctx, q, key, kind, to, data)
	return Ref{Key: key, Kind: kind}, err
}

// IsRecorded reports whether an email is recorded under key.
func IsRecorded(ctx context.Context, q *db.Queries, key string) (bool, error) {
	_, err := q.EmailGetByKey(ctx, key)
	if errors.Is(err, db.ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}
