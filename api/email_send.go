package api

import (
	"context"

	"hackdesk/db"
	"hackdesk/mail"
	"hackdesk/outbox"
	"hackdesk/workflows"
)

// sendEmail records an email and queues its SendEmail workflow, both in
// the caller's transaction: the email is sent once the transaction
// commits, and never if it rolls back. The workflow gets no template
// data, so links carrying tokens stay out of its history.
func sendEmail(ctx context.Context, q *db.Queries, key, kind, to string, data map[string]string) error {
	if _, err := mail.Record(ctx, q, key, kind, to, data); err != nil {
		return err
	}
	_, err := outbox.Enqueue(ctx, q, workflows.SendEmailRequest(workflows.SendEmailInput{Key: key, Kind: kind, To: to}))
	return err
}
