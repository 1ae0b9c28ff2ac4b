package workflows

import (
	"time"

	"go.temporal.io/sdk/workflow"

	"hackdesk/activities"
)

// ObjectCleanupResult says what happened to an object a clean-up was for:
// deleted, or kept and why. It is the deleting activity's result as is.
type ObjectCleanupResult = activities.CleanupResult

// objectCleanup is one run of the clean-up both ResumeCleanup and
// HeadshotCleanup are: wait out a grace period, then have an activity
// delete the object unless its row points at it again.
type objectCleanup struct {
	name  string        // what the log line calls the run
	key   string        // the object
	grace time.Duration // how long signed links may still be out; zero for none
	// The activity that deletes the object unless it is current, and its
	// input.
	activity any
	input    any
}

// cleanUpObject runs c. A zero grace sets no timer.
func cleanUpObject(ctx workflow.Context, c objectCleanup) (ObjectCleanupResult, error) {
	progress := "deleting"
	if c.grace > 0 {
		progress = "waiting for old links to expire"
	}
	if err := workflow.SetQueryHandler(ctx, ProgressQuery, func() (string, error) { return progress, nil }); err != nil {
		return ObjectCleanupResult{}, err
	}
	if err := workflow.Sleep(ctx, c.grace); err != nil {
		return ObjectCleanupResult{}, err
	}
	progress = "deleting"
	var out ObjectCleanupResult
	if err := workflow.ExecuteActivity(providerActivity(ctx), c.activity, c.input).Get(ctx, &out); err != nil {
		progress = "failed"
		return ObjectCleanupResult{}, err
	}
	progress = out.Reason
	workflow.GetLogger(ctx).Info(c.name, "key", c.key, "deleted", out.Deleted, "reason", out.Reason)
	return out, nil
}
