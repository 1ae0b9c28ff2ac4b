package api

import (
	"net/http"
	"time"

	"github.com/google/uuid"

	"hackdesk/apperr"
	"hackdesk/db"
	"hackdesk/mail"
)

// emailJSON is one recorded email as superadmins see it.
type emailJSON struct {
	ID             uuid.UUID  `json:"id"`
	IdempotencyKey string     `json:"idempotency_key"`
	Kind           string     `json:"kind"`
	To             string     `json:"to"`
	Subject        string     `json:"subject"`
	Text           string     `json:"text"`
	HTML           string     `json:"html"`
	Status         string     `json:"status"`
	Attempts       int32      `json:"attempts"`
	ProviderID     *string    `json:"provider_id"`
	CreatedAt      time.Time  `json:"created_at"`
	SentAt         *time.Time `json:"sent_at"`
}

// toEmailJSON shows a recorded email. The bodies of an email that carries
// a secret (a one-time link) are replaced by the redaction notice, whether
// or not the worker has redacted the row yet, unless showSecrets: the local
// stack, where this list is the developer's mail catcher.
func toEmailJSON(e db.Email, showSecrets bool) emailJSON {
	if e.Secret && !showSecrets {
		e.TextBody, e.HtmlBody = mail.RedactedText, mail.RedactedHTML
	}
	return emailJSON{
		ID: e.ID, IdempotencyKey: e.IdempotencyKey, Kind: e.Kind, To: e.ToAddress,
		Subject: e.Subject, Text: e.TextBody, HTML: e.HtmlBody, Status: e.Status,
		Attempts: e.Attempts, ProviderID: e.ProviderID, CreatedAt: e.CreatedAt, SentAt: e.SentAt,
	}
}

// listEmails is GET /api/admin/emails?to=&kind=&page=&page_size=: the
// audit trail of recorded emails, newest first, secrets hidden (see
// toEmailJSON).
func (s *Server) listEmails(w http.ResponseWriter, r *http.Request) error {
	fields := apperr.Fields{}
	pg := parsePage(r, fields)
	if err := fields.Err(); err != nil {
		return err
	}
	to, kind := optional(r, "to"), optional(r, "kind")
	rows, err := s.store.EmailList(r.Context(), db.EmailListParams{
		ToAddress: to, Kind: kind, PageLimit: pg.Size, PageOffset: pg.offset(),
	})
	if err != nil {
		return err
	}
	total, err := s.store.EmailCount(r.Context(), db.EmailCountParams{ToAddress: to, Kind: kind})
	if err != nil {
		return err
	}
	out := make([]emailJSON, len(rows))
	for i, e := range rows {
		out[i] = toEmailJSON(e, s.cfg.MailCatcher())
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"emails": out, "total": total, "page": pg.Number, "page_size": pg.Size,
	})
	return nil
}
