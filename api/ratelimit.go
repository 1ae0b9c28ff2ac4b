package api

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"hackdesk/apperr"
	"hackdesk/db"
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
	LoginPerEmail RateLimit
	// ForgotPerIP and ForgotPerEmailIP answer 429. ForgotPerEmail is the
	// rate at which reset links are mailed to one address, whoever asks:
	// above it the answer stays 200 and nothing is sent, so nobody can
	// lock the owner out or retire the link mailed last.
	ForgotPerIP, ForgotPerEmailIP, ForgotPerEmail RateLimit
	SignupPerIP, ResetPerIP                       RateLimit
	// SearchPerCaller limits team-member search per signed-in account.
	SearchPerCaller RateLimit
}

// DefaultRateLimits never lock an account; they slow guessing, hashing and
// mailing down.
var DefaultRateLimits = RateLimits{
	LoginPerIP:       RateLimit{Requests: 30, Window: time.Minute},
	LoginPerEmail:    RateLimit{Requests: 20, Window: 5 * time.Minute},
	ForgotPerIP:      RateLimit{Requests: 10, Window: 15 * time.Minute},
	ForgotPerEmailIP: RateLimit{Requests: 3, Window: 15 * time.Minute},
	ForgotPerEmail:   RateLimit{Requests: 3, Window: 15 * time.Minute},
	SignupPerIP:      RateLimit{Requests: 10, Window: time.Hour},
	ResetPerIP:       RateLimit{Requests: 10, Window: 15 * time.Minute},
	SearchPerCaller:  RateLimit{Requests: 60, Window: time.Minute},
}

// limiters are a server's limits. The counters live in PostgreSQL
// (rate_limit_hits), so every API replica on one database shares them: a
// client spreading its requests over replicas gets what one replica
// would give it.
type limiters struct {
	loginIP, loginFailures, forgotIP, forgotEmailIP, forgotEmail, signupIP, resetIP, search limiter
}

func newLimiters(l RateLimits, store *db.Store, log *slog.Logger) limiters {
	if log == nil {
		log = slog.Default()
	}
	c := &counters{store: store, log: log}
	d := DefaultRateLimits
	pick := func(name string, v, def RateLimit) limiter {
		if v.Requests <= 0 || v.Window <= 0 {
			v = def
		}
		return limiter{name: name, limit: v, c: c}
	}
	return limiters{
		loginIP:       pick("login-ip", l.LoginPerIP, d.LoginPerIP),
		loginFailures: pick("login-failures", l.LoginPerEmail, d.LoginPerEmail),
		forgotIP:      pick("forgot-ip", l.ForgotPerIP, d.ForgotPerIP),
		forgotEmailIP: pick("forgot-email-ip", l.ForgotPerEmailIP, d.ForgotPerEmailIP),
		forgotEmail:   pick("forgot-mail", l.ForgotPerEmail, d.ForgotPerEmail),
		signupIP:      pick("signup-ip", l.SignupPerIP, d.SignupPerIP),
		resetIP:       pick("reset-ip", l.ResetPerIP, d.ResetPerIP),
		search:        pick("search", l.SearchPerCaller, d.SearchPerCaller),
	}
}

// counters reach the shared counter table and sweep its expired rows now
// and then.
type counters struct {
	store *db.Store
	log   *slog.Logger
	sweep sweeper
}

// counterTimeout bounds a counter look-up or write made without the
// request's context.
const counterTimeout = 5 * time.Second

// sweepEvery is how often, at most, one API process deletes expired
// counter rows (in the background, after a request has been counted).
const sweepEvery = time.Minute

func (c *counters) maybeSweep() {
	c.sweep.maybe(sweepEvery, c.log, "expired rate-limit counters", c.store.RateLimitDeleteExpired)
}

// limiter is one limit under one name.
type limiter struct {
	name  string
	limit RateLimit
	c     *counters
}

var errRateLimited = apperr.WithMessage(apperr.RateLimited, "Too many requests", "Try again later")

// errLimiterDown answers a request whose limit could not be checked. The
// limiter fails closed (docs/decisions.md): every limited endpoint needs
// the database for its own work anyway, and an open limiter would let a
// database in trouble be hammered with password hashing and guesses.
var errLimiterDown = errBusy

// allow runs the checks in order and returns the first error: the 429 of
// a key over its limit (Retry-After set) or the 503 of a limit that could
// not be checked.
func allow(checks ...func() error) error {
	for _, check := range checks {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// key is the counter row's key: the limit's name and window, and a hash of
// the client key, so the table holds no addresses.
func (l limiter) key(k string) string {
	sum := sha256.Sum256([]byte(k))
	return l.name + "/" + strconv.Itoa(int(l.limit.Window.Seconds())) + ":" + base64.RawURLEncoding.EncodeToString(sum[:18])
}

func (l limiter) window() float64 { return l.limit.Window.Seconds() }

func (l limiter) tooMany(w http.ResponseWriter) error {
	w.Header().Set("Retry-After", strconv.Itoa(int(l.window())))
	return errRateLimited
}

func (l limiter) down(w http.ResponseWriter, err error) error {
	if errors.Is(err, context.Canceled) {
		return err // the client went away; nobody reads the answer
	}
	l.c.log.Error("rate limit unavailable", "limit", l.name, "err", err)
	w.Header().Set("Retry-After", "5")
	return errLimiterDown
}

// over counts the request under key unless key is already at its limit;
// then it answers 429 with Retry-After.
func (l limiter) over(w http.ResponseWriter, r *http.Request, key string) func() error {
	return func() error {
		_, err := l.c.store.RateLimitTake(r.Context(), db.RateLimitTakeParams{
			Key: l.key(key), WindowSeconds: l.window(), MaxCount: int32(l.limit.Requests)})
		switch {
		case errors.Is(err, db.ErrNotFound): // nothing counted: at the limit
			return l.tooMany(w)
		case err != nil:
			return l.down(w, err)
		}
		l.c.maybeSweep()
		return nil
	}
}

// take counts the request under key and reports true, unless key is at
// its limit (false, nothing counted): for a limit whose excess is not
// refused but served differently. An unreadable counter is the 503 of
// down.
func (l limiter) take(w http.ResponseWriter, r *http.Request, key string) (bool, error) {
	_, err := l.c.store.RateLimitTake(r.Context(), db.RateLimitTakeParams{
		Key: l.key(key), WindowSeconds: l.window(), MaxCount: int32(l.limit.Requests)})
	switch {
	case errors.Is(err, db.ErrNotFound):
		return false, nil
	case err != nil:
		return false, l.down(w, err)
	}
	l.c.maybeSweep()
	return true, nil
}

// full reports, without counting anything, whether key has used up its
// limit (429 with Retry-After). It goes with fail, for limits that count
// failures only. Its call sites pass no request, so the look-up gets its
// own deadline.
func (l limiter) full(w http.ResponseWriter, key string) func() error {
	return func() error {
		ctx, cancel := context.WithTimeout(context.Background(), counterTimeout)
		defer cancel()
		rate, err := l.c.store.RateLimitEstimate(ctx, db.RateLimitEstimateParams{
			Key: l.key(key), WindowSeconds: l.window()})
		if err != nil {
			return l.down(w, err)
		}
		if int(rate+0.5) >= l.limit.Requests {
			return l.tooMany(w)
		}
		return nil
	}
}

// fail counts one failure under key. The answer is decided already, so a
// count that cannot be written is logged, not answered.
func (l limiter) fail(r *http.Request, key string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), counterTimeout)
	defer cancel()
	err := l.c.store.RateLimitAdd(ctx, db.RateLimitAddParams{Key: l.key(key), WindowSeconds: l.window()})
	if err != nil {
		l.c.log.Error("rate limit: count a failure", "limit", l.name, "err", err)
	}
}

// clientKey is the one key the per-IP limits count a client under: the
// address the edge settled on (realIP), IPv4 as it is (an IPv4-mapped IPv6
// address as its IPv4) and IPv6 by its /64, the block one subscriber is
// usually given, so a client cannot take a fresh bucket for each address
// of its own network.
func clientKey(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	addr = addr.Unmap().WithZone("")
	if addr.Is4() {
		return addr.String()
	}
	return netip.PrefixFrom(addr, 64).Masked().String()
}

func emailKey(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

// emailIPKey keys a limit by email and client (failed logins,
// forgot-password).
func emailIPKey(email string, r *http.Request) string {
	return emailKey(email) + "\x00" + clientKey(r)
}
