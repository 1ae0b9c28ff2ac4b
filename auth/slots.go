package auth

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"time"
)

// ErrBusy is returned by HashPassword and VerifyPassword when every hashing
// slot stayed taken for SlotWait. The API answers it with 503 and
// Retry-After.
var ErrBusy = errors.New("auth: too many password hashes in progress")

// MaxConcurrentHashes is how many argon2id computations run at once in this
// process: each holds DefaultParams.Memory (19 MiB) and a core for tens of
// milliseconds, so an unbounded number of concurrent sign-ups or logins
// could exhaust memory.
var MaxConcurrentHashes = max(2, runtime.NumCPU())

// SlotWait is how long a hash waits for a free slot before ErrBusy.
const SlotWait = 2 * time.Second

// hashSlots is the process-wide bound.
var hashSlots = newSlots(MaxConcurrentHashes, SlotWait)

// slots is a counting semaphore with a bounded wait.
type slots struct {
	c    chan struct{}
	wait time.Duration
	// running and peak count the computations inside do, for tests.
	running, peak atomic.Int64
}

// do runs f in a slot.
func (s *slots) do(ctx context.Context, f func()) error {
	release, err := s.acquire(ctx)
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

func newSlots(n int, wait time.Duration) *slots {
	return &slots{c: make(chan struct{}, n), wait: wait}
}

// acquire takes a slot, waiting at most s.wait (ErrBusy) or until ctx
// ends (its error). The returned function gives the slot back.
func (s *slots) acquire(ctx context.Context) (func(), error) {
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

func (s *slots) release() { <-s.c }

// HoldHashSlots takes n of the process's hashing slots (waiting as a hash
// would) and returns the function that gives them back. It lets a test
// show what callers see while the server is saturated.
func HoldHashSlots(ctx context.Context, n int) (func(), error) {
	var held []func()
	releaseAll := func() {
		for _, r := range held {
			r()
		}
	}
	for range n {
		r, err := hashSlots.acquire(ctx)
		if err != nil {
			releaseAll()
			return nil, err
		}
		held = append(held, r)
	}
	return releaseAll, nil
}
