package review_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/google/uuid"

	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/hackathon"
	"hackdesk/internal/feature/review"
)

// TestCurrentMovesUnderTheQueue: reviewers work through last year's
// queue; the current edition moves. Their next request serves the new
// edition, a review of last year's application they still hold is the
// 409 "That hackathon is not the current one", and nothing of last year's
// is lost or re-scored: its leaderboard, statistics, reviewer scores and
// normalized scores read the same after this year's reviews.
func TestCurrentMovesUnderTheQueue(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	last := current(t, s)
	reviewers := make([]review.Reviewer, 6)
	for i := range reviewers {
		reviewers[i] = person(t, s, fmt.Sprintf("r%d@example.com", i), fmt.Sprintf("R%d", i))
	}
	oldApps := make([]uuid.UUID, 5)
	for i := range oldApps {
		oldApps[i] = application(t, s, person(t, s, fmt.Sprintf("old%d@example.com", i), ""), "submitted", "")
	}
	// Each reviewer reviews every one of last year's but the last, with
	// totals that differ between reviewers (normalized within each).
	for ri, r := range reviewers {
		for ai, app := range oldApps[:4] {
			if _, err := submit(s, r, scores(app, int32(ai%4), int32(ri%3), int32((ai+ri)%8), 1)); err != nil {
				t.Fatal(err)
			}
		}
	}
	held, err := review.Next(ctx, s.Queries, reviewers[0]) // the one left
	if err != nil || held.Application.ID != oldApps[4] {
		t.Fatalf("next of last year: %v, %v", held.Application.ID, err)
	}
	type snapshot struct {
		board  review.BoardResult
		scores review.ReviewerScores
		rows   []review.AdminRow
	}
	read := func() snapshot {
		t.Helper()
		var sn snapshot
		sn.board = review.Board(ctx, s.Queries, testenv.Logger(t), last)
		if sn.scores, err = review.ScoresOf(ctx, s.Queries, last, reviewers[2].ProfileID); err != nil {
			t.Fatal(err)
		}
		lq := review.ListQuery{Hackathon: last, Sort: "normalized_score", Order: "desc"}
		if err := lq.Validate().Err(); err != nil {
			t.Fatal(err)
		}
		if sn.rows, _, err = review.List(ctx, s.Queries, nobody, lq, 50, 0); err != nil {
			t.Fatal(err)
		}
		return sn
	}
	before := read()
	if before.board.Statistics.TotalReviews != 24 || len(before.rows) != 5 || before.rows[0].NormalizedScore == nil {
		t.Fatalf("last year's board %+v rows %+v", before.board.Statistics, before.rows)
	}

	this := testenv.Hackathon(t, s, testenv.HackathonOpts{Name: "This year", Current: true})
	_, err = review.Next(ctx, s.Queries, reviewers[0])
	if !errors.Is(err, review.ErrQueueEmpty) {
		t.Fatalf("the new edition has no applications yet: %v", err)
	}
	if _, err := submit(s, reviewers[0], scores(held.Application.ID, 3, 2, 7, 3)); !errors.Is(err, hackathon.ErrNotCurrent) {
		t.Fatalf("a review of last year's application after the move: %v", err)
	}
	newApps := make([]uuid.UUID, 3)
	for i := range newApps {
		newApps[i] = application(t, s, person(t, s, fmt.Sprintf("new%d@example.com", i), ""), "submitted", "")
	}
	for _, r := range reviewers {
		for range newApps {
			row, err := review.Next(ctx, s.Queries, r)
			if err != nil {
				t.Fatal(err)
			}
			if row.Application.HackathonID != this.ID {
				t.Fatalf("the queue served %s of another edition", row.Application.ID)
			}
			if _, err := submit(s, r, scores(row.Application.ID, 3, 2, 7, 3)); err != nil {
				t.Fatal(err)
			}
		}
	}
	// total_reviews in the submit answer stays all-time.
	row, err := review.Next(ctx, s.Queries, reviewers[5])
	if !errors.Is(err, review.ErrQueueEmpty) {
		t.Fatalf("queue after every new one was reviewed: %v, %v", row.Application.ID, err)
	}
	extra := application(t, s, person(t, s, "late@example.com", ""), "submitted", "")
	out, err := submit(s, reviewers[5], scores(extra, 0, 0, 0, 0))
	if err != nil || out.TotalReviews != 4+3+1 {
		t.Fatalf("total_reviews %d (%v), want every edition's 8", out.TotalReviews, err)
	}

	after := read()
	if js(t, after.board) != js(t, before.board) || after.scores != before.scores {
		t.Fatalf("last year's board changed:\nbefore %+v\nafter  %+v\nscores %+v / %+v", before.board, after.board, before.scores, after.scores)
	}
	if js(t, after.rows) != js(t, before.rows) {
		t.Fatalf("last year's rows re-scored:\n%s\n%s", js(t, before.rows), js(t, after.rows))
	}
	nowBoard := review.Board(ctx, s.Queries, testenv.Logger(t), this.ID)
	if nowBoard.Statistics.TotalReviews != 19 || nowBoard.Statistics.TotalApplications != 4 || len(nowBoard.Leaderboard) != 6 {
		t.Fatalf("this year's board %+v", nowBoard)
	}
	var stats int
	if err := s.Pool().QueryRow(ctx, `SELECT count(*) FROM reviewer_stats WHERE hackathon_id = $1`, this.ID).Scan(&stats); err != nil || stats != 6 {
		t.Fatalf("%d reviewer counters this year (%v)", stats, err)
	}
	if sc, err := review.ScoresOf(ctx, s.Queries, this.ID, reviewers[0].ProfileID); err != nil || sc.TotalReviews != 3 || sc.MeanTotal != 15 {
		t.Fatalf("this year's scores of r0 %+v, %v", sc, err)
	}
}

func js(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
