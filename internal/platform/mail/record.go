package mail

import (
	"context"
	"errors"
	"strings"

	"hackdesk/db"
)

// Record renders the email and stores it in the audit trail under its
// idempotency key, in the transaction behind q. Recording a key again
// changes nothing and returns false. It is the one place an email is
// recorded; the SendEmail workflow delivers what is recorded here.
//
// An email to an account whose erasure has begun (or to a tombstone's
// address) is recorded suppressed: failed and blank, under its key, so
// its SendEmail run ends at once and nothing of the person is stored. The
// account's row is share-locked until the transaction ends, so an erasure
// that begins meanwhile waits, and then purges what was recorded.
func Record(ctx context.Context, q *db.Queries, key, kind, to string, data map[string]string) (bool, error) {
	r, err := Render(kind, data)
	if err != nil {
		return false, err
	}
	suppress := ErasedAddress(to)
	if !suppress {
		erasing, err := q.ProfileErasingByEmail(ctx, to)
		switch {
		case errors.Is(err, db.ErrNotFound):
		case err != nil:
			return false, err
		default:
			suppress = erasing
		}
	}
	if suppress {
		return RecordSuppressed(ctx, q, key, kind)
	}
	n, err := q.EmailInsert(ctx, db.EmailInsertParams{
		IdempotencyKey: key, Kind: kind, ToAddress: to, Subject: r.Subject, TextBody: r.Text, HtmlBody: r.HTML,
		Secret: r.Secret,
	})
	return n == 1, err
}

// RecordSuppressed records, under key, an email that is never to be sent
// (its recipient's account is being erased): failed and blank. A key
// recorded before changes nothing and returns false.
func RecordSuppressed(ctx context.Context, q *db.Queries, key, kind string) (bool, error) {
	n, err := q.EmailInsertSuppressed(ctx, db.EmailInsertSuppressedParams{IdempotencyKey: key, Kind: kind})
	return n == 1, err
}

// ErasedDomain is the domain of a tombstone profile's address,
// erased-<id>@erased.invalid (RFC 6761: never resolves).
const ErasedDomain = "erased.invalid"

// ErasedAddress reports whether to is a tombstone's address.
func ErasedAddress(to string) bool {
	return strings.HasSuffix(strings.ToLower(strings.TrimSpace(to)), "@"+ErasedDomain)
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
