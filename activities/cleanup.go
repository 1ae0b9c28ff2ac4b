package activities

import (
	"context"

	"hackdesk/db"
	"hackdesk/internal/platform/storage"
)

// CleanupResult says whether a stored object was deleted and why: the
// result of DeleteResumeIfUnused and DeleteHeadshotIfUnused, and of the
// workflows that run them.
type CleanupResult struct {
	Deleted bool
	// Reason is "deleted", or why the object was kept.
	Reason string
}

// deleteUnlessKept is the one clean-up of a stored object that a row may
// no longer point at. In one transaction, kept locks the row that may
// point at the object and says why the object stays ("" when it may go);
// the object is deleted under that lock. Uploads and form changes take the
// same lock around writing an object and pointing the row at it, so the
// key cannot become current again between the check and the delete.
// Deleting twice is harmless.
func deleteUnlessKept(ctx context.Context, store *db.Store, blob *storage.Store, key string,
	kept func(q *db.Queries) (string, error)) (CleanupResult, error) {
	var res CleanupResult
	err := store.InTx(ctx, func(q *db.Queries) error {
		why, err := kept(q)
		if err != nil {
			return err
		}
		if why != "" {
			res = CleanupResult{Reason: why}
			return nil
		}
		if err := blob.Delete(ctx, key); err != nil {
			return err
		}
		res = CleanupResult{Deleted: true, Reason: "deleted"}
		return nil
	})
	return res, err
}
