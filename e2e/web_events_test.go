package e2e

import (
	"net/http"
	"net/url"
	"testing"

	"hackdesk/dev/testenv/browser"
	"hackdesk/internal/platform/config"
)

// /events joins the active term with "Join for <term>" and shows the
// payment QR code; the code decodes (as a pure barcode) to the signed link
// of the member's page for executives, which an executive can open.
func TestWebEvents(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	const shop = "https://shop.example.com/club-membership"
	a, anon, site := webAppWith(t, func(c *config.Config) { c.ShopURL = shop })
	super, _ := decAccount(t, a, anon, "super@x.test", "superadmin")
	exec, _ := decAccount(t, a, anon, "exec@x.test", "admin")
	const term = "2026-2027"
	termID := hiringTermVia(t, super, term, "2026-09-01", "2027-04-30", true)

	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		email := "mary.jackson+" + vp.Name + "@example.com"
		api, _ := member(t, a, anon, email, "Mary Jackson")
		p := browser.Open(t, site, vp)
		webSignIn(t, p, email, "password-"+email, "/")

		p.Visit("/events")
		p.WaitFor("heading", "Events and membership")
		p.WaitFor("heading", "Membership for "+term)
		var before membershipAnswer
		api.expect(http.StatusOK, "GET", "/api/membership", nil).JSON(t, &before)
		if before.Membership != nil {
			t.Fatalf("a membership before joining: %+v", before.Membership)
		}

		p.Click("button", "Join for "+term)
		const alt = "QR code for your membership payment: show it to an executive"
		p.WaitFor("image", alt)
		p.WaitText("You’ve joined. Pay your dues to complete your membership.")
		p.WaitText("Dues Unpaid")
		if p.Exists("button", "Join for "+term) {
			t.Fatal("the Join button still shows after joining")
		}
		if p.HasText("The QR code could not be loaded.") {
			t.Fatal("the page could not load the QR image")
		}
		// The campus shop is the other way to pay.
		p.WaitFor("heading", "Or pay at the campus shop")
		p.WaitText("Your membership turns paid by itself when the shop’s receipt reaches us")
		p.WaitFor("link", "Buy the membership at the campus shop (opens in a new tab)")
		p.Axe()
		webShot(p, "events", "unpaid", vp)

		var joined membershipAnswer
		api.expect(http.StatusOK, "GET", "/api/membership", nil).JSON(t, &joined)
		if joined.Membership == nil || joined.Membership.Status != "unpaid" || joined.Membership.TermID != termID {
			t.Fatalf("after joining in the browser the API has %+v", joined.Membership)
		}
		id := joined.Membership.ID

		// The image the page shows, fetched as the member (the browser's
		// session is out of reach, so a session of the same account).
		qr := api.expect(http.StatusOK, "GET", "/api/membership/qr", nil)
		if ct := qr.Header.Get("Content-Type"); ct != "image/png" {
			t.Fatalf("QR Content-Type %q", ct)
		}
		link := decodeQR(t, qr.Body)
		u, err := url.Parse(link)
		if err != nil || u.Scheme != "http" || u.Host != "hackdesk.test" || u.Path != "/admin/memberships/"+id.String() || u.Query().Get("sig") == "" {
			t.Fatalf("the QR code holds %q, want http://hackdesk.test/admin/memberships/%s?sig=…", link, id)
		}
		var seen membershipAnswer
		exec.expect(http.StatusOK, "GET", "/api/admin/memberships/"+id.String()+"?sig="+url.QueryEscape(u.Query().Get("sig")), nil).JSON(t, &seen)
		if seen.Member == nil || seen.Member.Email != email || seen.Membership == nil || seen.Membership.ID != id {
			t.Fatalf("the signed link shows an executive %+v", seen)
		}

		// A reload shows the joined state, not the Join button.
		p.Reload()
		p.WaitFor("image", alt)
		if p.Exists("button", "Join for "+term) {
			t.Fatal("after a reload the page offers to join again")
		}
	})
}
