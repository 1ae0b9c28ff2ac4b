package api

import (
	"net/http"

	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/mail"
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
