package e2e

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/uuid"

	"hackdesk/dev/testenv/browser"
)

// joinedWithQR makes a member who joined the active term and returns
// their membership id and the path and query of the link in their QR
// code, decoded from the PNG the member is shown.
func joinedWithQR(t *testing.T, c *client) (uuid.UUID, string) {
	t.Helper()
	var joined membershipAnswer
	c.expect(201, "POST", "/api/membership", nil).JSON(t, &joined)
	link := decodeQR(t, c.expect(200, "GET", "/api/membership/qr", nil).Body)
	u, err := url.Parse(link)
	if err != nil || u.Query().Get("sig") == "" {
		t.Fatalf("QR link %q", link)
	}
	return joined.Membership.ID, u.RequestURI()
}

// paymentOf is a membership as the exec's API shows it.
func paymentOf(t *testing.T, exec *client, qrPath string) membershipAnswer {
	t.Helper()
	var got membershipAnswer
	exec.expect(200, "GET", "/api/"+strings.TrimPrefix(qrPath, "/"), nil).JSON(t, &got)
	return got
}

// paymentPath is the API path that records a payment from the page at
// qrPath (the QR link's path and query).
func paymentPath(qrPath string) string {
	path, query, _ := strings.Cut(qrPath, "?")
	return "/api" + path + "/payments?" + query
}

// webShot saves a screenshot of a page's state under $WEB_SHOTS.
func webShot(p *browser.Page, page, state string, vp browser.Viewport) {
	if dir := os.Getenv("WEB_SHOTS"); dir != "" {
		p.Screenshot(filepath.Join(dir, page+"-"+state+"-"+vp.Name+".png"))
	}
}

// An exec opens a member's QR link signed out, signs in and comes back to
// it with the signature kept, records the payment once (the API then
// shows it paid, in cash, for the amount typed) and, on a membership paid
// by someone else meanwhile, gets the 409 in words; a changed signature
// says the link is not valid, no signature says to scan the code; the
// member search finds, filters and keeps its state in the URL across a
// reload; a member opening these pages lands on /. axe-core finds nothing
// on each state.
func TestWebMemberships(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	a, anon, site := webApp(t)
	super, _ := decAccount(t, a, anon, "super@x.test", "superadmin")
	hiringTermVia(t, super, "2026-2027", "2026-09-01", "2027-04-30", true)

	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		execEmail := "exec+" + vp.Name + "@x.test"
		exec, _ := decAccount(t, a, anon, execEmail, "admin")
		other, _ := decAccount(t, a, anon, "other+"+vp.Name+"@x.test", "admin")
		jane, _ := decAccount(t, a, anon, "jane+"+vp.Name+"@x.test", "member")
		bob, _ := decAccount(t, a, anon, "bob+"+vp.Name+"@x.test", "member")
		janeID, janePath := joinedWithQR(t, jane)
		_, bobPath := joinedWithQR(t, bob)
		p := browser.Open(t, site, vp)
		p.AllowConsoleError("status of 409 (Conflict)")
		p.AllowConsoleError("status of 403 (Forbidden)")
		p.AllowConsoleError("status of 404 (Not Found) (http://hackdesk.test/api/membership)")

		// Signed out, the QR link goes through sign-in and back, sig kept.
		p.Visit(janePath)
		p.WaitFor("heading", "Sign in")
		if got := p.URL(); !strings.HasPrefix(got, "/login?next=") {
			t.Fatalf("signed out, the QR link led to %s", got)
		}
		p.Fill("Email", execEmail)
		p.Fill("Password", "password-"+execEmail)
		p.Click("button", "Sign in")
		p.WaitURL(janePath)
		p.WaitFor("heading", "Record payment")
		p.WaitText("jane+" + vp.Name + "@x.test")
		p.WaitText("2026-2027")
		p.WaitText("Unpaid")
		p.WaitText("CA$20.00")
		if got := p.Heading(1); got != "Membership payment" {
			t.Errorf("the h1 is %q", got)
		}
		p.Axe()
		webShot(p, "memberships", "qr", vp)

		// Nothing chosen and an amount below the dues: both said, nothing sent.
		p.Fill("Amount in dollars", "19.99")
		p.Click("button", "Record payment")
		p.WaitFocused("alert", "There is a problem")
		p.WaitText("Select how the member paid")
		p.WaitText("The amount must be at least the dues of CA$20.00")
		p.Axe()
		webShot(p, "memberships", "errors", vp)
		if got := paymentOf(t, exec, janePath); got.Membership.Status != "unpaid" {
			t.Fatalf("after a refused form the membership is %s", got.Membership.Status)
		}

		// Recorded once.
		p.Check("Cash")
		p.Fill("Amount in dollars", "25")
		p.Click("button", "Record payment")
		p.WaitFocused("heading", "Payment recorded")
		p.WaitText("paid CA$25.00 by Cash")
		p.Axe()
		webShot(p, "memberships", "recorded", vp)
		got := paymentOf(t, exec, janePath)
		if got.Membership.ID != janeID || got.Membership.Status != "paid" || got.Membership.Method == nil ||
			*got.Membership.Method != "cash" || got.Membership.AmountCents == nil || *got.Membership.AmountCents != 2500 {
			t.Fatalf("after recording, the API shows %+v", got.Membership)
		}
		// Opened again, the paid membership has no form to press.
		p.Reload()
		p.WaitText("This membership is paid. There is nothing to record.")
		if p.Exists("button", "Record payment") {
			t.Error("a paid membership still offers Record payment")
		}

		// A second exec records bob's payment while this page is open: the
		// press is refused with the 409's words and the page shows it paid.
		p.Visit(bobPath)
		p.WaitFor("heading", "Record payment")
		p.Check("Card")
		other.expect(200, "POST", paymentPath(bobPath), map[string]any{"method": "etransfer", "amount_cents": 2000})
		p.Click("button", "Record payment")
		p.WaitFocused("heading", "Already paid")
		p.WaitText("Someone recorded this membership as paid already")
		p.Axe()
		webShot(p, "memberships", "conflict", vp)

		// A changed signature, and none at all.
		bad := strings.Replace(janePath, "sig=", "sig=AAAA", 1)
		p.Visit(bad)
		p.WaitFor("heading", "This QR link is not valid")
		p.WaitText("scan it")
		p.Axe()
		webShot(p, "memberships", "badsig", vp)
		p.Visit("/admin/memberships/" + janeID.String())
		p.WaitFor("heading", "Scan the member’s QR code")
		p.Axe()

		// The member search: found, filtered, the state in the URL.
		p.Visit("/admin/memberships")
		p.WaitFor("table", "Memberships of the active term, unpaid first, then by email")
		p.Axe()
		webShot(p, "memberships", "list", vp)
		p.Fill("Search", "jane+"+vp.Name)
		p.Click("button", "Search")
		p.WaitURL("/admin/memberships?q=jane%2B" + vp.Name)
		p.WaitText("1 membership")
		rows := p.Table("Memberships of the active term, unpaid first, then by email")
		if len(rows) != 2 || !strings.Contains(strings.Join(rows[1], "|"), "jane+"+vp.Name+"@x.test|2026-2027|Paid|Cash|CA$25.00") {
			t.Fatalf("the search shows %q", rows)
		}
		p.Select("Status", "Unpaid")
		p.Click("button", "Search")
		p.WaitFor("heading", "No memberships match")
		p.Reload()
		p.WaitFor("heading", "No memberships match")
		if got := p.URL(); got != "/admin/memberships?q=jane%2B"+vp.Name+"&status=unpaid" {
			t.Errorf("after a reload the list is at %s", got)
		}
		p.Axe()
		webShot(p, "memberships", "nomatch", vp)
		p.Click("button", "Show all memberships")
		p.WaitText("bob+" + vp.Name + "@x.test")
		if got := p.URL(); got != "/admin/memberships" {
			t.Errorf("after clearing the filters the list is at %s", got)
		}
		if got := paymentOf(t, exec, bobPath); got.Membership.Status != "paid" || *got.Membership.Method != "etransfer" {
			t.Errorf("bob's membership %+v, want paid by the other exec's e-transfer only", got.Membership)
		}

		// A member is sent home from both pages.
		m := browser.Open(t, site, vp)
		memberEmail := "jane+" + vp.Name + "@x.test"
		webSignIn(t, m, memberEmail, "password-"+memberEmail, "/")
		m.Visit("/admin/memberships")
		m.WaitURL("/")
		m.Visit(janePath)
		m.WaitURL("/")
	})
}
