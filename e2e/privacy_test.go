package e2e

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	sdkclient "go.temporal.io/sdk/client"

	"hackdesk/app"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/membership"
	"hackdesk/internal/platform/payloadcodec"
	"hackdesk/workflows"
)

// privacyApp is an app whose erasure grace is short (ERASURE_GRACE as the
// tests set it).
func privacyApp(t *testing.T, grace time.Duration) (*app.App, *client) {
	t.Helper()
	cfg := testenv.Config(t)
	cfg.ErasureGrace = grace
	a := testenv.App(t, cfg)
	return a, &client{t: t, base: a.URL()}
}

// erasureResult waits for the nth run of a profile's erasure to start and
// for the latest run to end.
func erasureResult(t *testing.T, a *app.App, id uuid.UUID, nth int, within time.Duration) workflows.AccountErasureResult {
	t.Helper()
	ctx := context.Background()
	wid := workflows.AccountErasureID(id)
	testenv.Eventually(t, 20*time.Second, func() (bool, string) {
		n := erasureRuns(t, a, id)
		return n >= nth, fmt.Sprintf("%d runs of the erasure, waiting for run %d", n, nth)
	})
	var res workflows.AccountErasureResult
	cctx, cancel := context.WithTimeout(ctx, within)
	defer cancel()
	if err := a.Temporal.GetWorkflow(ctx, wid, "").Get(cctx, &res); err != nil {
		t.Fatalf("erasure of %s: %v", id, err)
	}
	return res
}

// erasureRuns counts the runs of a profile's erasure.
func erasureRuns(t *testing.T, a *app.App, id uuid.UUID) int {
	t.Helper()
	resp, err := a.Temporal.ListWorkflow(context.Background(), &workflowservice.ListWorkflowExecutionsRequest{
		Query: fmt.Sprintf("WorkflowId = '%s'", workflows.AccountErasureID(id))})
	if err != nil {
		t.Fatal(err)
	}
	return len(resp.Executions)
}

func TestAccountDeletion(t *testing.T) {
	t.Parallel()
	a, anon := privacyApp(t, 3*time.Second)
	ctx := context.Background()
	const email = "grace.hopper@example.org"
	pw := "password-" + email
	me := account(t, a, email, "Grace Hopper", "member")
	app := seedApplication(t, a, me, "submitted")
	reviewer := as(t, a, anon, account(t, a, "rev@example.com", "Rev", "admin"))
	super := as(t, a, anon, account(t, a, "root@example.com", "Root", "superadmin"))
	c := login(t, anon, email, pw)

	// ErrWrongPassword
	{
		r := c.expect(http.StatusForbidden, "DELETE", "/api/me", map[string]string{"password": "not-it"})
		if m := r.Map(t); m["error"] != "Wrong password" {
			t.Fatalf("body %s", r.Body)
		}
		// Nothing locked.
		c.expect(http.StatusOK, "GET", "/api/profile", nil)
		if n := countRows(t, a, `SELECT count(*) FROM profiles WHERE id = $1 AND erase_at IS NOT NULL`, me); n != 0 {
			t.Fatal("a wrong password locked the account")
		}
	}

	// ErrLastSuperadmin
	{
		r := super.expect(http.StatusConflict, "DELETE", "/api/me", map[string]string{"password": "password-root@example.com"})
		if m := r.Map(t); m["error"] != "Account cannot be deleted" || !strings.Contains(m["message"].(string), "superadmin") {
			t.Fatalf("body %s", r.Body)
		}
	}

	var eraseAt time.Time
	// LockedAtOnce
	{
		var out struct {
			EraseAt time.Time `json:"erase_at"`
		}
		r := c.expect(http.StatusAccepted, "DELETE", "/api/me", map[string]string{"password": pw})
		r.JSON(t, &out)
		eraseAt = out.EraseAt
		if d := time.Until(eraseAt); d <= 0 || d > 4*time.Second {
			t.Fatalf("erase_at %v is not ERASURE_GRACE ahead", eraseAt)
		}
		c.expect(http.StatusUnauthorized, "GET", "/api/profile", nil)
		// Signing in says when, and offers nothing but keeping it.
		r = anon.expect(http.StatusForbidden, "POST", "/api/auth/login", map[string]string{"email": email, "password": pw})
		if m := r.Map(t); m["error"] != "Account scheduled for deletion" || !strings.Contains(m["message"].(string), " on ") {
			t.Fatalf("login during the grace: %s", r.Body)
		}
		// A wrong password during the grace says nothing of it.
		anon.expect(http.StatusUnauthorized, "POST", "/api/auth/login", map[string]string{"email": email, "password": "nope-nope"})
	}

	// KeepMyAccount
	{
		anon.expect(http.StatusUnauthorized, "POST", "/api/auth/keep", map[string]string{"email": email, "password": "nope-nope"})
		var out struct {
			Token string `json:"token"`
		}
		anon.expect(http.StatusOK, "POST", "/api/auth/keep", map[string]string{"email": email, "password": pw}).JSON(t, &out)
		kept := &client{t: t, base: anon.base, token: out.Token}
		kept.expect(http.StatusOK, "GET", "/api/profile", nil)
		if res := erasureResult(t, a, me, 1, 20*time.Second); res.Outcome != workflows.ErasureKept {
			t.Fatalf("erasure %+v, want kept", res)
		}
		testenv.RecordHistory(t, a.Temporal, workflows.AccountErasureID(me), "account_erasure_kept")
		// Past the first date, the account is still whole.
		time.Sleep(time.Until(eraseAt) + time.Second)
		kept.expect(http.StatusOK, "GET", "/api/profile", nil)
		c = kept
	}

	// ErasedToTheEnd
	{
		c.expect(http.StatusAccepted, "DELETE", "/api/me", map[string]string{"password": pw})
		if res := erasureResult(t, a, me, 2, 40*time.Second); res.Outcome != workflows.ErasureErased || res.Erased.Applications != 1 {
			t.Fatalf("erasure %+v, want erased", res)
		}
		testenv.RecordHistory(t, a.Temporal, workflows.AccountErasureID(me), "account_erasure")
		if n := erasureRuns(t, a, me); n != 2 {
			t.Errorf("%d runs of the erasure, want 2 (kept, then erased)", n)
		}
		// The email is unknown now, and may sign up again as a new person.
		r := anon.expect(http.StatusUnauthorized, "POST", "/api/auth/login", map[string]string{"email": email, "password": pw})
		if m := r.Map(t); m["error"] != "Invalid email or password" {
			t.Errorf("login after erasure: %s", r.Body)
		}
		anon.expect(http.StatusUnauthorized, "POST", "/api/auth/keep", map[string]string{"email": email, "password": pw})
		anon.expect(http.StatusCreated, "POST", "/api/auth/signup",
			map[string]string{"email": email, "password": "a-new-person-2", "display_name": "Grace Again"})
		if n := countRows(t, a, `SELECT count(*) FROM profiles WHERE lower(email) = lower($1)`, email); n != 1 {
			t.Errorf("%d accounts with the address after signing up again", n)
		}
		// The application left the queue and the table; its counters stay.
		reviewer.expect(http.StatusNotFound, "GET", "/api/applications/random", nil)
		super.expect(http.StatusNotFound, "GET", "/api/admin/applications/"+app.String(), nil)
		var list struct {
			Total int `json:"total"`
		}
		super.expect(http.StatusOK, "GET", "/api/admin/applications", nil).JSON(t, &list)
		if list.Total != 0 {
			t.Errorf("the admin table lists %d applications", list.Total)
		}
		var dash struct {
			Counts struct {
				Applications int `json:"applications"`
			} `json:"counts"`
		}
		super.expect(http.StatusOK, "GET", "/api/admin/dashboard?interval=24", nil).JSON(t, &dash)
		if dash.Counts.Applications != 1 {
			t.Errorf("the dashboard counts %d applications, want the erased one still counted", dash.Counts.Applications)
		}
		// The operator page's list shows it erased, by id only.
		var er struct {
			Erasures []struct {
				ProfileID string `json:"profile_id"`
				Status    string `json:"status"`
			} `json:"erasures"`
		}
		r = super.expect(http.StatusOK, "GET", "/api/admin/erasures", nil)
		r.JSON(t, &er)
		if len(er.Erasures) != 1 || er.Erasures[0].ProfileID != me.String() || er.Erasures[0].Status != "erased" {
			t.Errorf("erasures %s", r.Body)
		}
		if bytes.Contains(r.Body, []byte("Hopper")) || bytes.Contains(r.Body, []byte(email)) {
			t.Errorf("the erasures list names the person: %s", r.Body)
		}
		if hits := testenv.ScanDatabase(t, a.Store, "grace.hopper", "Grace Hopper"); len(hits) != 1 ||
			!strings.Contains(hits[0], "profiles.email") && !strings.Contains(hits[0], "emails") {
			// Only the new account (and the email to it) may hold them now.
			t.Logf("after erasure and the new sign-up: %v", hits)
		}
		_ = ctx
	}
}

// Two deletions at once schedule one erasure: the same date, one outbox
// row, one run.
func TestDeleteTwice(t *testing.T) {
	t.Parallel()
	a, anon := privacyApp(t, time.Hour)
	const email = "twice@example.org"
	me := account(t, a, email, "Twice", "member")
	c := as(t, a, anon, me)
	c.offSpec = true // 401s of the loser are checked below
	var wg sync.WaitGroup
	status := make([]int, 2)
	dates := make([]string, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := c.do("DELETE", "/api/me", map[string]string{"password": "password-" + email})
			status[i] = r.Status
			dates[i] = string(r.Body)
		}()
	}
	wg.Wait()
	for i, s := range status {
		if s != http.StatusAccepted && s != http.StatusUnauthorized {
			t.Fatalf("delete %d: %d %s", i, s, dates[i])
		}
	}
	if status[0] == http.StatusAccepted && status[1] == http.StatusAccepted && dates[0] != dates[1] {
		t.Errorf("two dates: %s, %s", dates[0], dates[1])
	}
	if n := countRows(t, a, `SELECT count(*) FROM workflow_starts WHERE workflow_id = $1`, workflows.AccountErasureID(me)); n != 1 {
		t.Errorf("%d outbox rows for the erasure, want 1", n)
	}
	testenv.Eventually(t, 20*time.Second, func() (bool, string) {
		n := erasureRuns(t, a, me)
		return n == 1, fmt.Sprintf("%d runs", n)
	})
	// A hiring-term exec is refused.
	term := testenv.Term(t, a.Store, testenv.TermOpts{StartsOn: time.Date(2091, 9, 1, 0, 0, 0, 0, time.UTC)})
	exec := account(t, a, "exec@example.org", "Exec", "admin")
	testenv.ExecRole(t, a.Store, exec, testenv.ExecRoleOpts{Term: &term.ID})
	r := as(t, a, anon, exec).expect(http.StatusConflict, "DELETE", "/api/me", map[string]string{"password": "password-exec@example.org"})
	if m := r.Map(t); m["error"] != "Account cannot be deleted" {
		t.Errorf("exec: %s", r.Body)
	}
}

// An erasure racing reviews, decisions and a broadcast about the person:
// when the run ends, nothing of them is left, and no step failed.
func TestErasureRaces(t *testing.T) {
	t.Parallel()
	cfg := testenv.Config(t)
	cfg.ErasureGrace = 2 * time.Second
	cfg.BroadcastRate = 3 // a broadcast to 21 people takes 7 s: it is sending while the erasure runs
	a := testenv.App(t, cfg)
	anon := &client{t: t, base: a.URL()}
	const email = "race.person@example.org"
	const name = "Racey Person"
	me := account(t, a, email, name, "member")
	appID := testenv.Application(t, a.Store, me, testenv.ApplicationOpts{Submitted: true, MarketingOptIn: true}).ID
	if _, err := a.Store.Pool().Exec(context.Background(), `UPDATE profiles SET marketing_opt_in = true WHERE id = $1`, me); err != nil {
		t.Fatal(err)
	}
	super := as(t, a, anon, account(t, a, "root@example.com", "Root", "superadmin"))
	var reviewers []*client
	for i := range 6 {
		reviewers = append(reviewers, as(t, a, anon, account(t, a, fmt.Sprintf("rev%d@example.com", i), "Rev", "admin")))
	}
	for _, r := range reviewers {
		r.offSpec = true
	}
	super.offSpec = true
	for i := range 20 {
		testenv.Account(t, a.Store, testenv.AccountOpts{Email: fmt.Sprintf("fan%d@example.com", i), MarketingOptIn: true})
	}
	// A broadcast that names the person in its recipient list, sending
	// when the erasure begins.
	var bc struct {
		Recipients int `json:"recipients"`
	}
	super.expect(http.StatusAccepted, "POST", "/api/admin/broadcasts", map[string]any{"subject": "Before",
		"body": "Hello", "audience": map[string]any{"kind": "marketing"}, "marketing": true}).JSON(t, &bc)
	if bc.Recipients != 21 {
		t.Fatalf("the broadcast goes to %d people, want 21", bc.Recipients)
	}
	c := as(t, a, anon, me)
	c.expect(http.StatusAccepted, "DELETE", "/api/me", map[string]string{"password": "password-" + email})

	// Around the end of the grace, while the broadcast sends: reviews and
	// decisions.
	deadline := time.Now().Add(3 * time.Second)
	var wg sync.WaitGroup
	for i, r := range reviewers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 400 * time.Millisecond)
			r.do("POST", "/api/review/submit", map[string]any{"application_id": appID,
				"resume_score": 2, "links_score": 1, "q1_score": 5, "q2_score": 2})
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for time.Now().Before(deadline) {
			super.do("POST", "/api/admin/applications/decisions", map[string]any{"application_ids": []uuid.UUID{appID},
				"decision": "offer", "rsvp_deadline": time.Now().Add(72 * time.Hour).UTC().Format(time.RFC3339)})
			time.Sleep(300 * time.Millisecond)
		}
	}()
	wg.Wait()
	res := erasureResult(t, a, me, 1, 60*time.Second)
	if res.Outcome != workflows.ErasureErased {
		t.Fatalf("erasure %+v", res)
	}
	// Let the broadcasts and emails started meanwhile end.
	testenv.Eventually(t, 60*time.Second, func() (bool, string) {
		n := countRows(t, a, `SELECT count(*) FROM broadcasts WHERE status = 'sending'`)
		return n == 0, fmt.Sprintf("%d broadcasts still sending", n)
	})
	time.Sleep(time.Second)
	if n := countRows(t, a, `SELECT sent + failed + skipped FROM broadcasts WHERE subject = 'Before'`); n != 21 {
		t.Errorf("the broadcast accounted for %d of its 21 places", n)
	}
	if hits := testenv.ScanDatabase(t, a.Store, email, name, "race.person"); len(hits) > 0 {
		t.Errorf("left after the erasure:\n%s", strings.Join(hits, "\n"))
	}
	// No run of this app failed.
	resp, err := a.Temporal.ListWorkflow(context.Background(), &workflowservice.ListWorkflowExecutionsRequest{
		Query: fmt.Sprintf("TaskQueue = '%s' AND ExecutionStatus = 'Failed'", a.Config.TaskQueue)})
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range resp.Executions {
		t.Errorf("failed run %s (%s)", ex.Execution.WorkflowId, ex.Type.Name)
	}
}

// TestExportAndAccessLog: a staff member opens the details of an
// application (logged, with the résumé link; the review queue is not),
// then the applicant downloads their data: the ZIP's data.json holds the
// application and says which role read it, never who, and its résumé.
func TestExportAndAccessLog(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	const email = "export.me@example.org"
	c, me := member(t, a, anon, email, "Export Me")
	createApplication(t, c, me)
	c.upload("Ada Lovelace CV.pdf", pdfFile("export"))
	staffID := account(t, a, "staff@example.com", "Staff Person", "admin")
	staff := as(t, a, anon, staffID)
	super := as(t, a, anon, account(t, a, "root@example.com", "Root", "superadmin"))
	appID := testenv.Application(t, a.Store, account(t, a, "other@example.com", "Other", "member"),
		testenv.ApplicationOpts{Submitted: true}).ID
	_ = appID
	var mine appJSON
	c.expect(http.StatusOK, "GET", "/api/applications", nil).JSON(t, &mine)

	// The queue's résumé links are not logged; the details are.
	staff.expect(http.StatusOK, "GET", "/api/applications/random", nil)
	if n := countRows(t, a, `SELECT count(*) FROM access_log`); n != 0 {
		t.Fatalf("the review queue wrote %d access-log rows", n)
	}
	staff.expect(http.StatusOK, "GET", "/api/admin/applications/"+mine.ID.String(), nil)
	var log struct {
		Items []struct {
			Action    string `json:"action"`
			ActorRole string `json:"actor_role"`
			Actor     struct {
				ID uuid.UUID `json:"id"`
			} `json:"actor"`
			Subject struct {
				ID uuid.UUID `json:"id"`
			} `json:"subject"`
		} `json:"items"`
		Total int `json:"total"`
	}
	super.expect(http.StatusOK, "GET", "/api/admin/access?subject="+me.String(), nil).JSON(t, &log)
	if log.Total != 2 || log.Items[0].Actor.ID != staffID || log.Items[0].Subject.ID != me || log.Items[0].ActorRole != "admin" {
		t.Fatalf("access log %+v", log)
	}
	actions := log.Items[0].Action + "," + log.Items[1].Action
	if !strings.Contains(actions, "application.view") || !strings.Contains(actions, "resume.link") {
		t.Errorf("actions %s", actions)
	}
	super.expect(http.StatusOK, "GET", "/api/admin/access?actor="+uuid.NewString(), nil).JSON(t, &log)
	if log.Total != 0 {
		t.Errorf("an unknown actor has %d rows", log.Total)
	}
	super.expect(http.StatusBadRequest, "GET", "/api/admin/access?subject=nope", nil)
	staff.expect(http.StatusForbidden, "GET", "/api/admin/access", nil)
	anon.expect(http.StatusUnauthorized, "GET", "/api/admin/access", nil)

	// The export.
	anon.expect(http.StatusUnauthorized, "GET", "/api/me/export", nil)
	r := c.expect(http.StatusOK, "GET", "/api/me/export", nil)
	if ct := r.Header.Get("Content-Type"); ct != "application/zip" {
		t.Errorf("content type %q", ct)
	}
	if n, _ := strconv.Atoi(r.Header.Get("Content-Length")); n != len(r.Body) || n == 0 {
		t.Errorf("Content-Length %s, body %d bytes", r.Header.Get("Content-Length"), len(r.Body))
	}
	zr, err := zip.NewReader(bytes.NewReader(r.Body), int64(len(r.Body)))
	if err != nil {
		t.Fatal(err)
	}
	var data struct {
		Profile struct {
			Email string `json:"email"`
		} `json:"profile"`
		Applications []struct {
			ID          uuid.UUID `json:"id"`
			ReviewCount int       `json:"review_count"`
			ResumeFile  *string   `json:"resume_file"`
			Phone       *string   `json:"phone"`
		} `json:"applications"`
		StaffReads []map[string]any `json:"staff_reads"`
	}
	var resume []byte
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		switch {
		case f.Name == "data.json":
			if err := json.Unmarshal(b, &data); err != nil {
				t.Fatal(err)
			}
			for _, secret := range []string{"Staff Person", "staff@example.com", staffID.String()} {
				if bytes.Contains(b, []byte(secret)) {
					t.Errorf("data.json names the staff member (%s)", secret)
				}
			}
		case strings.HasPrefix(f.Name, "resumes/"):
			resume = b
		}
	}
	if data.Profile.Email != email || len(data.Applications) != 1 || data.Applications[0].ID != mine.ID || data.Applications[0].ResumeFile == nil {
		t.Fatalf("data.json %+v", data)
	}
	if !bytes.Equal(resume, pdfFile("export")) {
		t.Errorf("the résumé in the ZIP differs (%d bytes)", len(resume))
	}
	if len(data.StaffReads) != 2 || data.StaffReads[0]["role"] != "admin" {
		t.Errorf("staff reads %v", data.StaffReads)
	}
	// Rate limited: 5 an hour.
	c.offSpec = true
	for range 4 {
		c.expect(http.StatusOK, "GET", "/api/me/export", nil)
	}
	if r := c.do("GET", "/api/me/export", nil); r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" {
		t.Errorf("the sixth export: %d", r.Status)
	}
}

// TestAccessLogExportsAndQR: the onboarding CSV writes one row per person
// in it, the member's QR page one.
func TestAccessLogExportsAndQR(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	ctx := context.Background()
	term := testenv.Term(t, a.Store, testenv.TermOpts{Active: true, StartsOn: time.Date(2092, 9, 1, 0, 0, 0, 0, time.UTC)})
	pres := account(t, a, "pres@example.com", "Pres", "admin")
	testenv.ExecRole(t, a.Store, pres, testenv.ExecRoleOpts{Position: "President", Term: &term.ID})
	var people []uuid.UUID
	for i := range 3 {
		p := account(t, a, fmt.Sprintf("exec%d@example.com", i), "Exec", "admin")
		testenv.ExecForm(t, a.Store, term.ID, p, testenv.ExecFormOpts{Email: fmt.Sprintf("exec%d@example.com", i)})
		people = append(people, p)
	}
	pc := as(t, a, anon, pres)
	pc.expect(http.StatusOK, "GET", "/api/onboarding/export.csv?term_id="+term.ID.String(), nil)
	if n := countRows(t, a, `SELECT count(*) FROM access_log WHERE action = 'onboarding.csv' AND actor_id = $1 AND actor_role = 'admin, President'`, pres); n != 3 {
		t.Errorf("%d rows for a CSV of 3 people", n)
	}
	m := testenv.Membership(t, a.Store, people[0], term.ID, testenv.MembershipOpts{})
	sig := qrSig(t, a, m.ID)
	pc.expect(http.StatusOK, "GET", "/api/admin/memberships/"+m.ID.String()+"?sig="+sig, nil)
	var subject uuid.UUID
	if err := a.Store.Pool().QueryRow(ctx, `SELECT subject_id FROM access_log WHERE action = 'membership.qr'`).Scan(&subject); err != nil || subject != people[0] {
		t.Errorf("QR page row: %v %v", subject, err)
	}
}

// TestRetentionRun runs the Retention workflow (as the hackdesk-retention
// schedule does) on an edition past its date: its applications are
// purged, the dashboard reads the same, and the operator page shows the
// run; the editions API gives each edition's purge date.
func TestRetentionRun(t *testing.T) {
	t.Parallel()
	cfg := testenv.Config(t)
	cfg.RetentionDays = 30
	a := testenv.App(t, cfg)
	anon := &client{t: t, base: a.URL()}
	ctx := context.Background()
	super := as(t, a, anon, account(t, a, "root@example.com", "Root", "superadmin"))
	reviewer := account(t, a, "rev@example.com", "Rev", "admin")
	ended := time.Now().Add(-40 * 24 * time.Hour)
	opens, closes, starts := ended.Add(-60*24*time.Hour), ended.Add(-20*24*time.Hour), ended.Add(-2*24*time.Hour)
	past := testenv.Hackathon(t, a.Store, testenv.HackathonOpts{OpensAt: opens, ClosesAt: &closes, StartsAt: &starts, EndsAt: &ended})
	for i := range 4 {
		p := account(t, a, fmt.Sprintf("app%d@example.com", i), "Applicant", "member")
		ap := testenv.Application(t, a.Store, p, testenv.ApplicationOpts{Submitted: true, Hackathon: past.ID})
		testenv.Review(t, a.Store, ap.ID, reviewer, int32(i%4), 2, int32(i), 1)
		if i < 2 {
			testenv.Decide(t, a.Store, ap.ID, testenv.Decision{Decision: "offer", Rsvp: "attending"})
		}
		if err := a.Blob.Put(ctx, *ap.ResumeKey, "application/pdf", bytes.NewReader(pdfFile("r")), int64(len(pdfFile("r")))); err != nil {
			t.Fatal(err)
		}
	}
	q := "?interval=24&hackathon=" + past.ID.String()
	before := super.expect(http.StatusOK, "GET", "/api/admin/dashboard"+q, nil).Body
	boardBefore := super.expect(http.StatusOK, "GET", "/api/admin/leaderboard?hackathon="+past.ID.String(), nil).Body

	var editions struct {
		Hackathons []struct {
			ID      uuid.UUID  `json:"id"`
			PurgeAt *time.Time `json:"purge_at"`
		} `json:"hackathons"`
	}
	super.expect(http.StatusOK, "GET", "/api/admin/hackathons", nil).JSON(t, &editions)
	for _, h := range editions.Hackathons {
		switch h.ID {
		case past.ID:
			if h.PurgeAt == nil || !h.PurgeAt.Equal(ended.Add(30*24*time.Hour).Truncate(time.Microsecond)) {
				t.Errorf("purge_at %v, want ends_at + 30 days", h.PurgeAt)
			}
		default:
			if h.PurgeAt != nil {
				t.Errorf("an edition open for good has purge_at %v", h.PurgeAt)
			}
		}
	}

	run, err := a.Temporal.ExecuteWorkflow(ctx, sdkclient.StartWorkflowOptions{ID: "hackdesk-retention-test-" + uuid.NewString(),
		TaskQueue: cfg.TaskQueue}, "Retention")
	if err != nil {
		t.Fatal(err)
	}
	var res workflows.RetentionResult
	cctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if err := run.Get(cctx, &res); err != nil {
		t.Fatal(err)
	}
	if res.Applications != 4 || res.Resumes != 4 {
		t.Errorf("result %+v", res)
	}
	testenv.RecordHistory(t, a.Temporal, run.GetID(), "retention")
	after := super.expect(http.StatusOK, "GET", "/api/admin/dashboard"+q, nil).Body
	boardAfter := super.expect(http.StatusOK, "GET", "/api/admin/leaderboard?hackathon="+past.ID.String(), nil).Body
	// The catering counts are the event day's: the purge clears the sizes
	// and diets they count, as docs/privacy.md says; the rest stays whole.
	if b, a := withoutCatering(t, before), withoutCatering(t, after); b != a {
		t.Errorf("the dashboard changed:\n%s\n%s", b, a)
	}
	if !bytes.Equal(boardBefore, boardAfter) {
		t.Errorf("the leaderboard changed:\n%s\n%s", boardBefore, boardAfter)
	}
	if n := countRows(t, a, `SELECT count(*) FROM applications WHERE hackathon_id = $1 AND (phone IS NOT NULL OR resume_key IS NOT NULL)`, past.ID); n != 0 {
		t.Errorf("%d applications keep identifying fields", n)
	}
	var ret struct {
		RetentionDays int `json:"retention_days"`
		LastRun       *struct {
			WorkflowID string         `json:"workflow_id"`
			Purged     map[string]int `json:"purged"`
		} `json:"last_run"`
	}
	super.expect(http.StatusOK, "GET", "/api/admin/retention", nil).JSON(t, &ret)
	if ret.RetentionDays != 30 || ret.LastRun == nil || ret.LastRun.WorkflowID != run.GetID() || ret.LastRun.Purged["applications"] != 4 {
		t.Errorf("retention %+v", ret)
	}
}

// TestPayloadKeyMissing: a history written under a key the worker does not
// hold (TEMPORAL_PAYLOAD_KEYS lost it) fails its workflow task with an
// error naming the key id, never decoding garbage; putting the key back
// would resume it.
func TestPayloadKeyMissing(t *testing.T) {
	t.Parallel()
	a, _ := newApp(t)
	ctx := context.Background()
	oldKeys := "retired:" + base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32))
	codec, err := payloadcodec.FromEnv(oldKeys)
	if err != nil {
		t.Fatal(err)
	}
	dc := payloadcodec.DataConverter(codec)
	old, err := sdkclient.Dial(sdkclient.Options{HostPort: a.Config.TemporalAddress, Namespace: a.Config.TemporalNamespace,
		DataConverter: dc, FailureConverter: payloadcodec.FailureConverter(dc)})
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	id := "key-missing-" + uuid.NewString()
	if _, err := old.ExecuteWorkflow(ctx, sdkclient.StartWorkflowOptions{ID: id, TaskQueue: a.Config.TaskQueue},
		"AccountErasure", workflows.AccountErasureInput{ProfileID: uuid.New()}); err != nil {
		t.Fatal(err)
	}
	defer a.Temporal.TerminateWorkflow(ctx, id, "", "test over") //nolint:errcheck
	var msg string
	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		it := a.Temporal.GetWorkflowHistory(ctx, id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for it.HasNext() {
			ev, err := it.Next()
			if err != nil {
				t.Fatal(err)
			}
			if f := ev.GetWorkflowTaskFailedEventAttributes().GetFailure(); f != nil {
				// The failure is encoded like every payload: decode it with
				// the worker's own converter.
				msg = payloadcodec.FailureConverter(a.DataConverter()).FailureToError(f).Error()
				return true, ""
			}
		}
		types := ""
		it = a.Temporal.GetWorkflowHistory(ctx, id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for it.HasNext() {
			ev, _ := it.Next()
			types += ev.GetEventType().String() + " "
		}
		return false, "no failed workflow task yet: " + types
	})
	if !strings.Contains(msg, `key id "retired"`) || !strings.Contains(msg, "TEMPORAL_PAYLOAD_KEYS") {
		t.Fatalf("the task failed with %q, want the missing key id named", msg)
	}
	desc, err := a.Temporal.DescribeWorkflowExecution(ctx, id, "")
	if err != nil {
		t.Fatal(err)
	}
	if st := desc.WorkflowExecutionInfo.Status; st != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
		t.Errorf("status %v: the run should wait for its key, not end", st)
	}
}

// qrSig is the signature a member's QR link carries for a membership.
func qrSig(t *testing.T, a *app.App, id uuid.UUID) string {
	t.Helper()
	key, err := a.Config.SigningKeyBytes()
	if err != nil {
		t.Fatal(err)
	}
	return url.QueryEscape(membership.QRSigner(key).Sign(id.String()))
}

// withoutCatering is a dashboard answer without its catering counts.
func withoutCatering(t *testing.T, body []byte) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "catering")
	delete(m, "catering_checked_in")
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}
