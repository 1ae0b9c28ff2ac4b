package review_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/review"
)

// TestQueueLeft: the count of what is left in a reviewer's queue, made of
// the edition's queue size (kept by QueueSizes while the queue's
// generation stands) less the reviewer's reviewed and conflicted
// applications, equals the count of one statement that reads every
// application (ApplicationQueueLeftScan) after each change that moves it:
// a submission, the reviewer's own application, each way of a conflict,
// a review, a deletion, a draft, the cap, another edition made current.
// The same QueueSizes is used throughout, so a size kept past a change
// fails the test.
func TestQueueLeft(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	sizes := &review.QueueSizes{}
	ana := person(t, s, "ana@example.com", "Ana")
	zed := person(t, s, "zed@example.com", "Zed")
	var cap *int32
	check := func(step string, who review.Reviewer, want int32) {
		t.Helper()
		set := review.Settings{Cap: cap}
		cached, err := review.Left(ctx, s.Queries, sizes, who, set)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := review.Left(ctx, s.Queries, nil, who, set)
		if err != nil {
			t.Fatal(err)
		}
		scan, err := s.ApplicationQueueLeftScan(ctx, db.ApplicationQueueLeftScanParams{ReviewerID: who.ProfileID, ReviewerEmail: who.Email, Cap: cap})
		if err != nil {
			t.Fatal(err)
		}
		if cached != want || fresh != want || scan != want {
			t.Fatalf("%s: %s has %d left (%d counted afresh, %d by the scan), want %d", step, who.Email, cached, fresh, scan, want)
		}
	}
	var apps []review.Reviewer
	for _, e := range []string{"p1@example.com", "p2@example.com", "p3@example.com", "p4@example.com", "p5@example.com"} {
		apps = append(apps, person(t, s, e, ""))
	}
	ids := map[string]uuid.UUID{}
	ids["p1"] = application(t, s, apps[0], "submitted", "x@example.com, ANA@Example.com ")
	ids["p2"] = application(t, s, apps[1], "submitted", "")
	ids["p3"] = application(t, s, apps[2], "submitted", "")
	check("five submitted, one listing ana", zed, 3)
	check("ana is listed by p1", ana, 2)
	ids["p4"] = application(t, s, apps[3], "submitted", "")
	ids["p5"] = application(t, s, apps[4], "submitted", "")
	check("two more submitted", zed, 5)
	check("two more submitted", ana, 4)
	application(t, s, ana, "submitted", "p2@EXAMPLE.com")
	check("ana's own application, listing p2", ana, 3)
	check("ana's own application", zed, 6)
	if _, err := submit(s, ana, scores(ids["p3"], 1, 1, 1, 1)); err != nil {
		t.Fatal(err)
	}
	check("ana reviewed p3", ana, 2)
	check("ana reviewed p3", zed, 6)
	if _, err := s.Pool().Exec(ctx, `DELETE FROM applications WHERE id = $1`, ids["p4"]); err != nil {
		t.Fatal(err)
	}
	check("p4 deleted", ana, 1)
	check("p4 deleted", zed, 5)
	// p5, reviewed by ana, erased: out of the queue, and out of what ana's
	// counter says she reviewed in it.
	if _, err := submit(s, ana, scores(ids["p5"], 1, 1, 1, 1)); err != nil {
		t.Fatal(err)
	}
	check("ana reviewed p5", ana, 0)
	check("ana reviewed p5", zed, 5)
	if _, err := s.ApplicationsPurge(ctx, db.ApplicationsPurgeParams{Erase: true, Ids: []uuid.UUID{ids["p5"]}}); err != nil {
		t.Fatal(err)
	}
	check("p5 erased", ana, 0)
	check("p5 erased", zed, 4)
	application(t, s, person(t, s, "p6@example.com", ""), "draft", "")
	check("a draft", zed, 4)
	setCap := func(c *int32) {
		t.Helper()
		cap = c
		if _, err := s.Pool().Exec(ctx, `UPDATE review_settings SET cap = $1`, c); err != nil {
			t.Fatal(err)
		}
	}
	one := int32(1)
	setCap(&one)
	check("cap 1: p3 reviewed once", zed, 3)
	check("cap 1: p3 reviewed once", ana, 0)
	if _, err := submit(s, zed, scores(ids["p1"], 1, 1, 1, 1)); err != nil {
		t.Fatal(err)
	}
	check("cap 1: p1 reviewed by zed", zed, 2)
	check("cap 1: p1 reviewed by zed", ana, 0)
	setCap(nil)
	check("no cap again", zed, 3)
	if _, err := submit(s, zed, scores(ids["p2"], 1, 1, 1, 1)); err != nil {
		t.Fatal(err)
	}
	check("zed reviewed p2 with no cap", zed, 2)
	setCap(&one)
	check("cap 1 again: p2 crossed it while no cap was set", zed, 1)
	check("cap 1 again", ana, 0)
	setCap(nil)
	testenv.Hackathon(t, s, testenv.HackathonOpts{Name: "Next year", Current: true})
	check("a new edition", zed, 0)
	application(t, s, apps[0], "submitted", "zed@example.com")
	application(t, s, apps[1], "submitted", "")
	check("a new edition with two", zed, 1)
	check("a new edition with two", ana, 2)
}
