package api

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"

	"github.com/go-chi/chi/v5/middleware"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/storage"
)

// errorBody is every non-2xx JSON body: the service document's {error,
// message} plus field details for validation failures.
type errorBody struct {
	Error   string            `json:"error"`
	Message string            `json:"message,omitempty"`
	Details map[string]string `json:"details,omitempty"`
}

var statusOf = map[apperr.Code]int{
	apperr.Invalid:       http.StatusBadRequest,
	apperr.Unauthorized:  http.StatusUnauthorized,
	apperr.Forbidden:     http.StatusForbidden,
	apperr.NotFound:      http.StatusNotFound,
	apperr.Conflict:      http.StatusConflict,
	apperr.Unprocessable: http.StatusUnprocessableEntity,
	apperr.NotAcceptable: http.StatusNotAcceptable,
	apperr.TooLarge:      http.StatusRequestEntityTooLarge,
	apperr.Timeout:       http.StatusRequestTimeout,
	apperr.Unsupported:   http.StatusUnsupportedMediaType,
	apperr.RateLimited:   http.StatusTooManyRequests,
	apperr.Unavailable:   http.StatusServiceUnavailable,
	apperr.Internal:      http.StatusInternalServerError,
}

// handlerFunc is an endpoint. It writes its answer when it succeeds and
// returns its error otherwise; ServeHTTP answers that error with writeError,
// so no handler writes an error itself.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

func (h handlerFunc) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := h(w, r); err != nil {
		writeError(w, r, err)
	}
}

// plain adapts a handler that answers every request itself, errors
// included.
func plain(h http.HandlerFunc) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		h(w, r)
		return nil
	}
}

// writeJSON writes v as the JSON body with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// toAppError classifies err: an *apperr.Error passes through, the store's
// errors become not found / conflict / invalid, anything else is internal.
// The store's queries return its errors already; MapError here catches a
// driver error that reached a handler some other way (the pool used
// directly).
func toAppError(err error) *apperr.Error {
	if e, ok := apperr.As(err); ok {
		return e
	}
	err = db.MapError(err)
	switch {
	case errors.Is(err, db.ErrNotFound):
		return apperr.New(apperr.NotFound, "Not found")
	case errors.Is(err, db.ErrConflict):
		return apperr.New(apperr.Conflict, "Conflict")
	case errors.Is(err, db.ErrInvalid):
		return apperr.WithMessage(apperr.Invalid, "Bad request", "The request breaks a data rule")
	}
	return nil
}

// writeError answers with the status for err's code. Internal errors are
// logged with the request id and the client gets only a generic message
// that quotes the id.
func writeError(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, context.Canceled) && r.Context().Err() != nil {
		// The client went away; no one reads this answer, and it is not a
		// server fault. 499 is the conventional "client closed request".
		w.WriteHeader(499)
		return
	}
	e := toAppError(err)
	if e == nil && (db.Unreachable(err) || storage.Unreachable(err)) {
		// The database or the object store is out of reach: the request
		// may succeed shortly, and nothing was half-done (each request's
		// writes are one transaction).
		loggerFrom(r.Context()).WarnContext(r.Context(), "backing service unavailable", "request_id", middleware.GetReqID(r.Context()),
			"method", r.Method, "path", r.URL.Path, "err", err)
		w.Header().Set("Retry-After", "5")
		writeJSON(w, http.StatusServiceUnavailable, errorBody{Error: "Service unavailable",
			Message: "A service the API depends on is unreachable; retry shortly"})
		return
	}
	if e == nil || e.Code == apperr.Internal {
		reqID := middleware.GetReqID(r.Context())
		loggerFrom(r.Context()).ErrorContext(r.Context(), "request failed", "request_id", reqID,
			"method", r.Method, "path", r.URL.Path, "err", err)
		writeJSON(w, http.StatusInternalServerError, errorBody{
			Error:   "Internal server error",
			Message: "An unexpected error occurred; quote request id " + reqID + " when reporting it",
		})
		return
	}
	status, ok := statusOf[e.Code]
	if !ok {
		status = http.StatusInternalServerError
	}
	if status == http.StatusServiceUnavailable && w.Header().Get("Retry-After") == "" {
		w.Header().Set("Retry-After", "5")
	}
	writeJSON(w, status, errorBody{Error: e.Title, Message: e.Message, Details: e.Details})
}

// loggerKey carries the server's logger in a request's context.
type loggerKey struct{}

// loggerFrom is the server's logger (withLogger), or slog's default for a
// request that did not pass through the server's middleware (unit tests).
func loggerFrom(ctx context.Context) *slog.Logger {
	if l, ok := ctx.Value(loggerKey{}).(*slog.Logger); ok {
		return l
	}
	return slog.Default()
}
