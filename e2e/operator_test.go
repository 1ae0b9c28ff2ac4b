package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	sdkclient "go.temporal.io/sdk/client"

	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/platform/runs"
	"hackdesk/internal/platform/schedules"
	"hackdesk/outbox"
	"hackdesk/workflows"
)

type stuckView struct {
	AsOf      time.Time `json:"as_of"`
	Scanned   int       `json:"scanned"`
	Truncated bool      `json:"truncated"`
	Runs      []struct {
		WorkflowID string  `json:"workflow_id"`
		RunID      string  `json:"run_id"`
		Type       string  `json:"type"`
		Kind       string  `json:"kind"`
		RunURL     *string `json:"run_url"`
		Problems   []struct {
			Reason        string     `json:"reason"`
			ActivityType  *string    `json:"activity_type"`
			Attempt       int        `json:"attempt"`
			LastError     *string    `json:"last_error"`
			LastFailedAt  *time.Time `json:"last_failed_at"`
			NextAttemptAt *time.Time `json:"next_attempt_at"`
		} `json:"problems"`
	} `json:"runs"`
}

func stuckRuns(t *testing.T, c *client) stuckView {
	t.Helper()
	var v stuckView
	c.expect(http.StatusOK, "GET", "/api/admin/workflows/stuck", nil).JSON(t, &v)
	return v
}

func cancelPath(id string) string {
	return "/api/admin/workflows/" + url.PathEscape(id) + "/cancel"
}

// TestOperatorStuckRuns: the operator API lists the running runs that are
// not moving, with their last error: a finalization whose first activity
// keeps failing (its database lost the terms table) once three attempts
// have failed, and a run whose workflow task keeps failing (a type no
// worker of the build knows). A healthy running run is not listed. The
// stuck finalization is cancelled from the API and ends cancelled; a
// second cancel is refused (not running), as are an unknown id and an
// admin who is not a superadmin.
func TestOperatorStuckRuns(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	ctx := context.Background()
	root, _ := decAccount(t, a, anon, "root@example.com", "superadmin")
	admin, _ := decAccount(t, a, anon, "admin@example.com", "admin")
	admin.expect(http.StatusForbidden, "GET", "/api/admin/workflows/stuck", nil)

	healthy := cleanupRun(t, a, time.Hour) // waiting out its grace: running, not stuck
	t.Cleanup(func() { _ = a.Temporal.TerminateWorkflow(context.Background(), healthy, "", "test over") })
	if _, err := a.Store.Pool().Exec(ctx, `ALTER TABLE terms RENAME TO terms_away`); err != nil {
		t.Fatal(err)
	}
	req := workflows.HiringFinalizationRequest(workflows.HiringFinalizationInput{
		TermID: uuid.New(), TermName: "Stuck", AllHandsURL: "https://cal.example.com/all-hands"})
	if err := a.Store.InTx(ctx, func(q *db.Queries) error {
		_, err := outbox.Enqueue(ctx, q, req)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	unknown := "stuck-type:" + uuid.NewString()
	if _, err := a.Temporal.ExecuteWorkflow(ctx, sdkclient.StartWorkflowOptions{ID: unknown, TaskQueue: a.Config.TaskQueue,
		TypedSearchAttributes: workflows.Request{Kind: workflows.KindEmail, Subject: "k"}.SearchAttributes()}, "RemovedWorkflow"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Temporal.TerminateWorkflow(context.Background(), unknown, "", "test over") })

	testenv.Eventually(t, 60*time.Second, func() (bool, string) {
		v := stuckRuns(t, root)
		var finalization, task bool
		for _, r := range v.Runs {
			if r.WorkflowID == healthy {
				return false, "a healthy run is listed as stuck"
			}
			for _, p := range r.Problems {
				switch {
				case r.WorkflowID == req.ID && p.Reason == "activity" && p.ActivityType != nil && *p.ActivityType == "LoadHiringPlan" &&
					p.Attempt >= runs.StuckActivityAttempt && p.LastError != nil && strings.Contains(*p.LastError, "terms") &&
					p.LastFailedAt != nil && r.Type == "HiringFinalization" && r.Kind == "hiring":
					finalization = true
				case r.WorkflowID == unknown && p.Reason == "workflow_task" && p.Attempt >= 2 && p.ActivityType == nil &&
					p.LastError != nil && strings.Contains(*p.LastError, "RemovedWorkflow"):
					task = true
				}
			}
		}
		return finalization && task && v.Scanned >= 3 && !v.Truncated, fmt.Sprintf("stuck runs %+v", v)
	})

	var cancelled struct {
		WorkflowID string `json:"workflow_id"`
		RunID      string `json:"run_id"`
	}
	admin.expect(http.StatusForbidden, "POST", cancelPath(req.ID), nil)
	root.expect(http.StatusAccepted, "POST", cancelPath(req.ID), nil).JSON(t, &cancelled)
	if _, run := latestRun(t, a, req.ID); cancelled.WorkflowID != req.ID || cancelled.RunID != run {
		t.Fatalf("cancel answered %+v, the run is %s", cancelled, run)
	}
	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		st, _ := latestRun(t, a, req.ID)
		return st == runs.Canceled, "the cancelled finalization is " + string(st)
	})
	m := root.expect(http.StatusConflict, "POST", cancelPath(req.ID), nil).Map(t)
	if m["error"] != "Not running" || !strings.Contains(fmt.Sprint(m["message"]), "cancelled") {
		t.Fatalf("second cancel: %v", m)
	}
	root.expect(http.StatusNotFound, "POST", cancelPath("hiring-finalize:"+uuid.NewString()), nil)
	if _, err := a.Store.Pool().Exec(ctx, `ALTER TABLE terms_away RENAME TO terms`); err != nil {
		t.Fatal(err)
	}
	for _, r := range stuckRuns(t, root).Runs {
		if r.WorkflowID == req.ID {
			t.Fatalf("the cancelled run is still listed as stuck: %+v", r)
		}
	}
}

type scheduleView struct {
	ID           string     `json:"id"`
	WorkflowType string     `json:"workflow_type"`
	EverySeconds int64      `json:"every_seconds"`
	State        string     `json:"state"`
	Note         *string    `json:"note"`
	NextRunAt    *time.Time `json:"next_run_at"`
	LastRun      *struct {
		WorkflowID  string    `json:"workflow_id"`
		RunID       string    `json:"run_id"`
		ScheduledAt time.Time `json:"scheduled_at"`
		StartedAt   time.Time `json:"started_at"`
		Status      string    `json:"status"`
	} `json:"last_run"`
}

func scheduleStates(t *testing.T, c *client) map[string]scheduleView {
	t.Helper()
	var body struct {
		Schedules []scheduleView `json:"schedules"`
	}
	// The route answers 503 "Temporal did not answer" when the dev server
	// is slow to describe the schedules (the whole suite runs beside it);
	// asked again, it answers.
	var r response
	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		r = c.do("GET", "/api/admin/schedules", nil)
		return r.Status != http.StatusServiceUnavailable, "GET /api/admin/schedules is 503: " + string(r.Body)
	})
	if r.Status != http.StatusOK {
		t.Fatalf("GET /api/admin/schedules = %d, want 200; body %s", r.Status, r.Body)
	}
	r.JSON(t, &body)
	out := map[string]scheduleView{}
	for _, s := range body.Schedules {
		out[s.ID] = s
	}
	return out
}

// TestOperatorSchedules: the operator API shows each schedule of the
// deployment's task queue: missing before any worker made it; then
// active with its next run and no last run; after a run, that run and
// its status; paused, with the pause's note and no next run.
func TestOperatorSchedules(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	ctx := context.Background()
	root, _ := decAccount(t, a, anon, "root@example.com", "superadmin")
	admin, _ := decAccount(t, a, anon, "admin@example.com", "admin")
	admin.expect(http.StatusForbidden, "GET", "/api/admin/schedules", nil)
	sweep, reconcile := schedules.SweepID(a.Config.TaskQueue), schedules.TermReconcileID(a.Config.TaskQueue)
	retention := schedules.RetentionID(a.Config.TaskQueue)

	got := scheduleStates(t, root)
	if len(got) != 3 || got[sweep].State != "missing" || got[reconcile].State != "missing" || got[retention].State != "missing" ||
		got[sweep].EverySeconds != 600 || got[sweep].WorkflowType != "Sweep" || got[sweep].NextRunAt != nil {
		t.Fatalf("before any worker set them up: %+v", got)
	}
	if _, err := a.EnsureSchedules(ctx); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{sweep, reconcile, retention} {
		t.Cleanup(func() {
			_ = a.Temporal.ScheduleClient().GetHandle(context.Background(), id).Delete(context.Background())
		})
	}
	got = scheduleStates(t, root)
	for _, c := range []struct {
		id, workflow string
		every        int64
	}{{sweep, "Sweep", 600}, {reconcile, "TermReconcile", 900}, {retention, "Retention", 86400}} {
		s := got[c.id]
		if s.State != "active" || s.WorkflowType != c.workflow || s.EverySeconds != c.every || s.LastRun != nil ||
			s.NextRunAt == nil || !s.NextRunAt.After(time.Now()) || s.Note == nil {
			t.Fatalf("%s after set-up: %+v", c.id, s)
		}
	}

	h := a.Temporal.ScheduleClient().GetHandle(ctx, sweep)
	if err := h.Trigger(ctx, sdkclient.ScheduleTriggerOptions{}); err != nil {
		t.Fatal(err)
	}
	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		s := scheduleStates(t, root)[sweep]
		return s.LastRun != nil && s.LastRun.Status == "completed" && strings.HasPrefix(s.LastRun.WorkflowID, sweep),
			fmt.Sprintf("the sweep after its run: %+v", s)
	})
	if err := a.Temporal.ScheduleClient().GetHandle(ctx, reconcile).Pause(ctx, sdkclient.SchedulePauseOptions{Note: "term dates being fixed"}); err != nil {
		t.Fatal(err)
	}
	s := scheduleStates(t, root)[reconcile]
	if s.State != "paused" || s.Note == nil || *s.Note != "term dates being fixed" || s.NextRunAt != nil {
		t.Fatalf("the paused reconcile: %+v", s)
	}
}
