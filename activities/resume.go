package activities

import (
	"context"
	"errors"

	"github.com/google/uuid"

	"hackdesk/db"
)

// DeleteResumeInput names an object that may no longer be anyone's resume.
type DeleteResumeInput struct {
	ProfileID uuid.UUID
	Key       string
}

// DeleteResumeResult says whether the object was deleted and why.
type DeleteResumeResult struct {
	Deleted bool
	Reason  string
}

// DeleteResumeIfUnused deletes the object unless the profile's application
// points at it. It holds the application's row lock while it checks and
// deletes; uploads take the same lock around writing the object and
// pointing the application at it, so an upload of the same key can never
// land between the check and the delete. Deleting twice is harmless.
func (a *ResumeActivities) DeleteResumeIfUnused(ctx context.Context, in DeleteResumeInput) (DeleteResumeResult, error) {
	var res DeleteResumeResult
	err := a.Store.InTx(ctx, func(q *db.Queries) error {
		app, err := q.ApplicationLockByProfile(ctx, in.ProfileID)
		switch {
		case errors.Is(err, db.ErrNotFound):
			// No application any more: nothing can point at the object.
		case err != nil:
			return err
		case app.ResumeKey != nil && *app.ResumeKey == in.Key:
			res = DeleteResumeResult{Reason: "kept: it is the current resume"}
			return nil
		}
		if err := a.Blob.Delete(ctx, in.Key); err != nil {
			return err
		}
		res = DeleteResumeResult{Deleted: true, Reason: "deleted"}
		return nil
	})
	return res, err
}
