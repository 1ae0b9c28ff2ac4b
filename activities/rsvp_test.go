package activities_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/activities"
	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/account"
)

// rsvpWorld is a database with submitted applications and helpers to put
// them in a decision batch.
type rsvpWorld struct {
	t     *testing.T
	store *db.Store
	admin uuid.UUID
}

func newRsvpWorld(t *testing.T) rsvpWorld {
	s := testenv.Store(t)
	admin, err := account.Create(context.Background(), s.Queries, "admin@example.com", "Admin", "password-admin", "admin")
	if err != nil {
		t.Fatal(err)
	}
	return rsvpWorld{t: t, store: s, admin: admin.ID}
}

func (w rsvpWorld) applicant(name string) uuid.UUID {
	w.t.Helper()
	p, err := account.Create(context.Background(), w.store.Queries, name+"@example.com", name, "password-"+name, "member")
	if err != nil {
		w.t.Fatal(err)
	}
	var id uuid.UUID
	if err := w.store.Pool().QueryRow(context.Background(), `
		INSERT INTO applications (profile_id, status, email, phone, discord, tshirt_size, age, country,
			university, program, year_of_study, experience_level, hackathons_attended,
			resume_key, resume_name, q1_answer, q2_answer, coc_agreed, info_share_authorized, submitted_at)
		SELECT p.id, 'submitted', p.email, '+1 613 555 0100', 'handle', 'M', 20, 'Canada',
			'uOttawa', 'CS', '2', 'beginner', 1, p.id::text || '/cv.pdf', 'cv.pdf', 'q1', 'q2', true, true, now()
		FROM profiles p WHERE p.id = $1::uuid
		RETURNING id`, p.ID).Scan(&id); err != nil {
		w.t.Fatal(err)
	}
	return id
}

func (w rsvpWorld) decide(batch uuid.UUID, decision string, deadline *time.Time, ids ...uuid.UUID) {
	w.t.Helper()
	detail, _ := json.Marshal(map[string]any{"decision": decision, "batch_id": batch})
	if _, err := w.store.DecisionApply(context.Background(), db.DecisionApplyParams{
		ActorID: w.admin, Detail: detail, Ids: ids, Decision: decision, RsvpDeadline: deadline}); err != nil {
		w.t.Fatal(err)
	}
}

// state is everything the RSVP activities write.
func (w rsvpWorld) state() string {
	w.t.Helper()
	var s string
	err := w.store.Pool().QueryRow(context.Background(), `
		SELECT concat_ws(' | ',
		  (SELECT string_agg(concat_ws(',', id, decision, rsvp, rsvp_deadline), ';' ORDER BY id) FROM applications),
		  (SELECT string_agg(concat_ws(',', application_id, kind, detail), ';' ORDER BY id) FROM application_events),
		  (SELECT string_agg(concat_ws(',', idempotency_key, kind, to_address, subject), ';' ORDER BY idempotency_key) FROM emails))`).Scan(&s)
	if err != nil {
		w.t.Fatal(err)
	}
	return s
}

// twice runs an activity two times and requires the same end state (and,
// when sameResult, the same result): a retry (after a crash, say) changes
// nothing.
func twice[T any](t *testing.T, w rsvpWorld, name string, sameResult bool, run func() (T, error)) T {
	t.Helper()
	first, err := run()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	after := w.state()
	second, err := run()
	if err != nil {
		t.Fatalf("%s again: %v", name, err)
	}
	if got := w.state(); got != after {
		t.Fatalf("%s run twice changed the state:\nonce:  %s\ntwice: %s", name, after, got)
	}
	if sameResult && !reflect.DeepEqual(first, second) {
		t.Fatalf("%s: first %v, second %v", name, first, second)
	}
	return first
}

// TestRsvpActivitiesTwice runs each RSVP activity twice in a row and sees
// the same end state as after one run.
func TestRsvpActivitiesTwice(t *testing.T) {
	t.Parallel()
	w := newRsvpWorld(t)
	a := &activities.RsvpActivities{Store: w.store}
	ctx := context.Background()
	ana, ben, cy, wait := w.applicant("ana"), w.applicant("ben"), w.applicant("cy"), w.applicant("wait")
	w.decide(uuid.New(), "waitlist", nil, wait)

	// Deadline in the past, so ExpireOffers has work; one offer answered.
	batch := uuid.New()
	past := time.Now().Add(-time.Minute).UTC().Truncate(time.Microsecond)
	w.decide(batch, "offer", &past, ana, ben, cy)
	if _, err := w.store.Pool().Exec(ctx, `UPDATE applications SET rsvp = 'attending', rsvp_at = now() WHERE id = $1`, cy); err != nil {
		t.Fatal(err)
	}
	// Another batch's overdue offer is not this batch's to expire.
	other := w.applicant("other")
	w.decide(uuid.New(), "offer", &past, other)

	offers := twice(t, w, "RecordOfferEmails", true, func() ([]activities.EmailRef, error) {
		return a.RecordOfferEmails(ctx, activities.OfferEmailsInput{BatchID: batch, PublicURL: "https://h.test"})
	})
	if len(offers) != 2 {
		t.Fatalf("offer emails %v, want ana and ben (cy answered)", offers)
	}
	reminders := twice(t, w, "RecordRsvpReminders", true, func() ([]activities.EmailRef, error) {
		return a.RecordRsvpReminders(ctx, activities.RsvpEmailsInput{Deadline: past, PublicURL: "https://h.test"})
	})
	if len(reminders) != 3 { // ana, ben and the other batch's applicant share the deadline
		t.Fatalf("reminders %v", reminders)
	}
	// The second run finds nothing left to expire (0): same state.
	expired := twice(t, w, "ExpireOffers", false, func() (int, error) {
		return a.ExpireOffers(ctx, activities.ExpireOffersInput{BatchID: batch})
	})
	var otherRsvp *string
	if err := w.store.Pool().QueryRow(ctx, `SELECT rsvp FROM applications WHERE id = $1`, other).Scan(&otherRsvp); err != nil {
		t.Fatal(err)
	}
	if otherRsvp != nil {
		t.Fatalf("another batch's offer was expired: %v", *otherRsvp)
	}
	promo := uuid.New()
	promoted := twice(t, w, "PromoteWaitlist", true, func() (int, error) {
		return a.PromoteWaitlist(ctx, activities.PromoteInput{BatchID: promo, Places: 2, Deadline: time.Now().Add(time.Hour)})
	})
	if promoted != 1 {
		t.Fatalf("promoted %d, want the one waitlisted application", promoted)
	}
	var rsvps string
	if err := w.store.Pool().QueryRow(ctx, `
		SELECT string_agg(coalesce(rsvp, '-'), ',' ORDER BY p.email) FROM applications a JOIN profiles p ON p.id = a.profile_id
		WHERE a.id = ANY($1)`, []uuid.UUID{ana, ben, cy}).Scan(&rsvps); err != nil {
		t.Fatal(err)
	}
	if rsvps != "expired,expired,attending" {
		t.Fatalf("rsvps after expiry %s", rsvps)
	}
	if expired != 2 {
		t.Fatalf("ExpireOffers expired %d, want 2", expired)
	}
}

// TestExpireOffersOnTheWorkflowsClock: the workflow wakes at the deadline
// on Temporal's clock; a database whose clock runs behind still expires
// the offers due by that deadline (not by its own now()), and leaves an
// offer made again with a later deadline.
func TestExpireOffersOnTheWorkflowsClock(t *testing.T) {
	t.Parallel()
	w := newRsvpWorld(t)
	a := &activities.RsvpActivities{Store: w.store}
	ctx := context.Background()
	// To the database the deadline is still ten minutes away.
	deadline := time.Now().Add(10 * time.Minute).UTC().Truncate(time.Microsecond)
	later := deadline.Add(time.Hour)
	ana, ben := w.applicant("ana"), w.applicant("ben")
	batch := uuid.New()
	w.decide(batch, "offer", &deadline, ana, ben)
	w.decide(uuid.New(), "offer", &later, ben) // ben's offer now belongs to a later batch

	n, err := a.ExpireOffers(ctx, activities.ExpireOffersInput{BatchID: batch, Deadline: deadline})
	if err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Fatalf("expired %d, want ana's offer", n)
	}
	var anaRsvp, benRsvp *string
	if err := w.store.Pool().QueryRow(ctx, `SELECT (SELECT rsvp FROM applications WHERE id = $1), (SELECT rsvp FROM applications WHERE id = $2)`,
		ana, ben).Scan(&anaRsvp, &benRsvp); err != nil {
		t.Fatal(err)
	}
	if anaRsvp == nil || *anaRsvp != "expired" || benRsvp != nil {
		t.Fatalf("ana %v, ben %v; want expired and unanswered", anaRsvp, benRsvp)
	}
}
