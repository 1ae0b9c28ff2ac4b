package activities

import (
	"context"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/onboarding"
	"hackdesk/internal/platform/storage"
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
// at it or there is none yet (onboarding.KeptHeadshot), under the
// submission's row lock (deleteUnlessKept).
func (a *HeadshotActivities) DeleteHeadshotIfUnused(ctx context.Context, in DeleteHeadshotInput) (CleanupResult, error) {
	return deleteUnlessKept(ctx, a.Store, a.Blob, in.Key, func(q *db.Queries) (string, error) {
		return onboarding.KeptHeadshot(ctx, q, in.TermID, onboarding.Kind(in.Kind), in.ProfileID, in.Key)
	})
}
