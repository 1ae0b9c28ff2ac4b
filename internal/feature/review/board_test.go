package review_test

import (
	"context"
	"errors"
	"log/slog"
	"testing"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/review"
)

// failingBoard fails the ranking's read; the statistics read through.
type failingBoard struct{ db.Querier }

func (failingBoard) LeaderboardEntries(context.Context, uuid.UUID) ([]db.LeaderboardEntriesRow, error) {
	return nil, errors.New("ranking unavailable")
}

// failingStats fails the statistics' read; the ranking reads through.
type failingStats struct{ db.Querier }

func (failingStats) ReviewStatistics(context.Context, uuid.UUID) (db.ReviewStatisticsRow, error) {
	return db.ReviewStatisticsRow{}, errors.New("statistics unavailable")
}

// TestBoard reads the ranking and the statistics; a part that fails is
// answered with its default and the other still read.
func TestBoard(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	ana := person(t, s, "ana@example.com", "Ana")
	app := application(t, s, person(t, s, "owner@example.com", ""), "submitted", "")
	if _, err := submit(s, ana, scores(app, 3, 2, 7, 3)); err != nil {
		t.Fatal(err)
	}
	edition := current(t, s)
	b := review.Board(ctx, s.Queries, log, edition)
	entries, stats := b.Leaderboard, b.Statistics
	if len(b.Failed) != 0 {
		t.Fatalf("both parts read, yet failed = %v", b.Failed)
	}
	if len(entries) != 1 || entries[0].ReviewerID != ana.ProfileID || entries[0].ReviewCount != 1 ||
		stats.TotalReviews != 1 || stats.AvgQ1Score != 7 {
		t.Fatalf("board %+v, %+v", entries, stats)
	}
	b = review.Board(ctx, failingBoard{s.Queries}, log, edition)
	if b.Leaderboard == nil || len(b.Leaderboard) != 0 || b.Statistics.TotalReviews != 1 ||
		len(b.Failed) != 1 || b.Failed[0] != review.PartLeaderboard {
		t.Fatalf("with the ranking failing: %+v; want no entries, the statistics and failed [leaderboard]", b)
	}
	b = review.Board(ctx, failingStats{s.Queries}, log, edition)
	if len(b.Leaderboard) != 1 || b.Statistics != (review.Statistics{}) ||
		len(b.Failed) != 1 || b.Failed[0] != review.PartStatistics {
		t.Fatalf("with the statistics failing: %+v; want the ranking, zero statistics and failed [statistics]", b)
	}
	b = review.Board(ctx, failingStats{failingBoard{s.Queries}}, log, edition)
	if len(b.Leaderboard) != 0 || len(b.Failed) != 2 || b.Failed[0] != review.PartLeaderboard || b.Failed[1] != review.PartStatistics {
		t.Fatalf("with both failing: %+v; want failed [leaderboard statistics]", b)
	}
}
