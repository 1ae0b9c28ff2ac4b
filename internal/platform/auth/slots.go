package auth

import (
	"context"
	"runtime"
	"time"

	"hackdesk/internal/platform/slots"
)

// ErrBusy is returned by HashPassword and VerifyPassword when every hashing
// slot stayed taken for SlotWait. The API answers it with 503 and
// Retry-After.
var ErrBusy = slots.ErrBusy

// MaxConcurrentHashes is how many argon2id computations run at once in this
// process: each holds DefaultParams.Memory (19 MiB) and a core for tens of
// milliseconds, so an unbounded number of concurrent sign-ups or logins
// could exhaust memory.
var MaxConcurrentHashes = max(2, runtime.NumCPU())

// SlotWait is how long a hash waits for a free slot before ErrBusy.
const SlotWait = 2 * time.Second

// hashSlots is the process-wide bound.
var hashSlots = slots.New(MaxConcurrentHashes, SlotWait)

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
		r, err := hashSlots.Acquire(ctx)
		if err != nil {
			releaseAll()
			return nil, err
		}
		held = append(held, r)
	}
	return releaseAll, nil
}
