package e2e

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	sdkclient "go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"hackdesk/app"
	"hackdesk/dev/testenv"
	"hackdesk/internal/platform/runs"
	"hackdesk/internal/platform/schedules"
	"hackdesk/workflows"
)

// testSchedule is one of hackdesk's schedules of the test's task queue
// (so under an ID of the test's own: the Temporal server is shared by
// every test), deleted when the test ends.
func testSchedule(t *testing.T, a *app.App, id string) schedules.Schedule {
	t.Helper()
	for _, s := range schedules.All(a.Config.TaskQueue) {
		if s.ID == id {
			t.Cleanup(func() {
				_ = a.Temporal.ScheduleClient().GetHandle(context.Background(), s.ID).Delete(context.Background())
			})
			return s
		}
	}
	t.Fatalf("no schedule %s", id)
	return schedules.Schedule{}
}

// TestSweepSchedule triggers the sweep's schedule on the real Temporal
// server: its Sweep run deletes the expired webhook tokens, idempotency
// keys and rate-limit counters and keeps the live ones, and carries the
// kind and summary the UI filters on. Ensuring the schedule again changes
// nothing; a changed interval is updated in place.
func TestSweepSchedule(t *testing.T) {
	t.Parallel()
	a, _ := newApp(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	actor := account(t, a, "keys@x.test", "Keys", "member")
	exec := func(sql string, args ...any) {
		t.Helper()
		if _, err := a.Store.Pool().Exec(ctx, sql, args...); err != nil {
			t.Fatal(err)
		}
	}
	exec(`INSERT INTO webhook_tokens (token, body_sha256, received_at) VALUES
		('old-token', '\x00', now() - interval '11 minutes'), ('live-token', '\x00', now())`)
	exec(`INSERT INTO idempotency_keys (actor_id, route, key, request_hash, created_at) VALUES
		($1, 'POST /x', 'old-key', sha256('a'), now() - interval '8 days'),
		($1, 'POST /x', 'live-key', sha256('b'), now())`, actor)
	exec(`INSERT INTO rate_limit_hits (key, window_start, count, expires_at) VALUES
		('old-limit', now() - interval '2 hours', 1, now() - interval '1 minute'),
		('live-limit', now(), 1, now() + interval '1 hour')`)

	s := testSchedule(t, a, schedules.SweepID(a.Config.TaskQueue))
	out, err := schedules.Ensure(ctx, a.Temporal, a.DataConverter(), a.Config.TaskQueue, []schedules.Schedule{s}, true)
	if err != nil || !slices.Equal(out.Created, []string{s.ID}) {
		t.Fatalf("first ensure = %+v, %v; want created", out, err)
	}
	h := a.Temporal.ScheduleClient().GetHandle(ctx, s.ID)
	if err := h.Trigger(ctx, sdkclient.ScheduleTriggerOptions{}); err != nil {
		t.Fatal(err)
	}
	var runID string
	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		d, err := h.Describe(ctx)
		if err != nil {
			return false, err.Error()
		}
		if len(d.Info.RecentActions) == 0 || d.Info.RecentActions[0].StartWorkflowResult == nil {
			return false, "no action taken yet"
		}
		runID = d.Info.RecentActions[0].StartWorkflowResult.WorkflowID
		return true, ""
	})
	var res workflows.SweepResult
	if err := a.Temporal.GetWorkflow(ctx, runID, "").Get(ctx, &res); err != nil {
		t.Fatal(err)
	}
	testenv.RecordHistory(t, a.Temporal, runID, "sweep")
	if res != (workflows.SweepResult{WebhookTokens: 1, IdempotencyKeys: 1, RateLimits: 1}) {
		t.Fatalf("sweep result %+v, want one of each", res)
	}
	for _, c := range []struct {
		sql  string
		want []string
	}{
		{`SELECT token FROM webhook_tokens ORDER BY 1`, []string{"live-token"}},
		{`SELECT key FROM idempotency_keys ORDER BY 1`, []string{"live-key"}},
		{`SELECT key FROM rate_limit_hits WHERE key LIKE '%-limit' ORDER BY 1`, []string{"live-limit"}},
	} {
		if got := textColumn(t, a, c.sql); !slices.Equal(got, c.want) {
			t.Errorf("%s = %v, want %v", c.sql, got, c.want)
		}
	}
	if kind := searchAttribute(t, a, runID, "HackdeskKind"); kind != string(workflows.KindSweep) {
		t.Errorf("HackdeskKind = %q, want sweep", kind)
	}

	// Ensured again: nothing new. A changed interval is left alone by a
	// worker that is not of the current build, and updated by one that is.
	if out, err := schedules.Ensure(ctx, a.Temporal, a.DataConverter(), a.Config.TaskQueue, []schedules.Schedule{s}, true); err != nil ||
		len(out.Created)+len(out.Updated) != 0 || len(out.Unchanged) != 1 {
		t.Fatalf("second ensure = %+v, %v; want unchanged", out, err)
	}
	changed := s
	changed.Every = 20 * time.Minute
	if out, err := schedules.Ensure(ctx, a.Temporal, a.DataConverter(), a.Config.TaskQueue, []schedules.Schedule{changed}, false); err != nil ||
		!slices.Equal(out.Left, []string{s.ID}) || len(out.Updated) != 0 {
		t.Fatalf("changed ensure by a non-owner = %+v, %v; want left", out, err)
	}
	if d, err := h.Describe(ctx); err != nil || d.Schedule.Spec.Intervals[0].Every != schedules.SweepEvery {
		t.Fatalf("a non-owner changed the schedule: %+v %v", d, err)
	}
	if out, err := schedules.Ensure(ctx, a.Temporal, a.DataConverter(), a.Config.TaskQueue, []schedules.Schedule{changed}, true); err != nil ||
		!slices.Equal(out.Updated, []string{s.ID}) {
		t.Fatalf("changed ensure = %+v, %v; want updated", out, err)
	}
	d, err := h.Describe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if iv := d.Schedule.Spec.Intervals; len(iv) != 1 || iv[0].Every != 20*time.Minute ||
		d.Schedule.Policy.Overlap != enumspb.SCHEDULE_OVERLAP_POLICY_SKIP {
		t.Fatalf("updated schedule %+v %+v", d.Schedule.Spec, d.Schedule.Policy)
	}
}

// TestTermReconcile runs the reconciler on the real Temporal server over
// three terms: one whose TermWindow run has ended though a window was
// since put ahead of it, one whose run was never started, one with its
// windows behind it. The first two get a running TermWindow; run again,
// the reconciler starts nothing new.
func TestTermReconcile(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	super := as(t, a, anon, account(t, a, "root@example.com", "Root", "superadmin"))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	// A term whose run started with it and ended (no windows then).
	ended := hiringTermVia(t, super, "2026-2027", "2026-09-01", "2027-08-31", true)
	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		return countRows(t, a, `SELECT count(*) FROM workflow_starts WHERE workflow_id = $1 AND started_at IS NOT NULL`,
			workflows.TermWindowID(ended)) == 1, "the term's first run"
	})
	if err := a.Temporal.GetWorkflow(ctx, workflows.TermWindowID(ended), "").Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	// The site address a restarted run links to is the one its term was
	// queued with (the API's), not the reconciling worker's.
	if _, err := a.Store.Pool().Exec(ctx, `UPDATE workflow_starts SET input = jsonb_set(input, '{PublicURL}', '"https://site.example"')
		WHERE workflow_id = $1`, workflows.TermWindowID(ended)); err != nil {
		t.Fatal(err)
	}
	opens, closes := time.Now().Add(30*24*time.Hour), time.Now().Add(40*24*time.Hour)
	if _, err := a.Store.Pool().Exec(ctx, `UPDATE terms SET onboarding_opens_at = $2, onboarding_closes_at = $3 WHERE id = $1`,
		ended, opens, closes); err != nil {
		t.Fatal(err)
	}
	var never, past uuid.UUID
	if err := a.Store.Pool().QueryRow(ctx, `INSERT INTO terms (name, starts_on, ends_on, returning_opens_at, returning_closes_at)
		VALUES ('2027-2028', '2027-09-01', '2028-08-31', $1, $2) RETURNING id`, opens, closes).Scan(&never); err != nil {
		t.Fatal(err)
	}
	if err := a.Store.Pool().QueryRow(ctx, `INSERT INTO terms (name, starts_on, ends_on, returning_opens_at, returning_closes_at)
		VALUES ('2024-2025', '2024-09-01', '2025-08-31', now() - interval '20 days', now() - interval '10 days') RETURNING id`).Scan(&past); err != nil {
		t.Fatal(err)
	}
	for _, id := range []uuid.UUID{ended, never} {
		t.Cleanup(func() {
			_ = a.Temporal.TerminateWorkflow(context.Background(), workflows.TermWindowID(id), "", "test over")
		})
	}

	reconcile := func(name string) workflows.TermReconcileResult {
		t.Helper()
		id := "term-reconcile-test-" + name + "-" + a.Config.TaskQueue
		run, err := a.Temporal.ExecuteWorkflow(ctx, sdkclient.StartWorkflowOptions{ID: id, TaskQueue: a.Config.TaskQueue},
			workflows.TermReconcile, workflows.TermReconcileInput{})
		if err != nil {
			t.Fatal(err)
		}
		var res workflows.TermReconcileResult
		if err := run.Get(ctx, &res); err != nil {
			t.Fatal(err)
		}
		testenv.RecordHistory(t, a.Temporal, id, name)
		return res
	}
	first := reconcile("term_reconcile")
	if first.Terms != 2 || !slices.Equal(first.Started, []string{ended.String(), never.String()}) {
		t.Fatalf("first reconcile %+v, want both future terms started", first)
	}
	runs := map[uuid.UUID]string{}
	for _, id := range []uuid.UUID{ended, never} {
		d, err := a.Temporal.DescribeWorkflowExecution(ctx, workflows.TermWindowID(id), "")
		if err != nil {
			t.Fatal(err)
		}
		info := d.GetWorkflowExecutionInfo()
		if info.GetStatus() != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
			t.Fatalf("term %s window run %v, want running", id, info.GetStatus())
		}
		runs[id] = info.GetExecution().GetRunId()
		want := a.Config.PublicURL // no start queued: the worker's
		if id == ended {
			want = "https://site.example"
		}
		if in := termWindowInput(t, a, workflows.TermWindowID(id)); in.PublicURL != want {
			t.Errorf("term %s restarted with PublicURL %q, want %q", id, in.PublicURL, want)
		}
		if kind := searchAttribute(t, a, workflows.TermWindowID(id), "HackdeskKind"); kind != string(workflows.KindTerm) {
			t.Errorf("restarted run's HackdeskKind = %q", kind)
		}
	}
	_, err := a.Temporal.DescribeWorkflowExecution(ctx, workflows.TermWindowID(past), "")
	var notFound *serviceerror.NotFound
	if !errors.As(err, &notFound) {
		t.Fatalf("a term with its windows behind it got a run (%v)", err)
	}

	second := reconcile("term_reconcile_running")
	if second.Terms != 2 || len(second.Started) != 0 {
		t.Fatalf("second reconcile %+v, want nothing started", second)
	}
	for id, run := range runs {
		d, err := a.Temporal.DescribeWorkflowExecution(ctx, workflows.TermWindowID(id), "")
		if err != nil {
			t.Fatal(err)
		}
		if got := d.GetWorkflowExecutionInfo().GetExecution().GetRunId(); got != run {
			t.Fatalf("term %s: run %s replaced by %s", id, run, got)
		}
	}
}

// termWindowInput is the input a TermWindow's latest run was started with.
func termWindowInput(t *testing.T, a *app.App, id string) workflows.TermWindowInput {
	t.Helper()
	it := a.Temporal.GetWorkflowHistory(context.Background(), id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	ev, err := it.Next()
	if err != nil {
		t.Fatal(err)
	}
	var in workflows.TermWindowInput
	p := ev.GetWorkflowExecutionStartedEventAttributes().GetInput().GetPayloads()
	if len(p) != 1 {
		t.Fatalf("%s started with %d inputs", id, len(p))
	}
	if err := a.DataConverter().FromPayload(p[0], &in); err != nil {
		t.Fatal(err)
	}
	return in
}

// textColumn is the one-column rows of a query.
func textColumn(t *testing.T, a *app.App, sql string, args ...any) []string {
	t.Helper()
	rows, err := a.Store.Pool().Query(context.Background(), sql, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// searchAttribute is a keyword search attribute of a workflow's latest run.
func searchAttribute(t *testing.T, a *app.App, workflowID, name string) string {
	t.Helper()
	d, err := a.Temporal.DescribeWorkflowExecution(context.Background(), workflowID, "")
	if err != nil {
		t.Fatal(err)
	}
	p, ok := d.GetWorkflowExecutionInfo().GetSearchAttributes().GetIndexedFields()[name]
	if !ok {
		return ""
	}
	var v string
	if err := converter.GetDefaultDataConverter().FromPayload(p, &v); err != nil {
		t.Fatal(fmt.Errorf("search attribute %s: %w", name, err))
	}
	return v
}

// TestTermReconcileLeavesStoppedRun: a TermWindow run an operator
// terminated stays terminated however often the reconciler runs; it is
// listed as retryable and restarted from the operator API; terminated
// again, a change of the term's dates starts it afresh.
func TestTermReconcileLeavesStoppedRun(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	super := as(t, a, anon, account(t, a, "root@example.com", "Root", "superadmin"))
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	term := hiringTermVia(t, super, "2030-2031", "2030-09-01", "2031-08-31", false)
	id := workflows.TermWindowID(term)
	t.Cleanup(func() { _ = a.Temporal.TerminateWorkflow(context.Background(), id, "", "test over") })
	opens, closes := time.Now().Add(30*24*time.Hour).UTC().Truncate(time.Second), time.Now().Add(40*24*time.Hour).UTC().Truncate(time.Second)
	super.expect(200, "PATCH", "/api/admin/terms/"+term.String(), map[string]any{
		"onboarding_opens_at": opens.Format(time.RFC3339), "onboarding_closes_at": closes.Format(time.RFC3339)})
	running := func(what string) string {
		t.Helper()
		var run string
		testenv.Eventually(t, 30*time.Second, func() (bool, string) {
			st, r := latestRun(t, a, id)
			run = r
			return st == runs.Running, what + ": the term's window run is " + string(st)
		})
		return run
	}
	outboxSettled(t, a, id)
	first := running("after the dates were set")
	if err := a.Temporal.TerminateWorkflow(ctx, id, "", "operator: stop the reminders"); err != nil {
		t.Fatal(err)
	}
	reconcile := func(n int) workflows.TermReconcileResult {
		t.Helper()
		rid := fmt.Sprintf("term-reconcile-stopped-%d-%s", n, a.Config.TaskQueue)
		run, err := a.Temporal.ExecuteWorkflow(ctx, sdkclient.StartWorkflowOptions{ID: rid, TaskQueue: a.Config.TaskQueue},
			workflows.TermReconcile, workflows.TermReconcileInput{})
		if err != nil {
			t.Fatal(err)
		}
		var res workflows.TermReconcileResult
		if err := run.Get(ctx, &res); err != nil {
			t.Fatal(err)
		}
		return res
	}
	for n := range 2 {
		if res := reconcile(n); len(res.Started) != 0 || res.Terms != 0 {
			t.Fatalf("reconcile %d = %+v, want the stopped term left alone", n, res)
		}
		if st, run := latestRun(t, a, id); st != runs.Terminated || run != first {
			t.Fatalf("after reconcile %d the run is %s (%s), want the terminated %s", n, st, run, first)
		}
	}

	// Restarted from the operator page.
	testenv.Eventually(t, 20*time.Second, func() (bool, string) {
		r, ok := failedRuns(t, super)[id]
		return ok && r.Status == "terminated" && r.Retryable, fmt.Sprintf("the stopped run is listed as %+v", r)
	})
	super.expect(http.StatusAccepted, "POST", retryPath(id), nil)
	outboxSettled(t, a, id)
	retried := running("after the retry")
	if retried == first {
		t.Fatal("the retry did not start a new run")
	}

	// Terminated again: new dates start it afresh.
	if err := a.Temporal.TerminateWorkflow(ctx, id, "", "operator: stop again"); err != nil {
		t.Fatal(err)
	}
	if res := reconcile(2); len(res.Started) != 0 {
		t.Fatalf("reconcile after the second stop = %+v", res)
	}
	later := opens.Add(24 * time.Hour)
	super.expect(200, "PATCH", "/api/admin/terms/"+term.String(), map[string]any{
		"onboarding_opens_at": later.Format(time.RFC3339), "onboarding_closes_at": closes.Format(time.RFC3339)})
	if run := running("after the dates changed"); run == retried {
		t.Fatal("the date change did not start a new run")
	}
}

// TestScheduleSetupRetries: a schedule set-up that fails at start-up no
// longer ends the worker (which crash-looped the fleet): the workers poll
// and run workflows meanwhile, and the set-up is tried again with backoff
// (1 s, then 2 s) until it succeeds, as the owner (this build is current).
func TestScheduleSetupRetries(t *testing.T) {
	t.Parallel()
	cfg := testenv.Config(t)
	var mu sync.Mutex
	var calls []time.Time
	var owners []bool
	ensurer := func(ctx context.Context, owner bool) (schedules.Outcome, error) {
		mu.Lock()
		defer mu.Unlock()
		calls, owners = append(calls, time.Now()), append(owners, owner)
		if len(calls) <= 2 {
			return schedules.Outcome{}, errors.New("schedule service unavailable")
		}
		return schedules.Outcome{Unchanged: []string{"s"}}, nil
	}
	a, err := app.Open(context.Background(), cfg, testenv.Logger(t), testenv.Mail, app.WithScheduleEnsurer(ensurer))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	if err := a.StartWorker(); err != nil {
		t.Fatal(err)
	}
	a.KeepSchedules()
	run := cleanupRun(t, a, 0)
	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		st, _ := latestRun(t, a, run)
		return st == runs.Completed, "a run while the schedules fail: " + string(st)
	})
	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		mu.Lock()
		defer mu.Unlock()
		return len(calls) >= 3, fmt.Sprintf("%d set-up attempts", len(calls))
	})
	mu.Lock()
	defer mu.Unlock()
	if len(calls) != 3 {
		t.Errorf("%d attempts, want 3 (two failures, then none until the recheck)", len(calls))
	}
	if d1, d2 := calls[1].Sub(calls[0]), calls[2].Sub(calls[1]); d1 < 900*time.Millisecond || d2 < 1900*time.Millisecond {
		t.Errorf("retried after %s and %s, want about 1 s and 2 s", d1, d2)
	}
	for i, o := range owners {
		if !o {
			t.Errorf("attempt %d not as the owner though this build is current", i)
		}
	}
}
