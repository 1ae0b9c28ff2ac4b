package e2e

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	sdkclient "go.temporal.io/sdk/client"

	"hackdesk/app"
	"hackdesk/dev/testenv"
	"hackdesk/outbox"
	"hackdesk/workflows"
)

// runOn is the build a workflow's latest run is on (for a closed run: the
// one it ended on) and its versioning behaviour; a workflow not started
// yet (the outbox has not dispatched it) is on "" with no status.
func runOn(t *testing.T, a *app.App, id string) (build string, behavior enumspb.VersioningBehavior, status enumspb.WorkflowExecutionStatus) {
	t.Helper()
	d, err := a.Temporal.DescribeWorkflowExecution(context.Background(), id, "")
	var notFound *serviceerror.NotFound
	if errors.As(err, &notFound) {
		return "", 0, enumspb.WORKFLOW_EXECUTION_STATUS_UNSPECIFIED
	}
	if err != nil {
		t.Fatal(err)
	}
	info := d.GetWorkflowExecutionInfo()
	vi := info.GetVersioningInfo()
	return vi.GetDeploymentVersion().GetBuildId(), vi.GetBehavior(), info.GetStatus()
}

// currentBuild is the current version of the app's deployment ("" for
// none).
func currentBuild(t *testing.T, a *app.App) string {
	t.Helper()
	d, err := a.Temporal.WorkerDeploymentClient().GetHandle(a.Version().DeploymentName).
		Describe(context.Background(), sdkclient.WorkerDeploymentDescribeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if v := d.Info.RoutingConfig.CurrentVersion; v != nil {
		return v.BuildID
	}
	return ""
}

// setCurrent makes build current, as `temporal worker deployment
// set-current-version` does, once its workers have registered it.
func setCurrent(t *testing.T, a *app.App, build string) {
	t.Helper()
	h := a.Temporal.WorkerDeploymentClient().GetHandle(a.Version().DeploymentName)
	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		_, err := h.SetCurrentVersion(context.Background(), sdkclient.WorkerDeploymentSetCurrentVersionOptions{BuildID: build})
		return err == nil, fmt.Sprintf("set %s current: %v", build, err)
	})
}

// cleanupRun starts a ResumeCleanup (pinned) of a made-up object that
// first waits grace; the object does not exist, so the run ends with
// nothing to delete.
func cleanupRun(t *testing.T, a *app.App, grace time.Duration) string {
	t.Helper()
	req := workflows.ResumeCleanupRequest(workflows.ResumeCleanupInput{ProfileID: uuid.New(), OldKey: uuid.NewString() + "/old.pdf",
		UploadID: uuid.New(), Grace: grace})
	if _, err := outbox.Start(context.Background(), a.Temporal, a.Config.TaskQueue, req); err != nil {
		t.Fatal(err)
	}
	return req.ID
}

// TestWorkerVersioningRollOut rolls a release out, back and out again on
// one task queue, as docs/operations.md ("Releases") tells an operator
// to: build a's worker is the first, so it makes itself current; build
// b's starts beside it and waits until it is made current. A pinned run
// started on a (a resume clean-up waiting out its grace) ends on a though
// b was made current meanwhile; an auto-upgrade run started on a (an RSVP
// deadline) moves to the current build; new runs start on whichever
// build is current; no run fails a task.
func TestWorkerVersioningRollOut(t *testing.T) {
	t.Parallel()
	cfg := testenv.Config(t)
	cfgA, cfgB := cfg, cfg
	cfgA.BuildID, cfgB.BuildID = "build-a", "build-b"
	a := testenv.App(t, cfgA)
	if got := currentBuild(t, a); got != "build-a" {
		t.Fatalf("after the first worker started, current = %q, want build-a", got)
	}
	anon := &client{t: t, base: a.URL()}
	admin := as(t, a, anon, account(t, a, "admin@example.com", "Admin", "admin"))
	applicant := account(t, a, "ada@example.com", "Ada", "member")
	appID := seedApplication(t, a, applicant, "submitted")

	held := cleanupRun(t, a, 20*time.Second)
	var batch struct {
		BatchID uuid.UUID `json:"batch_id"`
	}
	admin.expect(http.StatusOK, "POST", "/api/admin/applications/decisions", map[string]any{
		"application_ids": []uuid.UUID{appID}, "decision": "offer",
		"rsvp_deadline": time.Now().Add(25 * time.Second).UTC().Format(time.RFC3339Nano),
	}).JSON(t, &batch)
	rsvp := workflows.RsvpDeadlineID(batch.BatchID)
	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		build, behavior, _ := runOn(t, a, rsvp)
		return build == "build-a" && behavior == enumspb.VERSIONING_BEHAVIOR_AUTO_UPGRADE,
			fmt.Sprintf("the RSVP deadline run is on %q (%v)", build, behavior)
	})
	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		build, behavior, _ := runOn(t, a, held)
		return build == "build-a" && behavior == enumspb.VERSIONING_BEHAVIOR_PINNED,
			fmt.Sprintf("the held clean-up is on %q (%v)", build, behavior)
	})

	// Build b starts beside a: a stays current until b is made current.
	b := testenv.App(t, cfgB)
	if got := currentBuild(t, b); got != "build-a" {
		t.Fatalf("a second build's worker took over: current = %q", got)
	}
	before := cleanupRun(t, b, 0)

	// Roll out, roll back, roll out again; a run started after each
	// switch runs on the build then current.
	ended := map[string]string{before: "build-a"}
	for _, build := range []string{"build-b", "build-a", "build-b"} {
		setCurrent(t, a, build)
		ended[cleanupRun(t, a, 0)] = build
	}
	ended[held] = "build-a" // pinned: where it started
	ended[rsvp] = "build-b" // auto-upgrade: where it was when it ended
	for id, want := range ended {
		testenv.Eventually(t, 60*time.Second, func() (bool, string) {
			build, _, status := runOn(t, a, id)
			return status == enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED && build == want,
				fmt.Sprintf("%s is %v on %q, want completed on %s", id, status, build, want)
		})
		it := a.Temporal.GetWorkflowHistory(context.Background(), id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for it.HasNext() {
			ev, err := it.Next()
			if err != nil {
				t.Fatal(err)
			}
			if f := ev.GetWorkflowTaskFailedEventAttributes(); f != nil {
				t.Errorf("%s failed a workflow task: %s", id, f.GetFailure().GetMessage())
			}
		}
	}
	if d, r := appState(t, a, appID); d != "offer" || r != "expired" {
		t.Fatalf("the offer is %s/%s after its deadline, want offer/expired", d, r)
	}
}
