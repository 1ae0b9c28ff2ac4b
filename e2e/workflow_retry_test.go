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
	"go.temporal.io/api/workflowservice/v1"

	"hackdesk/app"
	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/platform/runs"
	"hackdesk/outbox"
	"hackdesk/workflows"
)

// latestRun is the status and run id of a workflow id's latest run.
func latestRun(t *testing.T, a *app.App, id string) (runs.Status, string) {
	t.Helper()
	d, err := a.Temporal.DescribeWorkflowExecution(context.Background(), id, "")
	if err != nil {
		return runs.Unknown, ""
	}
	info := d.GetWorkflowExecutionInfo()
	return runs.StatusOf(info.GetStatus()), info.GetExecution().GetRunId()
}

// runCount counts the runs under a workflow id by status, as visibility
// lists them.
func runCount(t *testing.T, a *app.App, id string) map[runs.Status]int {
	t.Helper()
	resp, err := a.Temporal.ListWorkflow(context.Background(), &workflowservice.ListWorkflowExecutionsRequest{
		Query: fmt.Sprintf("WorkflowId = '%s'", id)})
	if err != nil {
		t.Fatal(err)
	}
	out := map[runs.Status]int{}
	for _, e := range resp.GetExecutions() {
		out[runs.StatusOf(e.GetStatus())]++
	}
	return out
}

// failedFinalization queues the finalization of a term that does not
// exist yet: its first activity refuses the term for good (TermNotFound),
// so the run fails for real. It waits for the failure and answers the
// term id and workflow id.
func failedFinalization(t *testing.T, a *app.App) (uuid.UUID, string) {
	t.Helper()
	ctx := context.Background()
	termID := uuid.New()
	req := workflows.HiringFinalizationRequest(workflows.HiringFinalizationInput{
		TermID: termID, TermName: "Ghost", AllHandsURL: "https://cal.example.com/all-hands"})
	if err := a.Store.InTx(ctx, func(q *db.Queries) error {
		_, err := outbox.Enqueue(ctx, q, req)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		st, _ := latestRun(t, a, req.ID)
		return st == runs.Failed, "the finalization's run is " + string(st)
	})
	return termID, req.ID
}

// makeTerm makes the term of a failed finalization exist, with no hires:
// a finalization of it now completes.
func makeTerm(t *testing.T, a *app.App, id uuid.UUID) {
	t.Helper()
	tm := testenv.Term(t, a.Store, testenv.TermOpts{Name: "Ghost " + id.String()[:8]})
	if _, err := a.Store.Pool().Exec(context.Background(), `UPDATE terms SET id = $1 WHERE id = $2`, id, tm.ID); err != nil {
		t.Fatal(err)
	}
}

// outboxSettled waits until every outbox row of a workflow id has been
// started: a start or signal still queued would otherwise land after the
// test's next step (a run the test terminates started again, a refusal
// that says "a start is queued").
func outboxSettled(t *testing.T, a *app.App, id string) {
	t.Helper()
	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		var pending int
		if err := a.Store.Pool().QueryRow(context.Background(),
			`SELECT count(*) FROM workflow_starts WHERE workflow_id = $1 AND started_at IS NULL`, id).Scan(&pending); err != nil {
			t.Fatal(err)
		}
		return pending == 0, fmt.Sprintf("%d outbox rows of %s not started", pending, id)
	})
}

type failedRunView struct {
	WorkflowID string  `json:"workflow_id"`
	RunID      string  `json:"run_id"`
	Type       string  `json:"type"`
	Kind       string  `json:"kind"`
	Status     string  `json:"status"`
	Retryable  bool    `json:"retryable"`
	RunURL     *string `json:"run_url"`
}

func failedRuns(t *testing.T, c *client) map[string]failedRunView {
	t.Helper()
	var body struct {
		Runs []failedRunView `json:"runs"`
	}
	c.expect(http.StatusOK, "GET", "/api/admin/workflows?status=failed", nil).JSON(t, &body)
	out := map[string]failedRunView{}
	for _, r := range body.Runs {
		if _, seen := out[r.WorkflowID]; !seen { // newest first
			out[r.WorkflowID] = r
		}
	}
	return out
}

// sameURL: a run_url is the configured UI's page of the run, or null
// without one.
func sameURL(got *string, want string) bool {
	if want == "" {
		return got == nil
	}
	return got != nil && *got == want
}

func retryPath(id string) string { return "/api/admin/workflows/" + url.PathEscape(id) + "/retry" }

// expectRefused posts a retry and asserts 409 Not retryable saying want.
func expectRefused(t *testing.T, c *client, id, want string) {
	t.Helper()
	m := c.expect(http.StatusConflict, "POST", retryPath(id), nil).Map(t)
	if m["error"] != "Not retryable" || !strings.Contains(fmt.Sprint(m["message"]), want) {
		t.Fatalf("refusal %v, want one saying %q", m, want)
	}
}

// TestRetryFailedFinalization: a finalization that failed for real (its
// term did not exist) is listed as retryable; once the term exists a
// retry runs it once more, a second retry while that run is held running
// is refused, the run completes (two runs in all: one failed, one
// completed) and a retry of the completed workflow is refused. An unknown
// id is 404, a type outside the retried four 409, and an admin who is not
// a superadmin is refused.
func TestRetryFailedFinalization(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	ctx := context.Background()
	root, _ := decAccount(t, a, anon, "root@example.com", "superadmin")
	admin, _ := decAccount(t, a, anon, "admin@example.com", "admin")
	termID, id := failedFinalization(t, a)
	_, failedRun := latestRun(t, a, id)

	testenv.Eventually(t, 20*time.Second, func() (bool, string) {
		r, ok := failedRuns(t, root)[id]
		return ok && r.Retryable && r.Status == "failed" && r.Kind == "hiring" && r.Type == "HiringFinalization" &&
			r.RunID == failedRun && sameURL(r.RunURL, a.Config.RunURL(id, failedRun)), fmt.Sprintf("the failed run is listed as %+v", r)
	})
	admin.expect(http.StatusForbidden, "GET", "/api/admin/workflows?status=failed", nil)
	admin.expect(http.StatusForbidden, "POST", retryPath(id), nil)
	root.expect(http.StatusBadRequest, "GET", "/api/admin/workflows?status=running", nil)
	root.expect(http.StatusNotFound, "POST", retryPath("hiring-finalize:"+uuid.NewString()), nil)

	// Hold the retried run in its first activity: the terms table is
	// locked until the test lets go, so the run stays running.
	makeTerm(t, a, termID)
	tx, err := a.Store.Pool().Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if _, err := tx.Exec(ctx, `LOCK TABLE terms IN ACCESS EXCLUSIVE MODE`); err != nil {
		t.Fatal(err)
	}
	var queued struct {
		WorkflowID string `json:"workflow_id"`
		Retry      int    `json:"retry"`
	}
	root.expect(http.StatusAccepted, "POST", retryPath(id), nil).JSON(t, &queued)
	if queued.WorkflowID != id || queued.Retry != 1 {
		t.Fatalf("retry answered %+v", queued)
	}
	testenv.Eventually(t, 20*time.Second, func() (bool, string) {
		st, run := latestRun(t, a, id)
		return st == runs.Running && run != failedRun, "the latest run is " + string(st)
	})
	expectRefused(t, root, id, "is running")
	if r, ok := failedRuns(t, root)[id]; ok && r.Retryable {
		t.Errorf("the failed run is still retryable after its retry: %+v", r)
	}

	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		st, _ := latestRun(t, a, id)
		return st == runs.Completed, "the retried run is " + string(st)
	})
	testenv.Eventually(t, 20*time.Second, func() (bool, string) {
		n := runCount(t, a, id)
		return n[runs.Failed] == 1 && n[runs.Completed] == 1 && len(n) == 2, fmt.Sprintf("runs %v", n)
	})
	// The retry's outbox row is marked started once the dispatcher hears
	// back from its start; a start that timed out on a loaded machine is
	// tried again and found already done, so wait for the row to settle.
	outboxSettled(t, a, id)
	expectRefused(t, root, id, "completed")
	var rows int
	if err := a.Store.Pool().QueryRow(ctx, `SELECT count(*) FROM workflow_starts WHERE workflow_id = $1`, id).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if rows != 2 {
		t.Fatalf("%d outbox rows, want the start and one retry", rows)
	}

	// A workflow type that is not retried from here.
	email := "email:" + uuid.NewString()
	if _, err := a.Store.Pool().Exec(ctx, `INSERT INTO workflow_starts (workflow_id, type, input, kind, subject, summary, started_at, run_id)
		VALUES ($1, 'SendEmail', '{}', 'email', 'k', 'Email', now(), 'r')`, email); err != nil {
		t.Fatal(err)
	}
	expectRefused(t, root, email, "not retried here")
}

// TestSystemSummary: the operator's summary reports readiness, the
// outbox, this process's requests in the last hour and failures by kind.
func TestSystemSummary(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	root, _ := decAccount(t, a, anon, "root@example.com", "superadmin")
	admin, _ := decAccount(t, a, anon, "admin@example.com", "admin")
	admin.expect(http.StatusForbidden, "GET", "/api/admin/system", nil)
	failedFinalization(t, a)
	type summary struct {
		Status string            `json:"status"`
		Checks map[string]string `json:"checks"`
		Outbox *struct {
			Pending int64 `json:"pending"`
		} `json:"outbox"`
		HTTP struct {
			Requests  int64   `json:"requests"`
			Errors    int64   `json:"errors"`
			ErrorRate float64 `json:"error_rate"`
		} `json:"http"`
		Failures *struct {
			ByKind []struct {
				Kind  string `json:"kind"`
				Count int64  `json:"count"`
			} `json:"by_kind"`
		} `json:"workflow_failures"`
	}
	testenv.Eventually(t, 20*time.Second, func() (bool, string) {
		var s summary
		root.expect(http.StatusOK, "GET", "/api/admin/system", nil).JSON(t, &s)
		hiring := int64(0)
		if s.Failures != nil {
			for _, k := range s.Failures.ByKind {
				if k.Kind == "hiring" {
					hiring = k.Count
				}
			}
		}
		return s.Status == "ready" && s.Checks["database"] == "ok" && s.Checks["temporal"] == "ok" &&
				s.Outbox != nil && s.Outbox.Pending == 0 && s.HTTP.Requests >= 2 && s.HTTP.Errors == 0 && hiring >= 1,
			fmt.Sprintf("summary %+v", s)
	})
}

// TestRetryFailedFoundryLaunch: a launch whose setup run failed is retried
// from the operator's page (the retry endpoint): the retry dispatches a
// setup run of its own (a correlation id of its own; the earlier
// attempt's dispatch mark is forgotten), follows that one rather than the
// failed one, and the project succeeds.
func TestRetryFailedFoundryLaunch(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	root, _ := decAccount(t, a, anon, "root@example.com", "superadmin")
	fake := testenv.FakeGitHub()
	name := uniqueName("retried")
	fake.FailStep(name, "Configure database")
	l := launch(t, root, map[string]any{"name": name, "project_type": "express", "database": "mongodb", "team_slug": "platform"})
	p := waitProject(t, root, l.ProjectID)
	if s := p.step("setup_run"); p.Status != "failed" || s.Status != "failed" {
		t.Fatalf("first attempt: %+v", p)
	}
	testenv.Eventually(t, 20*time.Second, func() (bool, string) {
		r, ok := failedRuns(t, root)[l.WorkflowID]
		return ok && r.Retryable && r.Type == "FoundryLaunch", fmt.Sprintf("the failed launch is listed as %+v", r)
	})

	fake.FailStep(name, "") // the template is fixed
	root.expect(http.StatusAccepted, "POST", retryPath(l.WorkflowID), nil)
	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		st, _ := latestRun(t, a, l.WorkflowID)
		return st == runs.Completed, "the retried launch is " + string(st)
	})
	p = waitProject(t, root, l.ProjectID)
	if p.Status != "succeeded" || p.step("setup_run").Status != "succeeded" {
		t.Fatalf("after the retry: %+v", p)
	}
	dispatched := fake.Dispatched(name)
	if len(dispatched) != 2 || dispatched[0]["correlation_id"] == dispatched[1]["correlation_id"] {
		t.Fatalf("dispatches %v, want two, each with its own correlation id", dispatched)
	}
	// Visibility lists a run's close a moment after Describe reports it.
	testenv.Eventually(t, 20*time.Second, func() (bool, string) {
		n := runCount(t, a, l.WorkflowID)
		return n[runs.Failed] == 1 && n[runs.Completed] == 1 && len(n) == 2,
			fmt.Sprintf("runs %v, want one failed and one completed", n)
	})
}
