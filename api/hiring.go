package api

import (
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/hiring"
	"hackdesk/internal/platform/apperr"
	"hackdesk/outbox"
	"hackdesk/workflows"
)

// hiringActor is the caller as hiring sees them: a superadmin or President
// acts on every subteam, a VP on their own. The policy gate has already
// let only these through.
func hiringActor(p *Principal) hiring.Actor {
	return hiring.NewActor(p.ProfileID, p.Email, p.Role == "superadmin", p.ExecPosition, p.ExecSubteam)
}

// listPositions is GET /api/positions?term_id= (public): the open
// positions of the term, the hiring term by default. A President (or
// superadmin) also sees the closed ones.
func (s *Server) listPositions(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	all := false
	if p := principalFrom(ctx); p != nil {
		all = p.Allows(President)
	}
	out, err := hiring.ListPositions(ctx, s.store.Queries, r.URL.Query().Get("term_id"), all)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"positions": out})
	return nil
}

// createPosition is POST /api/positions (President): a position of the
// given term, the hiring term by default.
func (s *Server) createPosition(w http.ResponseWriter, r *http.Request) error {
	body := hiring.PositionInput{Create: true}
	if err := decode(w, r, &body); err != nil {
		return err
	}
	ctx := r.Context()
	var out hiring.PositionView
	err := s.store.InTx(ctx, func(q *db.Queries) (err error) {
		out, err = hiring.CreatePosition(ctx, q, &body)
		return err
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, map[string]any{"position": out})
	return nil
}

// patchPosition is PATCH /api/positions/{id} (President).
func (s *Server) patchPosition(w http.ResponseWriter, r *http.Request) error {
	id, err := uuid.Parse(chi.URLParam(r, "id"))
	if err != nil {
		return hiring.ErrPositionMissing
	}
	var body hiring.PositionInput
	if err := decode(w, r, &body); err != nil {
		return err
	}
	ctx := r.Context()
	var out hiring.PositionView
	err = s.store.InTx(ctx, func(q *db.Queries) (err error) {
		out, err = hiring.UpdatePosition(ctx, q, id, &body)
		return err
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"position": out})
	return nil
}

// deletePosition is DELETE /api/positions/{id} (President). A position
// someone chose, or one with application questions, is kept (409).
func (s *Server) deletePosition(w http.ResponseWriter, r *http.Request) error {
	id, err := uuid.Parse(chi.URLParam(r, "id"))
	if err != nil {
		return hiring.ErrPositionMissing
	}
	ctx := r.Context()
	if err := s.store.InTx(ctx, func(q *db.Queries) error { return hiring.DeletePosition(ctx, q, id) }); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true})
	return nil
}

// listReview is GET /api/applications/review (VP): the hiring term's
// selections in the caller's scope.
func (s *Server) listReview(w http.ResponseWriter, r *http.Request) error {
	fields := apperr.Fields{}
	pg := parsePage(r, fields)
	filter := hiring.ReviewFilter{TermID: r.URL.Query().Get("term_id"), Status: optional(r, "status"),
		PositionID: optional(r, "position_id"), Q: optional(r, "q"), Limit: pg.Size, Offset: pg.offset()}
	for name, why := range filter.Validate() {
		fields.Add(name, why)
	}
	if err := fields.Err(); err != nil {
		return err
	}
	ctx := r.Context()
	actor := hiringActor(principalFrom(ctx))
	items, total, err := hiring.ReviewList(ctx, s.store.Queries, s.resumeSigner(), actor.Scope, actor.Role, filter)
	if err != nil {
		return err
	}
	writeList(w, "items", items, total, pg)
	return nil
}

// hiringTerms is GET /api/applications/review/terms (VP): the terms the
// hiring pages offer, the hiring term first, with what each holds in the
// caller's scope (hiring.TermChoices).
func (s *Server) hiringTerms(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	out, err := hiring.TermChoices(ctx, s.store.Queries, hiringActor(principalFrom(ctx)).Scope)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"terms": out})
	return nil
}

// resumeSigner signs the review items' résumé links: none when the
// server has no object store (some tests).
func (s *Server) resumeSigner() hiring.ResumeSigner {
	if s.blob == nil {
		return nil
	}
	return s.blob
}

// patchSelection is PATCH /api/applications/review/{selection_id} (VP)
// and PATCH /api/applications/hiring/selections/{id} (President): one
// status change (hiring.ChangeStatus), whose offer or rejection email is
// queued in the same transaction.
func (s *Server) patchSelection(param string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		id, err := uuid.Parse(chi.URLParam(r, param))
		if err != nil {
			return hiring.ErrSelectionMissing
		}
		var body hiring.StatusInput
		if err := decode(w, r, &body); err != nil {
			return err
		}
		ctx := r.Context()
		actor := hiringActor(principalFrom(ctx))
		var out hiring.SelectionView
		err = s.store.InTx(ctx, func(q *db.Queries) error {
			sel, refs, err := hiring.ChangeStatus(ctx, q, actor, id, body.Status)
			if err != nil {
				return err
			}
			out = sel
			return queueEmails(ctx, q, refs...)
		})
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, map[string]any{"selection": out})
		return nil
	}
}

// hiringBoard is GET /api/applications/hiring?term_id= (President): every
// applicant of the term with their selections and the statuses the caller
// may move each to.
func (s *Server) hiringBoard(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	out, err := hiring.Board(ctx, s.store.Queries, hiringActor(principalFrom(ctx)).Role, r.URL.Query().Get("term_id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"applicants": out})
	return nil
}

// hiringTeam is GET /api/applications/hiring/team?term_id= (President):
// what finalization does (or did): the accepted offers and the previous
// execs whose roles end.
func (s *Server) hiringTeam(w http.ResponseWriter, r *http.Request) error {
	t, err := hiring.Team(r.Context(), s.store.Queries, r.URL.Query().Get("term_id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"term_id": t.TermID, "new_execs": t.NewExecs, "demoted": t.Demoted,
		"finalized_at": t.FinalizedAt})
	return nil
}

// finalizeHiring is POST /api/applications/hiring/finalize (President):
// claims the term's finalization (hiring.StartFinalization) and queues its
// workflow in one transaction. A repeated call queues nothing new and
// answers the same workflow id.
func (s *Server) finalizeHiring(w http.ResponseWriter, r *http.Request) error {
	var body hiring.FinalizeInput
	if err := decode(w, r, &body); err != nil {
		return err
	}
	ctx := r.Context()
	me := principalFrom(ctx).ProfileID
	id := workflows.HiringFinalizationID(uuid.MustParse(body.TermID))
	err := s.store.InTx(ctx, func(q *db.Queries) error {
		t, f, err := hiring.StartFinalization(ctx, q, me, body, id)
		if err != nil {
			return err
		}
		_, err = outbox.Enqueue(ctx, q, workflows.HiringFinalizationRequest(workflows.HiringFinalizationInput{
			TermID: t.ID, TermName: t.Name, AllHandsURL: f.AllHandsUrl,
			OnboardingURL: strings.TrimRight(s.cfg.PublicURL, "/") + "/onboarding", ChatInviteURL: s.cfg.ChatInviteURL,
		}))
		return err
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusAccepted, map[string]any{"workflow_id": id})
	return nil
}
