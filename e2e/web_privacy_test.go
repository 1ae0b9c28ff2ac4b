package e2e

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"hackdesk/dev/testenv"
	"hackdesk/dev/testenv/browser"
	"hackdesk/workflows"
)

// A person on /profile downloads their data (the ZIP's data.json holds
// their application, with its résumé beside it), then deletes their
// account: a wrong password is said beside the field and locks nothing;
// the right one locks the account and says until when it can be kept.
// Signing in then offers "Keep my account" and nothing else, which keeps
// it and signs in. Deleted again and erased to the end, the address signs
// in like an unknown one. axe-core finds nothing on each state.
func TestWebYourData(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		a, _, site := webApp(t)
		ctx := context.Background()
		const email, pw = "ada.data@x.test", "password-ada.data@x.test"
		me := account(t, a, email, "Ada Data", "member")
		app := testenv.Application(t, a.Store, me, testenv.ApplicationOpts{Submitted: true})
		resume := pdfFile("Ada's résumé")
		if err := a.Blob.Put(ctx, *app.ResumeKey, "application/pdf", bytes.NewReader(resume), int64(len(resume))); err != nil {
			t.Fatal(err)
		}

		p := browser.Open(t, site, vp)
		// The refusals the browser logs: the wrong password, the sign-in
		// during the grace, and the one after the erasure.
		p.AllowConsoleError("status of 403 (Forbidden) (http://hackdesk.test/api/me)")
		p.AllowConsoleError("status of 403 (Forbidden) (http://hackdesk.test/api/auth/login)")
		p.AllowConsoleError("status of 401 (Unauthorized) (http://hackdesk.test/api/auth/login)")
		webSignIn(t, p, email, pw, "/")
		p.Visit("/profile")
		p.WaitFor("heading", "Your data")
		p.WaitFor("button", "Download your data")
		p.Axe()
		webShot(p, "profile", "your-data", vp)

		// The download, with its progress, into the browser's downloads.
		dir := t.TempDir()
		p.DownloadTo(dir)
		p.Click("button", "Download your data")
		p.WaitText("Downloaded hackdesk-data-")
		name := "hackdesk-data-" + time.Now().UTC().Format("2006-01-02") + ".zip"
		data := downloaded(t, dir, name)
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatalf("the download is not a ZIP: %v", err)
		}
		var export struct {
			Applications []struct {
				ID         string  `json:"id"`
				ResumeFile *string `json:"resume_file"`
			} `json:"applications"`
		}
		var gotResume []byte
		for _, f := range zr.File {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(rc)
			rc.Close()
			switch {
			case f.Name == "data.json":
				if err := json.Unmarshal(b, &export); err != nil {
					t.Fatal(err)
				}
			case strings.HasPrefix(f.Name, "resumes/"):
				gotResume = b
			}
		}
		if len(export.Applications) != 1 || export.Applications[0].ID != app.ID.String() || export.Applications[0].ResumeFile == nil {
			t.Errorf("data.json's applications: %+v", export.Applications)
		}
		if !bytes.Equal(gotResume, resume) {
			t.Errorf("the résumé in the ZIP is %d bytes, want the uploaded %d", len(gotResume), len(resume))
		}
		p.Axe()

		// A wrong password locks nothing.
		p.Fill("Password", "not-my-password")
		p.Click("button", "Delete my account")
		p.WaitFor("dialog", "Delete your account?")
		p.Axe()
		webShot(p, "profile", "delete-dialog", vp)
		p.Click("button", "Yes, delete my account")
		p.WaitText("The password is not right")
		if n := countRows(t, a, `SELECT count(*) FROM profiles WHERE id = $1 AND erase_at IS NOT NULL`, me); n != 0 {
			t.Fatal("a wrong password locked the account")
		}

		// The right one: locked, signed out, told until when.
		p.Fill("Password", pw)
		p.Click("button", "Delete my account")
		p.WaitFor("dialog", "Delete your account?")
		p.Click("button", "Yes, delete my account")
		p.WaitText("Your account will be deleted")
		p.WaitText("You have been signed out.")
		p.Axe()
		webShot(p, "profile", "deleted", vp)

		// Signing in offers "Keep my account", and nothing else.
		p.Visit("/login")
		p.WaitFor("heading", "Sign in")
		p.Fill("Email", email)
		p.Fill("Password", pw)
		p.Click("button", "Sign in")
		p.WaitFor("heading", "This account is being deleted")
		p.WaitText("will be deleted on")
		if p.Exists("button", "Sign in") || p.Exists("link", "Forgot your password?") || p.Count("button", "") < 1 {
			t.Error("the sign-in page offers more than keeping the account")
		}
		p.Axe()
		webShot(p, "login", "keep", vp)
		p.Click("button", "Keep my account")
		p.WaitURL("/")
		if res := erasureResult(t, a, me, 1, 20*time.Second); res.Outcome != workflows.ErasureKept {
			t.Fatalf("the erasure %+v, want kept", res)
		}

		// Deleted again, to the end (the grace cut short here).
		p.Visit("/profile")
		p.WaitFor("heading", "Your data")
		p.Fill("Password", pw)
		p.Click("button", "Delete my account")
		p.WaitFor("dialog", "Delete your account?")
		p.Click("button", "Yes, delete my account")
		p.WaitText("Your account will be deleted")
		testenv.Eventually(t, 20*time.Second, func() (bool, string) {
			return erasureRuns(t, a, me) == 2, "the second erasure run"
		})
		if _, err := a.Store.Pool().Exec(ctx, `UPDATE profiles SET erase_at = now() - interval '1 second' WHERE id = $1`, me); err != nil {
			t.Fatal(err)
		}
		if err := a.Temporal.SignalWorkflow(ctx, workflows.AccountErasureID(me), "", workflows.AccountErasureSignal, struct{}{}); err != nil {
			t.Fatal(err)
		}
		if res := erasureResult(t, a, me, 2, 40*time.Second); res.Outcome != workflows.ErasureErased {
			t.Fatalf("the erasure %+v, want erased", res)
		}
		p.Visit("/login")
		p.WaitFor("heading", "Sign in")
		p.Fill("Email", email)
		p.Fill("Password", pw)
		p.Click("button", "Sign in")
		p.WaitText("The email address or password is not right")
	})
}

// A superadmin reads the access log: a staff member's opening of an
// application's details, and narrows it to the person read about (the
// filter kept in the URL across a reload); the operator page shows an
// erasure under way and the retention run. axe-core finds nothing.
func TestWebAccessLog(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		a, anon, site := webApp(t)
		account(t, a, "root@x.test", "Root Person", "superadmin")
		staff := as(t, a, anon, account(t, a, "staff@x.test", "Staff Person", "admin"))
		one := account(t, a, "one@x.test", "Person One", "member")
		two := account(t, a, "two@x.test", "Person Two", "member")
		// Person One's draft has no résumé: one read of them, two of Person Two.
		drafted := testenv.Application(t, a.Store, one, testenv.ApplicationOpts{NoResume: true}).ID
		for _, id := range []string{drafted.String(), seedApplication(t, a, two, "submitted").String()} {
			staff.expect(200, "GET", "/api/admin/applications/"+id, nil)
		}
		// An erasure waiting out its grace.
		gone := account(t, a, "gone@x.test", "Gone Person", "member")
		as(t, a, anon, gone).expect(202, "DELETE", "/api/me", map[string]string{"password": "password-gone@x.test"})

		p := browser.Open(t, site, vp)
		webSignIn(t, p, "root@x.test", "password-root@x.test", "/")
		p.Visit("/admin/access")
		if got := p.Heading(1); got != "Access log" {
			t.Errorf("the h1 is %q", got)
		}
		caption := "Staff reads of personal data, newest first"
		p.WaitFor("table", caption)
		rows := p.Table(caption)
		if len(rows) != 1+3 { // the header; Person One's details, Person Two's details and résumé link
			t.Errorf("%d rows: %q", len(rows), rows)
		}
		p.Axe()
		webShot(p, "access", "list", vp)
		p.Click("button", "Show reads about Person One")
		p.WaitText("Showing reads about Person One.")
		if !strings.Contains(p.URL(), "subject="+one.String()) {
			t.Errorf("the filter is not in the URL: %s", p.URL())
		}
		p.Reload()
		p.WaitText("Showing reads about Person One.")
		if rows := p.Table(caption); len(rows) != 1+1 || !strings.Contains(strings.Join(rows[1], " "), "Staff Person") {
			t.Errorf("reads about Person One: %q", rows)
		}
		p.Axe()
		webShot(p, "access", "filtered", vp)

		p.Visit("/admin/system")
		p.WaitFor("heading", "Account erasures")
		p.WaitFor("table", "Account erasures, the soonest first")
		p.WaitText(gone.String())
		p.WaitText("Waiting (can be kept)")
		p.WaitText("The retention run has not run yet.")
		if p.HasText("Gone Person") || p.HasText("gone@x.test") {
			t.Error("the operator page names the person being erased")
		}
		p.Axe()
		webShot(p, "system", "privacy", vp)
	})
}
