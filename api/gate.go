package api

import (
	"context"
	"time"

	"hackdesk/apperr"
)

// gate lets at most a fixed number of callers into a section at once; the
// others wait their turn for up to a bound, then are turned away. The
// membership webhook passes through one so that a storm of posts (each
// holding a database connection while it stores, verifies and claims a
// receipt) cannot take every connection of the pool from the rest of the
// API: the provider retries a 503, a reviewer would only see it.
type gate struct {
	slots chan struct{}
	wait  time.Duration
}

var errGateBusy = apperr.WithMessage(apperr.Unavailable, "Service unavailable",
	"The server is busy; try again in a few seconds")

func newGate(n int, wait time.Duration) *gate {
	return &gate{slots: make(chan struct{}, max(n, 1)), wait: wait}
}

// enter waits for a place, for at most the gate's bound or until ctx is
// done, and returns the function that gives the place back.
func (g *gate) enter(ctx context.Context) (release func(), err error) {
	select {
	case g.slots <- struct{}{}:
		return g.leave, nil
	default:
	}
	t := time.NewTimer(g.wait)
	defer t.Stop()
	select {
	case g.slots <- struct{}{}:
		return g.leave, nil
	case <-t.C:
		return nil, errGateBusy
	case <-ctx.Done():
		return nil, errGateBusy
	}
}

func (g *gate) leave() { <-g.slots }
