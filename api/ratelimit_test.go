package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/ratelimit"
)

// TestLimitAnswers: a refusal is 429 with Retry-After the limit's window;
// a counter out of reach is 503 with Retry-After 5 (the limiter fails
// closed), unless the client went away.
func TestLimitAnswers(t *testing.T) {
	t.Parallel()
	l := ratelimit.New(RateLimits{LoginPerIP: RateLimit{Requests: 5, Window: time.Hour}}, nil, nil).LoginIP
	w := httptest.NewRecorder()
	if err := tooMany(w, l); !errors.Is(err, errRateLimited) || w.Header().Get("Retry-After") != "3600" {
		t.Errorf("tooMany: %v, Retry-After %q; want 429 after 3600", err, w.Header().Get("Retry-After"))
	}
	if e, ok := apperr.As(errRateLimited); !ok || statusOf[e.Code] != http.StatusTooManyRequests {
		t.Errorf("errRateLimited is %v", errRateLimited)
	}
	w = httptest.NewRecorder()
	err := limiterDown(w, fmt.Errorf("rate limit login-ip: %w", errors.New("connection refused")))
	if e, ok := apperr.As(err); !ok || statusOf[e.Code] != http.StatusServiceUnavailable || w.Header().Get("Retry-After") != "5" {
		t.Errorf("limiterDown: %v, Retry-After %q; want 503 after 5", err, w.Header().Get("Retry-After"))
	}
	w = httptest.NewRecorder()
	if err := limiterDown(w, fmt.Errorf("rate limit: %w", context.Canceled)); !errors.Is(err, context.Canceled) || w.Header().Get("Retry-After") != "" {
		t.Errorf("limiterDown of a cancelled request: %v, Retry-After %q", err, w.Header().Get("Retry-After"))
	}
}
