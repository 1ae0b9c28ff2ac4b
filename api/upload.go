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

	"hackdesk/apperr"
	"hackdesk/resume"
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
