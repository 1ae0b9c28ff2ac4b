package activities_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"

	"hackdesk/activities"
	"hackdesk/dev/testenv"
)

// TestSweepDeletesInBatches: a backlog of expired rows is deleted a batch
// at a time, with a heartbeat of the running total after each batch, and
// the live rows are kept. One unbounded DELETE of a large backlog outlived
// the activity's timeout, was rolled back, and failed again at every
// later sweep.
func TestSweepDeletesInBatches(t *testing.T) {
	t.Parallel()
	store := testenv.Store(t)
	ctx := context.Background()
	if _, err := store.Pool().Exec(ctx, `
		INSERT INTO webhook_tokens (token, body_sha256, received_at)
		SELECT 'old-' || i, '\x00', now() - interval '1 hour' FROM generate_series(1, 2500) i;
		INSERT INTO webhook_tokens (token, body_sha256, received_at) VALUES ('live', '\x00', now());
		INSERT INTO rate_limit_hits (key, window_start, count, expires_at)
		SELECT 'old-' || i, now() - interval '2 hours', 1, now() - interval '1 minute' FROM generate_series(1, 1500) i;
		INSERT INTO rate_limit_hits (key, window_start, count, expires_at) VALUES ('live', now(), 1, now() + interval '1 hour')`); err != nil {
		t.Fatal(err)
	}
	acts := &activities.SweepActivities{Store: store, Batch: 1000}
	for _, c := range []struct {
		name       string
		fn         any
		deleted    int64
		heartbeats []int64
		left       string
	}{
		{"WebhookTokens", acts.SweepWebhookTokens, 2500, []int64{1000, 2000, 2500}, `SELECT count(*) FROM webhook_tokens`},
		{"RateLimits", acts.SweepRateLimits, 1500, []int64{1000, 1500}, `SELECT count(*) FROM rate_limit_hits`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var s testsuite.WorkflowTestSuite
			env := s.NewTestActivityEnvironment()
			env.RegisterActivity(acts)
			// Every heartbeat reaches the listener (none is held back).
			env.SetWorkerOptions(worker.Options{DefaultHeartbeatThrottleInterval: time.Nanosecond,
				MaxHeartbeatThrottleInterval: time.Nanosecond})
			var beats []int64
			env.SetOnActivityHeartbeatListener(func(_ *activity.Info, details converter.EncodedValues) {
				var n int64
				if err := details.Get(&n); err != nil {
					t.Error(err)
				}
				beats = append(beats, n)
			})
			v, err := env.ExecuteActivity(c.fn)
			if err != nil {
				t.Fatal(err)
			}
			var n int64
			if err := v.Get(&n); err != nil || n != c.deleted {
				t.Fatalf("deleted %d (%v), want %d", n, err, c.deleted)
			}
			// The SDK batches heartbeats on a timer of its own, so some
			// may be folded into later ones; the first reports one batch.
			if len(beats) == 0 || beats[0] != c.heartbeats[0] {
				t.Fatalf("heartbeats %v, want the first after one batch, of those in %v", beats, c.heartbeats)
			}
			for _, b := range beats {
				if !slices.Contains(c.heartbeats, b) {
					t.Fatalf("heartbeats %v, want some of %v", beats, c.heartbeats)
				}
			}
			var left int
			if err := store.Pool().QueryRow(ctx, c.left).Scan(&left); err != nil || left != 1 {
				t.Fatalf("%d rows left (%v), want the live one", left, err)
			}
		})
	}
}
