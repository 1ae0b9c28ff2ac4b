package broadcast

import (
	"context"
	"errors"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/mail"
	"hackdesk/internal/platform/signing"
)

// The client-facing errors of composing and cancelling.
var (
	ErrNotFound = apperr.New(apperr.NotFound, "Broadcast not found")
	ErrEnded    = apperr.WithMessage(apperr.Conflict, "Broadcast ended",
		"The broadcast has finished sending; there is nothing to cancel")
	ErrNoActiveTerm = apperr.WithMessage(apperr.NotFound, "No active term",
		"There is no active term; name one with audience.term_id")
	ErrTermNotFound = apperr.New(apperr.NotFound, "Term not found")
)

// New is a broadcast to create: its id and the ID of the workflow that
// sends it, the superadmin who composed it and the validated request.
type New struct {
	ID         uuid.UUID
	WorkflowID string
	CreatedBy  uuid.UUID
	Request    Request
}

// Create records the broadcast and materializes its recipient list (the
// audience's confirmed accounts, once each, and for marketing only those
// who opted in), in the transaction behind q; the broadcast's Total is the
// number of recipients. The caller queues its workflow in the same
// transaction. A members or paid_members audience without a term is of
// the active term: ErrNoActiveTerm when there is none, ErrTermNotFound for
// a term that does not exist.
func Create(ctx context.Context, q *db.Queries, n New) (db.Broadcast, error) {
	r := n.Request
	termID, err := audienceTerm(ctx, q, r)
	if err != nil {
		return db.Broadcast{}, err
	}
	kind, marketing := string(r.Audience.Kind), r.IsMarketing()
	if _, err := q.BroadcastInsert(ctx, db.BroadcastInsertParams{ID: n.ID, Subject: r.Subject, Body: r.Body,
		AudienceKind: kind, TermID: termID, Decision: r.decision, Marketing: marketing,
		WorkflowID: n.WorkflowID, CreatedBy: n.CreatedBy}); err != nil {
		return db.Broadcast{}, err
	}
	count, err := q.BroadcastRecipientsInsert(ctx, db.BroadcastRecipientsInsertParams{BroadcastID: n.ID,
		Marketing: marketing, Kind: kind, TermID: termID, Decision: r.decision})
	if err != nil {
		return db.Broadcast{}, err
	}
	return q.BroadcastSetTotal(ctx, db.BroadcastSetTotalParams{ID: n.ID, Total: int32(count)})
}

// Preview is how many people a broadcast to the request's audience would
// go to now: the count Create would record as its Total, from the same
// audience statement (broadcast_audience). The term rules are Create's:
// ErrNoActiveTerm, ErrTermNotFound.
func Preview(ctx context.Context, q *db.Queries, p PreviewRequest) (int32, error) {
	r := p.request()
	termID, err := audienceTerm(ctx, q, r)
	if err != nil {
		return 0, err
	}
	return q.BroadcastAudienceCount(ctx, db.BroadcastAudienceCountParams{Marketing: r.IsMarketing(),
		Kind: string(r.Audience.Kind), TermID: termID, Decision: r.decision})
}

// audienceTerm is the term of the request's audience: the one named, or
// the active one for a by-term kind that names none; nil for other kinds.
func audienceTerm(ctx context.Context, q *db.Queries, r Request) (*uuid.UUID, error) {
	if !r.Audience.Kind.ByTerm() {
		return r.termID, nil
	}
	var (
		t   db.Term
		err error
	)
	if r.termID == nil {
		t, err = q.TermActive(ctx)
		if errors.Is(err, db.ErrNotFound) {
			return nil, ErrNoActiveTerm
		}
	} else if t, err = q.TermGet(ctx, *r.termID); errors.Is(err, db.ErrNotFound) {
		return nil, ErrTermNotFound
	}
	if err != nil {
		return nil, err
	}
	return &t.ID, nil
}

// List is one page of broadcasts, newest first, and how many there are.
func List(ctx context.Context, q *db.Queries, limit, offset int32) ([]View, int64, error) {
	rows, err := q.BroadcastList(ctx, db.BroadcastListParams{PageLimit: limit, PageOffset: offset})
	if err != nil {
		return nil, 0, err
	}
	total, err := q.BroadcastCount(ctx)
	if err != nil {
		return nil, 0, err
	}
	items := make([]View, len(rows))
	for i, b := range rows {
		items[i] = toView(b)
	}
	return items, total, nil
}

// Get is one broadcast and its progress; ErrNotFound when there is none.
func Get(ctx context.Context, q *db.Queries, id uuid.UUID) (View, error) {
	b, err := q.BroadcastGet(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		return View{}, ErrNotFound
	}
	if err != nil {
		return View{}, err
	}
	return toView(b), nil
}

// Cancel asks a sending broadcast to stop: its workflow stops before the
// next batch and ends it cancelled. Asking again is harmless; a broadcast
// that has ended is ErrEnded, one that does not exist ErrNotFound.
func Cancel(ctx context.Context, q *db.Queries, id uuid.UUID) (View, error) {
	b, err := q.BroadcastRequestCancel(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		if _, err := Get(ctx, q, id); err != nil {
			return View{}, err
		}
		return View{}, ErrEnded
	}
	if err != nil {
		return View{}, err
	}
	return toView(b), nil
}

// Draft is a broadcast's words before it is sent: what its preview shows
// and its test email says.
type Draft struct {
	Subject string `json:"subject"`
	Body    string `json:"body"`
}

// Validate checks the words as a broadcast's (CheckSubject, CheckBody).
func (d *Draft) Validate() apperr.Fields {
	f := apperr.Fields{}
	if why := CheckSubject(d.Subject); why != "" {
		f.Add("subject", why)
	}
	if why := CheckBody(d.Body); why != "" {
		f.Add("body", why)
	}
	return f
}

// TestSubjectPrefix marks a test email's subject, so the sender tells it
// from the broadcast itself.
const TestSubjectPrefix = "[Test] "

// data is the template data of the draft's email to a profile, with that
// profile's own unsubscribe link.
func (d Draft) data(publicURL string, s signing.Signer, profileID uuid.UUID) map[string]string {
	return map[string]string{"subject": d.Subject, "body": d.Body, "unsubscribe": UnsubscribeLink(publicURL, s, profileID)}
}

// Render is the email the draft makes for the profile, as every
// recipient gets it with their own unsubscribe link (EmailKind).
func (d Draft) Render(publicURL string, s signing.Signer, profileID uuid.UUID) (mail.Rendered, error) {
	return mail.Render(EmailKind, d.data(publicURL, s, profileID))
}

// RecordTest records the draft's email to its sender (profileID, email)
// under a key of its own, its subject marked TestSubjectPrefix; the
// caller queues its delivery in the same transaction.
func RecordTest(ctx context.Context, q *db.Queries, d Draft, publicURL string, s signing.Signer, profileID uuid.UUID, email string) (mail.Ref, error) {
	data := d.data(publicURL, s, profileID)
	data["subject"] = TestSubjectPrefix + d.Subject
	return mail.RecordRef(ctx, q, "broadcast-test:"+uuid.NewString(), EmailKind, email, data)
}
