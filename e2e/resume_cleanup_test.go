package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"

	"hackdesk/app"
	"hackdesk/dev/testenv"
	"hackdesk/workflows"
)

// cleanupRuns waits for n ResumeCleanup runs on the test's task queue to
// close and returns their results by old key.
func cleanupRuns(t *testing.T, a *app.App, n int) map[string][]workflows.ResumeCleanupResult {
	t.Helper()
	ctx := context.Background()
	query := fmt.Sprintf("WorkflowType = 'ResumeCleanup' AND TaskQueue = '%s'", a.Config.TaskQueue)
	var runs []*workflowpb.WorkflowExecutionInfo
	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		resp, err := a.Temporal.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: query})
		if err != nil {
			t.Fatal(err)
		}
		runs = resp.Executions
		return len(runs) >= n, fmt.Sprintf("only %d of %d cleanup runs appeared", len(runs), n)
	})
	out := map[string][]workflows.ResumeCleanupResult{}
	for _, ex := range runs {
		var res workflows.ResumeCleanupResult
		run := a.Temporal.GetWorkflow(ctx, ex.Execution.WorkflowId, ex.Execution.RunId)
		if err := run.Get(ctx, &res); err != nil {
			t.Fatalf("%s: %v", ex.Execution.WorkflowId, err)
		}
		// The ID names the upload only; the old key is in the input.
		if strings.Contains(ex.Execution.WorkflowId, ".pdf") {
			t.Fatalf("workflow ID %q names a file", ex.Execution.WorkflowId)
		}
		var in workflows.ResumeCleanupInput
		startedInput(t, a, ex.Execution.WorkflowId, ex.Execution.RunId, &in)
		out[in.OldKey] = append(out[in.OldKey], res)
		name := "resume_cleanup_deleted"
		if !res.Deleted {
			name = "resume_cleanup_kept"
		}
		testenv.RecordHistory(t, a.Temporal, ex.Execution.WorkflowId, name)
	}
	return out
}

// startedInput decodes a run's input (through the app's payload codec)
// into v.
func startedInput(t *testing.T, a *app.App, id, runID string, v any) {
	t.Helper()
	it := a.Temporal.GetWorkflowHistory(context.Background(), id, runID, false, 0)
	ev, err := it.Next()
	if err != nil {
		t.Fatalf("history of %s: %v", id, err)
	}
	attrs := ev.GetWorkflowExecutionStartedEventAttributes()
	if attrs == nil || len(attrs.GetInput().GetPayloads()) == 0 {
		t.Fatalf("%s: first event has no input", id)
	}
	if err := a.DataConverter().FromPayload(attrs.GetInput().GetPayloads()[0], v); err != nil {
		t.Fatalf("%s: decode input: %v", id, err)
	}
}

func exists(t *testing.T, a *app.App, key string) bool {
	t.Helper()
	ok, err := a.Blob.Exists(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

// TestResumeReplacement runs the ResumeCleanup workflow on the real
// Temporal server with a two-second grace: a replaced resume is deleted, the
// current one never is, even when the same key comes back.
func TestResumeReplacement(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	me, myID := member(t, a, anon, "barbara@example.com", "Barbara")
	createApplication(t, me, myID)
	keyA, keyB := myID.String()+"/a.pdf", myID.String()+"/b.pdf"

	a1, b1, a2 := pdfFile("A first"), pdfFile("B"), pdfFile("A again")
	if r := me.upload("a.pdf", a1); r.Status != http.StatusOK {
		t.Fatalf("upload a: %d", r.Status)
	}
	oldLink := *resumeLink(t, me).URL

	// B replaces A: A's links keep working until the grace has passed.
	if r := me.upload("b.pdf", b1); r.Status != http.StatusOK {
		t.Fatalf("upload b: %d", r.Status)
	}
	if got, _ := download(t, oldLink); string(got) != string(a1) {
		t.Fatal("a link handed out before the replacement stopped working at once")
	}
	// The same key comes back before A's clean-up runs: the trap. Then the
	// same file name is uploaded once more (replaced in place, no clean-up).
	if r := me.upload("a.pdf", a2); r.Status != http.StatusOK {
		t.Fatalf("upload a again: %d", r.Status)
	}
	if r := me.upload("a.pdf", a2); r.Status != http.StatusOK {
		t.Fatalf("upload a a third time: %d", r.Status)
	}

	runs := cleanupRuns(t, a, 2)
	if got := runs[keyA]; len(got) != 1 || got[0].Deleted {
		t.Fatalf("clean-up of A = %+v, want one run that kept it (A is current again)", got)
	}
	if got := runs[keyB]; len(got) != 1 || !got[0].Deleted {
		t.Fatalf("clean-up of B = %+v, want one run that deleted it", got)
	}
	if !exists(t, a, keyA) {
		t.Fatal("the current resume was deleted")
	}
	if exists(t, a, keyB) {
		t.Fatal("the replaced resume B still exists")
	}
	if got, _ := download(t, *resumeLink(t, me).URL); string(got) != string(a2) {
		t.Fatal("the current link does not serve the latest upload")
	}
}
