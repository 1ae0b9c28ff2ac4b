package workflows_test

import (
	"testing"
	"time"

	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"hackdesk/activities"
	"hackdesk/dev/testenv"
	"hackdesk/internal/platform/payloadcodec"
	"hackdesk/workflows"
)

// TestReplayCatchesNondeterminism proves the replay test can fail: each
// recorded history is replayed against a changed workflow (its commands in
// another order) registered under the real name, and must be refused.
func TestReplayCatchesNondeterminism(t *testing.T) {
	t.Parallel()
	sleepFirst := func(ctx workflow.Context) error { return workflow.Sleep(ctx, 7*time.Minute) }
	var resume *activities.ResumeActivities
	for _, c := range []struct {
		file, name string
		changed    any
	}{
		{"testdata/send_email.json", "SendEmail", func(ctx workflow.Context, _ workflows.SendEmailInput) (workflows.SendEmailResult, error) {
			return workflows.SendEmailResult{}, sleepFirst(ctx)
		}},
		{"testdata/rsvp_deadline.json", "RsvpDeadline", func(ctx workflow.Context, _ workflows.RsvpDeadlineInput) (workflows.RsvpDeadlineResult, error) {
			return workflows.RsvpDeadlineResult{}, sleepFirst(ctx)
		}},
		{"testdata/hiring_finalization.json", "HiringFinalization", func(ctx workflow.Context, _ workflows.HiringFinalizationInput) (activities.FinalizationResult, error) {
			return activities.FinalizationResult{}, sleepFirst(ctx)
		}},
		{"testdata/headshot_cleanup.json", "HeadshotCleanup", func(ctx workflow.Context, _ workflows.HeadshotCleanupInput) (workflows.ResumeCleanupResult, error) {
			return workflows.ResumeCleanupResult{}, sleepFirst(ctx)
		}},
		{"testdata/receipt_processing.json", "ReceiptProcessing", func(ctx workflow.Context, _ workflows.ReceiptProcessingInput) (workflows.ReceiptProcessingResult, error) {
			return workflows.ReceiptProcessingResult{}, sleepFirst(ctx)
		}},
		{"testdata/broadcast.json", "Broadcast", func(ctx workflow.Context, _ workflows.BroadcastInput) (workflows.BroadcastResult, error) {
			return workflows.BroadcastResult{}, sleepFirst(ctx)
		}},
		{"testdata/foundry_launch.json", "FoundryLaunch", func(ctx workflow.Context, _ workflows.FoundryLaunchInput) (workflows.FoundryLaunchResult, error) {
			return workflows.FoundryLaunchResult{}, sleepFirst(ctx)
		}},
		{"testdata/sweep.json", "Sweep", func(ctx workflow.Context) (workflows.SweepResult, error) {
			return workflows.SweepResult{}, sleepFirst(ctx)
		}},
		{"testdata/term_reconcile.json", "TermReconcile", func(ctx workflow.Context, _ workflows.TermReconcileInput) (workflows.TermReconcileResult, error) {
			return workflows.TermReconcileResult{}, sleepFirst(ctx)
		}},
		{"testdata/application_window.json", "ApplicationWindow", func(ctx workflow.Context, _ workflows.ApplicationWindowInput) (workflows.ApplicationWindowResult, error) {
			return workflows.ApplicationWindowResult{}, sleepFirst(ctx)
		}},
		{"testdata/account_erasure.json", "AccountErasure", func(ctx workflow.Context, _ workflows.AccountErasureInput) (workflows.AccountErasureResult, error) {
			return workflows.AccountErasureResult{}, sleepFirst(ctx)
		}},
		{"testdata/retention.json", "Retention", func(ctx workflow.Context) (workflows.RetentionResult, error) {
			return workflows.RetentionResult{}, sleepFirst(ctx)
		}},
		{"testdata/event_day.json", "EventDay", func(ctx workflow.Context, _ workflows.EventDayInput) (workflows.EventDayResult, error) {
			return workflows.EventDayResult{}, sleepFirst(ctx)
		}},
		{"testdata/resume_cleanup_deleted.json", "ResumeCleanup", func(ctx workflow.Context, in workflows.ResumeCleanupInput) (workflows.ResumeCleanupResult, error) {
			// The activity before the grace period instead of after it.
			ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
			err := workflow.ExecuteActivity(ctx, resume.DeleteResumeIfUnused, activities.DeleteResumeInput{ProfileID: in.ProfileID, Key: in.OldKey}).Get(ctx, nil)
			return workflows.ResumeCleanupResult{}, err
		}},
	} {
		t.Run(c.file, func(t *testing.T) {
			t.Parallel()
			r := newReplayer(t)
			r.RegisterWorkflowWithOptions(c.changed, workflow.RegisterOptions{Name: c.name})
			if err := r.ReplayWorkflowHistoryFromJSONFile(nil, c.file); err == nil {
				t.Fatalf("a changed %s replayed %s without error", c.name, c.file)
			}
		})
	}
}

// newReplayer is a replayer with the payload codec in place, as every
// worker has it: plaintext histories (recorded before encryption) and
// encrypted ones (recorded under testenv.PayloadKeys) must both replay.
func newReplayer(t *testing.T) worker.WorkflowReplayer {
	t.Helper()
	codec, err := payloadcodec.FromEnv(testenv.PayloadKeys)
	if err != nil {
		t.Fatal(err)
	}
	dc := payloadcodec.DataConverter(codec)
	r, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{
		DataConverter: dc, FailureConverter: payloadcodec.FailureConverter(dc)})
	if err != nil {
		t.Fatal(err)
	}
	return r
}
