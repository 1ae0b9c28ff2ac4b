package review_test

import (
	"context"
	"errors"
	"testing"

	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/review"
)

// TestConflictTheOtherWay: a reviewer whose own application of the
// edition lists an applicant as a teammate has a conflict with that
// applicant's application, as the applicant has with theirs: the queue
// never serves it, a review of it is refused naming the conflict, and its
// reviews and scores are hidden from them in the details and in the
// table. The same listing in another edition is no conflict.
func TestConflictTheOtherWay(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	last := current(t, s)
	ana := person(t, s, "ana@example.com", "Ana")
	pat := person(t, s, "pat@example.com", "Pat")
	other := person(t, s, "other@example.com", "Other")
	// Last year ana's application listed Pat: that is over.
	testenv.Application(t, s, ana.ProfileID, testenv.ApplicationOpts{Submitted: true, Hackathon: last, TeamMembers: "Pat@Example.com"})
	testenv.Hackathon(t, s, testenv.HackathonOpts{Name: "This year", Current: true})
	pats := application(t, s, pat, "submitted", "")
	if _, err := submit(s, other, scores(pats, 3, 2, 7, 3)); err != nil {
		t.Fatal(err)
	}
	// Without an application of this edition, ana may review Pat's.
	if row, err := review.Next(ctx, s.Queries, ana); err != nil || row.Application.ID != pats {
		t.Fatalf("ana's next before she lists Pat: %v (%v), want Pat's", row.Application.ID, err)
	}
	// This year ana's own draft lists Pat.
	application(t, s, ana, "draft", "other@example.com, PAT@example.com")
	if row, err := review.Next(ctx, s.Queries, ana); !errors.Is(err, review.ErrQueueEmpty) {
		t.Fatalf("the queue served ana %v (%v): the application of someone her application lists", row.Application.ID, err)
	}
	_, err := submit(s, ana, scores(pats, 1, 1, 1, 1))
	if e := apiError(err); e.Title != "Forbidden" ||
		e.Message != "You cannot review the application of someone your application lists as a team member" {
		t.Fatalf("ana's review of Pat's application: %v", err)
	}
	reviews, hidden, err := review.ReviewsOf(ctx, s.Queries, ana, pats)
	if err != nil || !hidden || len(reviews) != 0 {
		t.Fatalf("ana sees the reviews of Pat's application: %+v hidden %v (%v)", reviews, hidden, err)
	}
	// Someone else still reviews and sees it.
	reviews, hidden, err = review.ReviewsOf(ctx, s.Queries, person(t, s, "zed@example.com", ""), pats)
	if err != nil || hidden || len(reviews) != 1 {
		t.Fatalf("zed sees %+v hidden %v (%v)", reviews, hidden, err)
	}
}
