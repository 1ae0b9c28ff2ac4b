package activities

import (
	"context"
	"time"

	"hackdesk/db"
	"hackdesk/internal/feature/membership"
	"hackdesk/internal/platform/idempotency"
)

// SweepActivities delete expired rows (the Sweep workflow, on the
// hackdesk-sweep schedule). Each deletes only what has expired by the
// time it runs, so running one again, or from two workers, is harmless.
type SweepActivities struct {
	Store *db.Store
}

// SweepWebhookTokens deletes the membership webhook's replay tokens older
// than the webhook's window; it answers how many.
func (a *SweepActivities) SweepWebhookTokens(ctx context.Context) (int64, error) {
	return membership.PruneTokens(ctx, a.Store.Queries, time.Now())
}

// SweepIdempotencyKeys deletes idempotency keys (and their stored answers)
// older than idempotency.Keep; it answers how many.
func (a *SweepActivities) SweepIdempotencyKeys(ctx context.Context) (int64, error) {
	// A direct query (one of the adapters' few): one DELETE whose only
	// rule, how long a key is kept, is idempotency.Keep, passed here.
	return a.Store.IdempotencyKeysPrune(ctx, time.Now().Add(-idempotency.Keep))
}

// SweepRateLimits deletes rate-limit counters whose window has ended; it
// answers how many.
func (a *SweepActivities) SweepRateLimits(ctx context.Context) (int64, error) {
	// A direct query (one of the adapters' few): one DELETE of the windows
	// that have ended, with no rule of its own to put in a package.
	return a.Store.RateLimitDeleteExpired(ctx)
}
