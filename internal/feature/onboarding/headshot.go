package onboarding

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
)

// Objects is the object store the headshots live in (storage.Store): a
// missing object is storage.ErrNotFound.
type Objects interface {
	Exists(ctx context.Context, key string) (bool, error)
	Put(ctx context.Context, key, contentType string, body io.Reader, size int64) error
	Get(ctx context.Context, key string) (io.ReadCloser, int64, error)
}

// Errors of a headshot upload, as the API answers them.
var (
	ErrHeadshotTooLarge = apperr.WithMessage(apperr.TooLarge, "File too large", "A headshot may be at most 5 MB")
	ErrHeadshotType     = apperr.WithMessage(apperr.Unsupported, "Unsupported file type", "A headshot must be a JPEG or PNG image")
)

// CheckHeadshot is the image type of an uploaded headshot: a JPEG or PNG
// by its first bytes, else ErrHeadshotType.
func CheckHeadshot(data []byte) (Image, error) {
	img, ok := DetectImage(data)
	if !ok {
		return Image{}, ErrHeadshotType
	}
	return img, nil
}

// Upload is a stored headshot: its key, and the key of the headshot it
// replaced (the other image type), if any, to be cleaned up.
type Upload struct {
	Key     string
	Dropped *string
}

// SaveHeadshot stores me's headshot byte for byte under the caller's key
// for the kind's form of term t, and points an existing submission at it.
// The form is opened again here: the window may have closed while the file
// was being read.
func SaveHeadshot(ctx context.Context, q *db.Queries, objs Objects, t db.Term, kind Kind, me uuid.UUID, img Image, data []byte) (Upload, error) {
	if _, err := Open(ctx, q, t, kind, me); err != nil {
		return Upload{}, err
	}
	key := HeadshotKey(t.ID, kind, me, img.Ext)
	old, err := q.ExecFormSubmissionLock(ctx, db.ExecFormSubmissionLockParams{TermID: t.ID, ProfileID: me, Kind: string(kind)})
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return Upload{}, err
	}
	if err := objs.Put(ctx, key, img.ContentType, bytes.NewReader(data), int64(len(data))); err != nil {
		return Upload{}, fmt.Errorf("store headshot: %w", err)
	}
	if _, err = q.ExecFormSubmissionSetHeadshot(ctx, db.ExecFormSubmissionSetHeadshotParams{HeadshotKey: &key,
		TermID: t.ID, ProfileID: me, Kind: string(kind)}); err != nil {
		return Upload{}, err
	}
	return Upload{Key: key, Dropped: Dropped(old.HeadshotKey, &key)}, nil
}

// KeptHeadshot is why a headshot object a form no longer pointed at stays:
// me's submission of the kind's form in term points at it again, or there
// is no submission yet (the object may be a fresh upload waiting for the
// form). It locks the submission, which uploads and form changes hold
// around writing an object and pointing the row at it, so the key cannot
// become current between this check and a delete in the same transaction.
// "" means the object may go.
func KeptHeadshot(ctx context.Context, q *db.Queries, termID uuid.UUID, kind Kind, me uuid.UUID, key string) (string, error) {
	sub, err := q.ExecFormSubmissionLock(ctx, db.ExecFormSubmissionLockParams{TermID: termID, ProfileID: me, Kind: string(kind)})
	switch {
	case errors.Is(err, db.ErrNotFound):
		return "kept: no submission points anywhere yet", nil
	case err != nil:
		return "", err
	case sub.HeadshotKey != nil && *sub.HeadshotKey == key:
		return "kept: it is the current headshot", nil
	}
	return "", nil
}
