package application

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path"
	"strconv"
	"strings"
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

// ResumeKeyFor is the key of a résumé named name (a resume.SafeName) for
// one of profileID's applications: <profile id>/<name>, unless another of
// the person's applications holds that key (held), in which case the name
// gets the first free suffix: cv.pdf, cv-2.pdf, cv-3.pdf. An object
// belongs to one application, so replacing or erasing one application's
// résumé never touches another's.
func ResumeKeyFor(profileID uuid.UUID, name string, held map[string]bool) string {
	base := profileID.String() + "/"
	key := base + name
	ext := path.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	for n := 2; held[key]; n++ {
		key = base + stem + "-" + strconv.Itoa(n) + ext
	}
	return key
}

// heldKeys are the résumé keys the profile's applications other than
// except hold.
func heldKeys(ctx context.Context, q *db.Queries, profileID, except uuid.UUID) (map[string]bool, error) {
	rows, err := q.ApplicationResumeKeysByProfile(ctx, profileID)
	if err != nil {
		return nil, err
	}
	held := map[string]bool{}
	for _, r := range rows {
		if r.ID != except {
			held[r.ResumeKey] = true
		}
	}
	return held, nil
}

// copyResume gives a, copied from src, a copy of src's résumé object under
// a key of its own, and points a at it.
func copyResume(ctx context.Context, q *db.Queries, blob ObjectCopier, a, src db.Application) (db.Application, error) {
	held, err := heldKeys(ctx, q, a.ProfileID, a.ID)
	if err != nil {
		return a, err
	}
	key := ResumeKeyFor(a.ProfileID, *src.ResumeName, held)
	if err := blob.Copy(ctx, *src.ResumeKey, key); err != nil {
		return a, fmt.Errorf("copy resume: %w", err)
	}
	if err := q.ApplicationSetResume(ctx, db.ApplicationSetResumeParams{
		ID: a.ID, ResumeKey: &key, ResumeName: src.ResumeName, ResumeType: src.ResumeType}); err != nil {
		return a, err
	}
	return q.ApplicationGet(ctx, a.ID)
}

// StoredResume is where an upload went: its key (ResumeKeyFor) and the key
// of the object it replaced, for the caller to clean up once the
// transaction commits ("" when nothing was replaced or the same key was
// written again).
type StoredResume struct {
	Key      string
	Replaced string
}

// StoreResume stores f as the resume of the profile's application in the
// current edition: the window is checked first (the 403 "Applications are
// closed"), then the object is written under the draft's row lock
// (ErrNoApplication, ErrAlreadySubmitted) and the row points at it. The
// object's key is f's unless another of the person's applications holds
// it (ResumeKeyFor). If the transaction fails, the old resume stays
// current.
func StoreResume(ctx context.Context, q *db.Queries, blob ResumeBlob, me uuid.UUID, f ResumeFile) (StoredResume, error) {
	a, err := lockDraft(ctx, q, me)
	if err != nil {
		return StoredResume{}, err
	}
	held, err := heldKeys(ctx, q, me, a.ID)
	if err != nil {
		return StoredResume{}, err
	}
	key := ResumeKeyFor(me, f.Name, held)
	if err := blob.Put(ctx, key, f.Type.ContentType, bytes.NewReader(f.Data), int64(len(f.Data))); err != nil {
		return StoredResume{}, fmt.Errorf("store resume: %w", err)
	}
	kind := f.Type.Kind()
	if err := q.ApplicationSetResume(ctx, db.ApplicationSetResumeParams{
		ID: a.ID, ResumeKey: &key, ResumeName: &f.Name, ResumeType: &kind}); err != nil {
		return StoredResume{}, err
	}
	out := StoredResume{Key: key}
	if a.ResumeKey != nil && *a.ResumeKey != key {
		out.Replaced = *a.ResumeKey
	}
	return out, nil
}

// SetResume is StoreResume answering only the key it replaced.
func SetResume(ctx context.Context, q *db.Queries, blob ResumeBlob, me uuid.UUID, f ResumeFile) (replaced string, err error) {
	out, err := StoreResume(ctx, q, blob, me, f)
	return out.Replaced, err
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

// KeptResume is why a replaced resume object stays: one of the profile's
// applications, of any edition, points at it (again). It locks them all,
// which uploads hold around writing the object and pointing the row at it,
// so an upload of the same key cannot land between this check and a delete
// in the same transaction. "" means the object may go (no application
// holds it).
func KeptResume(ctx context.Context, q *db.Queries, profileID uuid.UUID, key string) (string, error) {
	apps, err := q.ApplicationsLockByProfile(ctx, profileID)
	if err != nil {
		return "", err
	}
	for _, a := range apps {
		if a.ResumeKey != nil && *a.ResumeKey == key {
			return "kept: it is the current resume", nil
		}
	}
	return "", nil
}
