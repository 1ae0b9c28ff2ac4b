package api

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/google/uuid"

	"hackdesk/apperr"
	"hackdesk/review"
)

// leaderboardTimeout bounds the whole leaderboard request.
const leaderboardTimeout = 30 * time.Second

// leaderboard is GET /api/admin/leaderboard (superadmin). The ranking and
// the statistics are read concurrently under one 30 s deadline; a part
// that fails is logged and answered with its default.
func (s *Server) leaderboard(w http.ResponseWriter, r *http.Request) error {
	if v := r.URL.Query().Get("reviewerId"); v != "" {
		return s.reviewerScores(w, r, v)
	}
	ctx, cancel := context.WithTimeout(r.Context(), leaderboardTimeout)
	defer cancel()
	entries := []review.LeaderboardEntry{}
	var stats review.Statistics
	var wg sync.WaitGroup
	wg.Go(func() {
		rows, err := review.Leaderboard(ctx, s.reads)
		if err != nil {
			s.log.ErrorContext(ctx, "leaderboard part failed; answering the default", "part", "leaderboard", "err", err)
			return
		}
		entries = rows
	})
	wg.Go(func() {
		st, err := review.Stats(ctx, s.reads)
		if err != nil {
			s.log.ErrorContext(ctx, "leaderboard part failed; answering the default", "part", "statistics", "err", err)
			return
		}
		stats = st
	})
	wg.Wait()
	writeJSON(w, http.StatusOK, map[string]any{"leaderboard": entries, "statistics": stats})
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
