package mail

import (
	"context"

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
