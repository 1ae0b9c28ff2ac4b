package api

import (
	"context"
	"net/http"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/mail"
	"hackdesk/outbox"
	"hackdesk/workflows"
)

// listEmails is GET /api/admin/emails?to=&kind=&page=&page_size=: the
// audit trail of recorded emails, newest first, secrets hidden
// (mail.Shown).
func (s *Server) listEmails(w http.ResponseWriter, r *http.Request) error {
	fields := apperr.Fields{}
	pg := parsePage(r, fields)
	if err := fields.Err(); err != nil {
		return err
	}
	f := mail.Filter{To: optional(r, "to"), Kind: optional(r, "kind")}
	out, total, err := mail.Audit(r.Context(), s.store.Queries, f, pg.Size, pg.offset(), s.cfg.MailCatcher())
	if err != nil {
		return err
	}
	writeList(w, "emails", out, total, pg)
	return nil
}

// queueEmails queues the SendEmail workflow of each email a feature's
// transaction recorded, in that transaction: the one way the API delivers
// an email.
func queueEmails(ctx context.Context, q *db.Queries, refs ...mail.Ref) error {
	for _, r := range refs {
		if _, err := outbox.Enqueue(ctx, q, workflows.SendEmailRequest(workflows.SendEmailInput{Key: r.Key, Kind: r.Kind})); err != nil {
			return err
		}
	}
	return nil
}
