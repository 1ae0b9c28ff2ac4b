package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"hackdesk/app"
	"hackdesk/dev/devstack"
	"hackdesk/dev/testenv"
	"hackdesk/internal/platform/config"
	"hackdesk/internal/platform/schedules"
	"hackdesk/outbox"
	"hackdesk/workflows"
)

// TestDev starts the real `hackdesk dev` wiring (private PostgreSQL, the
// Temporal dev server, versitygw, migrations, worker and API) on free ports,
// sends an email through the real Temporal server, and checks that a second
// start with the same key records and sends nothing new.
func TestDev(t *testing.T) {
	if err := testenv.SetTimeZone(); err != nil {
		t.Fatal(err)
	}
	// Not t.TempDir: its parent is private, and PostgreSQL runs as another
	// account when the tests run as root.
	dir, err := os.MkdirTemp("", "hackdesk-dev-*")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	base := config.Defaults()
	base.HTTPAddr = "127.0.0.1:0"
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var mailOut strings.Builder
	d, err := app.StartDev(ctx, app.DevOptions{
		Options: devstack.Options{Base: base, DataDir: dir, BinDir: testenv.BinDir(), Fast: true},
		Logger:  testenv.Logger(t),
		MailOut: &syncWriter{b: &mailOut},
	})
	if err != nil {
		t.Fatalf("StartDev: %v", err)
	}
	closed := false
	defer func() {
		if !closed {
			d.Close()
		}
	}()

	waitStatus(t, d.URL()+"/readyz", http.StatusOK)
	waitStatus(t, d.Stack.UIURL+"/", http.StatusOK)
	// The dev stack's workers are the build "dev", made current by the
	// first start (a rebuilt binary stays that version). Setting it is
	// tried again in the background when the server is slow to answer.
	if d.Version().BuildID != "dev" {
		t.Fatalf("dev version %+v, want the build dev", d.Version())
	}
	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		dep, err := d.Temporal.WorkerDeploymentClient().GetHandle(d.Config.TaskQueue).Describe(ctx, client.WorkerDeploymentDescribeOptions{})
		return err == nil && dep.Info.RoutingConfig.CurrentVersion != nil && dep.Info.RoutingConfig.CurrentVersion.BuildID == "dev",
			fmt.Sprintf("dev deployment %+v (%v); want the build dev current", dep.Info.RoutingConfig, err)
	})
	checkSchedules(t, ctx, d)
	if got := get(t, d.URL()+"/api/admin/emails"); got != http.StatusUnauthorized {
		t.Fatalf("anonymous GET /api/admin/emails = %d, want 401", got)
	}
	// Without GITHUB_TOKEN the stand-in GitHub is the code host.
	if d.FakeGitHub == nil || d.CodeHost == nil || !strings.Contains(d.CodeHostInUse(), "stand-in GitHub") ||
		d.Config.GitHubAPIURL != d.FakeGitHub.URL() || !strings.HasPrefix(d.FakeGitHub.URL(), "http://127.0.0.1:") {
		t.Fatalf("code host: %q (API %q)", d.CodeHostInUse(), d.Config.GitHubAPIURL)
	}

	// A sign-up over HTTP records its confirmation email and starts
	// SendEmail on the real Temporal server.
	resp, err := http.Post(d.URL()+"/api/auth/signup", "application/json",
		strings.NewReader(`{"email":"grace@example.com","password":"cobol-compiler","display_name":"Grace"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("signup = %d, want 201", resp.StatusCode)
	}
	var confirmKey string
	if err := d.Store.Pool().QueryRow(ctx, `SELECT idempotency_key FROM emails WHERE kind = 'confirm'`).Scan(&confirmKey); err != nil {
		t.Fatalf("confirmation email not recorded: %v", err)
	}
	// The sign-up queued the workflow in the outbox; the dispatcher starts
	// it once the transaction has committed.
	var first workflows.SendEmailResult
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := d.Temporal.GetWorkflow(ctx, workflows.SendEmailID(confirmKey), "").Get(ctx, &first)
		if err == nil && first.Status == "sent" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("confirmation SendEmail run = %+v, %v; want sent", first, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	testenv.RecordHistory(t, d.Temporal, workflows.SendEmailID(confirmKey), "send_email_prerecorded")
	// Starting it again under the same key records and sends nothing new.
	againReq := workflows.SendEmailRequest(workflows.SendEmailInput{Key: confirmKey, Kind: "confirm", To: "grace@example.com"})
	againReq.ID += ":again"
	again, err := outbox.Start(ctx, d.Temporal, d.Config.TaskQueue, againReq)
	if err != nil {
		t.Fatal(err)
	}
	var againRes workflows.SendEmailResult
	if err := again.Get(ctx, &againRes); err != nil || againRes.Recorded || againRes.Status != "sent" {
		t.Fatalf("second start = %+v, %v; want not recorded, sent", againRes, err)
	}
	var confirmRows int
	if err := d.Store.Pool().QueryRow(ctx, `SELECT count(*) FROM emails WHERE kind = 'confirm' AND status = 'sent' AND attempts = 1`).Scan(&confirmRows); err != nil || confirmRows != 1 {
		t.Fatalf("confirmation emails sent once: %d (%v), want 1", confirmRows, err)
	}
	if n := strings.Count(mailOut.String(), "Subject: Confirm your hackdesk account"); n != 1 {
		t.Fatalf("confirmation printed %d times, want 1", n)
	}

	in := workflows.SendEmailInput{Key: "dev-e2e:1", Kind: "notice", To: "ada@example.com",
		Data: map[string]string{"subject": "Welcome", "body": "Hello from hackdesk"}}
	id := workflows.SendEmailID(in.Key)
	for i, wantRecorded := range []bool{true, false} {
		run, err := outbox.Start(ctx, d.Temporal, d.Config.TaskQueue, workflows.SendEmailRequest(in))
		if err != nil {
			t.Fatalf("start %d: %v", i, err)
		}
		var res workflows.SendEmailResult
		if err := run.Get(ctx, &res); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		if res.Status != "sent" || (i == 0 && res.Recorded != wantRecorded) {
			t.Fatalf("run %d result = %+v", i, res)
		}
	}
	// The first run's history feeds the replay test.
	testenv.RecordHistory(t, d.Temporal, id, "send_email")

	var rows, sent int
	if err := d.Store.Pool().QueryRow(ctx,
		`SELECT count(*), count(*) FILTER (WHERE status = 'sent' AND attempts = 1) FROM emails WHERE kind = 'notice'`).Scan(&rows, &sent); err != nil {
		t.Fatal(err)
	}
	if rows != 1 || sent != 1 {
		t.Fatalf("emails: %d rows, %d sent once; want 1 and 1", rows, sent)
	}
	if n := strings.Count(mailOut.String(), "Subject: Welcome"); n != 1 {
		t.Fatalf("log driver printed the email %d times, want 1", n)
	}

	// A run with a fresh ID but the same key (a workflow started again after
	// its history was purged) still records and sends nothing new.
	rerunReq := workflows.SendEmailRequest(in)
	rerunReq.ID = id + ":again"
	rerun, err := outbox.Start(ctx, d.Temporal, d.Config.TaskQueue, rerunReq)
	if err != nil {
		t.Fatal(err)
	}
	var res workflows.SendEmailResult
	if err := rerun.Get(ctx, &res); err != nil {
		t.Fatal(err)
	}
	if res.Recorded || res.Status != "sent" {
		t.Fatalf("second key use = %+v, want not recorded, sent", res)
	}
	if n := strings.Count(mailOut.String(), "Subject: Welcome"); n != 1 {
		t.Fatalf("log driver printed the email %d times after a repeat, want 1", n)
	}

	ports := []string{d.Config.TemporalAddress, strings.TrimPrefix(d.Config.S3Endpoint, "http://"), d.Addr(),
		strings.TrimPrefix(d.FakeGitHub.URL(), "http://")}
	d.Close()
	closed = true
	for _, addr := range ports {
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			t.Errorf("%s still accepts connections after Close", addr)
		}
	}
}

// checkSchedules: start-up created the recurring jobs' schedules (in the
// background), as defined, and ensuring them again (a second start)
// creates nothing.
func checkSchedules(t *testing.T, ctx context.Context, d *app.Dev) {
	t.Helper()
	tq := d.Config.TaskQueue
	sweep, reconcile := schedules.SweepID(tq), schedules.TermReconcileID(tq)
	if sweep != "hackdesk-sweep" || reconcile != "hackdesk-term-reconcile" {
		t.Fatalf("the default queue's schedules are %s and %s", sweep, reconcile)
	}
	for _, c := range []struct {
		id, workflow string
		every        time.Duration
	}{{sweep, "Sweep", schedules.SweepEvery}, {reconcile, "TermReconcile", schedules.TermReconcileEvery}} {
		var desc *client.ScheduleDescription
		testenv.Eventually(t, 30*time.Second, func() (bool, string) {
			var err error
			desc, err = d.Temporal.ScheduleClient().GetHandle(ctx, c.id).Describe(ctx)
			return err == nil, fmt.Sprintf("schedule %s after start-up: %v", c.id, err)
		})
		action, ok := desc.Schedule.Action.(*client.ScheduleWorkflowAction)
		if !ok || action.Workflow != c.workflow || action.TaskQueue != d.Config.TaskQueue ||
			len(desc.Schedule.Spec.Intervals) != 1 || desc.Schedule.Spec.Intervals[0].Every != c.every ||
			desc.Schedule.Policy.Overlap != enumspb.SCHEDULE_OVERLAP_POLICY_SKIP {
			t.Fatalf("schedule %s = %+v %+v %+v", c.id, desc.Schedule.Action, desc.Schedule.Spec, desc.Schedule.Policy)
		}
	}
	again, err := d.EnsureSchedules(ctx)
	if err != nil || len(again.Created)+len(again.Updated) != 0 || len(again.Unchanged) != 2 {
		t.Fatalf("second start: %+v, %v; want both unchanged", again, err)
	}
	// The list (what the UI's Schedules page shows) is eventually
	// consistent: it comes to hold the two, and only them.
	testenv.Eventually(t, 20*time.Second, func() (bool, string) {
		iter, err := d.Temporal.ScheduleClient().List(ctx, client.ScheduleListOptions{})
		if err != nil {
			return false, err.Error()
		}
		var ids []string
		for iter.HasNext() {
			e, err := iter.Next()
			if err != nil {
				return false, err.Error()
			}
			ids = append(ids, e.ID)
		}
		sort.Strings(ids)
		return slices.Equal(ids, []string{sweep, reconcile}), fmt.Sprintf("schedules listed: %v", ids)
	})
}

func get(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		t.Fatalf("GET %s: body: %v", url, err)
	}
	return resp.StatusCode
}

func waitStatus(t *testing.T, url string, want int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(url)
		if err == nil {
			var body map[string]any
			_ = json.NewDecoder(resp.Body).Decode(&body)
			resp.Body.Close()
			if resp.StatusCode == want {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never answered %d (last err %v)", url, want, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
