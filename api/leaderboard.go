package api

import (
	"context"
	"errors"
	"math"
	"net/http"
	"sync"
	"time"

	"github.com/google/uuid"

	"hackdesk/apperr"
	"hackdesk/db"
)

// leaderboardTimeout bounds the whole leaderboard request.
const leaderboardTimeout = 30 * time.Second

type leaderboardEntry struct {
	ReviewerID  uuid.UUID `json:"reviewer_id"`
	ReviewCount int32     `json:"review_count"`
	Name        *string   `json:"name"`
	Email       string    `json:"email"`
}

// statisticsJSON is the service document's Statistics; its zero value is
// the default a failed part falls back to.
type statisticsJSON struct {
	TotalApplications        int64   `json:"total_applications"`
	TotalReviews             int64   `json:"total_reviews"`
	TotalReviewers           int64   `json:"total_reviewers"`
	AvgReviewsPerApplication float64 `json:"avg_reviews_per_application"`
	AvgResumeScore           float64 `json:"avg_resume_score"`
	AvgLinksScore            float64 `json:"avg_links_score"`
	AvgQ1Score               float64 `json:"avg_q1_score"`
	AvgQ2Score               float64 `json:"avg_q2_score"`
}

type reviewerScoresJSON struct {
	AvgResumeScore float64 `json:"avg_resume_score"`
	AvgLinksScore  float64 `json:"avg_links_score"`
	AvgQ1Score     float64 `json:"avg_q1_score"`
	AvgQ2Score     float64 `json:"avg_q2_score"`
	TotalReviews   int64   `json:"total_reviews"`
}

// ratio is num/den rounded to the given number of decimals, 0 when den is 0.
func ratio(num, den int64, decimals int) float64 {
	if den == 0 {
		return 0
	}
	scale := math.Pow10(decimals)
	return math.Round(float64(num)/float64(den)*scale) / scale
}

// leaderboard is GET /api/admin/leaderboard (superadmin). The ranking and
// the statistics are computed concurrently under one 30 s deadline; a part
// that fails is logged and answered with its default.
func (s *Server) leaderboard(w http.ResponseWriter, r *http.Request) error {
	if v := r.URL.Query().Get("reviewerId"); v != "" {
		return s.reviewerScores(w, r, v)
	}
	ctx, cancel := context.WithTimeout(r.Context(), leaderboardTimeout)
	defer cancel()
	entries := []leaderboardEntry{}
	var stats statisticsJSON
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		rows, err := s.reads.LeaderboardEntries(ctx)
		if err != nil {
			s.log.ErrorContext(ctx, "leaderboard part failed; answering the default", "part", "leaderboard", "err", err)
			return
		}
		for _, row := range rows {
			entries = append(entries, leaderboardEntry{ReviewerID: row.ReviewerID, ReviewCount: row.ReviewCount, Name: row.Name, Email: row.Email})
		}
	}()
	go func() {
		defer wg.Done()
		row, err := s.reads.ReviewStatistics(ctx)
		if err != nil {
			s.log.ErrorContext(ctx, "leaderboard part failed; answering the default", "part", "statistics", "err", err)
			return
		}
		stats = statisticsJSON{
			TotalApplications:        row.TotalApplications,
			TotalReviews:             row.TotalReviews,
			TotalReviewers:           row.TotalReviewers,
			AvgReviewsPerApplication: ratio(row.TotalReviews, row.TotalApplications, 2),
			AvgResumeScore:           ratio(row.ResumeSum, row.TotalReviews, 2),
			AvgLinksScore:            ratio(row.LinksSum, row.TotalReviews, 2),
			AvgQ1Score:               ratio(row.Q1Sum, row.TotalReviews, 2),
			AvgQ2Score:               ratio(row.Q2Sum, row.TotalReviews, 2),
		}
	}()
	wg.Wait()
	writeJSON(w, http.StatusOK, map[string]any{"leaderboard": entries, "statistics": stats})
	return nil
}

// reviewerScores answers ?reviewerId=: one reviewer's average scores (zeros
// for someone without reviews).
func (s *Server) reviewerScores(w http.ResponseWriter, r *http.Request, raw string) error {
	id, err := uuid.Parse(raw)
	if err != nil {
		return apperr.ValidationFailed(apperr.Fields{"reviewerId": "must be a UUID"})
	}
	var out reviewerScoresJSON
	st, err := s.reads.ReviewerStatsGet(r.Context(), id)
	switch {
	case err == nil:
		n := int64(st.ReviewCount)
		out = reviewerScoresJSON{TotalReviews: n, AvgResumeScore: ratio(st.ResumeSum, n, 2),
			AvgLinksScore: ratio(st.LinksSum, n, 2), AvgQ1Score: ratio(st.Q1Sum, n, 2), AvgQ2Score: ratio(st.Q2Sum, n, 2)}
	case !errors.Is(err, db.ErrNotFound): // no row: zeros
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"reviewerScores": out})
	return nil
}
