package api

import (
	"errors"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"hackdesk/apperr"
	"hackdesk/broadcast"
	"hackdesk/db"
	"hackdesk/outbox"
	"hackdesk/workflows"
)

var (
	errBroadcastNotFound = apperr.New(apperr.NotFound, "Broadcast not found")
	errBroadcastEnded    = apperr.WithMessage(apperr.Conflict, "Broadcast ended",
		"The broadcast has finished sending; there is nothing to cancel")
)

type broadcastAudience struct {
	Kind   broadcast.Kind `json:"kind"`
	TermID *string        `json:"term_id"`
	Status *string        `json:"status"`
}

type broadcastRequest struct {
	Subject   string             `json:"subject"`
	Body      string             `json:"body"`
	Audience  *broadcastAudience `json:"audience"`
	Marketing *bool              `json:"marketing"`

	termID   *uuid.UUID
	decision *string
}

func (r *broadcastRequest) Validate() apperr.Fields {
	f := apperr.Fields{}
	if why := broadcast.CheckSubject(r.Subject); why != "" {
		f.Add("subject", why)
	}
	if why := broadcast.CheckBody(r.Body); why != "" {
		f.Add("body", why)
	}
	if r.Audience == nil {
		f.Add("audience", "is required: {kind, term_id?, status?}")
		return f
	}
	a := broadcast.Audience{Kind: r.Audience.Kind, HasTerm: r.Audience.TermID != nil}
	if r.Audience.Status != nil {
		d := broadcast.Decision(*r.Audience.Status)
		a.Decision = &d
		r.decision = r.Audience.Status
	}
	for field, why := range broadcast.CheckAudience(a) {
		f.Add(field, why)
	}
	if r.Audience.TermID != nil {
		id, err := uuid.Parse(*r.Audience.TermID)
		if err != nil {
			f.Add("audience.term_id", "must be a term id (UUID)")
		}
		r.termID = &id
	}
	return f
}

// broadcastJSON is a broadcast as superadmins see it: what it is, where it
// stands and who it went to (never the recipient list).
type broadcastJSON struct {
	ID                uuid.UUID             `json:"id"`
	Subject           string                `json:"subject"`
	Status            string                `json:"status"`
	Total             int32                 `json:"total"`
	Sent              int32                 `json:"sent"`
	Failed            int32                 `json:"failed"`
	Skipped           int32                 `json:"skipped"`
	CreatedAt         time.Time             `json:"created_at"`
	FinishedAt        *time.Time            `json:"finished_at"`
	Audience          broadcastAudienceJSON `json:"audience"`
	Marketing         bool                  `json:"marketing"`
	WorkflowID        string                `json:"workflow_id"`
	CreatedBy         uuid.UUID             `json:"created_by"`
	CancelRequestedAt *time.Time            `json:"cancel_requested_at"`
}

type broadcastAudienceJSON struct {
	Kind   string     `json:"kind"`
	TermID *uuid.UUID `json:"term_id"`
	Status *string    `json:"status"`
}

func toBroadcastJSON(b db.Broadcast) broadcastJSON {
	return broadcastJSON{ID: b.ID, Subject: b.Subject, Status: b.Status, Total: b.Total, Sent: b.Sent, Failed: b.Failed,
		Skipped: b.Skipped, CreatedAt: b.CreatedAt, FinishedAt: b.FinishedAt, Marketing: b.Marketing, WorkflowID: b.WorkflowID,
		CreatedBy: b.CreatedBy, CancelRequestedAt: b.CancelRequestedAt,
		Audience: broadcastAudienceJSON{Kind: b.AudienceKind, TermID: b.TermID, Status: b.Decision}}
}

// createBroadcast is POST /api/admin/broadcasts (superadmin). In one
// transaction it records the broadcast, materializes its recipient list
// (BroadcastRecipientsInsert: the audience's confirmed accounts, once
// each, and for marketing only those who opted in) and queues its
// Broadcast workflow; it answers 202 with the number of recipients. A
// members or paid_members audience without term_id is of the active term
// (404 when there is none). An Idempotency-Key header makes a retry answer
// the first response and create nothing (idempotentTx).
func (s *Server) createBroadcast(w http.ResponseWriter, r *http.Request) error {
	var req broadcastRequest
	if err := decode(w, r, &req); err != nil {
		return err
	}
	ctx := r.Context()
	me := principalFrom(ctx).ProfileID
	out, err := s.idempotentTx(ctx, r, me, "POST /api/admin/broadcasts", &req, func(q *db.Queries) (answer, error) {
		termID := req.termID
		if req.Audience.Kind.ByTerm() {
			var (
				t   db.Term
				err error
			)
			if termID == nil {
				t, err = q.TermActive(ctx)
				if errors.Is(err, db.ErrNotFound) {
					return answer{}, apperr.WithMessage(apperr.NotFound, "No active term",
						"There is no active term; name one with audience.term_id")
				}
			} else if t, err = q.TermGet(ctx, *termID); errors.Is(err, db.ErrNotFound) {
				return answer{}, errTermMissing
			}
			if err != nil {
				return answer{}, err
			}
			termID = &t.ID
		}
		id := uuid.New()
		marketing := req.Marketing != nil && *req.Marketing
		b, err := q.BroadcastInsert(ctx, db.BroadcastInsertParams{ID: id, Subject: req.Subject, Body: req.Body,
			AudienceKind: string(req.Audience.Kind), TermID: termID, Decision: req.decision, Marketing: marketing,
			WorkflowID: workflows.BroadcastID(id), CreatedBy: me})
		if err != nil {
			return answer{}, err
		}
		n, err := q.BroadcastRecipientsInsert(ctx, db.BroadcastRecipientsInsertParams{BroadcastID: id,
			Marketing: marketing, Kind: string(req.Audience.Kind), TermID: termID, Decision: req.decision})
		if err != nil {
			return answer{}, err
		}
		if b, err = q.BroadcastSetTotal(ctx, db.BroadcastSetTotalParams{ID: id, Total: int32(n)}); err != nil {
			return answer{}, err
		}
		if _, err := outbox.Enqueue(ctx, q, workflows.BroadcastRequest(workflows.BroadcastInput{
			BroadcastID: id, Subject: b.Subject, Total: int(b.Total), PublicURL: s.cfg.PublicURL})); err != nil {
			return answer{}, err
		}
		return answer{http.StatusAccepted, map[string]any{
			"broadcast_id": id, "workflow_id": b.WorkflowID, "recipients": b.Total}}, nil
	})
	if err != nil {
		return err
	}
	writeJSON(w, out.status, out.body)
	return nil
}

// listBroadcasts is GET /api/admin/broadcasts?page=&page_size=
// (superadmin): newest first.
func (s *Server) listBroadcasts(w http.ResponseWriter, r *http.Request) error {
	fields := apperr.Fields{}
	pg := parsePage(r, fields)
	if err := fields.Err(); err != nil {
		return err
	}
	rows, err := s.store.BroadcastList(r.Context(), db.BroadcastListParams{PageLimit: pg.Size, PageOffset: pg.offset()})
	if err != nil {
		return err
	}
	total, err := s.store.BroadcastCount(r.Context())
	if err != nil {
		return err
	}
	items := make([]broadcastJSON, len(rows))
	for i, b := range rows {
		items[i] = toBroadcastJSON(b)
	}
	writeJSON(w, http.StatusOK, map[string]any{"items": items, "total": total, "page": pg.Number, "page_size": pg.Size})
	return nil
}

// broadcastID reads the {id} path parameter; a malformed one names no
// broadcast.
func broadcastID(r *http.Request) (uuid.UUID, error) {
	id, err := uuid.Parse(chi.URLParam(r, "id"))
	if err != nil {
		return uuid.Nil, errBroadcastNotFound
	}
	return id, nil
}

// getBroadcast is GET /api/admin/broadcasts/{id} (superadmin): the
// broadcast and its progress.
func (s *Server) getBroadcast(w http.ResponseWriter, r *http.Request) error {
	id, err := broadcastID(r)
	if err != nil {
		return err
	}
	b, err := s.store.BroadcastGet(r.Context(), id)
	if errors.Is(err, db.ErrNotFound) {
		return errBroadcastNotFound
	}
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, toBroadcastJSON(b))
	return nil
}

// cancelBroadcast is POST /api/admin/broadcasts/{id}/cancel (superadmin):
// it asks the broadcast to stop and answers 202 with the broadcast, still
// sending until its workflow stops before the next batch (then
// cancelled). Asking again is harmless; a broadcast that has ended is 409.
func (s *Server) cancelBroadcast(w http.ResponseWriter, r *http.Request) error {
	id, err := broadcastID(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	b, err := s.store.BroadcastRequestCancel(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		if _, err := s.store.BroadcastGet(ctx, id); errors.Is(err, db.ErrNotFound) {
			return errBroadcastNotFound
		} else if err != nil {
			return err
		}
		return errBroadcastEnded
	}
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusAccepted, toBroadcastJSON(b))
	return nil
}
