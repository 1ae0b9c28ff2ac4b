package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"hackdesk/dev/testenv/browser"
)

// The applications table with 25 rows, two of them drafts: the document
// ends at its footer (no blank screen below it, as when the rows' visually
// hidden checkbox names escaped the table's scroll box), and a draft row,
// which cannot be decided, shows nothing where a checkbox would be (no
// empty bordered box). axe finds nothing, at both sizes.
func TestWebAdminApplicationsLayout(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	a, anon, site := webApp(t)
	adminAppsSeed(t, a, anon)
	for i := 1; i <= 2; i++ {
		owner := account(t, a, fmt.Sprintf("draft%d@example.com", i), fmt.Sprintf("Drafter %d", i), "member")
		seedApplication(t, a, owner, "draft")
	}

	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		email := "layout+" + vp.Name + "@x.test"
		decAccount(t, a, anon, email, "admin")
		p := browser.Open(t, site, vp)
		webSignIn(t, p, email, "password-"+email, "/")
		p.Visit("/admin/applications")
		p.WaitFor("table", "Applications")
		p.WaitText("Showing 1–25 of 32")
		if n := len(p.Table("Applications")) - 1; n != 25 {
			t.Fatalf("%d rows shown, want 25", n)
		}
		if px := p.BlankBelow(); px > 2 {
			t.Errorf("the document runs %d px below its footer", px)
		}
		if n := p.EmptyBoxes("table tbody td *, table tbody td"); n != 0 {
			t.Errorf("%d empty bordered boxes in the table's cells", n)
		}
		if n := p.Count("checkbox", "Select Drafter 1"); n != 0 {
			t.Errorf("a draft row has a checkbox")
		}
		// At 1280 px the decision, what a person decides by, is seen
		// without scrolling the table sideways.
		if vp.Width >= 1280 && !p.InView("columnheader", "Decision") {
			t.Error("the Decision column is outside the table's visible box at 1280 px")
		}
		p.Axe()
		if dir := os.Getenv("WEB_SHOTS"); dir != "" {
			p.Screenshot(filepath.Join(dir, "apps-layout-"+vp.Name+".png"))
		}
	})
}
