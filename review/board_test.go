package review_test

import (
	"context"
	"errors"
	"log/slog"
	"testing"

	"hackdesk/db"
	"hackdesk/review"
	"hackdesk/testenv"
)

// failingBoard fails the ranking's read; the statistics read through.
type failingBoard struct{ db.Querier }

func (failingBoard) LeaderboardEntries(context.Context) ([]db.LeaderboardEntriesRow, error) {
	return nil, errors.New("ranking unavailable")
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
	entries, stats := review.Board(ctx, s.Queries, log)
	if len(entries) != 1 || entries[0].ReviewerID != ana.ProfileID || entries[0].ReviewCount != 1 ||
		stats.TotalReviews != 1 || stats.AvgQ1Score != 7 {
		t.Fatalf("board %+v, %+v", entries, stats)
	}
	entries, stats = review.Board(ctx, failingBoard{s.Queries}, log)
	if entries == nil || len(entries) != 0 || stats.TotalReviews != 1 {
		t.Fatalf("with the ranking failing: %+v, %+v; want no entries and the statistics", entries, stats)
	}
}
