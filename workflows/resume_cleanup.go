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
type ResumeCleanupResult = ObjectCleanupResult

// ResumeCleanupID is the workflow ID for one replacement: the upload that
// replaced the résumé. The old key holds the applicant's file name, which
// is personal data, so it travels only in the (encrypted) input. Runs
// started before this change keep their resume-cleanup:<old key>:<upload
// id> IDs.
func ResumeCleanupID(uploadID uuid.UUID) string {
	return "resume-cleanup:" + uploadID.String()
}

// ResumeCleanupRequest starts the ResumeCleanup workflow for a replaced
// resume.
func ResumeCleanupRequest(in ResumeCleanupInput) Request {
	return Request{ID: ResumeCleanupID(in.UploadID), Type: "ResumeCleanup", Input: in, Kind: KindResume,
		Subject: in.ProfileID.String(), Summary: "Clean up replaced resume (upload " + in.UploadID.String() + ")"}
}

// ResumeCleanup waits out the old links' lifetime, then deletes the old
// object unless the application points at it again (same key uploaded
// again, or the replacing transaction never committed).
func ResumeCleanup(ctx workflow.Context, in ResumeCleanupInput) (ResumeCleanupResult, error) {
	if in.OldKey == "" || in.ProfileID == uuid.Nil {
		return ResumeCleanupResult{}, temporal.NewNonRetryableApplicationError("profile and old key are required", "BadInput", nil)
	}
	var a *activities.ResumeActivities
	return cleanUpObject(ctx, objectCleanup{name: "resume cleanup", key: in.OldKey, grace: in.Grace,
		activity: a.DeleteResumeIfUnused, input: activities.DeleteResumeInput{ProfileID: in.ProfileID, Key: in.OldKey}})
}
