package e2e

import (
	"fmt"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/app"
	"hackdesk/dev/testenv/browser"
)

// dashStatuses are the breakdown's keys by the label the page gives them.
var dashStatuses = map[string]string{
	"Draft": "draft", "Awaiting decision": "submitted", "Offer open": "offer", "Waitlisted": "waitlist",
	"Rejected": "reject", "Attending": "attending", "Declined": "declined", "Offer expired": "expired",
}

// dashPercent is a ratio as the page's Intl percent shows it in en-US
// (at most one fraction digit).
func dashPercent(v float64) string {
	return strconv.FormatFloat(math.Round(v*1000)/10, 'f', -1, 64) + "%"
}

// dashGet is the dashboard as the API answers it.
func dashGet(t *testing.T, c *client, interval int) decDashboard {
	t.Helper()
	var d decDashboard
	c.expect(http.StatusOK, "GET", fmt.Sprintf("/api/admin/dashboard?interval=%d", interval), nil).JSON(t, &d)
	return d
}

// dashNumbers checks the count cards, the conversion rates and the status
// breakdown table against the API's numbers.
func dashNumbers(t *testing.T, p *browser.Page, d decDashboard) {
	t.Helper()
	p.WaitText(fmt.Sprintf("Applications submitted %d", d.Counts.Applications))
	for label, n := range map[string]int{"Offers made": d.Counts.Offers, "RSVPs": d.Counts.Rsvps, "Declined": d.Counts.Declined} {
		if !p.HasText(fmt.Sprintf("%s %d", label, n)) {
			t.Errorf("the page does not show %s %d", label, n)
		}
	}
	for label, v := range map[string]float64{
		"Applications to offers": d.Conversion.ApplicationToOffer, "Offers to RSVPs": d.Conversion.OfferToRsvp,
	} {
		if !p.HasText(label + " " + dashPercent(v)) {
			t.Errorf("the page does not show %s %s", label, dashPercent(v))
		}
	}
	rows := p.Table("Applications by status")
	if len(rows) != 9 || strings.Join(rows[0], "|") != "Status|Applications|Share|Meaning" {
		t.Fatalf("the breakdown table is %q", rows)
	}
	seen := map[string]int{}
	for _, r := range rows[1:] {
		key, ok := dashStatuses[r[0]]
		if !ok {
			t.Errorf("the breakdown has a row %q", r)
			continue
		}
		n, err := strconv.Atoi(r[1])
		if err != nil {
			t.Errorf("the breakdown's count %q: %v", r[1], err)
		}
		seen[key] = n
	}
	if fmt.Sprint(seen) != fmt.Sprint(d.StatusBreakdown) {
		t.Errorf("the breakdown table says %v, the API %v", seen, d.StatusBreakdown)
	}
}

// dashTimeline checks the timeline table against the API's buckets: one row
// per bucket, in order, with its count; first is the first row's time span
// as the reader (en-US, America/St_Johns) reads it.
func dashTimeline(t *testing.T, p *browser.Page, caption string, d decDashboard, first string) {
	t.Helper()
	p.WaitFor("table", caption)
	rows := p.Table(caption)
	if len(rows) != len(d.RsvpTimeline)+1 {
		t.Fatalf("%s has %d rows, the API %d buckets", caption, len(rows)-1, len(d.RsvpTimeline))
	}
	for i, b := range d.RsvpTimeline {
		if got := rows[i+1][1]; got != strconv.Itoa(b.Count) {
			t.Errorf("%s row %d (%s): %s RSVPs, the API %d", caption, i+1, b.Bucket, got, b.Count)
		}
	}
	if rows[1][0] != first {
		t.Errorf("%s starts at %q, want %q", caption, rows[1][0], first)
	}
}

// dashSeed makes the data set of TestDashboard without the attending RSVPs
// and returns a function that adds them.
func dashSeed(t *testing.T, a *app.App, anon *client) (rsvps func()) {
	t.Helper()
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
	seed("submitted")
	decSet(t, a, seed("submitted"), "waitlist", "", "", "")
	decSet(t, a, seed("submitted"), "reject", "", "", "")
	decSet(t, a, seed("submitted"), "offer", future, "", "")
	decSet(t, a, seed("submitted"), "offer", past, "", "")
	decSet(t, a, seed("submitted"), "offer", past, "expired", past)
	decSet(t, a, seed("submitted"), "offer", future, "declined", "2025-03-01T22:30:00Z")
	return func() {
		for _, at := range []string{
			"2025-03-01T21:10:00Z", "2025-03-01T21:50:00Z", "2025-03-01T23:59:59Z",
			"2025-03-02T01:00:00Z", "2025-03-02T02:30:00Z", "2025-03-04T12:00:00Z",
		} {
			decSet(t, a, seed("submitted"), "offer", future, "attending", at)
		}
	}
}

// A superadmin opens /admin/dashboard with nothing yet (a blank slate),
// then with applications but no RSVPs (a sentence, no chart), then with
// RSVPs: the counts, rates, breakdown and timeline table equal the API's
// for both intervals, the switch changes the URL and survives a reload,
// and the chart is an image with a name. An admin is sent home. axe-core
// finds nothing on each state.
func TestWebDashboard(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		a, anon, site := webApp(t)
		super, _ := decAccount(t, a, anon, "super@x.test", "superadmin")
		p := browser.Open(t, site, vp)
		shot := func(name string) {
			if dir := os.Getenv("WEB_SHOTS"); dir != "" {
				p.Screenshot(filepath.Join(dir, "dashboard-"+name+"-"+vp.Name+".png"))
			}
		}
		webSignIn(t, p, "super@x.test", "password-super@x.test", "/")

		// Nothing yet.
		p.Visit("/admin/dashboard")
		p.WaitFor("heading", "No applications yet")
		if got := p.Heading(1); got != "Dashboard" {
			t.Errorf("the h1 is %q", got)
		}
		p.WaitFor("link", "Check the application window on the Hackathons page")
		p.Axe()
		shot("empty")

		// Applications and offers, no RSVP yet.
		rsvps := dashSeed(t, a, anon)
		p.Reload()
		daily := dashGet(t, super, 24)
		dashNumbers(t, p, daily)
		p.WaitText("No RSVPs yet. The chart appears here once someone accepts an offer.")
		if p.Exists("image", "Chart of RSVPs per day") || p.Exists("button", "Hour") {
			t.Error("a chart or the interval switch without RSVPs")
		}
		p.Axe()
		shot("no-rsvps")

		// RSVPs: per day by default.
		rsvps()
		p.Reload()
		daily = dashGet(t, super, 24)
		if daily.Counts.Rsvps != 6 {
			t.Fatalf("seeded %d RSVPs", daily.Counts.Rsvps)
		}
		dashNumbers(t, p, daily)
		dashTimeline(t, p, "RSVPs per day", daily, "Fri, Feb 28, 8:30 PM – Sat, Mar 1, 8:30 PM")
		p.WaitFor("image", "Chart of RSVPs per day")
		p.WaitText("6 RSVPs from Fri, Feb 28, 8:30 PM to Tue, Mar 4, 8:30 PM.")
		p.WaitText("Times are in your time zone, America/St_Johns.")
		p.Axe()
		shot("daily")

		// Per hour: the URL says so, and a reload keeps it.
		p.Click("button", "Hour")
		p.WaitURL("/admin/dashboard?interval=1")
		hourly := dashGet(t, super, 1)
		if len(hourly.RsvpTimeline) != 64 {
			t.Fatalf("the API has %d hours", len(hourly.RsvpTimeline))
		}
		dashTimeline(t, p, "RSVPs per hour", hourly, "Sat, Mar 1, 5:30 – 6:30 PM")
		p.WaitFor("image", "Chart of RSVPs per hour")
		dashNumbers(t, p, hourly)
		p.Axe()
		shot("hourly")
		p.Reload()
		dashTimeline(t, p, "RSVPs per hour", hourly, "Sat, Mar 1, 5:30 – 6:30 PM")
		p.WaitFor("image", "Chart of RSVPs per hour")
		if p.Exists("table", "RSVPs per day") {
			t.Error("the daily table after reloading the hourly view")
		}

		// Back to days with the keyboard alone.
		p.Click("button", "Hour")
		p.Press("Tab")
		p.WaitFocused("button", "Day")
		p.Press("Enter")
		p.WaitURL("/admin/dashboard?interval=24")
		dashTimeline(t, p, "RSVPs per day", daily, "Fri, Feb 28, 8:30 PM – Sat, Mar 1, 8:30 PM")

		// An admin who is not a superadmin is sent home.
		decAccount(t, a, anon, "admin@x.test", "admin")
		m := browser.Open(t, site, vp)
		webSignIn(t, m, "admin@x.test", "password-admin@x.test", "/")
		m.Visit("/admin/dashboard")
		m.WaitURL("/")
		if m.HasText("Applications submitted") {
			t.Error("an admin sees the dashboard")
		}
	})
}
