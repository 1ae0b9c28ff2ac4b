package api

import (
	"net"
	"net/http"
	"strconv"
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

// RateLimits are the limits on the endpoints that guess, hash passwords,
// send mail or list accounts. A zero RateLimit takes the default.
type RateLimits struct {
	LoginPerIP RateLimit
	// LoginPerEmail counts failed logins (wrong password or unknown
	// email) of one email from one client IP; a successful login does not
	// count. Keyed by IP as well, so nobody elsewhere can lock the owner
	// out.
	LoginPerEmail               RateLimit
	ForgotPerIP, ForgotPerEmail RateLimit
	SignupPerIP, ResetPerIP     RateLimit
	// SearchPerCaller limits team-member search per signed-in account.
	SearchPerCaller RateLimit
}

// DefaultRateLimits never lock an account; they slow guessing, hashing and
// mailing down.
var DefaultRateLimits = RateLimits{
	LoginPerIP:      RateLimit{Requests: 30, Window: time.Minute},
	LoginPerEmail:   RateLimit{Requests: 20, Window: 5 * time.Minute},
	ForgotPerIP:     RateLimit{Requests: 10, Window: 15 * time.Minute},
	ForgotPerEmail:  RateLimit{Requests: 3, Window: 15 * time.Minute},
	SignupPerIP:     RateLimit{Requests: 10, Window: time.Hour},
	ResetPerIP:      RateLimit{Requests: 10, Window: 15 * time.Minute},
	SearchPerCaller: RateLimit{Requests: 60, Window: time.Minute},
}

// limiters are a server's counters, one per limit.
type limiters struct {
	loginIP, loginFailures, forgotIP, forgotEmail, signupIP, resetIP, search limiter
}

func newLimiters(l RateLimits) limiters {
	d := DefaultRateLimits
	pick := func(v, def RateLimit) limiter {
		if v.Requests <= 0 || v.Window <= 0 {
			v = def
		}
		return newLimiter(v)
	}
	return limiters{
		loginIP:       pick(l.LoginPerIP, d.LoginPerIP),
		loginFailures: pick(l.LoginPerEmail, d.LoginPerEmail),
		forgotIP:      pick(l.ForgotPerIP, d.ForgotPerIP),
		forgotEmail:   pick(l.ForgotPerEmail, d.ForgotPerEmail),
		signupIP:      pick(l.SignupPerIP, d.SignupPerIP),
		resetIP:       pick(l.ResetPerIP, d.ResetPerIP),
		search:        pick(l.SearchPerCaller, d.SearchPerCaller),
	}
}

// limiter counts requests per key in a sliding window.
type limiter struct {
	rl    *httprate.RateLimiter
	limit RateLimit
}

func newLimiter(l RateLimit) limiter {
	return limiter{limit: l, rl: httprate.NewRateLimiter(l.Requests, l.Window,
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

// over counts the request under key and reports whether key was already
// at its limit.
func (l limiter) over(w http.ResponseWriter, r *http.Request, key string) func() bool {
	return func() bool { return l.rl.OnLimit(w, r, key) }
}

// full reports, without counting anything, whether key has used up its
// limit; then it sets Retry-After. It goes with fail, for limits that
// count failures only.
func (l limiter) full(w http.ResponseWriter, key string) func() bool {
	return func() bool {
		_, rate, err := l.rl.Status(key)
		if err != nil || int(rate+0.5) < l.limit.Requests {
			return false
		}
		w.Header().Set("Retry-After", strconv.Itoa(int(l.limit.Window.Seconds())))
		return true
	}
}

// fail counts one failure under key.
func (l limiter) fail(r *http.Request, key string) {
	l.rl.OnLimit(discardHeaders{}, r, key)
}

// discardHeaders is a ResponseWriter that takes the rate-limit headers of
// a count made after the answer was decided.
type discardHeaders struct{}

func (discardHeaders) Header() http.Header         { return http.Header{} }
func (discardHeaders) Write(b []byte) (int, error) { return len(b), nil }
func (discardHeaders) WriteHeader(int)             {}

// clientIP is the caller's address as the RealIP middleware left it.
func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

func emailKey(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

// emailIPKey keys failed logins by email and client IP.
func emailIPKey(email string, r *http.Request) string {
	return emailKey(email) + "\x00" + clientIP(r)
}
