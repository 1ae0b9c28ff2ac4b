package activities

import (
	"context"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/application"
)

// DeleteResumeInput names an object that may no longer be anyone's resume.
type DeleteResumeInput struct {
	ProfileID uuid.UUID
	Key       string
}

// DeleteResumeIfUnused deletes the object unless the profile's application
// points at it (application.KeptResume), under the application's row lock
// (deleteUnlessKept). Without an application nothing can point at it.
func (a *ResumeActivities) DeleteResumeIfUnused(ctx context.Context, in DeleteResumeInput) (CleanupResult, error) {
	return deleteUnlessKept(ctx, a.Store, a.Blob, in.Key, func(q *db.Queries) (string, error) {
		return application.KeptResume(ctx, q, in.ProfileID, in.Key)
	})
}
