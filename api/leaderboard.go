package api

import (
	"context"
	"net/http"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/hackathon"
	"hackdesk/internal/feature/review"
	"hackdesk/internal/platform/apperr"
)

// leaderboardTimeout bounds the whole leaderboard request.
const leaderboardTimeout = 30 * time.Second

// leaderboard is GET /api/admin/leaderboard?hackathon= (superadmin): one
// edition's ranking and statistics (the current edition by default) under
// one 30 s deadline (review.Board); the answer names the edition.
func (s *Server) leaderboard(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), leaderboardTimeout)
	defer cancel()
	h, err := hackathon.Scope(ctx, s.reads, r.URL.Query().Get("hackathon"))
	if err != nil {
		return err
	}
	if v := r.URL.Query().Get("reviewerId"); v != "" {
		return s.reviewerScores(w, r, h, v)
	}
	board := review.Board(ctx, s.reads, s.log, h.ID)
	writeJSON(w, http.StatusOK, struct {
		review.BoardResult
		Hackathon hackathon.Ref `json:"hackathon"`
	}{board, hackathon.RefOf(h)})
	return nil
}

// reviewerScores answers ?reviewerId=: one reviewer's average scores in
// edition h.
func (s *Server) reviewerScores(w http.ResponseWriter, r *http.Request, h db.Hackathon, raw string) error {
	id, err := uuid.Parse(raw)
	if err != nil {
		return apperr.ValidationFailed(apperr.Fields{"reviewerId": "must be a UUID"})
	}
	out, err := review.ScoresOf(r.Context(), s.reads, h.ID, id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"reviewerScores": out})
	return nil
}
