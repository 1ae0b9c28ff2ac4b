package api

import (
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/httprate"

	"hackdesk/apperr"
)

// RateLimit is one limit: at most Requests per Window for a key.
type RateLimit struct {
	Requests int
	Window   time.Duration
}

// RateLimits are the limits on the endpoints that guess or send mail.
type RateLimits struct {
	LoginPerIP, LoginPerEmail   RateLimit
	ForgotPerIP, ForgotPerEmail RateLimit
}

// DefaultRateLimits never lock an account; they slow guessing down.
var DefaultRateLimits = RateLimits{
	LoginPerIP:     RateLimit{Requests: 30, Window: time.Minute},
	LoginPerEmail:  RateLimit{Requests: 10, Window: 5 * time.Minute},
	ForgotPerIP:    RateLimit{Requests: 10, Window: 15 * time.Minute},
	ForgotPerEmail: RateLimit{Requests: 3, Window: 15 * time.Minute},
}

// limiter counts requests per key in a sliding window.
type limiter struct {
	rl *httprate.RateLimiter
}

func newLimiter(l RateLimit) limiter {
	return limiter{rl: httprate.NewRateLimiter(l.Requests, l.Window,
		httprate.WithErrorHandler(func(http.ResponseWriter, *http.Request, error) {}))}
}

var errRateLimited = apperr.WithMessage(apperr.RateLimited, "Too many requests", "Try again later")

// allow counts the request under every key and returns the 429 error when
// any key is over its limit (httprate has set Retry-After by then).
func allow(checks ...func() bool) error {
	for _, over := range checks {
		if over() {
			return errRateLimited
		}
	}
	return nil
}

func (l limiter) over(w http.ResponseWriter, r *http.Request, key string) func() bool {
	return func() bool { return l.rl.OnLimit(w, r, key) }
}

// clientIP is the caller's address as the RealIP middleware left it.
func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

func emailKey(email string) string { return strings.ToLower(strings.TrimSpace(email)) }
