package mail

import (
	"context"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
)

// Recorded is one email of the audit trail, as superadmins see it.
type Recorded struct {
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

// Shown is a recorded email as the audit trail shows it. The bodies of an
// email that carries a secret (a one-time link) are replaced by the
// redaction notice, whether or not the worker has redacted the row yet,
// unless showSecrets: the local stack, where the trail is the developer's
// mail catcher.
func Shown(e db.Email, showSecrets bool) Recorded {
	if e.Secret && !showSecrets {
		e.TextBody, e.HtmlBody = RedactedText, RedactedHTML
	}
	return Recorded{
		ID: e.ID, IdempotencyKey: e.IdempotencyKey, Kind: e.Kind, To: e.ToAddress,
		Subject: e.Subject, Text: e.TextBody, HTML: e.HtmlBody, Status: e.Status,
		Attempts: e.Attempts, ProviderID: e.ProviderID, CreatedAt: e.CreatedAt, SentAt: e.SentAt,
	}
}

// Filter narrows the audit trail to one address or kind (nil: any).
type Filter struct {
	To   *string
	Kind *string
}

// Audit is one page of the audit trail, newest first, as Shown, and how
// many emails match the filter.
func Audit(ctx context.Context, q *db.Queries, f Filter, limit, offset int32, showSecrets bool) ([]Recorded, int64, error) {
	rows, err := q.EmailList(ctx, db.EmailListParams{ToAddress: f.To, Kind: f.Kind, PageLimit: limit, PageOffset: offset})
	if err != nil {
		return nil, 0, err
	}
	total, err := q.EmailCount(ctx, db.EmailCountParams{ToAddress: f.To, Kind: f.Kind})
	if err != nil {
		return nil, 0, err
	}
	out := make([]Recorded, len(rows))
	for i, e := range rows {
		out[i] = Shown(e, showSecrets)
	}
	return out, total, nil
}
