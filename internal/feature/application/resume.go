package application

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/resume"
)

// ResumeBlob is the object store as resumes use it (storage.Store).
type ResumeBlob interface {
	Put(ctx context.Context, key, contentType string, body io.Reader, size int64) error
	Head(ctx context.Context, key string, n int) ([]byte, error)
	PresignGet(ctx context.Context, key, filename string, ttl time.Duration) (string, error)
	PresignInline(ctx context.Context, key, contentType string, ttl time.Duration) (string, error)
}

// ErrResumeType is the 415 for a file that is not a PDF, DOC or DOCX, or
// whose content does not match its extension (resume.Detect).
var ErrResumeType = apperr.WithMessage(apperr.Unsupported, "Unsupported file type",
	"A resume must be a PDF, DOC or DOCX file whose content matches its extension")

// ResumeFile is an uploaded resume that passed its checks, with the name
// and key it is stored under.
type ResumeFile struct {
	Key  string // <profile id>/<safe name>
	Name string // resume.SafeName of the uploaded name
	Type resume.Type
	Data []byte
}

// CheckResume tells the type of an upload of profileID's from its content
// and name (ErrResumeType unless they agree) and names its object.
func CheckResume(profileID uuid.UUID, filename string, data []byte) (ResumeFile, error) {
	typ, err := resume.Detect(filename, data)
	if err != nil {
		return ResumeFile{}, ErrResumeType
	}
	name := resume.SafeName(filename)
	return ResumeFile{Key: profileID.String() + "/" + name, Name: name, Type: typ, Data: data}, nil
}

// SetResume stores f as the profile's resume: the object is written under
// the draft's row lock (ErrNoApplication, ErrAlreadySubmitted), then the
// row points at it. It returns the key of the object it replaced, for the
// caller to clean up once the transaction commits; "" when nothing was
// replaced or the same key was written again. If the transaction fails,
// the old resume stays current.
func SetResume(ctx context.Context, q *db.Queries, blob ResumeBlob, me uuid.UUID, f ResumeFile) (replaced string, err error) {
	a, err := lockDraft(ctx, q, me)
	if err != nil {
		return "", err
	}
	if err := blob.Put(ctx, f.Key, f.Type.ContentType, bytes.NewReader(f.Data), int64(len(f.Data))); err != nil {
		return "", fmt.Errorf("store resume: %w", err)
	}
	kind := f.Type.Kind()
	if err := q.ApplicationSetResume(ctx, db.ApplicationSetResumeParams{
		ID: a.ID, ResumeKey: &f.Key, ResumeName: &f.Name, ResumeType: &kind}); err != nil {
		return "", err
	}
	if a.ResumeKey == nil || *a.ResumeKey == f.Key {
		return "", nil // nothing replaced, or replaced in place
	}
	return *a.ResumeKey, nil
}

// ResumeView is the caller's resume with its signed links.
type ResumeView struct {
	Resume *ResumeName `json:"resume"`
	URL    *string     `json:"url"`
	Key    *string     `json:"key"`
	// PreviewURL shows a PDF in place (ResumeLinks); null otherwise.
	PreviewURL *string `json:"preview_url"`
}

// ResumeName is the name a resume was uploaded under.
type ResumeName struct {
	Name string `json:"name"`
}

// Resume answers the profile's resume with its signed links; every field
// is null without an application or a resume.
func Resume(ctx context.Context, q *db.Queries, blob ResumeBlob, log *slog.Logger, me uuid.UUID) (ResumeView, error) {
	var out ResumeView
	a, err := q.ApplicationGetByProfile(ctx, me)
	switch {
	case errors.Is(err, db.ErrNotFound):
	case err != nil:
		return out, err
	case a.ResumeKey != nil:
		links, err := ResumeLinksOf(ctx, q, blob, log, a)
		if err != nil {
			return out, err
		}
		out.Resume = &ResumeName{Name: *a.ResumeName}
		out.URL, out.Key, out.PreviewURL = links.Download, a.ResumeKey, links.Preview
	}
	return out, nil
}

// KeptResume is why a replaced resume object stays: the profile's
// application points at it again. It locks the application, which uploads
// hold around writing the object and pointing the row at it, so an upload
// of the same key cannot land between this check and a delete in the same
// transaction. "" means the object may go (no application any more, or
// another resume is current).
func KeptResume(ctx context.Context, q *db.Queries, profileID uuid.UUID, key string) (string, error) {
	a, err := q.ApplicationLockByProfile(ctx, profileID)
	switch {
	case errors.Is(err, db.ErrNotFound):
		return "", nil
	case err != nil:
		return "", err
	case a.ResumeKey != nil && *a.ResumeKey == key:
		return "kept: it is the current resume", nil
	}
	return "", nil
}
