package outbox

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"go.temporal.io/sdk/client"

	"hackdesk/db"
	"hackdesk/internal/platform/metrics"
	"hackdesk/internal/platform/tracing"
	"hackdesk/workflows"
)

// Channel is the NOTIFY channel the workflow_starts trigger signals on.
const Channel = "workflow_starts"

// Defaults of a Dispatcher.
const (
	DefaultSweep  = 5 * time.Second
	DefaultBatch  = 50
	startTimeout  = 10 * time.Second
	maxRetryAfter = 5 * time.Minute
	listenRetry   = 2 * time.Second
	// DefaultLanes is how many batches one dispatcher has in flight at
	// once (each in its own transaction, claiming with SKIP LOCKED);
	// concurrentStarts how many of one batch's starts run at once.
	DefaultLanes      = 2
	concurrentStarts  = 32
	lastErrorMaxBytes = 500
)

// Dispatcher starts the outbox's pending rows. Several dispatchers (one
// per API replica) may run against one database: each claims rows with
// FOR UPDATE SKIP LOCKED, so a row is dispatched by one of them at a time,
// and a start whose workflow already exists counts as done, so a row
// dispatched again after a crash starts nothing new.
type Dispatcher struct {
	Store     *db.Store
	Temporal  client.Client
	TaskQueue string // the default task queue
	Log       *slog.Logger
	// Sweep is how often pending rows are looked for without a
	// notification (a missed NOTIFY, a row due for retry). Zero means
	// DefaultSweep.
	Sweep time.Duration
	// Batch is how many rows one transaction claims. Zero means
	// DefaultBatch.
	Batch int
	// Lanes is how many batches are dispatched at once. Zero means
	// DefaultLanes.
	Lanes int
	// NoListen makes the dispatcher rely on the sweep alone
	// (tests of a lost notification).
	NoListen bool
	// Metrics counts start attempts and failures; nil counts nothing.
	Metrics *metrics.Metrics
}

// Run dispatches until ctx ends: at once, on every notification and every
// Sweep.
func (d *Dispatcher) Run(ctx context.Context) {
	if d.Log == nil {
		d.Log = slog.Default()
	}
	sweep := d.Sweep
	if sweep <= 0 {
		sweep = DefaultSweep
	}
	kick := make(chan struct{}, 1)
	if !d.NoListen {
		go d.listen(ctx, kick)
	}
	tick := time.NewTicker(sweep)
	defer tick.Stop()
	for {
		if _, err := d.Drain(ctx); err != nil && ctx.Err() == nil {
			d.Log.Warn("outbox: dispatch failed; retrying at the next sweep", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-kick:
		case <-tick.C:
		}
	}
}

// listen holds a connection of its own LISTENing on Channel and kicks the
// dispatch loop on each notification. When the connection drops it
// reconnects, kicking once (notifications sent meanwhile were lost).
func (d *Dispatcher) listen(ctx context.Context, kick chan<- struct{}) {
	wake := func() {
		select {
		case kick <- struct{}{}:
		default:
		}
	}
	for ctx.Err() == nil {
		err := d.listenOnce(ctx, wake)
		if ctx.Err() != nil {
			return
		}
		d.Log.Warn("outbox: notification listener lost its connection; reconnecting", "err", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(listenRetry):
		}
	}
}

func (d *Dispatcher) listenOnce(ctx context.Context, wake func()) error {
	conn, err := pgx.ConnectConfig(ctx, d.Store.Pool().Config().ConnConfig.Copy())
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+Channel); err != nil {
		return err
	}
	wake() // rows committed while nobody listened
	for {
		if _, err := conn.WaitForNotification(ctx); err != nil {
			return err
		}
		wake()
	}
}

// Drain dispatches due rows batch by batch, Lanes batches at a time,
// until none is left or a start fails, and returns how many it started.
// Under a storm of queued starts (a webhook flood) the starts are bound by
// the Temporal server's answer time, not by CPU, so batches run side by
// side rather than one after the other.
func (d *Dispatcher) Drain(ctx context.Context) (int, error) {
	lanes := d.Lanes
	if lanes <= 0 {
		lanes = DefaultLanes
	}
	var (
		mu       sync.Mutex
		total    int
		firstErr error
		wg       sync.WaitGroup
	)
	for range lanes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				n, more, err := d.dispatchBatch(ctx)
				mu.Lock()
				total += n
				if err != nil && firstErr == nil {
					firstErr = err
				}
				stop := firstErr != nil
				mu.Unlock()
				if err != nil || !more || stop {
					return
				}
			}
		}()
	}
	wg.Wait()
	return total, firstErr
}

type outcome struct {
	runID string
	err   error
}

// dispatchBatch claims up to Batch due rows, starts them concurrently and
// records each outcome, all in one transaction: a dispatcher that dies
// half-way leaves its rows pending for the next, and the starts it made
// are found as already started. more is true when the batch was full and
// every start succeeded.
func (d *Dispatcher) dispatchBatch(ctx context.Context) (n int, more bool, err error) {
	batch := d.Batch
	if batch <= 0 {
		batch = DefaultBatch
	}
	failed := false
	err = d.Store.InTx(ctx, func(q *db.Queries) error {
		rows, err := q.WorkflowStartClaim(ctx, int32(batch))
		if err != nil {
			return err
		}
		outcomes := d.startAll(ctx, rows)
		var started db.WorkflowStartMarkStartedManyParams
		for i, row := range rows {
			o := outcomes[i]
			if o.err == nil {
				started.Ids = append(started.Ids, row.ID)
				started.RunIds = append(started.RunIds, o.runID)
				continue
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			failed = true
			msg := o.err.Error()
			if len(msg) > lastErrorMaxBytes {
				msg = msg[:lastErrorMaxBytes]
			}
			retry := RetryAfter(int(row.Attempts))
			d.Log.Warn("outbox: workflow start failed", "workflow_id", row.WorkflowID, "type", row.Type,
				"attempt", row.Attempts+1, "retry_in", retry, "err", o.err)
			if err := q.WorkflowStartMarkFailed(ctx, db.WorkflowStartMarkFailedParams{
				ID: row.ID, LastError: &msg, RetryAfterSeconds: retry.Seconds(),
			}); err != nil {
				return err
			}
		}
		if len(started.Ids) > 0 { // one statement for the batch's started rows
			if err := q.WorkflowStartMarkStartedMany(ctx, started); err != nil {
				return err
			}
			n = len(started.Ids)
		}
		more = len(rows) == batch
		return nil
	})
	if err != nil {
		return 0, false, err
	}
	return n, more && !failed, nil
}

// startAll starts the rows, a few at a time.
func (d *Dispatcher) startAll(ctx context.Context, rows []db.WorkflowStart) []outcome {
	out := make([]outcome, len(rows))
	sem := make(chan struct{}, concurrentStarts)
	var wg sync.WaitGroup
	for i, row := range rows {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			sctx, cancel := context.WithTimeout(ctx, startTimeout)
			defer cancel()
			if row.TraceParent != nil { // the queuing request's trace
				sctx = tracing.WithTraceParent(sctx, *row.TraceParent)
			}
			run, err := Start(sctx, d.Temporal, d.TaskQueue, requestOf(row))
			d.Metrics.OutboxAttempt(row.Type, err == nil)
			if err == nil {
				out[i].runID = run.GetRunID()
			}
			out[i].err = err
		}()
	}
	wg.Wait()
	return out
}

// requestOf rebuilds the request a row was written from. The inputs stay
// raw JSON: the workflow decodes them into its own types.
func requestOf(row db.WorkflowStart) workflows.Request {
	r := workflows.Request{
		ID: row.WorkflowID, Type: row.Type, Input: json.RawMessage(row.Input),
		Kind: workflows.Kind(row.Kind), Subject: row.Subject, Summary: row.Summary, Retry: int(row.Retry),
	}
	if row.TaskQueue != nil {
		r.TaskQueue = *row.TaskQueue
	}
	if row.Signal != nil {
		r.Signal, r.SignalInput = *row.Signal, json.RawMessage(row.SignalInput)
	}
	return r
}

// RetryAfter is the wait before the next attempt after a row's attempts-th
// failed start: 1 s, doubling, at most five minutes.
func RetryAfter(attempts int) time.Duration {
	if attempts >= 9 {
		return maxRetryAfter
	}
	return min(time.Second<<attempts, maxRetryAfter)
}
