package e2e

import (
	"context"
	"encoding/csv"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/app"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/checkin"
	"hackdesk/workflows"
)

// checkinStand is an edition's event day: a superadmin, a volunteer and
// the current edition with a venue, dates and (when asked) a waiver.
type checkinStand struct {
	a         *app.App
	base      *client
	super     *client
	vol       *client
	volID     uuid.UUID
	edition   uuid.UUID
	publicURL string
}

func newCheckinStand(t *testing.T, body map[string]any) *checkinStand {
	t.Helper()
	a, base := newApp(t)
	s := &checkinStand{a: a, base: base, publicURL: strings.TrimRight(a.Config.PublicURL, "/")}
	s.super, _ = decAccount(t, a, base, "root@example.com", "superadmin")
	s.vol, s.volID = decAccount(t, a, base, "door@example.com", "member")
	s.edition = testenv.CurrentHackathon(t, a.Store).ID
	if body == nil {
		body = map[string]any{}
	}
	body["starts_at"] = rfc3339(time.Now().Add(30 * 24 * time.Hour))
	body["ends_at"] = rfc3339(time.Now().Add(31 * 24 * time.Hour))
	body["venue"] = "Hall B, 1 College St"
	s.super.expect(200, "PATCH", "/api/admin/hackathons/"+s.edition.String(), body)
	s.super.expect(204, "PUT", "/api/admin/hackathons/"+s.edition.String()+"/volunteers/"+s.volID.String(), nil)
	return s
}

// applicant is an applicant of the current edition in the given decision
// state (testenv.Decide); it answers their client and application id.
func (s *checkinStand) applicant(t *testing.T, email string, d testenv.Decision) (*client, uuid.UUID) {
	t.Helper()
	c, _, app := decApplicant(t, s.a, s.base, email, "submitted")
	if d.Decision != "" {
		testenv.Decide(t, s.a.Store, app, d)
	}
	return c, app
}

// ticket is the applicant's ticket URL's path and signature.
func ticketOf(t *testing.T, c *client) (string, string) {
	t.Helper()
	var tk struct {
		URL string `json:"url"`
	}
	c.expect(200, "GET", "/api/applications/ticket", nil).JSON(t, &tk)
	i := strings.Index(tk.URL, "/checkin/")
	path, sig, ok := strings.Cut(tk.URL[i:], "?sig=")
	if i < 0 || !ok {
		t.Fatalf("ticket url %q", tk.URL)
	}
	return path, sig
}

func TestCheckinFlow(t *testing.T) {
	t.Parallel()
	s := newCheckinStand(t, map[string]any{"waiver_url": "https://example.org/waiver", "feedback_url": "https://example.org/feedback"})
	c, app := s.applicant(t, "ada@example.com", testenv.Decision{Decision: "offer"})

	// No ticket before the RSVP.
	expectError(t, c.expect(404, "GET", "/api/applications/ticket", nil), "No ticket")
	// The waiver is required with attending:true; the size is the form's.
	expectError(t, c.expect(400, "POST", "/api/applications/rsvp", map[string]any{"attending": true}), "Validation failed", "waiver_accepted")
	expectError(t, c.expect(400, "POST", "/api/applications/rsvp", map[string]any{"attending": true, "waiver_accepted": true, "tshirt_size": "XXXL"}),
		"Validation failed", "tshirt_size")
	got := c.expect(200, "POST", "/api/applications/rsvp", map[string]any{"attending": true, "waiver_accepted": true,
		"tshirt_size": "M", "dietary_restrictions": " Vegetarian "}).Map(t)["application"].(map[string]any)
	if got["tshirt_size"] != "M" || got["dietary_restrictions"] != "Vegetarian" || got["waiver_accepted_at"] == nil {
		t.Fatalf("rsvp answer %v", got)
	}

	path, sig := ticketOf(t, c)
	if path != "/checkin/"+app.String() {
		t.Fatalf("ticket path %q", path)
	}
	png := c.expect(200, "GET", "/api/applications/ticket.png", nil)
	if png.Header.Get("Content-Type") != "image/png" || len(png.Body) < 100 {
		t.Fatalf("ticket.png %v, %d bytes", png.Header, len(png.Body))
	}
	ics := s.base.expect(200, "GET", "/api/hackathons/current/calendar.ics", nil)
	body := string(ics.Body)
	for _, want := range []string{"BEGIN:VCALENDAR\r\n", "VERSION:2.0\r\n", "BEGIN:VEVENT\r\n", "DTSTART:", "LOCATION:Hall B\\, 1 College St\r\n", "END:VCALENDAR\r\n"} {
		if !strings.Contains(body, want) {
			t.Fatalf("calendar lacks %q:\n%s", want, body)
		}
	}
	for _, line := range strings.Split(body, "\r\n") {
		if len(line) > 75 {
			t.Fatalf("calendar line over 75 octets: %q", line)
		}
	}

	// The volunteer opens the ticket: the person, in the door's words.
	var person struct {
		Name       string   `json:"name"`
		TshirtSize string   `json:"tshirt_size"`
		Diet       string   `json:"dietary_restrictions"`
		Team       []string `json:"team"`
		Rsvp       string   `json:"rsvp"`
	}
	s.vol.expect(200, "GET", "/api"+path+"?sig="+sig, nil).JSON(t, &person)
	if person.TshirtSize != "M" || person.Diet != "Vegetarian" || person.Rsvp != "attending" || person.Team == nil {
		t.Fatalf("person %+v", person)
	}
	// A tampered or re-spelled signature: 403.
	tampered := []byte(sig)
	tampered[3] ^= 1
	s.vol.expect(403, "GET", "/api"+path+"?sig="+string(tampered), nil)
	s.vol.expect(403, "GET", "/api"+path+"?sig="+sig+"=", nil)
	s.vol.expect(403, "POST", "/api"+path, map[string]any{"sig": string(tampered)})

	// Check in, then a second scan by someone else: 409 with when and by whom.
	tap := uuid.NewString()
	var first struct {
		CheckedInAt time.Time `json:"checked_in_at"`
	}
	s.vol.expect(200, "POST", "/api"+path, map[string]any{"sig": sig, "client_id": tap}).JSON(t, &first)
	second := s.super.expect(409, "POST", "/api"+path, map[string]any{"client_id": uuid.NewString()}).Map(t)
	if second["error"] != "Already checked in" || second["checked_in_by"] != "door@example.com" {
		t.Fatalf("second check-in %v", second)
	}
	if at, _ := time.Parse(time.RFC3339Nano, second["checked_in_at"].(string)); !at.Equal(first.CheckedInAt) {
		t.Fatalf("second check-in names %v, want %v", at, first.CheckedInAt)
	}
	// The same tap replayed after reconnecting: the first answer again.
	var replay struct {
		CheckedInAt time.Time `json:"checked_in_at"`
	}
	s.vol.expect(200, "POST", "/api"+path, map[string]any{"sig": sig, "client_id": tap}).JSON(t, &replay)
	if !replay.CheckedInAt.Equal(first.CheckedInAt) || countEvents(t, s.a, app, "checkin") != 1 {
		t.Fatalf("replay %v (first %v), %d check-in events", replay.CheckedInAt, first.CheckedInAt, countEvents(t, s.a, app, "checkin"))
	}
	var tk struct {
		CheckedInAt *time.Time `json:"checked_in_at"`
	}
	c.expect(200, "GET", "/api/applications/ticket", nil).JSON(t, &tk)
	if tk.CheckedInAt == nil {
		t.Fatal("the ticket does not say checked in")
	}
	// Declining after the door is refused.
	expectError(t, c.expect(409, "POST", "/api/applications/rsvp", map[string]any{"attending": false}), "Already checked in")

	// The count, the search, the dashboard and the CSV.
	cnt := s.vol.expect(200, "GET", "/api/checkin/count", nil).Map(t)
	if cnt["checked_in"] != 1.0 || cnt["attending"] != 1.0 {
		t.Fatalf("count %v", cnt)
	}
	hits := s.vol.expect(200, "GET", "/api/checkin?q=ADA", nil).Map(t)["results"].([]any)
	if len(hits) != 1 || hits[0].(map[string]any)["id"] != app.String() {
		t.Fatalf("search %v", hits)
	}
	expectError(t, s.vol.expect(400, "GET", "/api/checkin?q=", nil), "Validation failed", "q")
	dash := s.super.expect(200, "GET", "/api/admin/dashboard?interval=24", nil).Map(t)
	if dash["counts"].(map[string]any)["checked_in"] != 1.0 ||
		dash["catering"].(map[string]any)["dietary"].(map[string]any)["vegetarian"] != 1.0 ||
		dash["catering_checked_in"].(map[string]any)["tshirt_sizes"].(map[string]any)["M"] != 1.0 {
		t.Fatalf("dashboard %v %v %v", dash["counts"], dash["catering"], dash["catering_checked_in"])
	}

	// Undo within 10 minutes, then there is nothing to undo.
	s.super.expect(204, "DELETE", "/api"+path, nil)
	expectError(t, s.vol.expect(409, "DELETE", "/api"+path, nil), "Not checked in")
	// Undo after 10 minutes: 409.
	s.vol.expect(200, "POST", "/api"+path, map[string]any{})
	if _, err := s.a.Store.Pool().Exec(context.Background(),
		`UPDATE applications SET checked_in_at = now() - interval '11 minutes' WHERE id = $1`, app); err != nil {
		t.Fatal(err)
	}
	expectError(t, s.vol.expect(409, "DELETE", "/api"+path, nil), "Undo window passed")

	// A volunteer may use the door and nothing else.
	s.vol.expect(403, "GET", "/api/admin/applications", nil)
	s.vol.expect(403, "GET", "/api/admin/hackathons/"+s.edition.String()+"/attendance.csv", nil)
	s.vol.expect(403, "GET", "/api/applications/random", nil)
	bearer := []string{"Authorization", "Bearer " + s.vol.token}
	if r := fetch(t, s.base.base, "GET", "/admin/applications", bearer...); r.Status != 303 || r.Header.Get("Location") != "/" {
		t.Fatalf("volunteer on /admin/applications: %d to %q", r.Status, r.Header.Get("Location"))
	}
	if r := fetch(t, s.base.base, "GET", "/checkin"+strings.TrimPrefix(path, "/checkin"), bearer...); r.Status != 200 {
		t.Fatalf("volunteer on the ticket's page: %d", r.Status)
	}
	// A member who does not volunteer is refused the door.
	c.expect(403, "GET", "/api/checkin/count", nil)
	// Removing the volunteer closes the door to them on the next request.
	s.super.expect(204, "DELETE", "/api/admin/hackathons/"+s.edition.String()+"/volunteers/"+s.volID.String(), nil)
	s.vol.expect(403, "GET", "/api/checkin/count", nil)
	s.super.expect(404, "DELETE", "/api/admin/hackathons/"+s.edition.String()+"/volunteers/"+s.volID.String(), nil)
}

// countEvents is how many application_events of kind the application has.
func countEvents(t *testing.T, a *app.App, id uuid.UUID, kind string) int {
	t.Helper()
	var n int
	if err := a.Store.Pool().QueryRow(context.Background(),
		`SELECT count(*) FROM application_events WHERE application_id = $1 AND kind = $2`, id, kind).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestCheckinRefusals(t *testing.T) {
	t.Parallel()
	s := newCheckinStand(t, nil)
	_, declined := s.applicant(t, "dec@example.com", testenv.Decision{Decision: "offer", Rsvp: "declined"})
	_, expired := s.applicant(t, "exp@example.com", testenv.Decision{Decision: "offer", Rsvp: "expired"})
	_, waitlisted := s.applicant(t, "wait@example.com", testenv.Decision{Decision: "waitlist"})
	for _, id := range []uuid.UUID{declined, expired, waitlisted} {
		expectError(t, s.vol.expect(409, "POST", "/api/checkin/"+id.String(), map[string]any{}), "Not attending")
	}
	s.vol.expect(404, "POST", "/api/checkin/"+uuid.NewString(), map[string]any{})
	s.vol.expect(404, "GET", "/api/checkin/not-a-uuid", nil)

	// A ticket of another edition: 409.
	other := testenv.Hackathon(t, s.a.Store, testenv.HackathonOpts{})
	oc, _, _ := decApplicant(t, s.a, s.base, "old@example.com", "draft")
	_ = oc
	old := testenv.Application(t, s.a.Store, account(t, s.a, "older@example.com", "Older", "member"),
		testenv.ApplicationOpts{Submitted: true, Hackathon: other.ID})
	testenv.Decide(t, s.a.Store, old.ID, testenv.Decision{Decision: "offer", Rsvp: "attending"})
	expectError(t, s.vol.expect(409, "GET", "/api/checkin/"+old.ID.String(), nil), "Not the current hackathon")
	expectError(t, s.vol.expect(409, "POST", "/api/checkin/"+old.ID.String(), map[string]any{}), "Not the current hackathon")
}

func TestCheckinWalkIn(t *testing.T) {
	t.Parallel()
	s := newCheckinStand(t, map[string]any{"capacity": 1})
	s.applicant(t, "in@example.com", testenv.Decision{Decision: "offer", Rsvp: "attending"})
	_, walk := s.applicant(t, "walk@example.com", testenv.Decision{Decision: "waitlist"})
	// Attending + the walk-in would pass the capacity of 1.
	expectError(t, s.vol.expect(409, "POST", "/api/checkin/"+walk.String(), map[string]any{"walk_in": true}), "Over capacity")
	s.super.expect(200, "PATCH", "/api/admin/hackathons/"+s.edition.String(), map[string]any{"capacity": 2})
	s.vol.expect(200, "POST", "/api/checkin/"+walk.String(), map[string]any{"walk_in": true})
	st := decState(t, s.a, walk)
	if decStr(st.Decision) != "offer" || decStr(st.Rsvp) != "attending" {
		t.Fatalf("walk-in state %+v", st)
	}
	if countEvents(t, s.a, walk, "walk_in") != 1 || countEvents(t, s.a, walk, "checkin") != 1 {
		t.Fatal("the walk-in's events are not recorded")
	}
	// Null capacity: no limit.
	s.super.expect(200, "PATCH", "/api/admin/hackathons/"+s.edition.String(), map[string]any{"capacity": nil})
	_, walk2 := s.applicant(t, "walk2@example.com", testenv.Decision{Decision: "waitlist"})
	s.vol.expect(200, "POST", "/api/checkin/"+walk2.String(), map[string]any{"walk_in": true})
}

func TestCheckinConcurrentDoors(t *testing.T) {
	t.Parallel()
	s := newCheckinStand(t, nil)
	_, app := s.applicant(t, "race@example.com", testenv.Decision{Decision: "offer", Rsvp: "attending"})
	other, _ := decAccount(t, s.a, s.base, "door2@example.com", "admin")
	var wg sync.WaitGroup
	res := make([]response, 2)
	for i, c := range []*client{s.vol, other} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i] = c.do("POST", "/api/checkin/"+app.String(), map[string]any{"client_id": uuid.NewString()})
		}()
	}
	wg.Wait()
	if res[0].Status+res[1].Status != 200+409 {
		t.Fatalf("statuses %d and %d, want one 200 and one 409", res[0].Status, res[1].Status)
	}
	ok, refused := res[0], res[1]
	if ok.Status != 200 {
		ok, refused = refused, ok
	}
	var first struct {
		CheckedInAt time.Time `json:"checked_in_at"`
	}
	ok.JSON(t, &first)
	var second struct {
		CheckedInAt time.Time `json:"checked_in_at"`
	}
	refused.JSON(t, &second)
	if !first.CheckedInAt.Equal(second.CheckedInAt) || countEvents(t, s.a, app, "checkin") != 1 {
		t.Fatalf("409 names %v, the check-in was %v", second.CheckedInAt, first.CheckedInAt)
	}
}

func TestCheckinAttendanceCSV(t *testing.T) {
	t.Parallel()
	s := newCheckinStand(t, nil)
	c, app := s.applicant(t, "formula@example.com", testenv.Decision{Decision: "offer", Rsvp: "attending"})
	_ = c
	if _, err := s.a.Store.Pool().Exec(context.Background(),
		`UPDATE applications SET dietary_restrictions = '=HYPERLINK("x")', tshirt_size = 'L' WHERE id = $1`, app); err != nil {
		t.Fatal(err)
	}
	s.vol.expect(200, "POST", "/api/checkin/"+app.String(), map[string]any{})
	r := s.super.expect(200, "GET", "/api/admin/hackathons/"+s.edition.String()+"/attendance.csv", nil)
	rows, err := csv.NewReader(strings.NewReader(string(r.Body))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0][0] != "name" || rows[1][1] != "formula@example.com" || rows[1][2] != "L" ||
		rows[1][3] != `'=HYPERLINK("x")` || rows[1][5] == "" {
		t.Fatalf("attendance %q", rows)
	}
	// The download is a staff read of each person in it.
	if n := countRows(t, s.a, `SELECT count(*) FROM access_log WHERE action = 'attendance.csv' AND object_id = $1`, app); n != 1 {
		t.Errorf("%d access-log rows for the attendance CSV, want 1", n)
	}
	s.super.expect(404, "GET", "/api/admin/hackathons/"+uuid.NewString()+"/attendance.csv", nil)
}

// TestEventDayWorkflow: the edition's event dates reach its EventDay
// workflow through the outbox; with the start within a day the attending
// applicant gets their ticket (the signed link) at once, once; dates
// moved into the past bring the thank-you with the feedback link, and
// the run ends.
func TestEventDayWorkflow(t *testing.T) {
	t.Parallel()
	s := newCheckinStand(t, map[string]any{"feedback_url": "https://example.org/feedback"})
	id := workflows.EventDayID(s.edition)
	t.Cleanup(func() { _ = s.a.Temporal.TerminateWorkflow(context.Background(), id, "", "test over") })
	_, app := s.applicant(t, "eve@example.com", testenv.Decision{Decision: "offer", Rsvp: "attending"})
	s.applicant(t, "nope@example.com", testenv.Decision{Decision: "offer", Rsvp: "declined"})
	soon := time.Now().Add(time.Hour)
	s.super.expect(200, "PATCH", "/api/admin/hackathons/"+s.edition.String(),
		map[string]any{"starts_at": rfc3339(soon), "ends_at": rfc3339(soon.Add(time.Hour))})
	testenv.Eventually(t, 90*time.Second, func() (bool, string) {
		var progress string
		if v, err := s.a.Temporal.QueryWorkflow(context.Background(), id, "", workflows.ProgressQuery); err == nil {
			_ = v.Get(&progress)
		}
		var status string
		if d, err := s.a.Temporal.DescribeWorkflowExecution(context.Background(), id, ""); err == nil {
			status = d.GetWorkflowExecutionInfo().GetStatus().String()
			for _, pa := range d.GetPendingActivities() {
				status += "; " + pa.GetActivityType().GetName() + ": " + pa.GetLastFailure().GetMessage()
			}
			if wt := d.GetPendingWorkflowTask(); wt != nil {
				status += fmt.Sprintf("; a workflow task %s, attempt %d", wt.GetState(), wt.GetAttempt())
			}
			it := s.a.Temporal.GetWorkflowHistory(context.Background(), id, "", false, 0)
			for it.HasNext() {
				ev, err := it.Next()
				if err != nil {
					break
				}
				status += "; " + ev.GetEventType().String()
				if f := ev.GetWorkflowTaskFailedEventAttributes(); f != nil {
					status += " (" + f.GetFailure().GetMessage() + ")"
				}
			}
		} else {
			status = err.Error()
		}
		var starts []string
		rows, err := s.a.Store.Pool().Query(context.Background(),
			`SELECT attempts::text || ' ' || (started_at IS NOT NULL)::text || ' ' || coalesce(last_error, '') FROM workflow_starts WHERE workflow_id = $1`, id)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var x string
			if err := rows.Scan(&x); err != nil {
				t.Fatal(err)
			}
			starts = append(starts, x)
		}
		rows.Close()
		return sentTo(t, s.a, "event_ticket", "eve@example.com"),
			fmt.Sprintf("the ticket (the run: %s; progress %q; its outbox rows %q)", status, progress, starts)
	})
	text, ok := testenv.Mail.Text(checkin.TicketKey(app))
	if !ok || !strings.Contains(text, "/checkin/"+app.String()+"?sig=") || !strings.Contains(text, "Hall B") {
		t.Fatalf("the ticket as sent: %q", text)
	}
	past := time.Now().Add(-72 * time.Hour)
	s.super.expect(200, "PATCH", "/api/admin/hackathons/"+s.edition.String(),
		map[string]any{"applications_open_at": rfc3339(past.Add(-24 * time.Hour)), "starts_at": rfc3339(past), "ends_at": rfc3339(past.Add(24 * time.Hour))})
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	var res workflows.EventDayResult
	testenv.Eventually(t, 45*time.Second, func() (bool, string) {
		return sentTo(t, s.a, "event_thanks", "eve@example.com"), "the thank-you"
	})
	if err := s.a.Temporal.GetWorkflow(ctx, id, "").Get(ctx, &res); err != nil {
		t.Fatal(err)
	}
	if res.Tickets != 1 || res.Thanks != 1 || sentTo(t, s.a, "event_ticket", "nope@example.com") {
		t.Fatalf("result %+v", res)
	}
	text, _ = testenv.Mail.Text(checkin.ThanksKey(app))
	if !strings.Contains(text, "https://example.org/feedback") {
		t.Fatalf("the thank-you as sent: %q", text)
	}
	if kind := searchAttribute(t, s.a, id, "HackdeskKind"); kind != "event-day" {
		t.Errorf("HackdeskKind %q", kind)
	}
}
