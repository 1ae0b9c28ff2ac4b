package api

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"time"

	"github.com/google/uuid"

	"hackdesk/apperr"
	"hackdesk/application"
	"hackdesk/db"
	"hackdesk/outbox"
	"hackdesk/resume"
	"hackdesk/workflows"
)

// resumeLinkTTL is the lifetime of a signed resume link (1 hour).
const resumeLinkTTL = time.Hour

// multipartOverhead is what the form around a 10 MB file may add.
const multipartOverhead = 1 << 20

// maxPartHeader bounds the headers of one part of an upload form (a
// file name of a few thousand characters still fits).
const maxPartHeader = 8 << 10

// defaultUploadTimeout is how long an upload's body may take when
// config.UploadTimeout is zero: 10 MB at 85 KB/s.
const defaultUploadTimeout = 2 * time.Minute

// maxUploadsPerAccount is how many uploads one account may run at once,
// in one API process; more answer 429.
const maxUploadsPerAccount = 2

var (
	errUploadsBusy = apperr.WithMessage(apperr.RateLimited, "Too many requests",
		"At most 2 uploads at once: wait for your other uploads to finish")
	errResumeTooLarge = apperr.WithMessage(apperr.TooLarge, "File too large", "A resume may be at most 10 MB")
	errResumeType     = apperr.WithMessage(apperr.Unsupported, "Unsupported file type", "A resume must be a PDF, DOC or DOCX file whose content matches its extension")
	errUploadTimeout  = apperr.WithMessage(apperr.Timeout, "Request timeout", "The upload was not received in time")
	errPartHeader     = apperr.WithMessage(apperr.Invalid, "Bad request", "The headers of a form part may be at most 8 KiB")
	errUploadCut      = apperr.WithMessage(apperr.Invalid, "Bad request", "The upload was cut short")
	errMultipart      = apperr.WithMessage(apperr.Invalid, "Bad request", "The multipart body could not be read")
	errFileEmpty      = apperr.ValidationFailed(apperr.Fields{"file": "is empty"})
)

// uploadDeadline gives an upload's body d (defaultUploadTimeout when zero)
// from now to arrive, in place of the server's ReadTimeout, which is meant
// for JSON bodies.
func uploadDeadline(w http.ResponseWriter, d time.Duration) {
	if d <= 0 {
		d = defaultUploadTimeout
	}
	// Without a connection to set it on (a test recorder), the server's
	// ReadTimeout still bounds the body.
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(d))
}

// uploadError maps a failure to read an upload's body: past its deadline
// 408, past its size cap tooLarge (413), otherwise fallback (400).
func uploadError(err error, tooLarge, fallback error) error {
	var maxErr *http.MaxBytesError
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return errUploadTimeout
	case errors.As(err, &maxErr):
		return tooLarge
	}
	return fallback
}

// partHeaderSize is the size of a form part's headers.
func partHeaderSize(p *multipart.Part) int {
	n := 0
	for k, vs := range p.Header {
		for _, v := range vs {
			n += len(k) + len(v) + 4 // ": " and CRLF
		}
	}
	return n
}

// readResumePart reads the multipart field "file", enforcing the size cap
// while reading (Content-Length is not trusted) and the upload deadline.
func readResumePart(w http.ResponseWriter, r *http.Request, timeout time.Duration) (filename string, data []byte, err error) {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != "multipart/form-data" {
		return "", nil, apperr.WithMessage(apperr.Unsupported, "Unsupported media type", "Send the resume as multipart/form-data with a file part")
	}
	uploadDeadline(w, timeout)
	r.Body = http.MaxBytesReader(w, r.Body, resume.MaxSize+multipartOverhead)
	mr, err := r.MultipartReader()
	if err != nil {
		return "", nil, errMultipart
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return "", nil, apperr.ValidationFailed(apperr.Fields{"file": "is required"})
		}
		if err != nil {
			return "", nil, uploadError(err, errResumeTooLarge, errMultipart)
		}
		if partHeaderSize(part) > maxPartHeader {
			return "", nil, errPartHeader
		}
		if part.FormName() != "file" {
			continue
		}
		var buf bytes.Buffer
		n, err := io.Copy(&buf, io.LimitReader(part, resume.MaxSize+1))
		if err != nil {
			return "", nil, uploadError(err, errResumeTooLarge, errUploadCut)
		}
		if n > resume.MaxSize {
			return "", nil, errResumeTooLarge
		}
		if n == 0 {
			return "", nil, errFileEmpty
		}
		return part.FileName(), buf.Bytes(), nil
	}
}

// uploadPlace takes one of the account's upload places, or answers 429
// with Retry-After when it holds them all. The returned function gives it
// back.
func (s *Server) uploadPlace(w http.ResponseWriter, account uuid.UUID) (func(), error) {
	release, ok := s.uploads.TryAcquire(account.String())
	if !ok {
		w.Header().Set("Retry-After", "5")
		return nil, errUploadsBusy
	}
	return release, nil
}

// uploadResume stores a new resume and points the application at it. The
// draft is checked before the body is read (404 without an application,
// 409 once submitted), and the upload takes one of the account's places.
// The object is written under the application's row lock, then the row is
// updated, and a ResumeCleanup workflow is queued in the same transaction
// (package outbox) for the object it replaces. If anything fails, the old
// resume stays current.
func (s *Server) uploadResume(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	me := principalFrom(ctx).ProfileID
	switch a, err := s.store.ApplicationGetByProfile(ctx, me); {
	case errors.Is(err, db.ErrNotFound):
		return errNoApplication
	case err != nil:
		return err
	case application.Status(a.Status) != application.StatusDraft:
		return errAlreadySubmitted
	}
	release, err := s.uploadPlace(w, me)
	if err != nil {
		return err
	}
	defer release()
	filename, data, err := readResumePart(w, r, s.cfg.UploadTimeout)
	if err != nil {
		return err
	}
	typ, err := resume.Detect(filename, data)
	if err != nil {
		return errResumeType
	}
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
		kind := typ.Kind()
		if err := q.ApplicationSetResume(ctx, db.ApplicationSetResumeParams{
			ID: a.ID, ResumeKey: &key, ResumeName: &name, ResumeType: &kind}); err != nil {
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
	// PreviewURL shows a PDF in place (resumeLinks); null otherwise.
	PreviewURL *string `json:"preview_url"`
}

// getResume answers the caller's resume with its signed links. There is no
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
		links, err := resumeLinksOf(ctx, s.store.Queries, s.blob, s.log, a)
		if err != nil {
			return err
		}
		out.Resume = &struct {
			Name string `json:"name"`
		}{Name: *a.ResumeName}
		out.URL, out.Key, out.PreviewURL = links.Download, a.ResumeKey, links.Preview
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}
