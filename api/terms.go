package api

import (
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/term"
	"hackdesk/internal/platform/apperr"
	"hackdesk/outbox"
	"hackdesk/workflows"
)

// getActiveTerm is GET /api/terms/active.
func (s *Server) getActiveTerm(w http.ResponseWriter, r *http.Request) error {
	t, err := term.Active(r.Context(), s.store.Queries)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"term": term.ToView(t)})
	return nil
}

// listTerms is GET /api/admin/terms?page=&page_size=: the terms, latest
// start first, a page at a time (a club has a few a year).
func (s *Server) listTerms(w http.ResponseWriter, r *http.Request) error {
	fields := apperr.Fields{}
	pg := parsePage(r, fields)
	if err := fields.Err(); err != nil {
		return err
	}
	rows, err := term.List(r.Context(), s.store.Queries)
	if err != nil {
		return err
	}
	out := []term.View{}
	for _, t := range pageOf(rows, pg) {
		out = append(out, term.ToView(t))
	}
	writeList(w, "terms", out, len(rows), pg)
	return nil
}

// createTerm is POST /api/admin/terms; {active:true} makes it the active
// term in the same transaction, which also starts the term's TermWindow
// workflow (its form windows run there).
func (s *Server) createTerm(w http.ResponseWriter, r *http.Request) error {
	body := term.Input{Create: true}
	if err := decode(w, r, &body); err != nil {
		return err
	}
	ctx := r.Context()
	var t db.Term
	err := s.store.InTx(ctx, func(q *db.Queries) error {
		var err error
		if t, err = term.Create(ctx, q, &body); err != nil {
			return err
		}
		_, err = outbox.Enqueue(ctx, q, workflows.TermWindowRequest(s.termWindowInput(t)))
		return err
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, map[string]any{"term": term.ToView(t)})
	return nil
}

// patchTerm is PATCH /api/admin/terms/{id}. Changed window times go to the
// term's TermWindow workflow, which a signal-with-start starts afresh if
// its run has ended.
func (s *Server) patchTerm(w http.ResponseWriter, r *http.Request) error {
	id, err := uuid.Parse(chi.URLParam(r, "id"))
	if err != nil {
		return term.ErrMissing
	}
	var body term.Input
	if err := decode(w, r, &body); err != nil {
		return err
	}
	ctx := r.Context()
	var t db.Term
	err = s.store.InTx(ctx, func(q *db.Queries) error {
		var changed bool
		var err error
		if t, changed, err = term.Update(ctx, q, id, &body); err != nil || !changed {
			return err
		}
		_, err = outbox.Enqueue(ctx, q, workflows.TermWindowSignalRequest(s.termWindowInput(t)))
		return err
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"term": term.ToView(t)})
	return nil
}

// termWindowInput is the TermWindow input (and dates) of a term.
func (s *Server) termWindowInput(t db.Term) workflows.TermWindowInput {
	return workflows.TermWindowInput{TermID: t.ID, TermName: t.Name, PublicURL: strings.TrimRight(s.cfg.PublicURL, "/"),
		Windows: workflows.TermWindows{OnboardingOpensAt: t.OnboardingOpensAt, OnboardingClosesAt: t.OnboardingClosesAt,
			ReturningOpensAt: t.ReturningOpensAt, ReturningClosesAt: t.ReturningClosesAt}}
}
