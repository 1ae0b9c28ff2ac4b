package e2e

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/app"
	"hackdesk/dev/testenv"
	"hackdesk/dev/testenv/browser"
)

// adminAppsUniversities are the seeded applications' universities, in
// the order a case-insensitive ascending sort puts them.
var adminAppsUniversities = []string{"Carleton University", "McGill University", "Queen's University", "University of Ottawa", "University of Toronto"}

// adminAppsSeed makes 30 submitted applications, "Applicant 01" to
// "Applicant 30" (appNN@example.com), each newer than the next, with
// universities taken in turn from adminAppsUniversities; and two reviews
// by one reviewer: 15 for Applicant 01 and 0 for Applicant 02 (so their
// normalized scores are +1 and -1). It returns the ids by number and the
// university of each number.
func adminAppsSeed(t *testing.T, a *app.App, anon *client) (map[int]uuid.UUID, map[int]string) {
	t.Helper()
	ctx := context.Background()
	ids, unis := map[int]uuid.UUID{}, map[int]string{}
	for i := 1; i <= 30; i++ {
		email := fmt.Sprintf("app%02d@example.com", i)
		owner := account(t, a, email, fmt.Sprintf("Applicant %02d", i), "member")
		id := seedApplication(t, a, owner, "submitted")
		uni := adminAppsUniversities[(i*3)%len(adminAppsUniversities)]
		if _, err := a.Store.Pool().Exec(ctx, `UPDATE applications SET university = $2,
			created_at = now() - make_interval(hours => $3), submitted_at = now() - make_interval(hours => $3)
			WHERE id = $1`, id, uni, i); err != nil {
			t.Fatal(err)
		}
		ids[i], unis[i] = id, uni
	}
	reviewer, _ := decAccount(t, a, anon, "scorer@x.test", "admin")
	for n, s := range map[int][4]int{1: {3, 2, 7, 3}, 2: {0, 0, 0, 0}} {
		reviewer.expect(http.StatusOK, "POST", "/api/review/submit", map[string]any{
			"application_id": ids[n], "resume_score": s[0], "links_score": s[1], "q1_score": s[2], "q2_score": s[3],
		})
	}
	return ids, unis
}

// column is the cells of one column of a table read by Page.Table, the
// header row left out.
func column(rows [][]string, i int) []string {
	var out []string
	for _, r := range rows[1:] {
		out = append(out, r[i])
	}
	return out
}

// An admin sorts, searches, pages and filters the applications table, with
// the view in the URL (a reload keeps it), bulk-offers two applicants with
// an RSVP deadline after a confirmation (the applicant then sees the offer
// and its RSVP form), and reads an application's details with its reviews
// and history; an unknown id is a page of its own, and a member is sent
// home. axe-core finds nothing on each state, at both sizes.
func TestWebAdminApplications(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	a, anon, site := webApp(t)
	ids, unis := adminAppsSeed(t, a, anon)

	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		email := "admin+" + vp.Name + "@x.test"
		decAccount(t, a, anon, email, "admin")
		p := browser.Open(t, site, vp)
		p.AllowConsoleError("status of 404 (Not Found) (http://hackdesk.test/api/admin/applications/")
		shot := func(name string) {
			if dir := os.Getenv("WEB_SHOTS"); dir != "" {
				p.Screenshot(filepath.Join(dir, "apps-"+name+"-"+vp.Name+".png"))
			}
		}
		names := func(from, to int) []string {
			var out []string
			for i := from; i <= to; i++ {
				out = append(out, fmt.Sprintf("Applicant %02d", i))
			}
			return out
		}
		webSignIn(t, p, email, "password-"+email, "/")

		// The default view: newest first, 25 rows.
		p.Visit("/admin/applications")
		p.WaitFor("table", "Applications")
		if got := p.Heading(1); got != "Applications" {
			t.Errorf("the h1 is %q", got)
		}
		rows := p.Table("Applications")
		if got := column(rows, 1); !slices.Equal(got, names(1, 25)) {
			t.Errorf("default order %v", got)
		}
		if rows[1][7] != "15" || rows[1][8] != "+1.00" || rows[2][7] != "0" || rows[2][8] != "-1.00" || rows[3][8] != "—" {
			t.Errorf("scores: %v / %v / %v", rows[1], rows[2], rows[3])
		}
		p.WaitText("Showing 1–25 of 30")
		p.Axe()
		shot("table")

		// Nothing selected: the bar says what is missing.
		p.Click("button", "Waitlist")
		p.WaitFor("alert", "There is a problem")
		p.WaitText("Select at least one application")
		p.Axe()
		shot("nothing-selected")

		// Sort by university, 10 per page, page 2; the URL holds it all.
		p.Click("button", "University")
		p.WaitURL("/admin/applications?sort=university&order=asc")
		p.Select("Rows per page", "10")
		p.WaitURL("/admin/applications?sort=university&order=asc&page_size=10")
		testenv.Eventually(t, 10*time.Second, func() (bool, string) {
			n := len(p.Table("Applications")) - 1
			return n == 10, fmt.Sprintf("%d rows shown, want 10", n)
		})
		p.Click("button", "Page 2")
		p.WaitURL("/admin/applications?sort=university&order=asc&page=2&page_size=10")
		var sorted []string
		for i := 1; i <= 30; i++ {
			sorted = append(sorted, unis[i])
		}
		slices.SortFunc(sorted, func(x, y string) int { return strings.Compare(strings.ToLower(x), strings.ToLower(y)) })
		check := func() {
			t.Helper()
			testenv.Eventually(t, 10*time.Second, func() (bool, string) {
				got := column(p.Table("Applications"), 4)
				return slices.Equal(got, sorted[10:20]), fmt.Sprintf("page 2 by university %v, want %v", got, sorted[10:20])
			})
			if s := p.Text("columnheader", "University"); s == "" {
				t.Error("no University header")
			}
		}
		check()
		p.WaitText("Showing 11–20 of 30")
		p.Reload()
		p.WaitFor("table", "Applications")
		check()
		if v := p.Value("Rows per page"); v != "10" {
			t.Errorf("rows per page after reload: %q", v)
		}

		// Search by name, Enter at once; the reload keeps it.
		p.Fill("Search by name or email", "applicant 07\n")
		p.WaitURL("/admin/applications?q=applicant+07&sort=university&order=asc&page_size=10")
		testenv.Eventually(t, 10*time.Second, func() (bool, string) {
			got := column(p.Table("Applications"), 1)
			return slices.Equal(got, []string{"Applicant 07"}), fmt.Sprintf("search rows %v", got)
		})
		p.Reload()
		p.WaitFor("table", "Applications")
		if v := p.Value("Search by name or email"); v != "applicant 07" {
			t.Errorf("search after reload: %q", v)
		}
		if got := column(p.Table("Applications"), 1); !slices.Equal(got, []string{"Applicant 07"}) {
			t.Errorf("search rows after reload %v", got)
		}
		// No match: a blank slate with a way out.
		p.Fill("Search by name or email", "nobody-here\n")
		p.WaitFor("heading", "No applications match")
		p.Axe()
		shot("no-match")
		p.Click("button", "Clear search")
		p.WaitFor("table", "Applications")
		if v := p.Value("Search by name or email"); v != "" {
			t.Errorf("search after clearing: %q", v)
		}

		// A bulk decision on two applicants, by name order: on the desktop
		// an offer with a deadline typed in the date-time field, on the
		// phone (whose date-time field takes no typed keys) a waitlist.
		first, second := 1, 2
		decision, dialog, action, done, shown := "waitlist", "Waitlist 2 applicants?", "Waitlist", "Waitlist", "Waitlist"
		if vp.Name != browser.Mobile.Name {
			first, second = 3, 4
			decision, dialog, action, done, shown = "offer", "Send offers to 2 applicants?", "Offer", "Send offers", "Offer, no answer yet"
		}
		p.Visit("/admin/applications?sort=name&order=asc&page_size=10")
		p.WaitFor("table", "Applications")
		p.Check(fmt.Sprintf("Select Applicant %02d", first))
		p.Check(fmt.Sprintf("Select Applicant %02d", second))
		p.WaitText("2 applications selected.")
		p.Click("button", "Offer")
		p.WaitText("Enter an RSVP deadline for the offers")
		zone, err := time.LoadLocation(testenv.TimeZone)
		if err != nil {
			t.Fatal(err)
		}
		want := time.Date(2030, 12, 31, 9, 30, 0, 0, zone)
		if decision == "offer" {
			p.Fill("RSVP deadline (offers only)", "12312030")
			p.Press("ArrowRight")
			p.Type("0930A")
			if v := p.Value("RSVP deadline (offers only)"); v != "2030-12-31T09:30" {
				t.Fatalf("the deadline field holds %q", v)
			}
		}
		p.Click("button", action)
		p.WaitFor("dialog", dialog)
		p.Axe()
		shot("confirm")
		p.Within("dialog", dialog).Click("button", done)
		p.WaitGone("dialog", dialog)
		testenv.Eventually(t, 10*time.Second, func() (bool, string) {
			rows := p.Table("Applications")
			return rows[first][3] == shown && rows[second][3] == shown,
				fmt.Sprintf("decisions %q %q", rows[first][3], rows[second][3])
		})
		for _, n := range []int{first, second} {
			var got string
			var deadline *time.Time
			if err := a.Store.Pool().QueryRow(context.Background(), `SELECT decision, rsvp_deadline FROM applications WHERE id = $1`,
				ids[n]).Scan(&got, &deadline); err != nil {
				t.Fatal(err)
			}
			if got != decision || (decision == "offer") != (deadline != nil) || (deadline != nil && !deadline.Equal(want)) {
				t.Errorf("Applicant %02d: %s by %v, want %s (offers by %v)", n, got, deadline, decision, want)
			}
		}
		p.Axe()
		shot("decided")

		// Filter by the decision just made: the two rows, the URL keeps it,
		// and the CSV link downloads those rows, not the whole edition.
		label := map[string]string{"offer": "Offer", "waitlist": "Waitlist"}[decision]
		p.Select("Decision", label)
		p.WaitURL("/admin/applications?decision=" + decision + "&sort=name&order=asc&page_size=10")
		testenv.Eventually(t, 10*time.Second, func() (bool, string) {
			got := column(p.Table("Applications"), 1)
			want := []string{fmt.Sprintf("Applicant %02d", first), fmt.Sprintf("Applicant %02d", second)}
			return slices.Equal(got, want), fmt.Sprintf("rows %v, want %v", got, want)
		})
		p.Axe()
		shot("filtered")
		dir := t.TempDir()
		p.DownloadTo(dir)
		p.Click("link", "Download these rows as CSV")
		recs, err := csv.NewReader(bytes.NewReader(downloaded(t, dir, "applications.csv"))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != 3 || recs[1][0] != ids[first].String() || recs[2][0] != ids[second].String() || recs[1][8] != decision {
			t.Errorf("the CSV of the filtered view: %v", recs)
		}

		// The details: reviews with raw and normalized totals.
		p.Visit(fmt.Sprintf("/admin/applications/%s", ids[1]))
		p.WaitFor("heading", "Application from app01@example.com")
		p.WaitFor("table", "Reviews of this application")
		rv := p.Table("Reviews of this application")
		if len(rv) != 2 || rv[1][0] != "scorer@x.test (scorer@x.test)" || rv[1][5] != "15" || rv[1][6] != "+1.00" {
			t.Errorf("reviews %v", rv)
		}
		p.WaitText("Mean raw total 15; mean normalized score +1.00.")
		p.WaitText("University of Ottawa")
		p.Axe()
		shot("details")
		// The history of the decided one: what, who, when.
		p.Visit(fmt.Sprintf("/admin/applications/%s", ids[first]))
		p.WaitFor("heading", fmt.Sprintf("Application from app%02d@example.com", first))
		p.WaitFor("heading", "Decision and RSVP history")
		if decision == "offer" {
			p.WaitText("Decision: offer; answer by Dec 31, 2030, 9:30 AM")
		} else {
			p.WaitText("Decision: waitlist")
		}
		p.WaitText("by " + email + " (" + email + ")")
		p.Axe()
		shot("history")

		// An unknown id: a page that says so, with the way back.
		p.Visit("/admin/applications/" + uuid.NewString())
		p.WaitFor("heading", "Application not found")
		p.WaitFor("link", "Back to applications")
		p.Axe()
		shot("not-found")

		// The applicant offered a place sees it and the RSVP form.
		if decision == "offer" {
			applicant := fmt.Sprintf("app%02d@example.com", first)
			ap := browser.Open(t, site, vp)
			webSignIn(t, ap, applicant, "password-"+applicant, "/")
			ap.Visit("/apply/submitted")
			ap.WaitFor("button", "Send RSVP")
		}

		// A member is sent home.
		memberEmail := "member+" + vp.Name + "@x.test"
		decAccount(t, a, anon, memberEmail, "member")
		m := browser.Open(t, site, vp)
		webSignIn(t, m, memberEmail, "password-"+memberEmail, "/")
		m.Visit("/admin/applications")
		m.WaitURL("/")
	})
}
