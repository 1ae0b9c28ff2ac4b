package main

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"hackdesk/activities"
	"hackdesk/dev/seed"
	"hackdesk/workflows"
)

// The hiring finalization phase: a round of this many new execs and
// previous execs to demote.
const (
	benchHires    = 60
	benchPrevious = 40
)

// hiringFinalization seeds a hiring round, finalizes it over HTTP (as the
// seeded superadmin) and measures the wall time from the request to the
// workflow's completion, and the welcome emails sent per second over the
// same span (until the last one is sent).
func (b *bench) hiringFinalization(ctx context.Context) (wall time.Duration, emailsPerS float64, err error) {
	say("hiring finalization: %d new execs, %d demotions...", benchHires, benchPrevious)
	// The finalize request queues its workflow in the outbox; the
	// dispatcher starts it, as under `serve`.
	b.a.StartDispatcher()
	round, err := seed.SeedHiringRound(ctx, b.a.Store, "benchhire", benchHires, benchPrevious)
	if err != nil {
		return 0, 0, err
	}
	prof, err := b.a.Store.ProfileGetByEmail(ctx, "benchhire.prev1@example.com") // the superadmin
	if err != nil {
		return 0, 0, err
	}
	token, err := b.session(ctx, prof.ID)
	if err != nil {
		return 0, 0, err
	}
	start := time.Now()
	status, err := b.do(ctx, http.MethodPost, token, "/api/applications/hiring/finalize",
		map[string]any{"term_id": round.NewTerm, "all_hands_url": "https://cal.example.com/all-hands"}, nil)
	if err != nil {
		return 0, 0, err
	}
	if status != http.StatusAccepted {
		return 0, 0, fmt.Errorf("finalize answered %d", status)
	}
	id := workflows.HiringFinalizationID(round.NewTerm)
	wctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	for { // the outbox starts it after the commit
		if _, err := b.a.Temporal.DescribeWorkflowExecution(wctx, id, ""); err == nil {
			break
		}
		if wctx.Err() != nil {
			return 0, 0, fmt.Errorf("the finalization never started")
		}
		time.Sleep(20 * time.Millisecond)
	}
	var res activities.FinalizationResult
	if err := b.a.Temporal.GetWorkflow(wctx, id, "").Get(wctx, &res); err != nil {
		return 0, 0, err
	}
	wall = time.Since(start)
	if res.Promoted != benchHires || res.Demoted != benchPrevious || res.Welcomed != benchHires {
		return 0, 0, fmt.Errorf("finalization result %+v", res)
	}
	for {
		var sent int
		var last time.Time
		if err := b.a.Store.Pool().QueryRow(wctx, `SELECT count(*), coalesce(max(sent_at), now()) FROM emails
			WHERE kind = 'exec_welcome' AND status = 'sent' AND idempotency_key LIKE 'welcome:' || $1 || ':%'`,
			round.NewTerm.String()).Scan(&sent, &last); err != nil {
			return 0, 0, err
		}
		if sent == benchHires {
			emailsPerS = float64(sent) / last.Sub(start).Seconds()
			break
		}
		if wctx.Err() != nil {
			return 0, 0, fmt.Errorf("%d of %d welcome emails sent", sent, benchHires)
		}
		time.Sleep(50 * time.Millisecond)
	}
	b.add(fmt.Sprintf("hiring finalization (%d new execs, %d demotions): request → complete", benchHires, benchPrevious), dur(wall))
	b.add("hiring finalization: welcome emails sent/s", fmt.Sprintf("%.0f", emailsPerS))
	return wall, emailsPerS, nil
}
