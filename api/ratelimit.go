package api

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/ratelimit"
)

// The limits a server is built with (package ratelimit).
type (
	RateLimit  = ratelimit.Limit
	RateLimits = ratelimit.Limits
)

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

// tooMany is the 429 of l, with Retry-After its window.
func tooMany(w http.ResponseWriter, l *ratelimit.Limiter) error {
	w.Header().Set("Retry-After", strconv.Itoa(int(l.Window().Seconds())))
	return errRateLimited
}

// limiterDown is the 503 of a counter that could not be reached (logged
// by package ratelimit).
func limiterDown(w http.ResponseWriter, err error) error {
	if errors.Is(err, context.Canceled) {
		return err // the client went away; nobody reads the answer
	}
	w.Header().Set("Retry-After", "5")
	return errLimiterDown
}

// over counts the request under key unless key is already at l's limit;
// then it answers 429 with Retry-After.
func over(w http.ResponseWriter, r *http.Request, l *ratelimit.Limiter, key string) func() error {
	return func() error {
		ok, err := l.Take(r.Context(), key)
		switch {
		case err != nil:
			return limiterDown(w, err)
		case !ok:
			return tooMany(w, l)
		}
		return nil
	}
}

// take counts the request under key and reports true, unless key is at
// l's limit (false, nothing counted): for a limit whose excess is not
// refused but served differently. An unreadable counter is the 503.
func take(w http.ResponseWriter, r *http.Request, l *ratelimit.Limiter, key string) (bool, error) {
	ok, err := l.Take(r.Context(), key)
	if err != nil {
		return false, limiterDown(w, err)
	}
	return ok, nil
}

// full answers 429 with Retry-After, counting nothing, when key has used
// up l's limit. It goes with l.Fail, for limits that count failures only.
func full(w http.ResponseWriter, l *ratelimit.Limiter, key string) func() error {
	return func() error {
		used, err := l.Full(key)
		switch {
		case err != nil:
			return limiterDown(w, err)
		case used:
			return tooMany(w, l)
		}
		return nil
	}
}
