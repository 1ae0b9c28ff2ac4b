package activities

import (
	"context"
	"time"

	"go.temporal.io/sdk/activity"

	"hackdesk/db"
	"hackdesk/internal/feature/membership"
	"hackdesk/internal/platform/idempotency"
)

// SweepActivities delete expired rows (the Sweep workflow, on the
// hackdesk-sweep schedule). Each deletes only what has expired by the
// time it runs, so running one again, or from two workers, is harmless.
//
// Each deletes in batches of Batch rows, one short statement each, and
// heartbeats after each: a backlog of any size (a sweep that failed for a
// week) is worked through batch by batch, each batch kept once deleted,
// instead of one DELETE that outlives the activity's timeout, is rolled
// back, and fails the same way at every later sweep.
type SweepActivities struct {
	Store *db.Store
	// Batch is the most rows one statement deletes; zero means
	// SweepBatch.
	Batch int32
}

// SweepBatch is how many expired rows one statement of the sweep deletes.
const SweepBatch = 1000

// SweepWebhookTokens deletes the membership webhook's replay tokens older
// than the webhook's window; it answers how many.
func (a *SweepActivities) SweepWebhookTokens(ctx context.Context) (int64, error) {
	now := time.Now()
	return a.inBatches(ctx, func(ctx context.Context, batch int32) (int64, error) {
		return membership.PruneTokens(ctx, a.Store.Queries, now, batch)
	})
}

// SweepIdempotencyKeys deletes idempotency keys (and their stored answers)
// older than idempotency.Keep; it answers how many.
func (a *SweepActivities) SweepIdempotencyKeys(ctx context.Context) (int64, error) {
	// A direct query (one of the adapters' few): DELETEs in batches whose
	// only rule, how long a key is kept, is idempotency.Keep, passed here.
	before := time.Now().Add(-idempotency.Keep)
	return a.inBatches(ctx, func(ctx context.Context, batch int32) (int64, error) {
		return a.Store.IdempotencyKeysPrune(ctx, db.IdempotencyKeysPruneParams{Before: before, BatchSize: batch})
	})
}

// SweepRateLimits deletes rate-limit counters whose window has ended; it
// answers how many.
func (a *SweepActivities) SweepRateLimits(ctx context.Context) (int64, error) {
	// A direct query (one of the adapters' few): DELETEs of the windows
	// that have ended, in batches, with no rule of their own to put in a
	// package.
	return a.inBatches(ctx, a.Store.RateLimitDeleteExpired)
}

// inBatches calls del until it deletes fewer rows than a batch,
// heartbeating the running total after each call, and answers the total.
// A failure or a cancellation stops it; what was deleted stays deleted,
// and the next attempt goes on from there.
func (a *SweepActivities) inBatches(ctx context.Context, del func(ctx context.Context, batch int32) (int64, error)) (int64, error) {
	batch := a.Batch
	if batch <= 0 {
		batch = SweepBatch
	}
	var total int64
	for {
		n, err := del(ctx, batch)
		if err != nil {
			return total, err
		}
		total += n
		activity.RecordHeartbeat(ctx, total)
		if n < int64(batch) {
			return total, nil
		}
		if err := ctx.Err(); err != nil {
			return total, err
		}
	}
}
