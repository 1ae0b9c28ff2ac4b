package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"hackdesk/dev/testenv"
	"hackdesk/dev/testenv/browser"
)

// The event day's pages around the door, at the phone's and the
// desktop's size.

// eventEdition gives the current edition a venue, dates and a waiver, as
// the superadmin would.
func eventEdition(t *testing.T, super *client, a interface{ String() string }) {
	t.Helper()
	super.expect(200, "PATCH", "/api/admin/hackathons/"+a.String(), map[string]any{
		"starts_at":  rfc3339(time.Now().Add(30 * 24 * time.Hour)),
		"ends_at":    rfc3339(time.Now().Add(31 * 24 * time.Hour)),
		"venue":      "Hall B, 1 College St",
		"waiver_url": "https://example.com/waiver",
	})
}

// An applicant with an offer RSVPs on /apply/submitted: the form starts
// from the application's T-shirt size and diet, the server's refusal of a
// missing waiver is shown beside the box, and once accepted the answer
// stores the changed size and diet and the waiver, and the page shows the
// ticket (the QR code, venue, dates, check-in state, "Add to calendar");
// checked in at the door, the ticket says so.
func TestWebRsvpTicket(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	a, anon, site := webApp(t)
	super, _ := decAccount(t, a, anon, "root@x.test", "superadmin")
	edition := testenv.CurrentHackathon(t, a.Store).ID
	eventEdition(t, super, edition)

	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		email := "ada+" + vp.Name + "@x.test"
		c, _, app := decApplicant(t, a, anon, email, "submitted")
		if _, err := a.Store.Pool().Exec(context.Background(),
			`UPDATE applications SET tshirt_size = 'M', dietary_restrictions = 'Vegetarian' WHERE id = $1`, app); err != nil {
			t.Fatal(err)
		}
		testenv.Decide(t, a.Store, app, testenv.Decision{Decision: "offer"})

		p := browser.Open(t, site, vp)
		p.AllowConsoleError("Failed to load resource")
		p.AllowConsoleError("status of 400")
		p.AllowConsoleError("status of 404")
		webSignIn(t, p, email, "password-"+email, "/")
		p.Visit("/apply/submitted")
		p.WaitFor("button", "Send RSVP")
		if p.Exists("heading", "Your ticket") {
			t.Fatal("a ticket is shown before the RSVP")
		}
		p.Check("Yes")
		if got := p.Value("T-shirt size"); got != "M" {
			t.Errorf("the T-shirt size starts as %q, not the application's", got)
		}
		if got := p.Value("Dietary restrictions (optional)"); got != "Vegetarian" {
			t.Errorf("the diet starts as %q, not the application's", got)
		}
		if !p.Exists("link", "Read the waiver (opens in a new tab)") && !p.HasText("Read the waiver") {
			t.Error("no link to the waiver")
		}
		p.Select("T-shirt size", "L")
		p.Fill("Dietary restrictions (optional)", "Vegan")
		p.Click("button", "Send RSVP")
		p.WaitText("The waiver is required: accept the waiver at https://example.com/waiver")
		p.Axe()
		webShot(p, "rsvp", "waiver-refused", vp)

		p.Check("I have read and accept the waiver")
		p.Click("button", "Send RSVP")
		p.WaitText("Thank you. We have recorded that you will attend.")
		var size, diet string
		var waiver *time.Time
		if err := a.Store.Pool().QueryRow(context.Background(),
			`SELECT tshirt_size, dietary_restrictions, waiver_accepted_at FROM applications WHERE id = $1`, app).Scan(&size, &diet, &waiver); err != nil {
			t.Fatal(err)
		}
		if size != "L" || diet != "Vegan" || waiver == nil {
			t.Fatalf("the RSVP stored size %q, diet %q, waiver %v", size, diet, waiver)
		}

		// The ticket.
		p.WaitFor("heading", "Your ticket")
		p.WaitFor("image", "Your ticket: a QR code for the door")
		if r := c.expect(200, "GET", "/api/applications/ticket.png", nil); !strings.HasPrefix(string(r.Body), "\x89PNG") {
			t.Error("the ticket image is not a PNG")
		}
		for _, want := range []string{"Hall B, 1 College St", "Not checked in yet", "Add to calendar (.ics)"} {
			if !p.HasText(want) {
				t.Errorf("the ticket lacks %q", want)
			}
		}
		if !p.Exists("link", "Add to calendar (.ics)") {
			t.Error("no calendar link")
		}
		p.Axe()
		webShot(p, "rsvp", "ticket", vp)

		super.expect(200, "POST", "/api/checkin/"+app.String(), map[string]any{})
		p.Reload()
		p.WaitText("Checked in on ")
		webShot(p, "rsvp", "checked-in", vp)
	})
}

// The superadmin adds a volunteer to the current edition on
// /admin/hackathons (found by email) and removes them; while they
// volunteer, their nav offers "Check-in", before and after it does not.
// An admin's nav offers it too.
func TestWebVolunteersAndCheckinNav(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	a, anon, site := webApp(t)
	_, _ = decAccount(t, a, anon, "root@x.test", "superadmin")
	name := testenv.CurrentHackathon(t, a.Store).Name

	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		volEmail := "door+" + vp.Name + "@x.test"
		decAccount(t, a, anon, volEmail, "member")

		v := browser.Open(t, site, vp)
		webSignIn(t, v, volEmail, "password-"+volEmail, "/")
		if v.Exists("link", "Check-in") {
			t.Fatal("a member who does not volunteer is offered check-in")
		}

		p := browser.Open(t, site, vp)
		webSignIn(t, p, "root@x.test", "password-root@x.test", "/")
		p.Visit("/admin/hackathons")
		p.WaitFor("link", "Check-in")
		p.Click("button", "Volunteers "+name)
		d := p.Within("dialog", "Volunteers of "+name)
		d.WaitText("Volunteers check people in at the door")
		d.Fill("Find an account", "door+"+vp.Name)
		d.Click("button", "Search")
		d.Click("button", "Add "+volEmail)
		d.WaitFor("button", "Remove "+volEmail)
		d.WaitText("Volunteers already")
		p.Axe()
		webShot(p, "hackathons", "volunteers", vp)

		v.Reload()
		v.WaitFor("link", "Check-in")
		webShot(v, "nav", "volunteer", vp)
		v.Click("link", "Check-in")
		v.WaitURL("/checkin")
		v.WaitFor("heading", "Check-in")

		d.Click("button", "Remove "+volEmail)
		d.WaitText("No volunteers yet.")
		var n int
		if err := a.Store.Pool().QueryRow(context.Background(), `SELECT count(*) FROM hackathon_volunteers`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Fatalf("%d volunteers left after the removal", n)
		}
		v.Visit("/")
		v.WaitFor("link", "Events")
		if v.Exists("link", "Check-in") {
			t.Fatal("a former volunteer is still offered check-in")
		}
	})
}

// The dashboard shows the check-ins against the attending and the
// caterer's counts among both, and they move with a check-in.
func TestWebDashboardCatering(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	a, anon, site := webApp(t)
	super, _ := decAccount(t, a, anon, "root@x.test", "superadmin")
	seed := func(email, size, diet string) string {
		_, _, app := decApplicant(t, a, anon, email, "submitted")
		if _, err := a.Store.Pool().Exec(context.Background(),
			`UPDATE applications SET tshirt_size = $2, dietary_restrictions = $3 WHERE id = $1`, app, size, diet); err != nil {
			t.Fatal(err)
		}
		testenv.Decide(t, a.Store, app, testenv.Decision{Decision: "offer", Rsvp: "attending"})
		return app.String()
	}
	one := seed("bea@x.test", "M", "Vegan")
	seed("cy@x.test", "M", " vegan ")
	seed("di@x.test", "XL", "Halal")
	super.expect(200, "POST", "/api/checkin/"+one, map[string]any{})

	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		p := browser.Open(t, site, vp)
		webSignIn(t, p, "root@x.test", "password-root@x.test", "/")
		p.Visit("/admin/dashboard")
		p.WaitFor("heading", "Event day: check-in, catering and swag")
		if !p.HasText("1 of 3 attending") {
			t.Error("the check-in count is not shown")
		}
		sizes := p.Table("T-shirt sizes among the attending and those checked in")
		if got := rowsText(sizes); got != "Size|Attending|Checked in;M|2|1;XL|1|0" {
			t.Errorf("the sizes table is %s", got)
		}
		diets := p.Table("Dietary restrictions among the attending and those checked in (the 10 commonest, then the rest)")
		if got := rowsText(diets); got != "Restriction|Attending|Checked in;vegan|2|1;halal|1|0" {
			t.Errorf("the diets table is %s", got)
		}
		if !p.Exists("link", "Download the attendance list (CSV)") {
			t.Error("no attendance CSV link")
		}
		p.Axe()
		webShot(p, "dashboard", "catering", vp)
	})
}

func rowsText(rows [][]string) string {
	out := make([]string, len(rows))
	for i, r := range rows {
		cells := make([]string, len(r))
		for j, c := range r {
			cells[j] = strings.TrimSpace(c)
		}
		out[i] = strings.Join(cells, "|")
	}
	return strings.Join(out, ";")
}
