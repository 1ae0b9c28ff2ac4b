package api

import (
	"net/http"
	"strings"

	"hackdesk/db"
	"hackdesk/internal/feature/application"
	"hackdesk/internal/feature/coi"
	"hackdesk/internal/platform/idempotency"
	"hackdesk/outbox"
	"hackdesk/workflows"
)

// decide is POST /api/admin/applications/decisions?hackathon= (admin): a
// batch of decisions on applications of the edition (the current one by
// default), all or nothing (application.Decide). An unknown id, or one of
// another edition, is 404; a batch of offers that would pass the
// edition's capacity is 409 "Over capacity" unless allow_over_capacity;
// an application the caller has a conflict of interest with (their own,
// one whose team lists them, one whose applicant their own application of
// the edition lists) is 403 naming those ids (package coi); an application that
// is not submitted or whose applicant has answered (or whose offer
// expired) is 400 with the offending ids in details. An Idempotency-Key
// header makes a retried request answer the stored response
// (package idempotency).
func (s *Server) decide(w http.ResponseWriter, r *http.Request) error {
	var req application.DecisionRequest
	if err := decode(w, r, &req); err != nil {
		return err
	}
	h, err := s.scope(r)
	if err != nil {
		return err
	}
	req.HackathonID = h.ID
	ctx := r.Context()
	caller := principalFrom(ctx)
	actor := coi.Actor{ProfileID: caller.ProfileID, Email: caller.Email}
	once := idempotency.Request{Actor: caller.ProfileID, Route: "POST /api/admin/applications/decisions",
		Key: r.Header.Get(idempotency.Header), Body: &req}
	out, err := s.idem.Run(ctx, once, func(q *db.Queries) (idempotency.Answer, error) {
		d, err := application.Decide(ctx, q, actor, &req)
		if err != nil {
			return idempotency.Answer{}, err
		}
		if d.Offers != nil {
			// Offers are announced, reminded and expired by RsvpDeadline,
			// queued in this transaction and started after it commits.
			// Places freed at the deadline are offered on with the same
			// window as this batch.
			if _, err := outbox.Enqueue(ctx, q, workflows.RsvpDeadlineRequest(workflows.RsvpDeadlineInput{
				BatchID: d.BatchID, Deadline: d.Offers.Deadline, Window: d.Offers.Window,
				PublicURL: strings.TrimRight(s.cfg.PublicURL, "/"),
			})); err != nil {
				return idempotency.Answer{}, err
			}
		}
		return idempotency.Answer{Status: http.StatusOK, Body: map[string]any{"success": true, "updated": d.Updated, "batch_id": d.BatchID}}, nil
	})
	if err != nil {
		return err
	}
	writeJSON(w, out.Status, out.Body)
	return nil
}

// rsvp is POST /api/applications/rsvp: the applicant answers their offer,
// the one open in whatever edition (application.AnswerOffer), until the
// deadline by the database's clock.
func (s *Server) rsvp(w http.ResponseWriter, r *http.Request) error {
	var req application.RsvpRequest
	if err := decode(w, r, &req); err != nil {
		return err
	}
	ctx := r.Context()
	me := principalFrom(ctx).ProfileID
	var out application.View
	err := s.store.InTx(ctx, func(q *db.Queries) (err error) {
		out, err = application.AnswerOffer(ctx, q, me, req)
		return err
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "application": out})
	return nil
}
