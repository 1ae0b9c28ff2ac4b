package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"hackdesk/dev/testenv/browser"
)

// peopleShot saves a screenshot of the page's state under $WEB_SHOTS, when
// set.
func peopleShot(p *browser.Page, page, name string) {
	if dir := os.Getenv("WEB_SHOTS"); dir != "" {
		p.Screenshot(filepath.Join(dir, page+"-"+name+"-"+p.Viewport().Name+".png"))
	}
}

// adminUser is the account of email as GET /api/admin/users shows it.
func assignedUser(t *testing.T, c *client, email string) adminUserJSON {
	t.Helper()
	for _, u := range listAdminUsers(t, c, "?q="+email).Items {
		if u.Email == email {
			return u
		}
	}
	t.Fatalf("no account %s in the users list", email)
	return adminUserJSON{}
}

// A superadmin finds a member by name (the search survives a reload),
// makes them an admin and the VP of a subteam for the active term, and
// the API's account shows it; the last superadmin demoting themselves
// confirms, then reads the 409 in words and stays a superadmin. An admin
// opening /admin/assign is sent home. axe-core finds nothing on each
// state.
func TestWebAssign(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		a, anon, site := webApp(t)
		const rootEmail = "root@x.test"
		root, _ := decAccount(t, a, anon, rootEmail, "superadmin")
		account(t, a, "ada@example.com", "Ada Lovelace", "member")
		account(t, a, "grace@example.com", "Grace Hopper", "member")
		fall := hiringTermVia(t, root, "Fall 2026", "2026-09-01", "2026-12-20", true)
		hiringTermVia(t, root, "Winter 2027", "2027-01-05", "2027-04-30", false)

		p := browser.Open(t, site, vp)
		p.AllowConsoleError("status of 409 (Conflict) (http://hackdesk.test/api/admin/users/")
		webSignIn(t, p, rootEmail, "password-"+rootEmail, "/")
		p.Visit("/admin/assign")
		p.WaitFor("button", "Change roles for Grace Hopper")
		if got := p.Heading(1); got != "Roles and exec roles" {
			t.Errorf("the h1 is %q", got)
		}
		p.WaitText(fmt.Sprintf("%d people found", listAdminUsers(t, root, "").Total))
		p.Axe()
		peopleShot(p, "assign", "list")

		// The search by name, kept in the URL and across a reload.
		p.Fill("Name or email", "lovelace\n")
		p.WaitURL("/admin/assign?q=lovelace")
		p.WaitText("1 person found")
		if p.Exists("button", "Change roles for Grace Hopper") {
			t.Error("the search for lovelace lists Grace Hopper")
		}
		p.Reload()
		p.WaitText("1 person found")
		if got := p.Value("Name or email"); got != "lovelace" {
			t.Errorf("after a reload the search box holds %q", got)
		}

		// Admin and VP of Design for the active term: a VP needs a subteam.
		p.Click("button", "Change roles for Ada Lovelace")
		p.WaitFor("heading", "Change roles for Ada Lovelace")
		p.Axe()
		peopleShot(p, "assign", "dialog")
		p.Check("Admin")
		p.Check("VP")
		p.Click("button", "Save changes")
		p.WaitFor("link", "Enter the subteam this VP leads")
		p.Axe()
		peopleShot(p, "assign", "errors")
		p.Fill("Subteam", "Design")
		if got := p.Value("Term"); got == fall.String() {
			t.Error("the term starts as the active one; want the hiring term (the latest)")
		}
		p.Select("Term", "Fall 2026 (active)")
		p.Click("button", "Save changes")
		p.WaitText("VP, Design")
		p.WaitGone("heading", "Change roles for Ada Lovelace")
		p.Axe()
		peopleShot(p, "assign", "saved")
		ada := assignedUser(t, root, "ada@example.com")
		if ada.Role != "admin" || ada.ExecRole == nil || ada.ExecRole.Position != "VP" ||
			ada.ExecRole.Subteam == nil || *ada.ExecRole.Subteam != "Design" ||
			ada.ExecRole.TermID == nil || *ada.ExecRole.TermID != fall {
			t.Errorf("the API shows Ada as %+v", ada)
		}

		// The last superadmin demoting themselves: asked first, then refused.
		p.Select("Role", "Superadmin")
		p.Fill("Name or email", "root\n")
		p.WaitURL("/admin/assign?q=root&role=superadmin")
		p.WaitText("1 person found")
		p.Click("button", "Change roles for "+rootEmail)
		p.WaitFor("heading", "Change roles for "+rootEmail)
		p.Check("Member")
		p.Click("button", "Save changes")
		p.WaitFor("heading", "Remove your own superadmin role?")
		p.Axe()
		peopleShot(p, "assign", "confirm")
		p.Click("button", "Yes, remove my superadmin role")
		p.WaitText("This is the last superadmin, so the role cannot be taken away.")
		p.Axe()
		peopleShot(p, "assign", "last-superadmin")
		if got := assignedUser(t, root, rootEmail).Role; got != "superadmin" {
			t.Errorf("the last superadmin is now %s", got)
		}

		// An admin is sent home.
		const adminEmail = "staff@x.test"
		account(t, a, adminEmail, "Staff", "admin")
		s := browser.Open(t, site, vp)
		webSignIn(t, s, adminEmail, "password-"+adminEmail, "/")
		s.Visit("/admin/assign")
		s.WaitURL("/")
	})
}
