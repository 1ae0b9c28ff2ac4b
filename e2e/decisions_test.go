package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/app"
	"hackdesk/dev/testenv"
)

// decAccount creates a confirmed account with a role (named by its email)
// and returns a client holding a fresh session for it and its id.
func decAccount(t *testing.T, a *app.App, base *client, email, role string) (*client, uuid.UUID) {
	t.Helper()
	id := account(t, a, email, email, role)
	return as(t, a, base, id), id
}

// decApplicant creates an account with a seeded application, submitted or a
// draft, and returns the applicant's client, profile id and application id.
func decApplicant(t *testing.T, a *app.App, base *client, email, status string) (*client, uuid.UUID, uuid.UUID) {
	t.Helper()
	c, id := decAccount(t, a, base, email, "member")
	return c, id, seedApplication(t, a, id, status)
}

// decRow is the decision state of an application as stored.
type decRow struct {
	Decision     *string
	DecidedAt    *time.Time
	RsvpDeadline *time.Time
	Rsvp         *string
	RsvpAt       *time.Time
}

func decState(t *testing.T, a *app.App, id uuid.UUID) decRow {
	t.Helper()
	row, err := a.Store.ApplicationReviewView(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	ap := row.Application
	return decRow{Decision: ap.Decision, DecidedAt: ap.DecidedAt, RsvpDeadline: ap.RsvpDeadline, Rsvp: ap.Rsvp, RsvpAt: ap.RsvpAt}
}

// decEvent is an application_events row with its detail decoded.
type decEvent struct {
	Actor  *uuid.UUID
	Kind   string
	Detail map[string]any
}

func decEvents(t *testing.T, a *app.App, id uuid.UUID) []decEvent {
	t.Helper()
	rows, err := a.Store.ApplicationEventsFor(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]decEvent, 0, len(rows))
	for _, r := range rows {
		e := decEvent{Actor: r.ActorID, Kind: r.Kind}
		if err := json.Unmarshal(r.Detail, &e.Detail); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}

func decCountEvents(t *testing.T, a *app.App) int {
	t.Helper()
	return countRows(t, a, `SELECT count(*) FROM application_events`)
}

type decAnswer struct {
	Success bool      `json:"success"`
	Updated int       `json:"updated"`
	BatchID uuid.UUID `json:"batch_id"`
}

func decPost(t *testing.T, c *client, want int, ids []uuid.UUID, decision string, deadline any) response {
	t.Helper()
	body := map[string]any{"application_ids": ids, "decision": decision}
	if deadline != nil {
		body["rsvp_deadline"] = deadline
	}
	return c.expect(want, "POST", "/api/admin/applications/decisions", body)
}

func decStr(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}

func TestDecisionsBulk(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	admin, adminID := decAccount(t, a, anon, "admin@example.com", "admin")
	super, superID := decAccount(t, a, anon, "super@example.com", "superadmin")
	mem, _ := decAccount(t, a, anon, "member@example.com", "member")
	ada, _, app1 := decApplicant(t, a, anon, "ada@example.com", "submitted")
	_, _, app2 := decApplicant(t, a, anon, "alan@example.com", "submitted")
	_, _, app3 := decApplicant(t, a, anon, "grace@example.com", "submitted")

	deadline := time.Now().Add(48 * time.Hour).UTC().Truncate(time.Second)

	// A member may not decide.
	decPost(t, mem, http.StatusForbidden, []uuid.UUID{app1}, "offer", deadline.Format(time.RFC3339))

	// Offer two.
	var offer decAnswer
	decPost(t, admin, http.StatusOK, []uuid.UUID{app2, app1}, "offer", deadline.Format(time.RFC3339)).JSON(t, &offer)
	if !offer.Success || offer.Updated != 2 || offer.BatchID == uuid.Nil {
		t.Fatalf("offer answer %+v", offer)
	}
	for _, id := range []uuid.UUID{app1, app2} {
		st := decState(t, a, id)
		if decStr(st.Decision) != "offer" || st.DecidedAt == nil || st.RsvpDeadline == nil || !st.RsvpDeadline.Equal(deadline) || st.Rsvp != nil {
			t.Fatalf("after the offer %s: %+v", id, st)
		}
		ev := decEvents(t, a, id)
		if len(ev) != 1 || ev[0].Kind != "decision" || ev[0].Actor == nil || *ev[0].Actor != adminID {
			t.Fatalf("events of %s after the offer: %+v", id, ev)
		}
		d := ev[0].Detail
		if d["decision"] != "offer" || d["previous"] != nil || d["batch_id"] != offer.BatchID.String() {
			t.Fatalf("offer detail %v", d)
		}
		if got, err := time.Parse(time.RFC3339, fmt.Sprint(d["rsvp_deadline"])); err != nil || !got.Equal(deadline) {
			t.Fatalf("offer detail deadline %v, want %s", d["rsvp_deadline"], deadline)
		}
		if _, ok := d["previous"]; !ok {
			t.Fatalf("offer detail has no previous key: %v", d)
		}
	}

	// The applicant sees the decision and the deadline.
	var mine struct {
		Decision     *string    `json:"decision"`
		RsvpDeadline *time.Time `json:"rsvp_deadline"`
		Rsvp         *string    `json:"rsvp"`
		RsvpAt       *time.Time `json:"rsvp_at"`
	}
	ada.expect(http.StatusOK, "GET", "/api/applications", nil).JSON(t, &mine)
	if decStr(mine.Decision) != "offer" || mine.RsvpDeadline == nil || !mine.RsvpDeadline.Equal(deadline) || mine.Rsvp != nil || mine.RsvpAt != nil {
		t.Fatalf("applicant view %+v", mine)
	}
	if strings.Contains(string(ada.expect(http.StatusOK, "GET", "/api/applications", nil).Body), "review") {
		t.Fatal("the applicant's view mentions reviews")
	}

	// Waitlist one.
	var wait decAnswer
	decPost(t, admin, http.StatusOK, []uuid.UUID{app3}, "waitlist", nil).JSON(t, &wait)
	if wait.Updated != 1 || wait.BatchID == offer.BatchID {
		t.Fatalf("waitlist answer %+v", wait)
	}
	if st := decState(t, a, app3); decStr(st.Decision) != "waitlist" || st.RsvpDeadline != nil {
		t.Fatalf("after the waitlist: %+v", st)
	}

	// Another admin rejects the offered app1 and the waitlisted app3: the
	// deadline is cleared and the events name the previous decisions.
	var reject decAnswer
	decPost(t, super, http.StatusOK, []uuid.UUID{app3, app1}, "reject", nil).JSON(t, &reject)
	if reject.Updated != 2 {
		t.Fatalf("reject answer %+v", reject)
	}
	for id, previous := range map[uuid.UUID]string{app1: "offer", app3: "waitlist"} {
		st := decState(t, a, id)
		if decStr(st.Decision) != "reject" || st.RsvpDeadline != nil {
			t.Fatalf("after the reject %s: %+v", id, st)
		}
		ev := decEvents(t, a, id)
		last := ev[len(ev)-1]
		if len(ev) != 2 || last.Kind != "decision" || *last.Actor != superID {
			t.Fatalf("events of %s: %+v", id, ev)
		}
		if last.Detail["decision"] != "reject" || last.Detail["previous"] != previous ||
			last.Detail["rsvp_deadline"] != nil || last.Detail["batch_id"] != reject.BatchID.String() {
			t.Fatalf("reject detail of %s: %v", id, last.Detail)
		}
	}
	if st := decState(t, a, app2); decStr(st.Decision) != "offer" || len(decEvents(t, a, app2)) != 1 {
		t.Fatalf("app2 changed by a batch that did not name it: %+v", st)
	}
	ada.expect(http.StatusOK, "GET", "/api/applications", nil).JSON(t, &mine)
	if decStr(mine.Decision) != "reject" || mine.RsvpDeadline != nil {
		t.Fatalf("applicant view after the reject %+v", mine)
	}

	// The reviewer view carries the same fields.
	var view struct {
		Application map[string]any `json:"application"`
	}
	admin.expect(http.StatusOK, "GET", "/api/applications/random", nil).JSON(t, &view)
	if _, ok := view.Application["decision"]; !ok {
		t.Fatalf("reviewer view without decision: %v", view.Application)
	}
}

func TestDecisionsValidation(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	admin, _ := decAccount(t, a, anon, "admin@example.com", "admin")
	_, _, app1 := decApplicant(t, a, anon, "ada@example.com", "submitted")
	future := time.Now().Add(24 * time.Hour).UTC().Format(time.RFC3339)
	past := time.Now().Add(-time.Minute).UTC().Format(time.RFC3339)

	many := make([]uuid.UUID, 501)
	for i := range many {
		many[i] = uuid.New()
	}
	cases := []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"ErrOfferWithoutDeadline", map[string]any{"application_ids": []uuid.UUID{app1}, "decision": "offer"}, "rsvp_deadline"},
		{"ErrOfferNullDeadline", map[string]any{"application_ids": []uuid.UUID{app1}, "decision": "offer", "rsvp_deadline": nil}, "rsvp_deadline"},
		{"ErrOfferPastDeadline", map[string]any{"application_ids": []uuid.UUID{app1}, "decision": "offer", "rsvp_deadline": past}, "rsvp_deadline"},
		{"ErrOfferBadDeadline", map[string]any{"application_ids": []uuid.UUID{app1}, "decision": "offer", "rsvp_deadline": "tomorrow"}, "rsvp_deadline"},
		{"ErrWaitlistWithDeadline", map[string]any{"application_ids": []uuid.UUID{app1}, "decision": "waitlist", "rsvp_deadline": future}, "rsvp_deadline"},
		{"ErrRejectWithDeadline", map[string]any{"application_ids": []uuid.UUID{app1}, "decision": "reject", "rsvp_deadline": future}, "rsvp_deadline"},
		{"ErrUnknownDecision", map[string]any{"application_ids": []uuid.UUID{app1}, "decision": "maybe"}, "decision"},
		{"ErrNoIDs", map[string]any{"application_ids": []uuid.UUID{}, "decision": "reject"}, "application_ids"},
		{"ErrMissingIDs", map[string]any{"decision": "reject"}, "application_ids"},
		{"ErrDuplicateIDs", map[string]any{"application_ids": []string{app1.String(), strings.ToUpper(app1.String())}, "decision": "reject"}, "application_ids"},
		{"ErrNotUUID", map[string]any{"application_ids": []string{"nope"}, "decision": "reject"}, "application_ids"},
		{"ErrTooMany", map[string]any{"application_ids": many, "decision": "reject"}, "application_ids"},
		{"ErrUnknownField", map[string]any{"application_ids": []uuid.UUID{app1}, "decision": "reject", "note": "x"}, "note"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var body errorJSON
			admin.expect(http.StatusBadRequest, "POST", "/api/admin/applications/decisions", c.body).JSON(t, &body)
			if body.Error != "Validation failed" || body.Details[c.field] == "" {
				t.Fatalf("body %+v, want a reason for %s", body, c.field)
			}
		})
	}
	if st := decState(t, a, app1); st.Decision != nil || decCountEvents(t, a) != 0 {
		t.Fatalf("a refused request changed something: %+v", st)
	}
}

func TestDecisionsAllOrNothing(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	admin, adminID := decAccount(t, a, anon, "admin@example.com", "admin")
	_, _, ok1 := decApplicant(t, a, anon, "ada@example.com", "submitted")
	_, _, ok2 := decApplicant(t, a, anon, "alan@example.com", "submitted")
	_, _, draft := decApplicant(t, a, anon, "grace@example.com", "draft")
	_, _, answered := decApplicant(t, a, anon, "edsger@example.com", "submitted")
	own := seedApplication(t, a, adminID, "submitted")
	until := time.Now().Add(time.Hour).UTC().Truncate(time.Second)
	deadline := until.Format(time.RFC3339)

	decPost(t, admin, http.StatusOK, []uuid.UUID{answered}, "offer", deadline)
	testenv.Decide(t, a.Store, answered, testenv.Decision{Decision: "offer", RsvpDeadline: &until, Rsvp: "attending"})
	events := decCountEvents(t, a)

	// One draft in the batch: nothing changes, and the draft is named.
	var body errorJSON
	decPost(t, admin, http.StatusBadRequest, []uuid.UUID{ok1, draft, ok2}, "offer", deadline).JSON(t, &body)
	if body.Error != "Validation failed" || body.Details["application_ids"] != "not submitted: "+draft.String() {
		t.Fatalf("draft in the batch: %+v", body)
	}
	// Several offenders are all named, by reason.
	decPost(t, admin, http.StatusBadRequest, []uuid.UUID{answered, ok1, draft}, "waitlist", nil).JSON(t, &body)
	want := "not submitted: " + draft.String() + "; already answered: " + answered.String()
	if body.Details["application_ids"] != want {
		t.Fatalf("details %q, want %q", body.Details["application_ids"], want)
	}
	// The caller's own application is a conflict of interest: 403, before
	// the other reasons (TestConflictDecisions).
	decPost(t, admin, http.StatusForbidden, []uuid.UUID{answered, ok1, draft, own}, "waitlist", nil)
	// An id that does not exist is 404, and also changes nothing.
	missing := uuid.New()
	decPost(t, admin, http.StatusNotFound, []uuid.UUID{ok1, missing}, "reject", nil).JSON(t, &body)
	if !strings.Contains(body.Message, missing.String()) || strings.Contains(body.Message, ok1.String()) {
		t.Fatalf("404 body %+v", body)
	}

	for _, id := range []uuid.UUID{ok1, ok2, draft, own} {
		if st := decState(t, a, id); st.Decision != nil || st.DecidedAt != nil {
			t.Fatalf("%s changed by a refused batch: %+v", id, st)
		}
	}
	if st := decState(t, a, answered); decStr(st.Decision) != "offer" || decStr(st.Rsvp) != "attending" {
		t.Fatalf("the answered application changed: %+v", st)
	}
	if n := decCountEvents(t, a); n != events {
		t.Fatalf("refused batches wrote events: %d, want %d", n, events)
	}

	// Without the offenders the same batch goes through.
	var ok decAnswer
	decPost(t, admin, http.StatusOK, []uuid.UUID{ok1, ok2}, "offer", deadline).JSON(t, &ok)
	if ok.Updated != 2 || decCountEvents(t, a) != events+2 {
		t.Fatalf("answer %+v, events %d", ok, decCountEvents(t, a))
	}
}

type decRSVPAnswer struct {
	Success     bool `json:"success"`
	Application struct {
		ID           uuid.UUID  `json:"id"`
		Decision     *string    `json:"decision"`
		RsvpDeadline *time.Time `json:"rsvp_deadline"`
		Rsvp         *string    `json:"rsvp"`
		RsvpAt       *time.Time `json:"rsvp_at"`
	} `json:"application"`
}

func TestRSVP(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	admin, _ := decAccount(t, a, anon, "admin@example.com", "admin")
	// The applicant goes through the real application flow.
	me, myID := decAccount(t, a, anon, "ada@example.com", "member")
	nobody, _ := decAccount(t, a, anon, "nobody@example.com", "member")
	_, _, other := decApplicant(t, a, anon, "alan@example.com", "submitted")

	nobody.expect(http.StatusNotFound, "POST", "/api/applications/rsvp", map[string]any{"attending": true})

	created := createApplication(t, me, myID)
	r := me.expect(http.StatusConflict, "POST", "/api/applications/rsvp", map[string]any{"attending": true})
	if r.Map(t)["error"] != "No offer" {
		t.Fatalf("RSVP on a draft: %s", r.Body)
	}
	for _, step := range completeSteps {
		me.expect(http.StatusOK, "PATCH", "/api/applications", step)
	}
	if r := me.upload("cv.pdf", pdfFile("ada")); r.Status != http.StatusOK {
		t.Fatalf("upload = %d: %s", r.Status, r.Body)
	}
	me.expect(http.StatusOK, "POST", "/api/applications/submit", nil)
	me.expect(http.StatusConflict, "POST", "/api/applications/rsvp", map[string]any{"attending": true})

	decPost(t, admin, http.StatusOK, []uuid.UUID{created.ID}, "waitlist", nil)
	r = me.expect(http.StatusConflict, "POST", "/api/applications/rsvp", map[string]any{"attending": true})
	if r.Map(t)["error"] != "No offer" {
		t.Fatalf("RSVP while waitlisted: %s", r.Body)
	}

	deadline := time.Now().Add(2 * time.Hour).UTC().Truncate(time.Second)
	decPost(t, admin, http.StatusOK, []uuid.UUID{created.ID, other}, "offer", deadline.Format(time.RFC3339))

	var body errorJSON
	me.expect(http.StatusBadRequest, "POST", "/api/applications/rsvp", map[string]any{}).JSON(t, &body)
	if body.Details["attending"] == "" {
		t.Fatalf("RSVP without attending: %+v", body)
	}
	me.expect(http.StatusBadRequest, "POST", "/api/applications/rsvp", map[string]any{"attending": "yes"})

	// Yes.
	var ans decRSVPAnswer
	me.expect(http.StatusOK, "POST", "/api/applications/rsvp", map[string]any{"attending": true}).JSON(t, &ans)
	if !ans.Success || ans.Application.ID != created.ID || decStr(ans.Application.Rsvp) != "attending" || ans.Application.RsvpAt == nil ||
		decStr(ans.Application.Decision) != "offer" || !ans.Application.RsvpDeadline.Equal(deadline) {
		t.Fatalf("RSVP yes: %+v", ans)
	}
	firstAt := *ans.Application.RsvpAt
	ev := decEvents(t, a, created.ID)
	last := ev[len(ev)-1]
	if len(ev) != 3 || last.Kind != "rsvp" || last.Actor == nil || *last.Actor != myID ||
		last.Detail["attending"] != true || last.Detail["previous"] != nil {
		t.Fatalf("events after RSVP yes: %+v", ev)
	}

	// The same answer again changes nothing.
	me.expect(http.StatusOK, "POST", "/api/applications/rsvp", map[string]any{"attending": true}).JSON(t, &ans)
	if decStr(ans.Application.Rsvp) != "attending" || !ans.Application.RsvpAt.Equal(firstAt) || len(decEvents(t, a, created.ID)) != 3 {
		t.Fatalf("repeated RSVP: %+v", ans)
	}

	// A change of mind before the deadline is allowed and recorded.
	me.expect(http.StatusOK, "POST", "/api/applications/rsvp", map[string]any{"attending": false}).JSON(t, &ans)
	if decStr(ans.Application.Rsvp) != "declined" || !ans.Application.RsvpAt.After(firstAt) {
		t.Fatalf("RSVP no: %+v", ans)
	}
	ev = decEvents(t, a, created.ID)
	last = ev[len(ev)-1]
	if len(ev) != 4 || last.Kind != "rsvp" || *last.Actor != myID || last.Detail["attending"] != false || last.Detail["previous"] != "attending" {
		t.Fatalf("events after RSVP no: %+v", ev)
	}
	me.expect(http.StatusOK, "POST", "/api/applications/rsvp", map[string]any{"attending": true}).JSON(t, &ans)
	if decStr(ans.Application.Rsvp) != "attending" {
		t.Fatalf("RSVP yes again: %+v", ans)
	}

	// Once answered, admins cannot decide again.
	decPost(t, admin, http.StatusBadRequest, []uuid.UUID{created.ID}, "reject", nil).JSON(t, &body)
	if body.Details["application_ids"] != "already answered: "+created.ID.String() {
		t.Fatalf("re-deciding an answered application: %+v", body)
	}

	// After the deadline the answer is closed.
	closedAt := time.Now().Truncate(time.Second).Add(-time.Minute)
	testenv.Decide(t, a.Store, created.ID, testenv.Decision{Decision: "offer", RsvpDeadline: &closedAt, Rsvp: "attending"})
	me.expect(http.StatusConflict, "POST", "/api/applications/rsvp", map[string]any{"attending": false}).JSON(t, &body)
	if body.Error != "RSVP closed" || !strings.Contains(body.Message, closedAt.UTC().Format(time.RFC3339)) {
		t.Fatalf("RSVP after the deadline: %+v (deadline %s)", body, closedAt.UTC().Format(time.RFC3339))
	}
	if st := decState(t, a, created.ID); decStr(st.Rsvp) != "attending" || len(decEvents(t, a, created.ID)) != 5 {
		t.Fatalf("a closed RSVP changed the application: %+v", st)
	}
	// An expired offer is closed too.
	reopened := time.Now().Add(time.Hour)
	testenv.Decide(t, a.Store, created.ID, testenv.Decision{Decision: "offer", RsvpDeadline: &reopened, Rsvp: "expired"})
	if r := me.expect(http.StatusConflict, "POST", "/api/applications/rsvp", map[string]any{"attending": true}); r.Map(t)["error"] != "RSVP closed" {
		t.Fatalf("RSVP on an expired offer: %s", r.Body)
	}
}

// decSet writes a decision state straight to the database; the times are
// RFC 3339 or "" for none.
func decSet(t *testing.T, a *app.App, id uuid.UUID, decision, deadline, rsvp, rsvpAt string) {
	t.Helper()
	at := func(s string) *time.Time {
		if s == "" {
			return nil
		}
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return &v
	}
	testenv.Decide(t, a.Store, id, testenv.Decision{Decision: decision, RsvpDeadline: at(deadline), Rsvp: rsvp, RsvpAt: at(rsvpAt)})
}

type decDashboard struct {
	Counts struct {
		Applications int `json:"applications"`
		Offers       int `json:"offers"`
		Rsvps        int `json:"rsvps"`
		Declined     int `json:"declined"`
	} `json:"counts"`
	Conversion struct {
		ApplicationToOffer float64 `json:"application_to_offer"`
		OfferToRsvp        float64 `json:"offer_to_rsvp"`
	} `json:"conversion"`
	StatusBreakdown map[string]int `json:"status_breakdown"`
	RsvpTimeline    []struct {
		Bucket string `json:"bucket"`
		Count  int    `json:"count"`
	} `json:"rsvp_timeline"`
}

func (d decDashboard) timeline() string {
	var parts []string
	for _, b := range d.RsvpTimeline {
		parts = append(parts, fmt.Sprintf("%s=%d", b.Bucket, b.Count))
	}
	return strings.Join(parts, " ")
}

func TestDashboard(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	super, _ := decAccount(t, a, anon, "super@example.com", "superadmin")
	admin, _ := decAccount(t, a, anon, "admin@example.com", "admin")
	mem, _ := decAccount(t, a, anon, "member@example.com", "member")

	admin.expect(http.StatusForbidden, "GET", "/api/admin/dashboard?interval=1", nil)
	mem.expect(http.StatusForbidden, "GET", "/api/admin/dashboard?interval=24", nil)
	anon.expect(http.StatusUnauthorized, "GET", "/api/admin/dashboard?interval=24", nil)
	for _, q := range []string{"", "?interval=2", "?interval=", "?interval=hour", "?interval=01"} {
		var body errorJSON
		super.expect(http.StatusBadRequest, "GET", "/api/admin/dashboard"+q, nil).JSON(t, &body)
		if body.Error != "Validation failed" || body.Details["interval"] == "" {
			t.Fatalf("interval %q: %+v", q, body)
		}
	}

	// Empty: zeros everywhere, every breakdown key, an empty timeline.
	var d decDashboard
	r := super.expect(http.StatusOK, "GET", "/api/admin/dashboard?interval=24", nil)
	r.JSON(t, &d)
	if !strings.Contains(string(r.Body), `"rsvp_timeline":[]`) || d.Counts.Applications != 0 || d.Conversion.ApplicationToOffer != 0 ||
		d.Conversion.OfferToRsvp != 0 || len(d.StatusBreakdown) != 8 {
		t.Fatalf("empty dashboard %s", r.Body)
	}

	// The fixed data set.
	n := 0
	seed := func(status string) uuid.UUID {
		n++
		_, _, id := decApplicant(t, a, anon, fmt.Sprintf("applicant%02d@example.com", n), status)
		return id
	}
	future := time.Now().Add(72 * time.Hour).UTC().Format(time.RFC3339)
	past := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	seed("draft")
	seed("draft")
	seed("submitted")                                                                    // no decision
	decSet(t, a, seed("submitted"), "waitlist", "", "", "")                              // waitlist
	decSet(t, a, seed("submitted"), "reject", "", "", "")                                // reject
	decSet(t, a, seed("submitted"), "offer", future, "", "")                             // open offer
	decSet(t, a, seed("submitted"), "offer", past, "", "")                               // unanswered at the deadline
	decSet(t, a, seed("submitted"), "offer", past, "expired", past)                      // marked expired
	decSet(t, a, seed("submitted"), "offer", future, "declined", "2025-03-01T22:30:00Z") // not in the timeline
	// Attending, by UTC: 21:10, 21:50, 23:59:59 on 1 March; 01:00, 02:30 on 2
	// March; 12:00 on 4 March. In the tests' America/St_Johns zone (UTC-3:30)
	// the first five all fall on 1 March, so local bucketing would differ.
	for _, at := range []string{
		"2025-03-01T21:10:00Z", "2025-03-01T21:50:00Z", "2025-03-01T23:59:59Z",
		"2025-03-02T01:00:00Z", "2025-03-02T02:30:00Z", "2025-03-04T12:00:00Z",
	} {
		decSet(t, a, seed("submitted"), "offer", future, "attending", at)
	}

	super.expect(http.StatusOK, "GET", "/api/admin/dashboard?interval=24", nil).JSON(t, &d)
	if d.Counts.Applications != 13 || d.Counts.Offers != 10 || d.Counts.Rsvps != 6 || d.Counts.Declined != 1 {
		t.Fatalf("counts %+v", d.Counts)
	}
	if d.Conversion.ApplicationToOffer != 0.7692 || d.Conversion.OfferToRsvp != 0.6 {
		t.Fatalf("conversion %+v, want 10/13 = 0.7692 and 6/10 = 0.6", d.Conversion)
	}
	wantBreakdown := map[string]int{"draft": 2, "submitted": 1, "offer": 1, "waitlist": 1, "reject": 1,
		"attending": 6, "declined": 1, "expired": 2}
	if fmt.Sprint(d.StatusBreakdown) != fmt.Sprint(wantBreakdown) {
		t.Fatalf("breakdown %v, want %v", d.StatusBreakdown, wantBreakdown)
	}
	wantDaily := "2025-03-01T00:00:00Z=3 2025-03-02T00:00:00Z=2 2025-03-03T00:00:00Z=0 2025-03-04T00:00:00Z=1"
	if got := d.timeline(); got != wantDaily {
		t.Fatalf("daily timeline\n got %s\nwant %s", got, wantDaily)
	}

	var hourly decDashboard
	super.expect(http.StatusOK, "GET", "/api/admin/dashboard?interval=1", nil).JSON(t, &hourly)
	if fmt.Sprint(hourly.Counts, hourly.Conversion, hourly.StatusBreakdown) != fmt.Sprint(d.Counts, d.Conversion, d.StatusBreakdown) {
		t.Fatalf("hourly counts differ from daily: %+v", hourly)
	}
	counts := map[string]int{
		"2025-03-01T21:00:00Z": 2, "2025-03-01T23:00:00Z": 1,
		"2025-03-02T01:00:00Z": 1, "2025-03-02T02:00:00Z": 1, "2025-03-04T12:00:00Z": 1,
	}
	var want []string
	for h := time.Date(2025, 3, 1, 21, 0, 0, 0, time.UTC); !h.After(time.Date(2025, 3, 4, 12, 0, 0, 0, time.UTC)); h = h.Add(time.Hour) {
		k := h.Format(time.RFC3339)
		want = append(want, fmt.Sprintf("%s=%d", k, counts[k]))
	}
	if len(want) != 64 {
		t.Fatalf("expected list has %d hours", len(want))
	}
	if got := hourly.timeline(); got != strings.Join(want, " ") {
		t.Fatalf("hourly timeline\n got %s\nwant %s", got, strings.Join(want, " "))
	}
	// The first hours spelled out, zero buckets included.
	if got := strings.Join(strings.Fields(hourly.timeline())[:6], " "); got !=
		"2025-03-01T21:00:00Z=2 2025-03-01T22:00:00Z=0 2025-03-01T23:00:00Z=1 2025-03-02T00:00:00Z=0 2025-03-02T01:00:00Z=1 2025-03-02T02:00:00Z=1" {
		t.Fatalf("first hours %s", got)
	}
}
