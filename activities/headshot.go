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
// at it, under the submission's row lock (deleteUnlessKept). Without a
// submission the object is kept: it may be a fresh upload waiting for the
// form.
func (a *HeadshotActivities) DeleteHeadshotIfUnused(ctx context.Context, in DeleteHeadshotInput) (CleanupResult, error) {
	return deleteUnlessKept(ctx, a.Store, a.Blob, in.Key, func(q *db.Queries) (string, error) {
		sub, err := q.ExecFormSubmissionLock(ctx, db.ExecFormSubmissionLockParams{TermID: in.TermID, ProfileID: in.ProfileID, Kind: in.Kind})
		switch {
		case errors.Is(err, db.ErrNotFound):
			return "kept: no submission points anywhere yet", nil
		case err != nil:
			return "", err
		case sub.HeadshotKey != nil && *sub.HeadshotKey == in.Key:
			return "kept: it is the current headshot", nil
		}
		return "", nil
	})
}
