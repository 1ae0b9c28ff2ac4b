package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/hiring"
)

// listQuestions is GET /api/applications/review/questions (VP,
// President): every live question, with editable for the caller.
func (s *Server) listQuestions(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	scope := hiringActor(principalFrom(ctx)).Scope
	out, err := hiring.ListQuestions(ctx, s.store.Queries, scope)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"questions": out})
	return nil
}

// createQuestion is POST /api/applications/review/questions (VP,
// President). A VP's question must name positions, all of their subteam.
func (s *Server) createQuestion(w http.ResponseWriter, r *http.Request) error {
	body := hiring.QuestionInput{Create: true}
	if err := decode(w, r, &body); err != nil {
		return err
	}
	ctx := r.Context()
	actor := hiringActor(principalFrom(ctx))
	var out hiring.BankQuestion
	err := s.store.InTx(ctx, func(q *db.Queries) (err error) {
		out, err = hiring.CreateQuestion(ctx, q, actor, &body)
		return err
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, map[string]any{"question": out})
	return nil
}

// patchQuestion is PATCH /api/applications/review/questions/{id}: the
// question must be in the caller's scope, and so must its new positions.
func (s *Server) patchQuestion(w http.ResponseWriter, r *http.Request) error {
	var body hiring.QuestionInput
	if err := decode(w, r, &body); err != nil {
		return err
	}
	id, err := uuid.Parse(chi.URLParam(r, "id"))
	if err != nil {
		return hiring.ErrQuestionMissing
	}
	ctx := r.Context()
	scope := hiringActor(principalFrom(ctx)).Scope
	var out hiring.BankQuestion
	err = s.store.InTx(ctx, func(q *db.Queries) (err error) {
		out, err = hiring.UpdateQuestion(ctx, q, scope, id, &body)
		return err
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"question": out})
	return nil
}

// deleteQuestion is DELETE /api/applications/review/questions/{id}: a
// question nobody answered is deleted; one with answers is archived, so
// the answers keep their prompt.
func (s *Server) deleteQuestion(w http.ResponseWriter, r *http.Request) error {
	id, err := uuid.Parse(chi.URLParam(r, "id"))
	if err != nil {
		return hiring.ErrQuestionMissing
	}
	ctx := r.Context()
	scope := hiringActor(principalFrom(ctx)).Scope
	archived := false
	err = s.store.InTx(ctx, func(q *db.Queries) (err error) {
		archived, err = hiring.DeleteQuestion(ctx, q, scope, id)
		return err
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "archived": archived})
	return nil
}

// applicantQuestions is GET /api/applications/questions: the general
// questions plus those of the caller's chosen positions.
func (s *Server) applicantQuestions(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	out, err := hiring.ApplicantQuestions(ctx, s.store.Queries, principalFrom(ctx).ProfileID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"questions": out})
	return nil
}
