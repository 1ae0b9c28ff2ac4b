package api

import (
	"net/http"

	"hackdesk/db"
	"hackdesk/internal/feature/application"
	"hackdesk/internal/feature/hackathon"
)

// windowOpen is the first check of every write of an application: outside
// the current edition's window it is the 403 "Applications are closed",
// before the body is read or anything else is checked. The transaction
// checks the window again at its own clock (hackathon.OpenForWrites).
func (s *Server) windowOpen(r *http.Request) error {
	_, err := hackathon.OpenForWrites(r.Context(), s.store.Queries)
	return err
}

// createApplication starts the caller's draft in the current edition,
// prefilled with their email or copied from one of their earlier
// applications (application.Create).
func (s *Server) createApplication(w http.ResponseWriter, r *http.Request) error {
	if err := s.windowOpen(r); err != nil {
		return err
	}
	var req application.CreateRequest
	if err := decode(w, r, &req); err != nil {
		return err
	}
	ctx := r.Context()
	p := principalFrom(ctx)
	var out application.View
	err := s.store.InTx(ctx, func(q *db.Queries) (err error) {
		out, err = application.Create(ctx, q, s.blob, p.ProfileID, p.Email, req)
		return err
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, out)
	return nil
}

// getApplication answers the caller's application in the current
// edition, or null.
func (s *Server) getApplication(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	out, err := application.Owner(ctx, s.store.Queries, principalFrom(ctx).ProfileID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// applicationHistory is GET /api/applications/history: the caller's
// applications of earlier editions, read-only.
func (s *Server) applicationHistory(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	out, err := application.History(ctx, s.store.Queries, principalFrom(ctx).ProfileID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"applications": out})
	return nil
}

// patchApplication changes the caller's draft (application.Update).
func (s *Server) patchApplication(w http.ResponseWriter, r *http.Request) error {
	if err := s.windowOpen(r); err != nil {
		return err
	}
	var patch application.Patch
	if err := decode(w, r, &patch); err != nil {
		return err
	}
	ctx := r.Context()
	me := principalFrom(ctx).ProfileID
	// Team members are looked up as accounts, and the answer tells whether
	// an email has one: the team search's per-caller limit counts it.
	if patch.TeamSearched() {
		if err := allow(over(w, r, s.limits.Search, me.String())); err != nil {
			return err
		}
	}
	var out application.View
	err := s.store.InTx(ctx, func(q *db.Queries) (err error) {
		out, err = application.Update(ctx, q, me, &patch)
		return err
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "application": out})
	return nil
}

// submitApplication validates steps 1 to 5 and locks the application
// (application.Submit).
func (s *Server) submitApplication(w http.ResponseWriter, r *http.Request) error {
	if err := s.windowOpen(r); err != nil {
		return err
	}
	ctx := r.Context()
	me := principalFrom(ctx).ProfileID
	var out application.View
	err := s.store.InTx(ctx, func(q *db.Queries) (err error) {
		out, err = application.Submit(ctx, q, me)
		return err
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "application": out})
	return nil
}
