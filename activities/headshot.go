package activities

import (
	"context"
	"errors"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/storage"
)

// HeadshotActivities clean up replaced or removed headshots.
type HeadshotActivities struct {
	Store *db.Store
	Blob  *storage.Store
}

// DeleteHeadshotInput names an object that may no longer be the headshot of
// one person's form in one term.
type DeleteHeadshotInput struct {
	TermID    uuid.UUID
	ProfileID uuid.UUID
	Kind      string // onboarding or returning
	Key       string
}

// DeleteHeadshotIfUnused deletes the object unless the submission points
// at it. It holds the submission's row lock while it checks and deletes;
// uploads and form updates take the same lock, so the key cannot become
// current again between the check and the delete. Without a submission
// the object is kept: it may be a fresh upload waiting for the form.
// Deleting twice is harmless.
func (a *HeadshotActivities) DeleteHeadshotIfUnused(ctx context.Context, in DeleteHeadshotInput) (DeleteResumeResult, error) {
	var res DeleteResumeResult
	err := a.Store.InTx(ctx, func(q *db.Queries) error {
		sub, err := q.ExecFormSubmissionLock(ctx, db.ExecFormSubmissionLockParams{TermID: in.TermID, ProfileID: in.ProfileID, Kind: in.Kind})
		switch {
		case errors.Is(err, db.ErrNotFound):
			res = DeleteResumeResult{Reason: "kept: no submission points anywhere yet"}
			return nil
		case err != nil:
			return err
		case sub.HeadshotKey != nil && *sub.HeadshotKey == in.Key:
			res = DeleteResumeResult{Reason: "kept: it is the current headshot"}
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
