package e2e

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	sdkclient "go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"hackdesk/app"
	"hackdesk/dev/testenv"
	"hackdesk/internal/platform/schedules"
	"hackdesk/workflows"
)

// testSchedule is one of hackdesk's schedules under an ID of the test's
// own (the Temporal server is shared by every test), deleted when the
// test ends.
func testSchedule(t *testing.T, a *app.App, id string) schedules.Schedule {
	t.Helper()
	for _, s := range schedules.All(a.Config.TaskQueue, a.Config.PublicURL) {
		if s.ID == id {
			s.ID = id + "-" + a.Config.TaskQueue
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

	s := testSchedule(t, a, schedules.SweepID)
	out, err := schedules.Ensure(ctx, a.Temporal, a.DataConverter(), a.Config.TaskQueue, []schedules.Schedule{s})
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

	// Ensured again: nothing new. A changed interval is updated.
	if out, err := schedules.Ensure(ctx, a.Temporal, a.DataConverter(), a.Config.TaskQueue, []schedules.Schedule{s}); err != nil ||
		len(out.Created)+len(out.Updated) != 0 || len(out.Unchanged) != 1 {
		t.Fatalf("second ensure = %+v, %v; want unchanged", out, err)
	}
	changed := s
	changed.Every = 20 * time.Minute
	if out, err := schedules.Ensure(ctx, a.Temporal, a.DataConverter(), a.Config.TaskQueue, []schedules.Schedule{changed}); err != nil ||
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
			workflows.TermReconcile, workflows.TermReconcileInput{PublicURL: a.Config.PublicURL})
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
