package e2e

import (
	"bytes"
	"image/png"
	"slices"
	"strings"
	"testing"
	"time"

	"hackdesk/dev/testenv"
	"hackdesk/dev/testenv/browser"
)

// A volunteer at the door, at the phone's and the desktop's size: an
// applicant has RSVPed with their diet and T-shirt (the API) and holds a
// ticket; the volunteer opens the ticket's URL, sees the person in large
// type and checks them in (the status in words, announced); a second
// check-in of the same person from another door says when and by whom;
// undo; then the connection drops: a check-in of a person found by search
// and one of a ticket scanned offline (not looked up) wait on the phone
// (the page says so and shows neither as done), the connection returns,
// both land once, and the count moves. axe-core finds nothing on
// each state.
func TestWebCheckin(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	a, anon, site := webApp(t)
	s := &checkinStand{a: a, base: anon, super: nil}
	s.super, _ = decAccount(t, a, anon, "root@x.test", "superadmin")
	s.edition = testenv.CurrentHackathon(t, a.Store).ID

	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		volEmail := "door+" + vp.Name + "@x.test"
		s.vol, s.volID = decAccount(t, a, anon, volEmail, "member")
		s.super.expect(204, "PUT", "/api/admin/hackathons/"+s.edition.String()+"/volunteers/"+s.volID.String(), nil)
		c, app := s.applicant(t, "ada+"+vp.Name+"@x.test", testenv.Decision{Decision: "offer"})
		c.expect(200, "POST", "/api/applications/rsvp", map[string]any{"attending": true, "tshirt_size": "L", "dietary_restrictions": "Vegan"})
		path, sig := ticketOf(t, c)
		_, one := s.applicant(t, "bea+"+vp.Name+"@x.test", testenv.Decision{Decision: "offer", Rsvp: "attending"})
		cy, two := s.applicant(t, "cy+"+vp.Name+"@x.test", testenv.Decision{Decision: "offer", Rsvp: "attending"})

		p := browser.Open(t, site, vp)
		p.AllowConsoleError("Failed to load resource")
		p.AllowConsoleError("status of 409")
		webSignIn(t, p, volEmail, "password-"+volEmail, "/")
		p.Visit(path + "?sig=" + sig)
		p.WaitText("Attending: ready to check in")
		if got := p.Heading(2); got != "ada+"+vp.Name {
			t.Logf("the person's heading is %q", got)
		}
		if !p.HasText("Vegan") || !p.HasText("L") {
			t.Fatal("the person's diet and T-shirt are not shown")
		}
		p.Axe()
		webShot(p, "checkin", "person", vp)
		p.Click("button", "Check in")
		p.WaitText("Checked in: ")
		p.Axe()
		webShot(p, "checkin", "done", vp)
		p.Click("button", "Undo check-in")
		p.WaitText("Check-in undone")
		p.Click("button", "Check in")
		p.WaitText("Checked in: ")

		// Another door taps the same person: 409 with when and by whom;
		// the ticket scanned again says so.
		r := s.super.expect(409, "POST", "/api/checkin/"+app.String(), map[string]any{})
		if !strings.Contains(string(r.Body), volEmail) {
			t.Fatalf("the second check-in does not name the first door: %s", r.Body)
		}
		p.Visit(path + "?sig=" + sig)
		p.WaitText("Already checked in by " + volEmail)

		// The door tries its scanner while the Wi-Fi works (the page loads
		// its decoder then, if it had not yet), the camera showing nothing.
		browser.SetCamera(t, nil)
		p.Click("button", "Scan a ticket")
		p.Click("button", "Stop scanning")
		p.WaitFor("button", "Scan a ticket")
		// Pressed again at once, while the camera may still be starting
		// (Enter on the focused button): one scanner at most, and one Stop
		// stops it.
		p.Click("button", "Scan a ticket")
		p.Press("Enter")
		p.Click("button", "Stop scanning")
		p.WaitFor("button", "Scan a ticket")
		// A start still pending at the Stop would turn the scanner back on
		// once its camera answered: it stays off.
		time.Sleep(time.Second)
		if p.Exists("button", "Stop scanning") {
			t.Fatal("a second scanner started after Stop")
		}

		// Offline: the tap waits on the phone, is not shown as done, and
		// lands once when the connection returns.
		p.Fill("Name or email", "bea+"+vp.Name)
		p.Click("button", "Search")
		p.Click("button", "bea+"+vp.Name+"@x.test bea+"+vp.Name+"@x.test · attending")
		p.WaitText("Attending: ready to check in")
		p.SetOffline(true)
		p.Click("button", "Check in")
		p.WaitText("1 check-in is waiting to be sent")
		p.WaitText("Not checked in yet.")
		// A second person's ticket scanned while offline: it cannot be
		// looked up, but its check-in waits too.
		cyPNG, err := png.Decode(bytes.NewReader(cy.expect(200, "GET", "/api/applications/ticket.png", nil).Body))
		if err != nil {
			t.Fatal(err)
		}
		browser.SetCamera(t, cyPNG)
		p.Click("button", "Scan a ticket")
		p.WithTimeout(30 * time.Second).WaitText("No connection: this ticket cannot be looked up now.")
		p.Click("button", "Check in this ticket")
		p.WaitText("2 check-ins are waiting to be sent")
		p.Axe()
		webShot(p, "checkin", "offline", vp)
		if decCheckedIn(t, s, one) || decCheckedIn(t, s, two) {
			t.Fatal("a queued check-in landed while offline")
		}
		p.SetOffline(false)
		// The online event sends them (or the 10 s tick, whichever first).
		for deadline := time.Now().Add(20 * time.Second); (!decCheckedIn(t, s, one) || !decCheckedIn(t, s, two)) && time.Now().Before(deadline); {
			time.Sleep(200 * time.Millisecond)
		}
		for deadline := time.Now().Add(5 * time.Second); p.HasText("waiting to be sent") && time.Now().Before(deadline); {
			time.Sleep(200 * time.Millisecond)
		}
		if p.HasText("waiting to be sent") {
			t.Fatal("the page still counts a check-in waiting")
		}
		if !decCheckedIn(t, s, one) || countEvents(t, a, one, "checkin") != 1 ||
			!decCheckedIn(t, s, two) || countEvents(t, a, two, "checkin") != 1 {
			t.Fatal("the queued check-ins did not land once each")
		}
		// The door's count moved with them: ada, bea and cy of this size.
		var count struct {
			CheckedIn int `json:"checked_in"`
		}
		s.super.expect(200, "GET", "/api/checkin/count", nil).JSON(t, &count)
		if want := 3 * (1 + slices.Index(browser.Viewports, vp)); count.CheckedIn != want {
			t.Errorf("the door counts %d checked in, want %d", count.CheckedIn, want)
		}
	})
}

func decCheckedIn(t *testing.T, s *checkinStand, id interface{ String() string }) bool {
	t.Helper()
	var at *string
	if err := s.a.Store.Pool().QueryRow(t.Context(), `SELECT checked_in_at::text FROM applications WHERE id = $1`, id.String()).Scan(&at); err != nil {
		t.Fatal(err)
	}
	return at != nil
}

// A volunteer scans a ticket with the phone's camera (Chromium's fake
// camera showing the ticket's QR code, as GET /api/applications/ticket.png
// draws it): the page decodes it (jsQR, loaded on demand: Chromium on
// Linux has no BarcodeDetector), moves to the ticket's address and shows
// the person ready to check in.
func TestWebCheckinScan(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	a, anon, site := webApp(t)
	s := &checkinStand{a: a, base: anon}
	s.super, _ = decAccount(t, a, anon, "root@x.test", "superadmin")
	s.edition = testenv.CurrentHackathon(t, a.Store).ID

	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		volEmail := "scan+" + vp.Name + "@x.test"
		s.vol, s.volID = decAccount(t, a, anon, volEmail, "member")
		s.super.expect(204, "PUT", "/api/admin/hackathons/"+s.edition.String()+"/volunteers/"+s.volID.String(), nil)
		c, app := s.applicant(t, "ann+"+vp.Name+"@x.test", testenv.Decision{Decision: "offer", Rsvp: "attending"})
		path, sig := ticketOf(t, c)
		r := c.expect(200, "GET", "/api/applications/ticket.png", nil)
		img, err := png.Decode(bytes.NewReader(r.Body))
		if err != nil {
			t.Fatalf("the ticket's PNG: %v", err)
		}
		browser.SetCamera(t, img)

		p := browser.Open(t, site, vp)
		webSignIn(t, p, volEmail, "password-"+volEmail, "/")
		p.Visit("/checkin")
		p.WaitFor("button", "Scan a ticket")
		p.Click("button", "Scan a ticket")
		p.WithTimeout(30 * time.Second).WaitURL(path + "?sig=" + sig)
		p.WaitText("Attending: ready to check in")
		p.WaitText("ann+" + vp.Name)
		p.Axe()
		webShot(p, "checkin", "scanned", vp)
		p.Click("button", "Check in")
		p.WaitText("Checked in: ")
		if !decCheckedIn(t, s, app) {
			t.Fatal("the scanned ticket's holder is not checked in")
		}
	})
}
