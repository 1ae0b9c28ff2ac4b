// Package sweep deletes expired rows now and then, in the background of
// the requests that add them (rate-limit counters, webhook tokens,
// idempotency keys).
package sweep

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"
)

// Sweeper deletes expired rows now and then: at most once per interval in
// a process, in the background, after a request has done its own work.
// Deleting twice (from two replicas) is harmless. The zero value is ready.
type Sweeper struct {
	last atomic.Int64 // unix seconds of the last sweep
}

// sweepTimeout bounds one sweep.
const sweepTimeout = 10 * time.Second

// Maybe starts del when the last sweep is at least every ago; a failure
// is logged as "sweep <what>".
func (sw *Sweeper) Maybe(every time.Duration, log *slog.Logger, what string, del func(context.Context) (int64, error)) {
	now := time.Now().Unix()
	last := sw.last.Load()
	if now-last < int64(every.Seconds()) || !sw.last.CompareAndSwap(last, now) {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), sweepTimeout)
		defer cancel()
		if _, err := del(ctx); err != nil {
			log.Warn("sweep "+what, "err", err)
		}
	}()
}
