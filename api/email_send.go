package api

import (
	"context"

	"hackdesk/db"
	"hackdesk/mail"
	"hackdesk/workflows"
)

// sendEmail records an email inside the caller's transaction and starts the
// SendEmail workflow for it. The workflow gets no template data, so links
// carrying tokens stay out of its history; if the transaction rolls back,
// the workflow never finds the row and sends nothing.
func (s *Server) sendEmail(ctx context.Context, q *db.Queries, key, kind, to string, data map[string]string) error {
	r, err := mail.Render(kind, data)
	if err != nil {
		return err
	}
	if _, err := q.EmailInsert(ctx, db.EmailInsertParams{
		IdempotencyKey: key, Kind: kind, ToAddress: to, Subject: r.Subject, TextBody: r.Text, HtmlBody: r.HTML,
	}); err != nil {
		return err
	}
	_, err = workflows.Start(ctx, s.temporal, s.taskQueue, workflows.SendEmailID(key), workflows.SendEmail,
		workflows.SendEmailInput{Key: key, Kind: kind, To: to})
	return err
}
