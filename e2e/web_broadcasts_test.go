package e2e

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hackdesk/app"
	"hackdesk/dev/testenv"
	"hackdesk/dev/testenv/browser"
	"hackdesk/internal/feature/broadcast"
)

// webBroadcastApp starts an App for the browser tests (see webApp) whose
// broadcast worker sends rate emails a second: slow enough that a
// broadcast of a few batches can be cancelled part way.
func webBroadcastApp(t *testing.T, rate float64) (*app.App, *client, browser.Site) {
	t.Helper()
	browser.Available(t)
	cfg := testenv.Config(t)
	cfg.BroadcastRate = rate
	a := testenv.App(t, cfg)
	return a, &client{t: t, base: a.URL()}, browser.Site{URL: cfg.PublicURL, Addr: a.Addr()}
}

// webBroadcastRow is a broadcast as stored, found by its subject.
func webBroadcastRow(t *testing.T, a *app.App, subject string) (status string, total, sent int) {
	t.Helper()
	if err := a.Store.Pool().QueryRow(context.Background(), `SELECT status, total, sent FROM broadcasts WHERE subject = $1`,
		subject).Scan(&status, &total, &sent); err != nil {
		t.Fatalf("broadcast %q: %v", subject, err)
	}
	return status, total, sent
}

// A superadmin composes a broadcast to applicants, counts them (the count
// equals the recipients the broadcast is recorded with), sends it after
// the confirmation, follows it to done and finds its emails in the audit;
// a broadcast to many execs, sent slowly, is cancelled part way and the
// page says so. An admin opening the page is sent home. axe-core finds
// nothing on each state.
func TestWebBroadcasts(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	a, anon, site := webBroadcastApp(t, 2)
	const root = "root@example.com"
	decAccount(t, a, anon, root, "superadmin")
	decAccount(t, a, anon, "admin@example.com", "admin")
	applicants := []string{"ada@example.com", "grace@example.com", "katherine@example.com"}
	for _, e := range applicants {
		decApplicant(t, a, anon, e, "submitted")
	}
	decApplicant(t, a, anon, "draft@example.com", "draft")
	execs := make([]string, 30)
	for i := range execs {
		execs[i] = fmt.Sprintf("exec%02d@example.com", i)
	}
	bcExecs(t, a, testenv.AccountOpts{}, execs...)

	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		p := browser.Open(t, site, vp)
		slow := p.WithTimeout(40 * time.Second)
		shot := func(name string) {
			if dir := os.Getenv("WEB_SHOTS"); dir != "" {
				p.Screenshot(filepath.Join(dir, "broadcasts-"+name+"-"+vp.Name+".png"))
			}
		}
		webSignIn(t, p, root, "password-"+root, "/")
		p.Visit("/admin/broadcasts")
		p.WaitFor("heading", "Broadcasts")
		p.WaitFor("heading", "Past broadcasts")
		p.Axe()
		shot("compose")

		// Nothing written: the summary says what is missing.
		p.Click("button", "Send broadcast")
		p.WaitFor("link", "Enter a subject")
		p.WaitFor("link", "Enter a message")
		p.Axe()
		shot("missing")

		subject := "Hack night " + vp.Name
		p.Fill("Subject", subject)
		p.Fill("Message", "Join us on Friday. Details: https://hackdesk.test/events")
		p.Check("Applicants")
		p.WaitFor("combobox", "Decision")
		p.Click("button", "Count recipients")
		p.WaitText("This broadcast would go to 3 people.")
		p.Axe()
		shot("counted")

		// The email as recipients get it, and a test to the sender first.
		p.Click("button", "Preview the email")
		p.WaitFor("heading", "The email as recipients get it")
		p.WaitText("Subject: " + subject)
		p.Axe()
		shot("preview")
		p.Click("button", "Send me a test")
		p.WaitText("A test email is on its way to " + root + ".")
		if got := sentEmail(t, a, root, broadcast.EmailKind); !strings.Contains(got.Subject, subject) {
			t.Errorf("the test email's subject is %q", got.Subject)
		}

		p.Click("button", "Send broadcast")
		dlg := p.Within("dialog", "Send this broadcast?")
		dlg.WaitText("“" + subject + "” will be emailed to 3 people.")
		p.Axe()
		shot("confirm")
		dlg.Click("button", "Send to 3")
		p.WaitFor("heading", subject)
		slow.Within("region", subject).WaitText("3 sent, 0 failed, of 3")
		p.Within("region", subject).WaitText("Done")
		p.Axe()
		shot("done")
		status, total, sent := webBroadcastRow(t, a, subject)
		if status != "done" || total != 3 || sent != 3 {
			t.Fatalf("the broadcast is %s with %d of %d sent, want done with 3 of 3", status, sent, total)
		}
		p.WaitFor("table", "Broadcasts, newest first")

		// Its emails are in the audit, one per applicant.
		p.Visit("/admin/emails?kind=broadcast")
		p.WaitFor("heading", "Emails")
		for _, e := range applicants {
			p.WaitText(e)
		}
		if n := p.Count("button", "Open email: "+subject); n != 3 {
			t.Fatalf("%d emails of %q listed, want 3", n, subject)
		}

		// A slow broadcast to the 30 execs, cancelled part way.
		p.Visit("/admin/broadcasts")
		p.WaitFor("heading", "New broadcast")
		stop := "Exec sync " + vp.Name
		p.Fill("Subject", stop)
		p.Fill("Message", "The exec sync moves to Tuesday.")
		p.Check("Execs")
		p.Click("button", "Send broadcast")
		p.Within("dialog", "Send this broadcast?").Click("button", "Send to 30")
		p.WaitFor("heading", stop)
		p.WaitFor("progressbar", "Progress of the broadcast")
		p.Click("button", "Cancel broadcast")
		cancel := p.Within("dialog", "Cancel this broadcast?")
		cancel.WaitText("Emails already sent stay sent.")
		p.Axe()
		shot("cancel")
		cancel.Click("button", "Cancel broadcast")
		slow.WaitFor("button", "Write another broadcast")
		p.Within("region", stop).WaitText("Cancelled")
		p.Axe()
		shot("cancelled")
		status, total, sent = webBroadcastRow(t, a, stop)
		if status != "cancelled" || total != 30 || sent >= 30 {
			t.Fatalf("the slow broadcast is %s with %d of %d sent, want cancelled part way", status, sent, total)
		}
	})

	// An admin (not a superadmin) is sent home.
	p := browser.Open(t, site, browser.Viewports[1])
	webSignIn(t, p, "admin@example.com", "password-admin@example.com", "/")
	p.Visit("/admin/broadcasts")
	p.WaitURL("/")
}

// The preview of an audience counts the people a broadcast to it is then
// recorded with, creates nothing, refuses what create refuses and is for
// superadmins only.
func TestBroadcastPreview(t *testing.T) {
	t.Parallel()
	a, anon, root, _ := bcApp(t, 10)
	bcExecs(t, a, testenv.AccountOpts{}, "e1@example.com", "e2@example.com", "e3@example.com")
	admin, _ := decAccount(t, a, anon, "admin@example.com", "admin")
	var preview struct {
		Recipients int `json:"recipients"`
	}
	root.expect(http.StatusOK, "POST", "/api/admin/broadcasts/preview",
		map[string]any{"audience": map[string]any{"kind": "execs"}}).JSON(t, &preview)
	var n int
	if err := a.Store.Pool().QueryRow(context.Background(), `SELECT count(*) FROM broadcasts`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("the preview recorded %d broadcasts (%v)", n, err)
	}
	var created struct {
		Recipients int `json:"recipients"`
	}
	root.expect(http.StatusAccepted, "POST", "/api/admin/broadcasts",
		map[string]any{"subject": "Sync", "body": "Tuesday.", "audience": map[string]any{"kind": "execs"}}).JSON(t, &created)
	if preview.Recipients != 3 || created.Recipients != preview.Recipients {
		t.Fatalf("preview %d, created with %d recipients, want 3 and 3", preview.Recipients, created.Recipients)
	}
	root.expect(http.StatusBadRequest, "POST", "/api/admin/broadcasts/preview",
		map[string]any{"audience": map[string]any{"kind": "execs", "status": "offer"}})
	admin.expect(http.StatusForbidden, "POST", "/api/admin/broadcasts/preview",
		map[string]any{"audience": map[string]any{"kind": "execs"}})
}
