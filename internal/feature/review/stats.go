package review

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"sync"

	"github.com/google/uuid"

	"hackdesk/db"
)

// Ratio is num/den rounded to the given number of decimals, 0 when den is
// 0 (an average of nothing).
func Ratio(num, den int64, decimals int) float64 {
	if den == 0 {
		return 0
	}
	scale := math.Pow10(decimals)
	return math.Round(float64(num)/float64(den)*scale) / scale
}

// LeaderboardEntry is one reviewer and how many reviews they gave.
type LeaderboardEntry struct {
	ReviewerID  uuid.UUID `json:"reviewer_id"`
	ReviewCount int32     `json:"review_count"`
	Name        *string   `json:"name"`
	Email       string    `json:"email"`
}

// Leaderboard ranks the reviewers of edition hackathonID, most reviews
// first.
func Leaderboard(ctx context.Context, q db.Querier, hackathonID uuid.UUID) ([]LeaderboardEntry, error) {
	rows, err := q.LeaderboardEntries(ctx, hackathonID)
	if err != nil {
		return nil, err
	}
	out := make([]LeaderboardEntry, 0, len(rows))
	for _, row := range rows {
		out = append(out, LeaderboardEntry{ReviewerID: row.ReviewerID, ReviewCount: row.ReviewCount, Name: row.Name, Email: row.Email})
	}
	return out, nil
}

// Statistics are the review totals and average scores (two decimals). Its
// zero value is the default the leaderboard answers when they cannot be
// read.
type Statistics struct {
	TotalApplications        int64   `json:"total_applications"`
	TotalReviews             int64   `json:"total_reviews"`
	TotalReviewers           int64   `json:"total_reviewers"`
	AvgReviewsPerApplication float64 `json:"avg_reviews_per_application"`
	AvgResumeScore           float64 `json:"avg_resume_score"`
	AvgLinksScore            float64 `json:"avg_links_score"`
	AvgQ1Score               float64 `json:"avg_q1_score"`
	AvgQ2Score               float64 `json:"avg_q2_score"`
}

// statisticsOf derives the averages from the totals.
func statisticsOf(row db.ReviewStatisticsRow) Statistics {
	return Statistics{
		TotalApplications:        row.TotalApplications,
		TotalReviews:             row.TotalReviews,
		TotalReviewers:           row.TotalReviewers,
		AvgReviewsPerApplication: Ratio(row.TotalReviews, row.TotalApplications, 2),
		AvgResumeScore:           Ratio(row.ResumeSum, row.TotalReviews, 2),
		AvgLinksScore:            Ratio(row.LinksSum, row.TotalReviews, 2),
		AvgQ1Score:               Ratio(row.Q1Sum, row.TotalReviews, 2),
		AvgQ2Score:               Ratio(row.Q2Sum, row.TotalReviews, 2),
	}
}

// Stats reads the review statistics of the submitted applications of
// edition hackathonID.
func Stats(ctx context.Context, q db.Querier, hackathonID uuid.UUID) (Statistics, error) {
	row, err := q.ReviewStatistics(ctx, hackathonID)
	if err != nil {
		return Statistics{}, err
	}
	return statisticsOf(row), nil
}

// ReviewerScores are one reviewer's average scores (two decimals).
type ReviewerScores struct {
	AvgResumeScore float64 `json:"avg_resume_score"`
	AvgLinksScore  float64 `json:"avg_links_score"`
	AvgQ1Score     float64 `json:"avg_q1_score"`
	AvgQ2Score     float64 `json:"avg_q2_score"`
	TotalReviews   int64   `json:"total_reviews"`
	// The mean and population standard deviation of the review totals
	// (0-15), the inputs of the reviewer's normalized scores.
	MeanTotal   float64 `json:"mean_total"`
	StddevTotal float64 `json:"stddev_total"`
}

func reviewerScoresOf(st db.ReviewerStat, totals db.ReviewerTotalsRow) ReviewerScores {
	n := int64(st.ReviewCount)
	return ReviewerScores{TotalReviews: n, AvgResumeScore: Ratio(st.ResumeSum, n, 2),
		AvgLinksScore: Ratio(st.LinksSum, n, 2), AvgQ1Score: Ratio(st.Q1Sum, n, 2), AvgQ2Score: Ratio(st.Q2Sum, n, 2),
		MeanTotal: round2(totals.MeanTotal), StddevTotal: round2(totals.StddevTotal)}
}

// round2 rounds to two decimals, as every average of the leaderboard is.
func round2(v float64) float64 { return math.Round(v*100) / 100 }

// ScoresOf reads a reviewer's average scores in edition hackathonID:
// zeros for someone without reviews there (or no account).
func ScoresOf(ctx context.Context, q db.Querier, hackathonID, reviewerID uuid.UUID) (ReviewerScores, error) {
	st, err := q.ReviewerStatsGet(ctx, db.ReviewerStatsGetParams{HackathonID: hackathonID, ReviewerID: reviewerID})
	switch {
	case errors.Is(err, db.ErrNotFound):
		return ReviewerScores{}, nil
	case err != nil:
		return ReviewerScores{}, err
	}
	totals, err := q.ReviewerTotals(ctx, db.ReviewerTotalsParams{HackathonID: hackathonID, ReviewerID: reviewerID})
	if err != nil {
		return ReviewerScores{}, err
	}
	return reviewerScoresOf(st, totals), nil
}

// Board parts, as named in Failed.
const (
	PartLeaderboard = "leaderboard"
	PartStatistics  = "statistics"
)

// BoardResult is the leaderboard and the statistics; Failed names the
// parts that could not be read (answered with their defaults), in the
// order leaderboard, statistics; empty when both were read.
type BoardResult struct {
	Leaderboard []LeaderboardEntry `json:"leaderboard"`
	Statistics  Statistics         `json:"statistics"`
	Failed      []string           `json:"failed"`
}

// Board is the leaderboard and the statistics of edition hackathonID, read
// concurrently (ctx bounds both). A part that fails is logged, answered
// with its default (no entries, zero statistics) and named in Failed, so
// that a reader can tell a default from a real empty board.
func Board(ctx context.Context, q db.Querier, log *slog.Logger, hackathonID uuid.UUID) BoardResult {
	out := BoardResult{Leaderboard: []LeaderboardEntry{}, Failed: []string{}}
	var entriesErr, statsErr error
	var wg sync.WaitGroup
	wg.Go(func() {
		rows, err := Leaderboard(ctx, q, hackathonID)
		if err != nil {
			entriesErr = err
			return
		}
		out.Leaderboard = rows
	})
	wg.Go(func() {
		st, err := Stats(ctx, q, hackathonID)
		if err != nil {
			statsErr = err
			return
		}
		out.Statistics = st
	})
	wg.Wait()
	if entriesErr != nil {
		log.ErrorContext(ctx, "leaderboard part failed; answering the default", "part", PartLeaderboard, "err", entriesErr)
		out.Failed = append(out.Failed, PartLeaderboard)
	}
	if statsErr != nil {
		log.ErrorContext(ctx, "leaderboard part failed; answering the default", "part", PartStatistics, "err", statsErr)
		out.Failed = append(out.Failed, PartStatistics)
	}
	return out
}
