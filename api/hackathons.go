package api

import (
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/checkin"
	"hackdesk/internal/feature/hackathon"
	"hackdesk/outbox"
	"hackdesk/workflows"
)

// scope is the edition a staff request about applications is for:
// ?hackathon=<id>, the current edition by default; a malformed id is 400,
// an unknown one 404 (hackathon.Scope).
func (s *Server) scope(r *http.Request) (db.Hackathon, error) {
	return hackathon.Scope(r.Context(), s.store.Queries, r.URL.Query().Get("hackathon"))
}

// currentHackathon is GET /api/hackathons/current (public): the current
// edition with its phase at the database's clock.
func (s *Server) currentHackathon(w http.ResponseWriter, r *http.Request) error {
	h, now, err := hackathon.CurrentAt(r.Context(), s.store.Queries)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"hackathon": hackathon.ToView(h, now)})
	return nil
}

// listEditions answers every edition, the latest opening first, as staff
// see them; GET /api/hackathons (admin: the edition switcher of the staff
// pages) and GET /api/admin/hackathons (superadmin: the editions page)
// answer the same list.
func (s *Server) listEditions(w http.ResponseWriter, r *http.Request) error {
	out, err := hackathon.List(r.Context(), s.store.Queries)
	if err != nil {
		return err
	}
	for i := range out {
		out[i] = out[i].WithPurge(s.cfg.RetentionDays)
	}
	writeJSON(w, http.StatusOK, map[string]any{"hackathons": out})
	return nil
}

// createHackathon is POST /api/admin/hackathons (superadmin): the edition
// and, in the same transaction, its ApplicationWindow workflow's start;
// {current:true} makes it the current edition.
func (s *Server) createHackathon(w http.ResponseWriter, r *http.Request) error {
	body := hackathon.Input{Create: true}
	if err := decode(w, r, &body); err != nil {
		return err
	}
	ctx := r.Context()
	me := principalFrom(ctx).ProfileID
	var h db.Hackathon
	err := s.store.InTx(ctx, func(q *db.Queries) (err error) {
		if h, err = hackathon.Create(ctx, q, me, &body); err != nil {
			return err
		}
		if _, err = outbox.Enqueue(ctx, q, workflows.ApplicationWindowRequest(s.applicationWindowInput(h))); err != nil || h.StartsAt == nil {
			return err
		}
		_, err = outbox.Enqueue(ctx, q, workflows.EventDayRequest(s.eventDayInput(h)))
		return err
	})
	if err != nil {
		return err
	}
	return s.writeEdition(w, r, http.StatusCreated, h)
}

// patchHackathon is PATCH /api/admin/hackathons/{id} (superadmin). A
// changed window or announcement reaches the edition's ApplicationWindow
// workflow through a signal-with-start (a fresh run if its run has
// ended); {current:true} moves the current flag in the same transaction.
func (s *Server) patchHackathon(w http.ResponseWriter, r *http.Request) error {
	id, err := uuid.Parse(chi.URLParam(r, "id"))
	if err != nil {
		return hackathon.ErrNotFound
	}
	var body hackathon.Input
	if err := decode(w, r, &body); err != nil {
		return err
	}
	ctx := r.Context()
	me := principalFrom(ctx).ProfileID
	var h db.Hackathon
	err = s.store.InTx(ctx, func(q *db.Queries) error {
		var changed bool
		var err error
		if h, changed, err = hackathon.Update(ctx, q, me, id, &body); err != nil {
			return err
		}
		// New event dates reach the edition's EventDay workflow (a poke).
		if body.StartsAt.Set || body.EndsAt.Set {
			if _, err = outbox.Enqueue(ctx, q, workflows.EventDayRequest(s.eventDayInput(h))); err != nil {
				return err
			}
		}
		if !changed {
			return nil
		}
		_, err = outbox.Enqueue(ctx, q, workflows.ApplicationWindowSignalRequest(s.applicationWindowInput(h)))
		return err
	})
	if err != nil {
		return err
	}
	return s.writeEdition(w, r, http.StatusOK, h)
}

// writeEdition answers {hackathon} as staff see it.
func (s *Server) writeEdition(w http.ResponseWriter, r *http.Request, status int, h db.Hackathon) error {
	out, err := hackathon.AdminViewOf(r.Context(), s.store.Queries, h)
	if err != nil {
		return err
	}
	writeJSON(w, status, map[string]any{"hackathon": out.WithPurge(s.cfg.RetentionDays)})
	return nil
}

// applicationWindowInput is the ApplicationWindow input (and dates) of an
// edition.
func (s *Server) applicationWindowInput(h db.Hackathon) workflows.ApplicationWindowInput {
	return workflows.ApplicationWindowInput{HackathonID: h.ID, PublicURL: strings.TrimRight(s.cfg.PublicURL, "/"),
		Dates: hackathon.DatesOf(h)}
}

// eventDayInput is the EventDay input (and dates) of an edition.
func (s *Server) eventDayInput(h db.Hackathon) workflows.EventDayInput {
	return workflows.EventDayInput{HackathonID: h.ID, PublicURL: strings.TrimRight(s.cfg.PublicURL, "/"),
		Dates: checkin.EventDatesOf(h)}
}
