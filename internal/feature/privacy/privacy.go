// Package privacy holds personal data's rules (docs/privacy.md): a
// person's export of what the club keeps about them, their account's
// erasure after a grace period, the retention purges, and the staff
// access log. The map of where personal data lives is docs/privacy.md; a
// test keeps it and the schema in step.
package privacy

import (
	"context"
	"io"
)

// Objects is the object store as this package uses it: reading a file for
// an export, deleting files and listing a person's résumé prefix for an
// erasure or a purge (storage.Store).
type Objects interface {
	Get(ctx context.Context, key string) (io.ReadCloser, int64, error)
	Delete(ctx context.Context, key string) error
	List(ctx context.Context, prefix string) ([]string, error)
}

// DeleteAll deletes keys (a missing object is no error) and returns how
// many it was asked to delete.
func DeleteAll(ctx context.Context, objs Objects, keys []string) (int, error) {
	for _, k := range keys {
		if err := objs.Delete(ctx, k); err != nil {
			return 0, err
		}
	}
	return len(keys), nil
}
