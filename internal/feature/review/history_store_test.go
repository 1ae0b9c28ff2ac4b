package review_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/dev/testenv"
	apps "hackdesk/internal/feature/application"
	"hackdesk/internal/feature/coi"
	"hackdesk/internal/feature/review"
)

// TestHistoryOf walks an application through waitlist, offer, an RSVP and
// an expiry by the system, and reads its history back oldest first with
// who acted.
func TestHistoryOf(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	admin := person(t, s, "admin@example.com", "Ada Admin")
	owner := person(t, s, "owner@example.com", "")
	app := application(t, s, owner, "submitted", "")

	empty, err := review.HistoryOf(ctx, s.Queries, app)
	if err != nil || empty == nil || len(empty) != 0 {
		t.Fatalf("history before any decision: %+v (%v), want empty", empty, err)
	}

	decide := func(d apps.Decision, deadline *string) {
		t.Helper()
		req := &apps.DecisionRequest{ApplicationIDs: []string{app.String()}, Decision: d, RsvpDeadline: deadline}
		if f := req.Validate(); len(f) > 0 {
			t.Fatalf("decision %s: %v", d, f)
		}
		err := s.InTx(ctx, func(q *db.Queries) error {
			_, err := apps.Decide(ctx, q, coi.Actor{ProfileID: admin.ProfileID, Email: admin.Email}, req)
			return err
		})
		if err != nil {
			t.Fatalf("decision %s: %v", d, err)
		}
	}
	decide(apps.DecisionWaitlist, nil)
	deadline := time.Now().Add(48 * time.Hour).UTC().Truncate(time.Second)
	dl := deadline.Format(time.RFC3339)
	decide(apps.DecisionOffer, &dl)
	yes := true
	if err := s.InTx(ctx, func(q *db.Queries) error {
		_, err := apps.AnswerOffer(ctx, q, owner.ProfileID, apps.RsvpRequest{Attending: &yes})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	// The system's own event: no actor.
	if err := s.ApplicationEventInsert(ctx, db.ApplicationEventInsertParams{
		ApplicationID: app, Kind: "expired", Detail: []byte(`{"reason":"no answer by the deadline"}`),
	}); err != nil {
		t.Fatal(err)
	}

	got, err := review.HistoryOf(ctx, s.Queries, app)
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		kind, value, previous, by string
		deadline                  bool
	}
	wants := []want{
		{"decision", "waitlist", "", "admin@example.com", false},
		{"decision", "offer", "waitlist", "admin@example.com", true},
		{"rsvp", "attending", "", "owner@example.com", false},
		{"expired", "expired", "", "", false},
	}
	if len(got) != len(wants) {
		t.Fatalf("history %+v, want %d entries", got, len(wants))
	}
	for i, w := range wants {
		e := got[i]
		prev, by := "", ""
		if e.Previous != nil {
			prev = *e.Previous
		}
		if e.By != nil {
			by = e.By.Email
		}
		if e.Kind != w.kind || e.Value != w.value || prev != w.previous || by != w.by || (e.RsvpDeadline != nil) != w.deadline || e.At.IsZero() {
			t.Errorf("entry %d = %+v (by %q, previous %q), want %+v", i, e, by, prev, w)
		}
		if i > 0 && e.At.Before(got[i-1].At) {
			t.Errorf("entry %d at %v before entry %d", i, e.At, i-1)
		}
	}
	if got[1].RsvpDeadline == nil || !got[1].RsvpDeadline.Equal(deadline) {
		t.Errorf("offer deadline %v, want %v", got[1].RsvpDeadline, deadline)
	}
	if got[0].By == nil || got[0].By.Name == nil || *got[0].By.Name != "Ada Admin" || got[0].By.ID != admin.ProfileID {
		t.Errorf("decision by %+v, want Ada Admin", got[0].By)
	}
	if other, err := review.HistoryOf(ctx, s.Queries, uuid.New()); err != nil || len(other) != 0 {
		t.Errorf("unknown application: %+v (%v)", other, err)
	}
}
