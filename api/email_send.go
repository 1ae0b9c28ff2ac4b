package api

import (
	"context"

	"hackdesk/db"
	"hackdesk/internal/platform/mail"
	"hackdesk/outbox"
	"hackdesk/workflows"
)

// sendEmail records an email and queues its SendEmail workflow, both in
// the caller's transaction: the email is sent once the transaction
// commits, and never if it rolls back. The workflow gets no template
// data, so links carrying tokens stay out of its history.
func sendEmail(ctx context.Context, q *db.Queries, key, kind, to string, data map[string]string) error {
	ref, err := mail.RecordRef(ctx, q, key, kind, to, data)
	if err != nil {
		return err
	}
	return queueEmails(ctx, q, ref)
}

// queueEmails queues the SendEmail workflow of each email a feature's
// transaction recorded, in that transaction: the one way the API delivers
// an email.
func queueEmails(ctx context.Context, q *db.Queries, refs ...mail.Ref) error {
	for _, r := range refs {
		if _, err := outbox.Enqueue(ctx, q, workflows.SendEmailRequest(workflows.SendEmailInput{Key: r.Key, Kind: r.Kind, To: r.To})); err != nil {
			return err
		}
	}
	return nil
}
