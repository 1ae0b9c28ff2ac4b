package api

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"time"

	"github.com/google/uuid"

	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/resume"
)

// The reading of multipart uploads (resumes, headshots): deadlines, size
// caps while reading, and the per-account limit on uploads at once.

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

// readParts reads a multipart/form-data upload of a what ("resume",
// "headshot"; anything else is 415) within the upload deadline, the body
// capped at max plus the form's overhead while it is read
// (Content-Length is not trusted), and each part's headers capped. It
// hands each part to read until read reports done or the parts end.
func readParts(w http.ResponseWriter, r *http.Request, timeout time.Duration, what string, max int64, tooLarge error,
	read func(*multipart.Part) (done bool, err error)) error {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != "multipart/form-data" {
		return apperr.WithMessage(apperr.Unsupported, "Unsupported media type", "Send the "+what+" as multipart/form-data with a file part")
	}
	uploadDeadline(w, timeout)
	r.Body = http.MaxBytesReader(w, r.Body, max+multipartOverhead)
	mr, err := r.MultipartReader()
	if err != nil {
		return errMultipart
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return uploadError(err, tooLarge, errMultipart)
		}
		if partHeaderSize(part) > maxPartHeader {
			return errPartHeader
		}
		if done, err := read(part); done || err != nil {
			return err
		}
	}
}

// readFilePart reads a file part of at most max bytes (tooLarge beyond).
func readFilePart(part *multipart.Part, max int64, tooLarge error) ([]byte, error) {
	var buf bytes.Buffer
	n, err := io.Copy(&buf, io.LimitReader(part, max+1))
	if err != nil {
		return nil, uploadError(err, tooLarge, errUploadCut)
	}
	if n > max {
		return nil, tooLarge
	}
	return buf.Bytes(), nil
}

// readResumePart reads the multipart field "file", the first one sent.
func readResumePart(w http.ResponseWriter, r *http.Request, timeout time.Duration) (filename string, data []byte, err error) {
	found := false
	err = readParts(w, r, timeout, "resume", resume.MaxSize, errResumeTooLarge, func(part *multipart.Part) (bool, error) {
		if part.FormName() != "file" {
			return false, nil
		}
		if data, err = readFilePart(part, resume.MaxSize, errResumeTooLarge); err != nil {
			return true, err
		}
		if len(data) == 0 {
			return true, errFileEmpty
		}
		filename, found = part.FileName(), true
		return true, nil
	})
	if err == nil && !found {
		err = apperr.ValidationFailed(apperr.Fields{"file": "is required"})
	}
	return filename, data, err
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
