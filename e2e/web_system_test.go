package e2e

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"hackdesk/dev/testenv"
	"hackdesk/dev/testenv/browser"
	"hackdesk/internal/platform/runs"
)

// sysRow is the failed runs table's row of a workflow id, nil without one.
func sysRow(p *browser.Page, id string) []string {
	for _, r := range p.Table("Recent failed workflow runs") {
		if len(r) > 1 && strings.Contains(r[1], id) {
			return r
		}
	}
	return nil
}

// A superadmin opens /admin/system: readiness in words, the outbox, the
// hour's HTTP errors and failures by kind, and a finalization that failed
// for real in the failed runs table. They retry it from the dialog (the
// outbox then holds retry 1) and the row says it was queued; a run retried
// meanwhile elsewhere is refused in words in the dialog. Sorting and the
// kind filter go to the URL and survive a reload. An admin is sent home.
// axe-core finds nothing on each state.
func TestWebSystem(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		a, anon, site := webApp(t)
		root, _ := decAccount(t, a, anon, "super@x.test", "superadmin")
		termID, id := failedFinalization(t, a)
		otherTerm, other := failedFinalization(t, a)
		makeTerm(t, a, termID)
		makeTerm(t, a, otherTerm)

		p := browser.Open(t, site, vp)
		webSignIn(t, p, "super@x.test", "password-super@x.test", "/")
		p.Visit("/admin/system")
		if got := p.Heading(1); got != "System" {
			t.Errorf("the h1 is %q", got)
		}
		p.WaitText("The service is ready: every check answers.")
		p.WaitText("Database OK")
		p.WaitText("Temporal OK")
		p.WaitText("Pending starts")
		p.WaitText("Error rate")
		p.WaitFor("table", "Runs that failed or timed out in the last hour, by kind")
		p.WaitFor("button", "Retry "+id)
		row := sysRow(p, id)
		if row == nil || row[0] != "Hiring" || !strings.Contains(row[1], "HiringFinalization") || row[3] != "Failed" {
			t.Fatalf("the failed run's row is %q", row)
		}
		if a.Config.TemporalUIURL != "" && p.Count("link", "Open in Temporal for "+id) != 1 {
			p.WaitFor("link", "Open in Temporal for "+id)
			t.Error("no link to the run in the Temporal UI")
		}
		p.Axe()
		webShot(p, "system", "loaded", vp)

		// Retry from the dialog, which names the run.
		p.Click("button", "Retry "+id)
		p.WaitFor("dialog", "Retry this run?")
		if !p.Within("dialog", "Retry this run?").HasText("HiringFinalization " + id) {
			t.Error("the dialog does not name the run")
		}
		p.Axe()
		webShot(p, "system", "dialog", vp)
		p.Click("button", "Retry run")
		p.WaitGone("dialog", "Retry this run?")
		p.WaitText("Retry 1 queued")
		var retries int
		if err := a.Store.Pool().QueryRow(context.Background(),
			`SELECT count(*) FROM workflow_starts WHERE workflow_id = $1 AND retry = 1`, id).Scan(&retries); err != nil {
			t.Fatal(err)
		}
		if retries != 1 {
			t.Fatalf("%d retry rows after the dialog", retries)
		}
		p.Axe()
		webShot(p, "system", "queued", vp)

		// Another run retried meanwhile, and completed: the dialog says
		// why it is refused in words.
		root.expect(http.StatusAccepted, "POST", retryPath(other), nil)
		testenv.Eventually(t, 30*time.Second, func() (bool, string) {
			st, _ := latestRun(t, a, other)
			return st == runs.Completed, "the other retried run is " + string(st)
		})
		p.AllowConsoleError("status of 409")
		p.Click("button", "Retry "+other)
		p.WaitFor("dialog", "Retry this run?")
		p.Click("button", "Retry run")
		p.WaitText("This run cannot be retried")
		p.WaitText("completed.")
		p.Axe()
		webShot(p, "system", "refused", vp)
		if p.Exists("button", "Retry run") {
			t.Error("the dialog still offers the refused retry")
		}
		p.Click("button", "Back to the list")
		p.WaitGone("dialog", "Retry this run?")
		p.WaitGone("button", "Retry "+other)

		// Sort and filter: in the URL, kept on reload.
		p.Click("button", "Failed at")
		p.WaitURL("/admin/system?order=asc")
		p.Select("Kind", "Hiring")
		p.WaitURL("/admin/system?order=asc&kind=hiring")
		p.Reload()
		p.WaitFor("table", "Recent failed workflow runs")
		if p.Value("Kind") != "Hiring" {
			t.Errorf("the kind filter after a reload is %q", p.Value("Kind"))
		}
		if sysRow(p, id) == nil {
			t.Error("the retried run is not listed after a reload")
		}
		p.Axe()

		// An admin who is not a superadmin is sent home.
		decAccount(t, a, anon, "admin@x.test", "admin")
		m := browser.Open(t, site, vp)
		webSignIn(t, m, "admin@x.test", "password-admin@x.test", "/")
		m.Visit("/admin/system")
		m.WaitURL("/")
		if m.HasText("Readiness") {
			t.Error("an admin sees the system page")
		}
	})
}
