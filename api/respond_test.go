package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"

	"github.com/go-chi/chi/v5/middleware"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"hackdesk/internal/platform/apperr"
)

type sample struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

func (s sample) Validate() apperr.Fields {
	f := apperr.Fields{}
	if s.Name == "" {
		f.Add("name", "is required")
	}
	if s.Count < 0 || s.Count > 10 {
		f.Add("count", "must be from 0 to 10")
	}
	return f
}

func decodeBody(t *testing.T, contentType, body string) (*httptest.ResponseRecorder, sample, bool) {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, "/x", strings.NewReader(body))
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	w := httptest.NewRecorder()
	var v sample
	err := decode(w, r, &v)
	if err != nil {
		writeError(w, r, err)
	}
	return w, v, err == nil
}

func readBody(t *testing.T, w *httptest.ResponseRecorder) errorBody {
	t.Helper()
	var b errorBody
	if err := json.Unmarshal(w.Body.Bytes(), &b); err != nil {
		t.Fatalf("body %q is not JSON: %v", w.Body.String(), err)
	}
	return b
}

func TestDecode(t *testing.T) {
	t.Parallel()
	t.Run("OK", func(t *testing.T) {
		t.Parallel()
		w, v, ok := decodeBody(t, "application/json; charset=utf-8", `{"name":"ada","count":3}`)
		if !ok || v.Name != "ada" || v.Count != 3 || w.Body.Len() != 0 {
			t.Fatalf("ok=%v v=%+v body=%q", ok, v, w.Body.String())
		}
	})
	cases := []struct {
		name, contentType, body string
		status                  int
		wantError               string
		wantDetails             map[string]string
	}{
		{"ErrUnknownField", "application/json", `{"name":"ada","admin":true}`, 400, "Validation failed", map[string]string{"admin": "unknown field"}},
		{"ErrValidation", "application/json", `{"count":11}`, 400, "Validation failed", map[string]string{"name": "is required", "count": "must be from 0 to 10"}},
		{"ErrWrongType", "application/json", `{"name":"ada","count":"three"}`, 400, "Validation failed", map[string]string{"count": "must be an integer"}},
		{"ErrSyntax", "application/json", `{"name":`, 400, "Invalid JSON", nil},
		{"ErrEmpty", "application/json", ``, 400, "Invalid JSON", nil},
		{"ErrNotObject", "application/json", `[1,2]`, 400, "Invalid JSON", nil},
		{"ErrTrailing", "application/json", `{"name":"ada"} {"name":"bob"}`, 400, "Invalid JSON", nil},
		{"ErrContentType", "text/plain", `{"name":"ada"}`, 415, "Unsupported media type", nil},
		{"ErrTooLarge", "application/json", `{"name":"` + strings.Repeat("a", maxJSONBody) + `"}`, 413, "Request body too large", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w, _, ok := decodeBody(t, c.contentType, c.body)
			if ok {
				t.Fatal("decode accepted the body")
			}
			if w.Code != c.status {
				t.Fatalf("status = %d, want %d (%s)", w.Code, c.status, w.Body.String())
			}
			b := readBody(t, w)
			if b.Error != c.wantError {
				t.Fatalf("error = %q, want %q", b.Error, c.wantError)
			}
			if c.wantDetails != nil && fmt.Sprint(b.Details) != fmt.Sprint(c.wantDetails) {
				t.Fatalf("details = %v, want %v", b.Details, c.wantDetails)
			}
			if b.Message == "" {
				t.Fatal("message is empty")
			}
		})
	}
}

func TestWriteError(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		err    error
		status int
		title  string
	}{
		{"Invalid", apperr.ValidationFailed(apperr.Fields{"a": "bad"}), 400, "Validation failed"},
		{"Unauthorized", apperr.New(apperr.Unauthorized, "Unauthorized"), 401, "Unauthorized"},
		{"Forbidden", apperr.New(apperr.Forbidden, "Forbidden"), 403, "Forbidden"},
		{"NotFound", apperr.New(apperr.NotFound, "Not found"), 404, "Not found"},
		{"Conflict", apperr.New(apperr.Conflict, "Application already submitted"), 409, "Application already submitted"},
		{"TooLarge", apperr.WithMessage(apperr.TooLarge, "File too large", "at most 10 MB"), 413, "File too large"},
		{"Unsupported", apperr.New(apperr.Unsupported, "Unsupported file type"), 415, "Unsupported file type"},
		{"RateLimited", apperr.New(apperr.RateLimited, "Too many requests"), 429, "Too many requests"},
		{"Unavailable", apperr.New(apperr.Unavailable, "Service unavailable"), 503, "Service unavailable"},
		{"Wrapped", fmt.Errorf("handler: %w", apperr.New(apperr.NotFound, "No application")), 404, "No application"},
		{"StoreNotFound", fmt.Errorf("load: %w", pgx.ErrNoRows), 404, "Not found"},
		{"StoreConflict", &pgconn.PgError{Code: "23505", ConstraintName: "emails_key"}, 409, "Conflict"},
		{"StoreInvalid", &pgconn.PgError{Code: "23514", ConstraintName: "reviews_q1_score_check"}, 400, "Bad request"},
		{"Internal", errors.New("dial tcp 10.0.0.5:5432: connection refused"), 500, "Internal server error"},
		{"InternalCode", apperr.New(apperr.Internal, "secret detail"), 500, "Internal server error"},
		{"DatabaseUnreachable", fmt.Errorf("store: %w", &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}), 503, "Service unavailable"},
		{"ConnectionReset", fmt.Errorf("query: %w", syscall.ECONNRESET), 503, "Service unavailable"},
		{"DatabaseShuttingDown", &pgconn.PgError{Code: "57P01"}, 503, "Service unavailable"},
		{"TooManyConnections", &pgconn.PgError{Code: "53300"}, 503, "Service unavailable"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := httptest.NewRequest(http.MethodGet, "/x", nil)
			r = r.WithContext(contextWithRequestID(r, "req-1"))
			w := httptest.NewRecorder()
			writeError(w, r, c.err)
			if w.Code != c.status {
				t.Fatalf("status = %d, want %d", w.Code, c.status)
			}
			if ct := w.Header().Get("Content-Type"); ct != "application/json" {
				t.Fatalf("content type = %q", ct)
			}
			b := readBody(t, w)
			if b.Error != c.title {
				t.Fatalf("error = %q, want %q", b.Error, c.title)
			}
			if c.status == 503 && w.Header().Get("Retry-After") == "" {
				t.Fatal("503 without Retry-After")
			}
			if c.status == 500 {
				body := w.Body.String()
				if strings.Contains(body, "10.0.0.5") || strings.Contains(body, "secret detail") {
					t.Fatalf("internal detail leaked: %s", body)
				}
				if !strings.Contains(b.Message, "req-1") {
					t.Fatalf("message %q does not quote the request id", b.Message)
				}
			}
		})
	}
}

func contextWithRequestID(r *http.Request, id string) context.Context {
	return context.WithValue(r.Context(), middleware.RequestIDKey, id)
}
