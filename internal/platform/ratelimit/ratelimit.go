// Package ratelimit holds the limits on the endpoints that guess, hash
// passwords, send mail or list accounts: what each limit is, the keys a
// client is counted under, and the counters. The counters live in
// PostgreSQL (rate_limit_hits), so every API replica on one database
// shares them: a client spreading its requests over replicas gets what
// one replica would give it. The API answers a refusal (429 with
// Retry-After) and a counter it cannot reach (503).
package ratelimit

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strconv"
	"time"

	"hackdesk/db"
	"hackdesk/internal/platform/metrics"
)

// Limit is one limit: at most Requests per Window for a key.
type Limit struct {
	Requests int
	Window   time.Duration
}

// Limits are the limits of a server. A zero Limit takes the default.
type Limits struct {
	LoginPerIP Limit
	// LoginPerEmail counts failed logins (wrong password or unknown
	// email) of one email from one client IP; a successful login does not
	// count. Keyed by IP as well, so nobody elsewhere can lock the owner
	// out.
	LoginPerEmail Limit
	// ForgotPerIP and ForgotPerEmailIP answer 429. ForgotPerEmail is the
	// rate at which reset links are mailed to one address, whoever asks:
	// above it the answer stays 200 and nothing is sent, so nobody can
	// lock the owner out or retire the link mailed last.
	ForgotPerIP, ForgotPerEmailIP, ForgotPerEmail Limit
	// SignupMailPerEmail is the rate at which the "you already have an
	// account" email goes to one address, whoever signs up with it: above
	// it the answer stays 201 and nothing is sent, as for ForgotPerEmail.
	SignupMailPerEmail      Limit
	SignupPerIP, ResetPerIP Limit
	// SearchPerCaller limits team-member search per signed-in account.
	SearchPerCaller Limit
	// SearchListedPerCaller is a quota: how many accounts the team search
	// may list to one signed-in account (each account of each answer
	// counts), so nobody pages through the directory.
	SearchListedPerCaller Limit
}

// Defaults never lock an account; they slow guessing, hashing and mailing
// down.
var Defaults = Limits{
	LoginPerIP:       Limit{Requests: 30, Window: time.Minute},
	LoginPerEmail:    Limit{Requests: 20, Window: 5 * time.Minute},
	ForgotPerIP:      Limit{Requests: 10, Window: 15 * time.Minute},
	ForgotPerEmailIP: Limit{Requests: 3, Window: 15 * time.Minute},
	ForgotPerEmail:   Limit{Requests: 3, Window: 15 * time.Minute},
	// As reset links: both go to the owner of an address someone else may
	// type.
	SignupMailPerEmail: Limit{Requests: 3, Window: 15 * time.Minute},
	SignupPerIP:        Limit{Requests: 10, Window: time.Hour},
	ResetPerIP:         Limit{Requests: 10, Window: 15 * time.Minute},
	SearchPerCaller:    Limit{Requests: 60, Window: time.Minute},
	// About 12 searches a day that fill a page of 8: enough to find a
	// team, far from a directory.
	SearchListedPerCaller: Limit{Requests: 100, Window: 24 * time.Hour},
}

// Limiters are a server's limits, each under its own name, on one set of
// counters.
type Limiters struct {
	LoginIP, LoginFailures, ForgotIP, ForgotEmailIP, ForgotEmail, SignupIP, ResetIP, Search *Limiter
	// SignupMail counts the "you already have an account" emails per
	// address.
	SignupMail *Limiter
	// SearchListed is the team search's quota of accounts listed (Left,
	// Spend).
	SearchListed *Limiter
}

// New counts l (a zero Limit takes its default) in store. A nil log is
// slog.Default().
func New(l Limits, store *db.Store, log *slog.Logger) Limiters {
	return NewCounted(l, store, log, nil)
}

// NewCounted is New, with every refusal also counted in m under the
// limiter's name (a nil m counts nothing).
func NewCounted(l Limits, store *db.Store, log *slog.Logger, m *metrics.Metrics) Limiters {
	if log == nil {
		log = slog.Default()
	}
	c := &counters{store: store, log: log, metrics: m}
	d := Defaults
	pick := func(name string, v, def Limit) *Limiter {
		if v.Requests <= 0 || v.Window <= 0 {
			v = def
		}
		m.RateLimiter(name)
		return &Limiter{name: name, limit: v, c: c}
	}
	return Limiters{
		LoginIP:       pick("login-ip", l.LoginPerIP, d.LoginPerIP),
		LoginFailures: pick("login-failures", l.LoginPerEmail, d.LoginPerEmail),
		ForgotIP:      pick("forgot-ip", l.ForgotPerIP, d.ForgotPerIP),
		ForgotEmailIP: pick("forgot-email-ip", l.ForgotPerEmailIP, d.ForgotPerEmailIP),
		ForgotEmail:   pick("forgot-mail", l.ForgotPerEmail, d.ForgotPerEmail),
		SignupIP:      pick("signup-ip", l.SignupPerIP, d.SignupPerIP),
		SignupMail:    pick("signup-mail", l.SignupMailPerEmail, d.SignupMailPerEmail),
		ResetIP:       pick("reset-ip", l.ResetPerIP, d.ResetPerIP),
		Search:        pick("search", l.SearchPerCaller, d.SearchPerCaller),
		SearchListed:  pick("search-listed", l.SearchListedPerCaller, d.SearchListedPerCaller),
	}
}

// counters reach the shared counter table. Its expired rows are deleted
// by the Sweep workflow (package schedules).
type counters struct {
	store   *db.Store
	log     *slog.Logger
	metrics *metrics.Metrics // counts refusals; nil counts nothing
}

// counterTimeout bounds a counter look-up or write made without the
// request's context.
const counterTimeout = 5 * time.Second

// Limiter is one limit under one name.
type Limiter struct {
	name  string
	limit Limit
	c     *counters
}

// Window is the limit's window: how long a refused client waits at most.
func (l *Limiter) Window() time.Duration { return l.limit.Window }

// Requests is how many requests (or units, for a quota) the limit allows
// in its window.
func (l *Limiter) Requests() int { return l.limit.Requests }

// key is the counter row's key: the limit's name and window, and a hash of
// the client key, so the table holds no addresses.
func (l *Limiter) key(k string) string {
	sum := sha256.Sum256([]byte(k))
	return l.name + "/" + strconv.Itoa(int(l.limit.Window.Seconds())) + ":" + base64.RawURLEncoding.EncodeToString(sum[:18])
}

func (l *Limiter) seconds() float64 { return l.limit.Window.Seconds() }

// failed logs a counter that could not be read or written (unless the
// caller went away) and returns it wrapped.
func (l *Limiter) failed(err error) error {
	if !errors.Is(err, context.Canceled) {
		l.c.log.Error("rate limit unavailable", "limit", l.name, "err", err)
	}
	return fmt.Errorf("rate limit %s: %w", l.name, err)
}

// Take counts a request under key and reports true, unless key is at its
// limit (false, nothing counted). The error is a counter that could not
// be reached, logged here.
func (l *Limiter) Take(ctx context.Context, key string) (bool, error) {
	_, err := l.c.store.RateLimitTake(ctx, db.RateLimitTakeParams{
		Key: l.key(key), WindowSeconds: l.seconds(), MaxCount: int32(l.limit.Requests)})
	switch {
	case errors.Is(err, db.ErrNotFound): // nothing counted: at the limit
		l.c.metrics.RateLimitRefused(l.name)
		return false, nil
	case err != nil:
		return false, l.failed(err)
	}
	return true, nil
}

// Full reports, without counting anything, whether key has used up its
// limit. It goes with Fail, for limits that count failures only. Its
// callers have no request to hand, so the look-up gets its own deadline.
func (l *Limiter) Full(key string) (bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), counterTimeout)
	defer cancel()
	rate, err := l.c.store.RateLimitEstimate(ctx, db.RateLimitEstimateParams{
		Key: l.key(key), WindowSeconds: l.seconds()})
	if err != nil {
		return false, l.failed(err)
	}
	used := int(rate+0.5) >= l.limit.Requests
	if used {
		l.c.metrics.RateLimitRefused(l.name)
	}
	return used, nil
}

// Fail counts one failure under key, even when ctx is cancelled. The
// answer is decided already, so a count that cannot be written is
// logged, not returned.
func (l *Limiter) Fail(ctx context.Context, key string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), counterTimeout)
	defer cancel()
	err := l.c.store.RateLimitAdd(ctx, db.RateLimitAddParams{Key: l.key(key), WindowSeconds: l.seconds(), Amount: 1})
	if err != nil {
		l.c.log.Error("rate limit: count a failure", "limit", l.name, "err", err)
	}
}

// Left is, for a limit used as a quota (units that are spent in numbers,
// such as the accounts a search lists), how many units key has left now,
// and when it has none, how long until it has one again if it spends
// nothing meanwhile. The error is a counter that could not be reached,
// logged here.
func (l *Limiter) Left(ctx context.Context, key string) (int, time.Duration, error) {
	c, err := l.c.store.RateLimitCounts(ctx, db.RateLimitCountsParams{Key: l.key(key), WindowSeconds: l.seconds()})
	if err != nil {
		return 0, 0, l.failed(err)
	}
	n, wait := left(l.limit, int(c.Previous), int(c.Current), time.Duration(c.Elapsed*float64(time.Second)))
	if n == 0 {
		l.c.metrics.RateLimitRefused(l.name)
	}
	return n, wait, nil
}

// Spend counts n units under key, even when ctx is cancelled (what they
// paid for was served). A count that cannot be written is logged.
func (l *Limiter) Spend(ctx context.Context, key string, n int) {
	if n <= 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), counterTimeout)
	defer cancel()
	err := l.c.store.RateLimitAdd(ctx, db.RateLimitAddParams{Key: l.key(key), WindowSeconds: l.seconds(), Amount: int32(n)})
	if err != nil {
		l.c.log.Error("rate limit: spend", "limit", l.name, "err", err)
	}
}

// left applies the sliding estimate RateLimitTake uses (the previous
// window's count weighted by how much of it still overlaps the last
// window, rounded, plus the current window's) to a quota of lim.Requests
// per lim.Window, elapsed into the current window: the units left, and
// when there are none, the wait until the estimate is below the limit
// again with nothing spent meanwhile (rounded up to a second). That is
// later in this window when the previous window's weight alone is what
// fills the quota, else some way into the next one, where this window's
// count becomes the weighted one.
func left(lim Limit, prev, cur int, elapsed time.Duration) (int, time.Duration) {
	window := lim.Window.Seconds()
	f := min(max(elapsed.Seconds()/window, 0), 1)
	used := int(math.Round(float64(prev)*(1-f))) + cur
	if n := lim.Requests - used; n > 0 {
		return n, 0
	}
	// The estimate is below the limit once the weighted count is below
	// limit - 0.5 (it is rounded): prev*(1-x) < limit - cur - 0.5.
	var at float64 // seconds from the start of this window
	if room := float64(lim.Requests-cur) - 0.5; room > 0 && prev > 0 {
		at = (1 - room/float64(prev)) * window
	} else {
		at = window + max(1-(float64(lim.Requests)-0.5)/float64(cur), 0)*window
	}
	wait := time.Duration(math.Ceil(at-elapsed.Seconds())) * time.Second
	return 0, max(wait, time.Second)
}
