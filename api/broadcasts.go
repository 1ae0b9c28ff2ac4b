package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/broadcast"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/idempotency"
	"hackdesk/internal/platform/signing"
	"hackdesk/outbox"
	"hackdesk/workflows"
)

// createBroadcast is POST /api/admin/broadcasts (superadmin). In one
// transaction it records the broadcast with its recipient list
// (broadcast.Create) and queues its Broadcast workflow; it answers 202
// with the number of recipients. An Idempotency-Key header makes a retry
// answer the first response and create nothing (package idempotency).
func (s *Server) createBroadcast(w http.ResponseWriter, r *http.Request) error {
	var req broadcast.Request
	if err := decode(w, r, &req); err != nil {
		return err
	}
	ctx := r.Context()
	me := principalFrom(ctx).ProfileID
	once := idempotency.Request{Actor: me, Route: "POST /api/admin/broadcasts", Key: r.Header.Get(idempotency.Header), Body: &req}
	out, err := s.idem.Run(ctx, once, func(q *db.Queries) (idempotency.Answer, error) {
		id := uuid.New()
		b, err := broadcast.Create(ctx, q, broadcast.New{ID: id, WorkflowID: workflows.BroadcastID(id), CreatedBy: me, Request: req})
		if err != nil {
			return idempotency.Answer{}, err
		}
		if _, err := outbox.Enqueue(ctx, q, workflows.BroadcastRequest(workflows.BroadcastInput{
			BroadcastID: id, Subject: b.Subject, Total: int(b.Total), PublicURL: s.cfg.PublicURL})); err != nil {
			return idempotency.Answer{}, err
		}
		return idempotency.Answer{Status: http.StatusAccepted, Body: map[string]any{
			"broadcast_id": id, "workflow_id": b.WorkflowID, "recipients": b.Total}}, nil
	})
	if err != nil {
		return err
	}
	writeJSON(w, out.Status, out.Body)
	return nil
}

// previewBroadcast is POST /api/admin/broadcasts/preview (superadmin):
// how many people a broadcast to the body's audience would go to now
// (broadcast.Preview, the audience statement create uses). It creates
// nothing.
func (s *Server) previewBroadcast(w http.ResponseWriter, r *http.Request) error {
	var req broadcast.PreviewRequest
	if err := decode(w, r, &req); err != nil {
		return err
	}
	n, err := broadcast.Preview(r.Context(), s.store.Queries, req)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"recipients": n})
	return nil
}

// unsubscribeSigner signs the unsubscribe links of a draft's preview and
// test email (the key the broadcast's own emails use).
func (s *Server) unsubscribeSigner() (signing.Signer, error) {
	key, err := s.cfg.SigningKeyBytes()
	if err != nil {
		return signing.Signer{}, err
	}
	return broadcast.UnsubscribeSigner(key), nil
}

// renderBroadcast is POST /api/admin/broadcasts/render (superadmin): the
// email a draft makes, as a recipient gets it, with the caller's own
// unsubscribe link. It records and sends nothing.
func (s *Server) renderBroadcast(w http.ResponseWriter, r *http.Request) error {
	var d broadcast.Draft
	if err := decode(w, r, &d); err != nil {
		return err
	}
	signer, err := s.unsubscribeSigner()
	if err != nil {
		return err
	}
	out, err := d.Render(s.cfg.PublicURL, signer, principalFrom(r.Context()).ProfileID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]string{"subject": out.Subject, "text": out.Text, "html": out.HTML})
	return nil
}

// testBroadcast is POST /api/admin/broadcasts/test (superadmin): the
// draft's email, sent to the caller alone, its subject marked as a test;
// it answers 202 with the address it goes to.
func (s *Server) testBroadcast(w http.ResponseWriter, r *http.Request) error {
	var d broadcast.Draft
	if err := decode(w, r, &d); err != nil {
		return err
	}
	signer, err := s.unsubscribeSigner()
	if err != nil {
		return err
	}
	ctx := r.Context()
	me := principalFrom(ctx)
	err = s.store.InTx(ctx, func(q *db.Queries) error {
		ref, err := broadcast.RecordTest(ctx, q, d, s.cfg.PublicURL, signer, me.ProfileID, me.Email)
		if err != nil {
			return err
		}
		return queueEmails(ctx, q, ref)
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusAccepted, map[string]string{"to": me.Email})
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
	items, total, err := broadcast.List(r.Context(), s.store.Queries, pg.Size, pg.offset())
	if err != nil {
		return err
	}
	writeList(w, "items", items, total, pg)
	return nil
}

// broadcastID reads the {id} path parameter; a malformed one names no
// broadcast.
func broadcastID(r *http.Request) (uuid.UUID, error) {
	id, err := uuid.Parse(chi.URLParam(r, "id"))
	if err != nil {
		return uuid.Nil, broadcast.ErrNotFound
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
	b, err := broadcast.Get(r.Context(), s.store.Queries, id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, b)
	return nil
}

// cancelBroadcast is POST /api/admin/broadcasts/{id}/cancel (superadmin):
// it asks the broadcast to stop (broadcast.Cancel) and answers 202 with
// the broadcast, still sending until its workflow stops before the next
// batch. Asking again is harmless; a broadcast that has ended is 409.
func (s *Server) cancelBroadcast(w http.ResponseWriter, r *http.Request) error {
	id, err := broadcastID(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	var b broadcast.View
	err = s.store.InTx(ctx, func(q *db.Queries) (err error) {
		b, err = broadcast.Cancel(ctx, q, id)
		return err
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusAccepted, b)
	return nil
}
