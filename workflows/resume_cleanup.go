package workflows

import (
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"hackdesk/activities"
)

// ResumeCleanupInput names a replaced resume object.
type ResumeCleanupInput struct {
	ProfileID uuid.UUID
	OldKey    string
	UploadID  uuid.UUID // the upload that replaced it
	// Grace is how long to wait before deleting, so that signed links
	// already handed out for the old object keep working until they expire.
	Grace time.Duration
}

// ResumeCleanupResult says what happened to the old object.
type ResumeCleanupResult struct {
	Deleted bool
	// Reason is "deleted", or why the object was kept.
	Reason string
}

// ResumeCleanupID is the workflow ID for one replacement.
func ResumeCleanupID(oldKey string, uploadID uuid.UUID) string {
	return "resume-cleanup:" + oldKey + ":" + uploadID.String()
}

// ResumeCleanup waits out the old links' lifetime, then deletes the old
// object unless the application points at it again (same key uploaded
// again, or the replacing transaction never committed).
func ResumeCleanup(ctx workflow.Context, in ResumeCleanupInput) (ResumeCleanupResult, error) {
	if in.OldKey == "" || in.ProfileID == uuid.Nil {
		return ResumeCleanupResult{}, temporal.NewNonRetryableApplicationError("profile and old key are required", "BadInput", nil)
	}
	logger := workflow.GetLogger(ctx)
	progress := "waiting for old links to expire"
	if err := workflow.SetQueryHandler(ctx, ProgressQuery, func() (string, error) { return progress, nil }); err != nil {
		return ResumeCleanupResult{}, err
	}
	if err := workflow.Sleep(ctx, in.Grace); err != nil {
		return ResumeCleanupResult{}, err
	}
	progress = "deleting"
	var a *activities.ResumeActivities
	var out activities.DeleteResumeResult
	err := workflow.ExecuteActivity(providerActivity(ctx), a.DeleteResumeIfUnused,
		activities.DeleteResumeInput{ProfileID: in.ProfileID, Key: in.OldKey}).Get(ctx, &out)
	if err != nil {
		progress = "failed"
		return ResumeCleanupResult{}, err
	}
	progress = out.Reason
	logger.Info("resume cleanup", "key", in.OldKey, "deleted", out.Deleted, "reason", out.Reason)
	return ResumeCleanupResult{Deleted: out.Deleted, Reason: out.Reason}, nil
}
