package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/api/enums/v1"
	sdkclient "go.temporal.io/sdk/client"

	"hackdesk/dev/testenv"
	"hackdesk/dev/testenv/browser"
	"hackdesk/internal/platform/schedules"
	"hackdesk/workflows"
)

// A superadmin on /admin/system sees a running run that is stuck (its
// workflow task keeps failing: a type no worker knows) with its last
// error, and each schedule's state: active with its next run, paused with
// the note given. They cancel the stuck run from its dialog, with the
// keyboard: the dialog names the run, Escape leaves it running, the
// confirmation asks Temporal to cancel it and the row says so. axe-core
// finds nothing on each state.
func TestWebOperatorStuckAndSchedules(t *testing.T) {
	t.Parallel()
	browserTurn(t)
	eachViewport(t, func(t *testing.T, vp browser.Viewport) {
		a, anon, site := webApp(t)
		ctx := context.Background()
		decAccount(t, a, anon, "super@x.test", "superadmin")

		stuck := "stuck-type:" + uuid.NewString()
		if _, err := a.Temporal.ExecuteWorkflow(ctx, sdkclient.StartWorkflowOptions{ID: stuck, TaskQueue: a.Config.TaskQueue,
			TypedSearchAttributes: workflows.Request{Kind: workflows.KindEmail, Subject: "k"}.SearchAttributes()}, "RemovedWorkflow"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = a.Temporal.TerminateWorkflow(context.Background(), stuck, "", "test over") })
		if _, err := a.EnsureSchedules(ctx); err != nil {
			t.Fatal(err)
		}
		reconcile := schedules.TermReconcileID(a.Config.TaskQueue)
		for _, s := range schedules.All(a.Config.TaskQueue) {
			t.Cleanup(func() {
				_ = a.Temporal.ScheduleClient().GetHandle(context.Background(), s.ID).Delete(context.Background())
			})
		}
		if err := a.Temporal.ScheduleClient().GetHandle(ctx, reconcile).Pause(ctx, sdkclient.SchedulePauseOptions{Note: "term dates being fixed"}); err != nil {
			t.Fatal(err)
		}

		p := browser.Open(t, site, vp)
		webSignIn(t, p, "super@x.test", "password-super@x.test", "/")
		p.Visit("/admin/system")
		p.WaitFor("heading", "Stuck workflows")
		// The workflow task fails again and again; the page lists the run
		// once the second attempt has failed (Refresh reads it again).
		cancelButton := "Cancel run " + stuck
		deadline := time.Now().Add(60 * time.Second)
		for !p.Exists("button", cancelButton) {
			if time.Now().After(deadline) {
				t.Fatalf("the stuck run is not listed")
			}
			time.Sleep(2 * time.Second)
			p.Click("button", "Refresh")
			p.WaitText("As of")
		}
		caption := "Running workflow runs that are stuck, the oldest first"
		var row []string
		for _, r := range p.Table(caption) {
			if len(r) > 0 && strings.Contains(r[0], stuck) {
				row = r
			}
		}
		if row == nil || !strings.Contains(row[0], "RemovedWorkflow") || !strings.Contains(row[2], "The workflow task keeps failing") ||
			!strings.Contains(row[2], "RemovedWorkflow") {
			t.Fatalf("the stuck run's row is %q", row)
		}
		p.WaitText("running runs looked at.")

		// The schedules: the sweep active with a next run, the reconciler
		// paused with its note, the retention run active.
		// (On a phone the rows are cards: the header row is hidden and
		// each cell may carry its label.)
		byName := map[string][]string{}
		for _, r := range p.Table("The recurring jobs’ schedules") {
			if len(r) < 5 {
				continue
			}
			for _, name := range []string{"Sweep", "Window reconciliation", "Retention"} {
				if strings.Contains(r[0], name) {
					byName[name] = r
				}
			}
		}
		if len(byName) != 3 {
			t.Fatalf("the schedules table: %q", byName)
		}
		if r := byName["Sweep"]; !strings.HasSuffix(r[1], "10 minutes") || !strings.Contains(r[2], "Active") || !strings.HasSuffix(r[3], "Not yet") || strings.HasSuffix(r[4], "—") {
			t.Errorf("the sweep's row: %q", r)
		}
		if r := byName["Window reconciliation"]; !strings.HasSuffix(r[1], "15 minutes") || !strings.Contains(r[2], "Paused") ||
			!strings.Contains(r[2], "Note: term dates being fixed") || !strings.HasSuffix(r[4], "—") {
			t.Errorf("the reconciler's row: %q", r)
		}
		if r := byName["Retention"]; !strings.HasSuffix(r[1], "day") || !strings.Contains(r[2], "Active") {
			t.Errorf("the retention schedule's row: %q", r)
		}
		p.Axe()
		webShot(p, "system", "stuck", vp)

		// Cancel, with the keyboard: Escape first leaves it running and
		// gives the focus back to the row's button.
		p.Click("button", cancelButton)
		p.WaitFor("dialog", "Cancel this run?")
		if !p.Within("dialog", "Cancel this run?").HasText("RemovedWorkflow " + stuck) {
			t.Error("the dialog does not name the run")
		}
		p.Axe()
		webShot(p, "system", "cancel-dialog", vp)
		p.Press("Escape")
		p.WaitGone("dialog", "Cancel this run?")
		p.WaitFocused("button", cancelButton)
		if cancelRequested(t, a.Temporal, stuck) {
			t.Fatal("Escape cancelled the run")
		}
		p.Press("Enter")
		p.WaitFor("dialog", "Cancel this run?")
		for i := 0; p.Focused().Name != "Cancel run"; i++ {
			if i == 6 {
				t.Fatalf("Tab never reaches the confirmation; the focus is on %v", p.Focused())
			}
			p.Press("Tab")
		}
		p.Press("Enter")
		p.WaitGone("dialog", "Cancel this run?")
		p.WaitText("Cancel requested")
		// The request is written to the history once the failing workflow
		// task lets it (events wait while a task is in flight).
		testenv.Eventually(t, 30*time.Second, func() (bool, string) {
			return cancelRequested(t, a.Temporal, stuck), "the run's history holds no cancel request"
		})
		p.Axe()
		webShot(p, "system", "cancel-requested", vp)
	})
}

// cancelRequested reports whether the latest run of id has been asked to
// cancel (its history holds the request).
func cancelRequested(t *testing.T, c sdkclient.Client, id string) bool {
	t.Helper()
	it := c.GetWorkflowHistory(context.Background(), id, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		if e.GetEventType() == enums.EVENT_TYPE_WORKFLOW_EXECUTION_CANCEL_REQUESTED {
			return true
		}
	}
	return false
}
