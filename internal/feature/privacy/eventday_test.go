package privacy_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/checkin"
	"hackdesk/internal/feature/privacy"
)

// checkedIn makes a an attending applicant with a diet, a shirt size and
// the waiver, checked in at the door by staff with client id.
func checkedIn(t *testing.T, s *db.Store, a, staff, client uuid.UUID) {
	t.Helper()
	testenv.Decide(t, s, a, testenv.Decision{Decision: "offer", Rsvp: "attending"})
	if _, err := s.Pool().Exec(context.Background(), `UPDATE applications SET dietary_restrictions = 'Vegetarian, no nuts',
		tshirt_size = 'M', waiver_accepted_at = now(), checked_in_at = now(), checked_in_by = $2, checkin_client_id = $3
		WHERE id = $1`, a, staff, client); err != nil {
		t.Fatal(err)
	}
	if err := s.ApplicationEventInsert(context.Background(), db.ApplicationEventInsertParams{ApplicationID: a, ActorID: &staff,
		Kind: "checkin", Detail: []byte(`{"client_id":"` + client.String() + `"}`)}); err != nil {
		t.Fatal(err)
	}
}

func volunteer(t *testing.T, s *db.Store, h, p, by uuid.UUID) {
	t.Helper()
	if err := s.VolunteerAdd(context.Background(), db.VolunteerAddParams{HackathonID: h, ProfileID: p, AddedBy: &by}); err != nil {
		t.Fatal(err)
	}
}

func volunteers(t *testing.T, s *db.Store, where string, arg uuid.UUID) int {
	t.Helper()
	var n int
	if err := s.Pool().QueryRow(context.Background(), `SELECT count(*) FROM hackathon_volunteers WHERE `+where, arg).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// The event day's personal data: the export carries the person's check-in,
// diet, shirt, waiver and volunteering; the attendance CSV is logged one
// row per person; an erasure blanks diet, shirt, who checked them in and
// the tap's client id, keeps the check-in and waiver times (the door's
// counts read the same), takes them off the attendance list and the door's
// search and ends their volunteering.
func TestEventDayPrivacy(t *testing.T) {
	t.Parallel()
	s, blob := stack(t)
	ctx := context.Background()
	const name = "Evie Eventday"
	p := testenv.Account(t, s, testenv.AccountOpts{Name: name})
	other := testenv.Account(t, s, testenv.AccountOpts{})
	staff := testenv.Account(t, s, testenv.AccountOpts{Role: "admin", Name: "Door Keeper"})
	h := testenv.Hackathon(t, s, testenv.HackathonOpts{})
	elsewhere := testenv.Hackathon(t, s, testenv.HackathonOpts{})
	app := testenv.Application(t, s, p.ID, testenv.ApplicationOpts{Submitted: true, Hackathon: h.ID})
	mate := testenv.Application(t, s, other.ID, testenv.ApplicationOpts{Submitted: true, Hackathon: h.ID})
	client := uuid.New()
	checkedIn(t, s, app.ID, staff.ID, client)
	checkedIn(t, s, mate.ID, staff.ID, uuid.New())
	volunteer(t, s, elsewhere.ID, p.ID, staff.ID)

	// The export.
	e, err := privacy.Collect(ctx, s.Queries, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Applications) != 1 || len(e.Volunteering) != 1 || e.Volunteering[0].Hackathon.ID != elsewhere.ID {
		t.Fatalf("export: %d applications, volunteering %+v", len(e.Applications), e.Volunteering)
	}
	ea := e.Applications[0]
	if ea.CheckedInAt == nil || ea.WaiverAcceptedAt == nil || ea.TshirtSize == nil || *ea.TshirtSize != "M" ||
		ea.DietaryRestrictions == nil || *ea.DietaryRestrictions != "Vegetarian, no nuts" {
		t.Errorf("exported application: checked in %v, waiver %v, shirt %v, diet %v", ea.CheckedInAt, ea.WaiverAcceptedAt,
			ea.TshirtSize, ea.DietaryRestrictions)
	}
	kinds := ""
	for _, ev := range ea.Events {
		kinds += ev.Kind + " "
	}
	if !strings.Contains(kinds, "checkin") {
		t.Errorf("exported events: %s", kinds)
	}
	arc, err := privacy.Open(ctx, blob, testenvLogger(t), e)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := arc.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	arc.Close()
	data := readZip(t, buf.Bytes())[privacy.DataFile]
	for _, want := range []string{`"checked_in_at"`, `"waiver_accepted_at"`, `"volunteering"`, "Vegetarian, no nuts"} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("data.json lacks %s", want)
		}
	}
	for _, secret := range []string{"Door Keeper", staff.Email, staff.ID.String()} {
		if bytes.Contains(data, []byte(secret)) {
			t.Errorf("data.json names %q (who checked them in or added them)", secret)
		}
	}

	// The attendance CSV's access log: one row per person in it.
	if err := privacy.LogAttendance(ctx, s.Queries, privacy.Actor{ProfileID: staff.ID, Role: "admin"}, h.ID); err != nil {
		t.Fatal(err)
	}
	reads, err := s.AccessLogForSubject(ctx, p.ID)
	if err != nil || len(reads) != 1 || reads[0].Action != string(privacy.ActionAttendanceCSV) || reads[0].ObjectID == nil || *reads[0].ObjectID != app.ID {
		t.Errorf("access log of the attendance CSV: %+v, %v", reads, err)
	}

	before, err := s.CheckinAttending(ctx, h.ID)
	if err != nil {
		t.Fatal(err)
	}
	beforeCounts, err := s.CateringCounts(ctx, h.ID)
	if err != nil {
		t.Fatal(err)
	}

	// The erasure's application and records steps, twice.
	sub := privacy.Subject{ProfileID: p.ID, Email: p.Email}
	for range 2 {
		if _, err := inTx(t, s, func(q *db.Queries) (int, error) { return privacy.EraseApplications(ctx, q, sub) }); err != nil {
			t.Fatal(err)
		}
		if _, err := inTx(t, s, func(q *db.Queries) (privacy.Erased, error) { return privacy.EraseRecords(ctx, q, sub) }); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.ApplicationGet(ctx, app.ID)
	if err != nil || got.CheckedInAt == nil || got.WaiverAcceptedAt == nil || got.CheckedInBy != nil || got.CheckinClientID != nil ||
		got.TshirtSize != nil || got.DietaryRestrictions != nil || got.Rsvp == nil || *got.Rsvp != "attending" {
		t.Errorf("erased application: checked in %v by %v (client %v), waiver %v, shirt %v, diet %v, rsvp %v (%v)",
			got.CheckedInAt, got.CheckedInBy, got.CheckinClientID, got.WaiverAcceptedAt, got.TshirtSize, got.DietaryRestrictions, got.Rsvp, err)
	}
	if n := volunteers(t, s, "profile_id = $1", p.ID); n != 0 {
		t.Errorf("%d volunteer rows left", n)
	}
	after, err := s.CheckinAttending(ctx, h.ID)
	if err != nil || after != before {
		t.Errorf("the door's counts: %+v, then %+v (%v)", before, after, err)
	}
	afterCounts, err := s.CateringCounts(ctx, h.ID)
	if err != nil {
		t.Fatal(err)
	}
	total := func(rows []db.CateringCountsRow) (a, c int64) {
		for _, r := range rows {
			if r.Kind == "tshirt" {
				a, c = a+r.Attending, c+r.CheckedIn
			}
		}
		return a, c
	}
	if a0, c0 := total(beforeCounts); true {
		if a1, c1 := total(afterCounts); a0 != a1 || c0 != c1 || a0 != 2 || c0 != 2 {
			t.Errorf("shirt totals %d/%d, then %d/%d", a0, c0, a1, c1)
		}
	}
	var csvOut bytes.Buffer
	if err := checkin.WriteAttendance(ctx, s.Queries, &csvOut, h.ID, nil); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(strings.TrimSpace(csvOut.String()), "\n"); lines != 1 || strings.Contains(csvOut.String(), privacy.ErasedEmail(p.ID)) {
		t.Errorf("attendance after the erasure (%d rows):\n%s", lines, csvOut.String())
	}
	found, err := s.CheckinSearch(ctx, db.CheckinSearchParams{HackathonID: h.ID, Pattern: "%"})
	if err != nil || len(found) != 1 || found[0].ID != mate.ID {
		t.Errorf("the door's search after the erasure: %+v, %v", found, err)
	}
}

// Retention purges an edition's door data with its applications: diet,
// shirt, who checked them in and the client id go, the check-in time
// stays, and the edition's volunteers are deleted.
func TestEventDayRetention(t *testing.T) {
	t.Parallel()
	s, _ := stack(t)
	ctx := context.Background()
	const days = 30
	ended := time.Now().Add(-31 * 24 * time.Hour)
	opens := ended.Add(-60 * 24 * time.Hour)
	closes, starts := opens.Add(20*24*time.Hour), opens.Add(30*24*time.Hour)
	past := testenv.Hackathon(t, s, testenv.HackathonOpts{OpensAt: opens, ClosesAt: &closes, StartsAt: &starts, EndsAt: &ended})
	recentEnd := time.Now().Add(-29 * 24 * time.Hour)
	recent := testenv.Hackathon(t, s, testenv.HackathonOpts{OpensAt: opens, ClosesAt: &closes, StartsAt: &starts, EndsAt: &recentEnd})
	staff := testenv.Account(t, s, testenv.AccountOpts{Role: "admin"})
	p := testenv.Account(t, s, testenv.AccountOpts{})
	vol := testenv.Account(t, s, testenv.AccountOpts{})
	a := testenv.Application(t, s, p.ID, testenv.ApplicationOpts{Submitted: true, Hackathon: past.ID})
	checkedIn(t, s, a.ID, staff.ID, uuid.New())
	volunteer(t, s, past.ID, vol.ID, staff.ID)
	volunteer(t, s, recent.ID, vol.ID, staff.ID)

	items, err := privacy.ApplicationsDue(ctx, s.Queries, time.Now(), days)
	if err != nil {
		t.Fatal(err)
	}
	var mine []privacy.Item
	for _, it := range items {
		if it.ID == a.ID {
			mine = append(mine, it)
		}
	}
	if len(mine) != 1 {
		t.Fatalf("the past edition's application is not due: %d of %d", len(mine), len(items))
	}
	if _, err := inTx(t, s, func(q *db.Queries) (int, error) { return privacy.PurgeApplications(ctx, q, mine) }); err != nil {
		t.Fatal(err)
	}
	if _, err := privacy.PurgeVolunteers(ctx, s.Queries, time.Now(), days); err != nil {
		t.Fatal(err)
	}
	got, err := s.ApplicationGet(ctx, a.ID)
	if err != nil || got.PurgedAt == nil || got.CheckedInAt == nil || got.CheckedInBy != nil || got.CheckinClientID != nil ||
		got.TshirtSize != nil || got.DietaryRestrictions != nil {
		t.Errorf("purged application: purged %v, checked in %v by %v (client %v), shirt %v, diet %v (%v)",
			got.PurgedAt, got.CheckedInAt, got.CheckedInBy, got.CheckinClientID, got.TshirtSize, got.DietaryRestrictions, err)
	}
	if n := volunteers(t, s, "hackathon_id = $1", past.ID); n != 0 {
		t.Errorf("%d volunteers of the purged edition left", n)
	}
	if n := volunteers(t, s, "hackathon_id = $1", recent.ID); n != 1 {
		t.Errorf("%d volunteers of the recent edition left, want 1", n)
	}
}
