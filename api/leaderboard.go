package api

import (
	"context"
	"net/http"
	"time"

	"github.com/google/uuid"

	"hackdesk/internal/feature/review"
	"hackdesk/internal/platform/apperr"
)

// leaderboardTimeout bounds the whole leaderboard request.
const leaderboardTimeout = 30 * time.Second

// leaderboard is GET /api/admin/leaderboard (superadmin): the ranking and
// the statistics under one 30 s deadline (review.Board).
func (s *Server) leaderboard(w http.ResponseWriter, r *http.Request) error {
	if v := r.URL.Query().Get("reviewerId"); v != "" {
		return s.reviewerScores(w, r, v)
	}
	ctx, cancel := context.WithTimeout(r.Context(), leaderboardTimeout)
	defer cancel()
	writeJSON(w, http.StatusOK, review.Board(ctx, s.reads, s.log))
	return nil
}

// reviewerScores answers ?reviewerId=: one reviewer's average scores.
func (s *Server) reviewerScores(w http.ResponseWriter, r *http.Request, raw string) error {
	id, err := uuid.Parse(raw)
	if err != nil {
		return apperr.ValidationFailed(apperr.Fields{"reviewerId": "must be a UUID"})
	}
	out, err := review.ScoresOf(r.Context(), s.reads, id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"reviewerScores": out})
	return nil
}
