package main

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"

	"hackdesk/activities"
	"hackdesk/db"
	"hackdesk/internal/feature/broadcast"
	"hackdesk/outbox"
	"hackdesk/worker"
	"hackdesk/workflows"
)

// The broadcast phase: this many recipients at this rate (emails a
// second), on a task queue of its own so its workers run at this rate.
const (
	broadcastRecipients = 10_000
	broadcastRate       = 500
	broadcastQueue      = "hackdesk-bench-broadcast"
)

// broadcasts measures a broadcast to broadcastRecipients members at
// broadcastRate: the materialization of the recipient list (the create
// request's transaction, run here without HTTP), the wall time from the
// workflow's start to its end against the ideal N / rate, the span of the
// emails' sent_at stamps, duplicates (emails per address beyond one; must
// be 0), and the process's memory while it ran (Go heap and RSS; the
// process also holds the idle API). It records its figures, or its
// failure, in the table.
func (b *bench) broadcasts(ctx context.Context) {
	if err := b.broadcastPhase(ctx); err != nil {
		say("broadcast phase failed: %v", err)
		b.add("broadcast phase", "failed: "+err.Error())
	}
}

func (b *bench) broadcastPhase(ctx context.Context) error {
	say("broadcast: %d recipients at %d emails/s...", broadcastRecipients, broadcastRate)
	pool := b.a.Store.Pool()
	var term, root uuid.UUID
	if err := pool.QueryRow(ctx, `INSERT INTO terms (name, starts_on, ends_on) VALUES ('bench-broadcast', '2030-09-01', '2031-08-31')
		RETURNING id`).Scan(&term); err != nil {
		return err
	}
	if err := pool.QueryRow(ctx, `INSERT INTO profiles (email, password_hash, role, email_confirmed_at)
		VALUES ('bench.broadcaster@example.com', '$argon2id$unused', 'superadmin', now()) RETURNING id`).Scan(&root); err != nil {
		return err
	}
	if _, err := pool.Exec(ctx, `WITH p AS (
			INSERT INTO profiles (email, password_hash, email_confirmed_at)
			SELECT 'bench.member' || i || '@example.com', '$argon2id$unused', now() FROM generate_series(1, $1::int) i
			RETURNING id)
		INSERT INTO memberships (profile_id, term_id) SELECT id, $2 FROM p`, broadcastRecipients, term); err != nil {
		return err
	}

	// Workers for the phase's queue: the workflow on it, the batches on
	// its broadcast queue at the phase's rate.
	deps := b.a.ActivityDeps()
	deps.BroadcastRate = broadcastRate
	if deps.Unsubscribe == nil { // the bench stack sets no SIGNING_KEY
		key := make([]byte, 32)
		_, _ = rand.Read(key)
		signer := broadcast.UnsubscribeSigner(key)
		deps.Unsubscribe = &signer
	}
	acts := activities.NewSet(deps)
	o := worker.Options{TaskQueue: broadcastQueue, BuildID: b.a.Config.BuildID}
	wfs := worker.New(b.a.Temporal, o, acts)
	batches := worker.NewBroadcast(b.a.Temporal, o, acts.Broadcast, broadcastRate)
	for _, w := range []sdkworker.Worker{wfs, batches} {
		if err := w.Start(); err != nil {
			return err
		}
		defer w.Stop()
	}
	if _, err := worker.TakeCurrent(ctx, b.a.Temporal, o.Version(), o.Queues()); err != nil {
		return err
	}

	id := uuid.New()
	t := time.Now()
	var total int32
	err := b.a.Store.InTx(ctx, func(q *db.Queries) error {
		if _, err := q.BroadcastInsert(ctx, db.BroadcastInsertParams{ID: id, Subject: "Bench broadcast", Body: "Hello, member.",
			AudienceKind: "members", TermID: &term, WorkflowID: workflows.BroadcastID(id), CreatedBy: root}); err != nil {
			return err
		}
		n, err := q.BroadcastRecipientsInsert(ctx, db.BroadcastRecipientsInsertParams{BroadcastID: id, Kind: "members", TermID: &term})
		if err != nil {
			return err
		}
		bc, err := q.BroadcastSetTotal(ctx, db.BroadcastSetTotalParams{ID: id, Total: int32(n)})
		total = bc.Total
		return err
	})
	if err != nil {
		return err
	}
	materialize := time.Since(t)
	if total != broadcastRecipients {
		return fmt.Errorf("materialized %d recipients", total)
	}

	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	baseRSS := rssKiB()
	var peakHeap, peakRSS atomic.Uint64
	done := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-time.After(10 * time.Millisecond):
			}
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > peakHeap.Load() {
				peakHeap.Store(m.HeapAlloc)
			}
			if r := rssKiB(); r > peakRSS.Load() {
				peakRSS.Store(r)
			}
		}
	}()
	start := time.Now()
	run, err := outbox.Start(ctx, b.a.Temporal, broadcastQueue, workflows.BroadcastRequest(workflows.BroadcastInput{
		BroadcastID: id, Subject: "Bench broadcast", Total: int(total), PublicURL: "http://hackdesk.test"}))
	if err != nil {
		close(done)
		return err
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	var res workflows.BroadcastResult
	// The run continues as new every few thousand recipients; the
	// workflow's last run holds the result.
	err = b.a.Temporal.GetWorkflow(wctx, run.GetID(), "").Get(wctx, &res)
	wall := time.Since(start)
	close(done)
	<-sampled
	if err != nil {
		return err
	}

	var sent, addresses, rows, runs int
	var first, last time.Time
	if err := pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE status = 'sent'), count(DISTINCT lower(to_address)), count(*),
			min(sent_at), max(sent_at)
		FROM emails WHERE idempotency_key LIKE 'broadcast:' || $1::text || ':%'`, id.String()).
		Scan(&sent, &addresses, &rows, &first, &last); err != nil {
		return err
	}
	bc, err := b.a.Store.BroadcastGet(ctx, id)
	if err != nil {
		return err
	}
	left, err := b.a.Store.BroadcastRecipientsDelete(ctx, id) // none: the workflow deleted them
	if err != nil {
		return err
	}
	var events int64 // of the longest run
	for runID := run.GetRunID(); runID != ""; runID = nextRun(ctx, b.a.Temporal, run.GetID(), runID) {
		runs++
		d, err := b.a.Temporal.DescribeWorkflowExecution(ctx, run.GetID(), runID)
		if err != nil {
			return err
		}
		events = max(events, d.GetWorkflowExecutionInfo().GetHistoryLength())
	}
	if res.Status != "done" || res.Sent != broadcastRecipients || bc.Sent != broadcastRecipients || sent != broadcastRecipients || left != 0 {
		return fmt.Errorf("broadcast ended %+v; stored %+v; %d emails sent; %d recipient rows left", res, bc, sent, left)
	}
	ideal := time.Duration(float64(broadcastRecipients) / broadcastRate * float64(time.Second))
	dups := rows - addresses
	heapGrowth := float64(0)
	if p := peakHeap.Load(); p > base.HeapAlloc {
		heapGrowth = float64(p-base.HeapAlloc) / (1 << 20)
	}
	b.add(fmt.Sprintf("broadcast: materialize %d recipients (one transaction)", broadcastRecipients), dur(materialize))
	b.add(fmt.Sprintf("broadcast: %d emails at %d/s, start to end (ideal %s)", broadcastRecipients, broadcastRate, dur(ideal)),
		fmt.Sprintf("%s (%.0f%% of ideal; %.0f emails/s)", dur(wall), 100*ideal.Seconds()/wall.Seconds(), float64(broadcastRecipients)/wall.Seconds()))
	b.add("broadcast: first to last sent_at", dur(last.Sub(first)))
	b.add("broadcast: duplicate emails", strconv.Itoa(dups))
	b.add("broadcast: workflow runs (continue-as-new) / events in the longest", fmt.Sprintf("%d / %d", runs, events))
	b.add("broadcast: peak Go heap growth / peak RSS growth", fmt.Sprintf("%.1f MiB / %.1f MiB (RSS %.0f MiB before)",
		heapGrowth, float64(peakRSS.Load()-min(peakRSS.Load(), baseRSS))/1024, float64(baseRSS)/1024))
	say("broadcast: %s for %d emails (ideal %s), %d duplicates", dur(wall), broadcastRecipients, dur(ideal), dups)
	return nil
}

// nextRun is the run that runID continued as, or "" for the last run.
func nextRun(ctx context.Context, c client.Client, workflowID, runID string) string {
	iter := c.GetWorkflowHistory(ctx, workflowID, runID, false, enumspb.HISTORY_EVENT_FILTER_TYPE_CLOSE_EVENT)
	for iter.HasNext() {
		ev, err := iter.Next()
		if err != nil {
			return ""
		}
		if a := ev.GetWorkflowExecutionContinuedAsNewEventAttributes(); a != nil {
			return a.GetNewExecutionRunId()
		}
	}
	return ""
}

// rssKiB is the process's resident set size (Linux), or 0.
func rssKiB() uint64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return n
		}
	}
	return 0
}
