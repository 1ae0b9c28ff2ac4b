package api

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"time"

	"github.com/google/uuid"

	"hackdesk/apperr"
	"hackdesk/db"
	"hackdesk/outbox"
	"hackdesk/resume"
	"hackdesk/workflows"
)

// resumeLinkTTL is the lifetime of a signed resume link (1 hour).
const resumeLinkTTL = time.Hour

// multipartOverhead is what the form around a 10 MB file may add.
const multipartOverhead = 1 << 20

var (
	errResumeTooLarge = apperr.WithMessage(apperr.TooLarge, "File too large", "A resume may be at most 10 MB")
	errResumeType     = apperr.WithMessage(apperr.Unsupported, "Unsupported file type", "A resume must be a PDF, DOC or DOCX file whose content matches its extension")
)

// readResumePart reads the multipart field "file", enforcing the size cap
// while reading (Content-Length is not trusted).
func readResumePart(w http.ResponseWriter, r *http.Request) (filename string, data []byte, err error) {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != "multipart/form-data" {
		return "", nil, apperr.WithMessage(apperr.Unsupported, "Unsupported media type", "Send the resume as multipart/form-data with a file part")
	}
	r.Body = http.MaxBytesReader(w, r.Body, resume.MaxSize+multipartOverhead)
	mr, err := r.MultipartReader()
	if err != nil {
		return "", nil, apperr.WithMessage(apperr.Invalid, "Bad request", "The multipart body could not be read")
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return "", nil, apperr.ValidationFailed(apperr.Fields{"file": "is required"})
		}
		var maxErr *http.MaxBytesError
		if errors.As(err, &maxErr) {
			return "", nil, errResumeTooLarge
		}
		if err != nil {
			return "", nil, apperr.WithMessage(apperr.Invalid, "Bad request", "The multipart body could not be read")
		}
		if part.FormName() != "file" {
			continue
		}
		var buf bytes.Buffer
		n, err := io.Copy(&buf, io.LimitReader(part, resume.MaxSize+1))
		if errors.As(err, &maxErr) || n > resume.MaxSize {
			return "", nil, errResumeTooLarge
		}
		if err != nil {
			return "", nil, apperr.WithMessage(apperr.Invalid, "Bad request", "The upload was cut short")
		}
		return part.FileName(), buf.Bytes(), nil
	}
}

// uploadResume stores a new resume and points the application at it. The
// object is written under the application's row lock, then the row is
// updated, and a ResumeCleanup workflow is queued in the same transaction
// (package outbox) for the object it replaces. If anything fails, the old
// resume stays current.
func (s *Server) uploadResume(w http.ResponseWriter, r *http.Request) error {
	filename, data, err := readResumePart(w, r)
	if err != nil {
		return err
	}
	typ, err := resume.Detect(filename, data)
	if err != nil {
		return errResumeType
	}
	ctx := r.Context()
	me := principalFrom(ctx).ProfileID
	name := resume.SafeName(filename)
	key := me.String() + "/" + name
	err = s.store.InTx(ctx, func(q *db.Queries) error {
		a, err := lockDraft(ctx, q, me)
		if err != nil {
			return err
		}
		if err := s.blob.Put(ctx, key, typ.ContentType, bytes.NewReader(data), int64(len(data))); err != nil {
			return fmt.Errorf("store resume: %w", err)
		}
		if err := q.ApplicationSetResume(ctx, db.ApplicationSetResumeParams{ID: a.ID, ResumeKey: &key, ResumeName: &name}); err != nil {
			return err
		}
		if a.ResumeKey == nil || *a.ResumeKey == key {
			return nil // nothing replaced, or replaced in place
		}
		_, err = outbox.Enqueue(ctx, q, workflows.ResumeCleanupRequest(workflows.ResumeCleanupInput{
			ProfileID: me, OldKey: *a.ResumeKey, UploadID: uuid.New(), Grace: s.cfg.ResumeCleanupGrace,
		}))
		return err
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]string{"message": "Resume uploaded", "key": key})
	return nil
}

type resumeJSON struct {
	Resume *struct {
		Name string `json:"name"`
	} `json:"resume"`
	URL *string `json:"url"`
	Key *string `json:"key"`
}

// getResume answers the caller's resume with a signed link. There is no
// parameter naming another user: the owner is always the caller.
func (s *Server) getResume(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	a, err := s.store.ApplicationGetByProfile(ctx, principalFrom(ctx).ProfileID)
	var out resumeJSON
	switch {
	case errors.Is(err, db.ErrNotFound):
	case err != nil:
		return err
	case a.ResumeKey != nil:
		link, err := s.blob.PresignGet(ctx, *a.ResumeKey, *a.ResumeName, resumeLinkTTL)
		if err != nil {
			return err
		}
		out.Resume = &struct {
			Name string `json:"name"`
		}{Name: *a.ResumeName}
		out.URL, out.Key = &link, a.ResumeKey
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}
