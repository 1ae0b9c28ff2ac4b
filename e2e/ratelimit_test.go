package e2e

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"hackdesk/api"
)

func TestRateLimits(t *testing.T) {
	t.Parallel()
	a, _ := newApp(t)
	limits := api.RateLimits{
		LoginPerIP:       api.RateLimit{Requests: 5, Window: time.Minute},
		LoginPerEmail:    api.RateLimit{Requests: 2, Window: time.Minute},
		ForgotPerIP:      api.RateLimit{Requests: 3, Window: time.Minute},
		ForgotPerEmailIP: api.RateLimit{Requests: 1, Window: time.Minute},
	}
	ts := httptest.NewServer(api.New(api.Deps{Config: a.Config, Store: a.Store, Temporal: a.Temporal, Logger: a.Log, Limits: &limits}))
	defer ts.Close()
	c := &client{t: t, base: ts.URL}

	check429 := func(r response) {
		t.Helper()
		if r.Status != http.StatusTooManyRequests {
			t.Fatalf("status %d, want 429 (%s)", r.Status, r.Body)
		}
		if ra, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || ra <= 0 {
			t.Fatalf("Retry-After = %q, want seconds", r.Header.Get("Retry-After"))
		}
		if r.Map(t)["error"] != "Too many requests" {
			t.Fatalf("body %s", r.Body)
		}
	}

	t.Run("LoginPerEmail", func(t *testing.T) {
		body := map[string]string{"email": "victim@example.com", "password": "guess-123"}
		c.expect(http.StatusUnauthorized, "POST", "/api/auth/login", body)
		c.expect(http.StatusUnauthorized, "POST", "/api/auth/login", body)
		// The same email in other case counts against the same limit.
		check429(c.do("POST", "/api/auth/login", map[string]string{"email": "VICTIM@example.com", "password": "guess-123"}))
	})
	t.Run("LoginPerIP", func(t *testing.T) {
		// Three more attempts on other emails reach the per-IP limit of 5.
		for _, e := range []string{"a@example.com", "b@example.com", "c@example.com"} {
			r := c.do("POST", "/api/auth/login", map[string]string{"email": e, "password": "guess-123"})
			if r.Status == http.StatusTooManyRequests {
				break
			}
		}
		check429(c.do("POST", "/api/auth/login", map[string]string{"email": "d@example.com", "password": "guess-123"}))
	})
	t.Run("ForgotPerEmailIP", func(t *testing.T) {
		c.expect(http.StatusOK, "POST", "/api/auth/forgot-password", map[string]string{"email": "x@example.com"})
		check429(c.do("POST", "/api/auth/forgot-password", map[string]string{"email": "x@example.com"}))
	})
}
