// Package slots bounds how many callers do something at once: a counting
// semaphore whose callers wait for a place for a bounded time, then are
// turned away with ErrBusy. Password hashing (memory and CPU) and the
// membership webhook (database connections) pass through one each; PerKey
// bounds what one account runs at once (uploads).
package slots

import (
	"context"
	"errors"
	"sync/atomic"
	"time"
)

// ErrBusy is returned by Acquire when every place stayed taken for the
// wait. The API answers it with 503 and Retry-After.
var ErrBusy = errors.New("slots: every place stayed taken")

// Slots is a counting semaphore with a bounded wait.
type Slots struct {
	c    chan struct{}
	wait time.Duration
	// running and peak count the callers inside Do, for tests.
	running, peak atomic.Int64
}

// New makes n places (at least one); a caller waits at most wait for one.
func New(n int, wait time.Duration) *Slots {
	return &Slots{c: make(chan struct{}, max(n, 1)), wait: wait}
}

// Acquire takes a place, waiting at most the wait (ErrBusy) or until ctx
// ends (its error). The returned function gives the place back.
func (s *Slots) Acquire(ctx context.Context) (release func(), err error) {
	select {
	case s.c <- struct{}{}:
		return s.release, nil
	default:
	}
	t := time.NewTimer(s.wait)
	defer t.Stop()
	select {
	case s.c <- struct{}{}:
		return s.release, nil
	case <-t.C:
		return nil, ErrBusy
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (s *Slots) release() { <-s.c }

// Do runs f in a place.
func (s *Slots) Do(ctx context.Context, f func()) error {
	release, err := s.Acquire(ctx)
	if err != nil {
		return err
	}
	defer release()
	n := s.running.Add(1)
	defer s.running.Add(-1)
	for p := s.peak.Load(); n > p && !s.peak.CompareAndSwap(p, n); p = s.peak.Load() {
	}
	f()
	return nil
}

// Peak is the most callers seen inside Do at once since the last
// ResetPeak.
func (s *Slots) Peak() int64 { return s.peak.Load() }

// ResetPeak starts counting the peak afresh.
func (s *Slots) ResetPeak() { s.peak.Store(0) }
