package e2e

import (
	"strings"
	"testing"

	"hackdesk/dev/receipttest"
	"hackdesk/dev/testenv/browser"
)

// An exec lists the shop's receipts, filters them to the parked ones (the
// filter kept in the URL across a reload) and matches a receipt from an
// unknown email to an existing account from the page: an empty email and
// an unknown account are refused in words, the right one turns the
// receipt processed and the account's membership paid by the shop. A
// member opening /admin/receipts lands on /. axe-core finds nothing on
// each state.
func TestWebReceipts(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	a, anon, site := webApp(t)
	super, _ := decAccount(t, a, anon, "super@x.test", "superadmin")
	termID := hiringTermVia(t, super, "2026-2027", "2026-09-01", "2027-04-30", true)

	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		execEmail := "exec+" + vp.Name + "@x.test"
		exec, _ := decAccount(t, a, anon, execEmail, "admin")
		lee := "lee+" + vp.Name + "@x.test"
		decAccount(t, a, anon, lee, "member")
		tx := "TX-WEB-" + strings.ToUpper(vp.Name)
		raw := signedReceipt(t, receipttest.Sample{Email: "nobody+" + vp.Name + "@elsewhere.test", TermName: "2026-2027", TransactionID: tx})
		if r := postReceipt(anon, webhookForm(raw)); r.Status != 200 {
			t.Fatalf("the webhook answered %d", r.Status)
		}
		if rc := waitReceipt(t, exec, tx); rc.Status != "parked" {
			t.Fatalf("the receipt is %s, want parked", rc.Status)
		}

		p := browser.Open(t, site, vp)
		p.AllowConsoleError("status of 404 (Not Found) (http://hackdesk.test/api/admin/receipts/")
		webSignIn(t, p, execEmail, "password-"+execEmail, "/")
		p.Visit("/admin/receipts")
		p.WaitFor("table", "Shop receipts, newest first")
		if got := p.Heading(1); got != "Shop receipts" {
			t.Errorf("the h1 is %q", got)
		}
		p.Axe()
		webShot(p, "receipts", "all", vp)

		// Filtered to the parked ones; the filter survives a reload.
		p.Select("Status", "Parked")
		p.Click("button", "Show")
		p.WaitURL("/admin/receipts?status=parked")
		p.Reload()
		p.WaitFor("button", "Match receipt "+tx+" to an account")
		// On the desktop the table fits: its Match buttons are not clipped
		// behind a sideways scroll.
		if vp.Name == browser.Desktop.Name {
			if n := p.ScrollBoxesSideways(); n != 0 {
				t.Errorf("%d scroll boxes scroll sideways at %d px", n, vp.Width)
			}
		}
		webShot(p, "receipts", "parked", vp)
		rows := p.Table("Shop receipts, newest first")
		if len(rows) != 2 || !strings.Contains(strings.Join(rows[1], "|"), tx+"|nobody+"+vp.Name+"@elsewhere.test|") ||
			!strings.Contains(rows[1][3], "Parked") || !strings.Contains(rows[1][4], "no account") {
			t.Fatalf("the parked receipts show %q", rows)
		}

		// Matched from the page: refusals in words, then the right account.
		p.Click("button", "Match receipt "+tx+" to an account")
		p.WaitFor("dialog", "Match to an account")
		p.Axe()
		p.Click("button", "Match receipt")
		p.WaitText("Enter the email of the account")
		p.Fill("Account email", "ghost+"+vp.Name+"@x.test")
		p.Click("button", "Match receipt")
		p.WaitText("There is no account with that email.")
		p.Axe()
		webShot(p, "receipts", "refused", vp)
		if st, _, _, _ := membershipOf(t, a, lee, termID); st != "" {
			t.Fatalf("before the match lee's membership is %q", st)
		}
		p.Fill("Account email", lee)
		p.Click("button", "Match receipt")
		p.WaitText("Receipt " + tx + " is processed: the membership of " + lee + " is now paid.")
		p.WaitGone("dialog", "Match to an account")
		p.WaitFor("heading", "No parked receipts")
		p.Axe()
		webShot(p, "receipts", "matched", vp)
		if st, m, _, n := membershipOf(t, a, lee, termID); st != "paid" || m != "shop" || n != 1 {
			t.Fatalf("after the match lee's membership is %q by %q (%d)", st, m, n)
		}
		p.Click("button", "Show all statuses")
		p.WaitFor("table", "Shop receipts, newest first")
		if got := p.URL(); got != "/admin/receipts" {
			t.Errorf("showing all statuses put the list at %s", got)
		}

		// A member is sent home.
		m := browser.Open(t, site, vp)
		webSignIn(t, m, lee, "password-"+lee, "/")
		m.Visit("/admin/receipts")
		m.WaitURL("/")
	})
}
