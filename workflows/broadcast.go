package workflows

import (
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"hackdesk/activities"
	"hackdesk/internal/feature/broadcast"
)

// Sizes of a broadcast's work.
const (
	// BroadcastBatchSize is how many emails one SendBroadcastBatch sends.
	// The broadcast worker lets the server dispatch BROADCAST_RATE /
	// BroadcastBatchSize batches a second, so the rate is in emails.
	BroadcastBatchSize = 10
	// BroadcastPerRun is how many recipients one run hands out before it
	// continues as new, keeping each run's history short (a batch costs
	// about five events).
	BroadcastPerRun = 2000
	// BroadcastInFlight is how many batches a run keeps scheduled at once:
	// enough that the server's rate, not the round trip of one batch, sets
	// the pace (at 500 emails a second, 4 in flight reached 174 a second,
	// 16 reached 364 on a 2-core machine; see docs/performance.md). They
	// wait in the queue for their turn; a cancel request makes each one
	// that starts return at once.
	BroadcastInFlight = 16
)

// BroadcastInput is a broadcast to send. A run continued as new carries
// where it stands.
type BroadcastInput struct {
	BroadcastID uuid.UUID
	Subject     string // the subject line (not shown in the Temporal UI's summary)
	Total       int    // recipients, numbered 1..Total
	PublicURL   string // the base of the unsubscribe links
	// Next is the first recipient not yet handed out (0 or 1 at the start);
	// Sent, Failed and Skipped are the counts of the runs before.
	Next, Sent, Failed, Skipped int
	// PerRun overrides BroadcastPerRun (tests).
	PerRun int
}

// BroadcastResult is how a broadcast ended.
type BroadcastResult struct {
	Status                broadcast.Status
	Sent, Failed, Skipped int
}

// BroadcastProgress is what the progress query answers.
type BroadcastProgress struct {
	Status                       broadcast.Status
	Total, Sent, Failed, Skipped int
	// Next is the first recipient not yet handed to a batch.
	Next int
}

// BroadcastID is the workflow ID of a broadcast.
func BroadcastID(id uuid.UUID) string { return "broadcast:" + id.String() }

// BroadcastRequest starts the Broadcast workflow of a new broadcast. The
// summary names it by id: its subject line is free text, which may name
// people.
func BroadcastRequest(in BroadcastInput) Request {
	return Request{ID: BroadcastID(in.BroadcastID), Type: "Broadcast", Input: in, Kind: KindBroadcast,
		Subject: in.BroadcastID.String(), Summary: "Broadcast " + in.BroadcastID.String()}
}

// BroadcastTaskQueue is the task queue of the batches of broadcasts whose
// workflows run on taskQueue: a queue of their own, so the server's rate
// limit applies to broadcast emails and nothing else.
func BroadcastTaskQueue(taskQueue string) string { return taskQueue + "-broadcast" }

// batchOptions are for SendBroadcastBatch: on the broadcast task queue,
// where a batch may wait its turn under the rate limit; it heartbeats
// after each email, so a lost worker is noticed within the heartbeat
// timeout and the batch retried (sending nothing twice). When the batches
// are cancelled, the run waits for those under way to write down what
// they sent before it ends the broadcast.
var batchOptions = workflow.ActivityOptions{
	StartToCloseTimeout:    time.Hour,
	ScheduleToCloseTimeout: 24 * time.Hour,
	HeartbeatTimeout:       30 * time.Second,
	WaitForCancellation:    true,
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval:    2 * time.Second,
		BackoffCoefficient: 2,
		MaximumInterval:    5 * time.Minute,
	},
}

// Broadcast sends a broadcast's emails in batches of BroadcastBatchSize
// recipients on the broadcast task queue, BroadcastInFlight batches in
// flight, and continues as new every PerRun recipients. A cancel request
// (the broadcast's cancel route, seen by the next batch that starts) or a
// cancellation of the run stops it between batches: no batch is handed
// out after it, those waiting their turn are cancelled, and those under
// way are waited for (they stop at their next heartbeat, having written
// down what they sent). At the end, done or cancelled, it
// records the status and deletes the recipient list; the counts stay. A
// batch that fails for good (after a day of retries, or without
// SIGNING_KEY) ends the broadcast cancelled and fails the run with the
// reason.
func Broadcast(ctx workflow.Context, in BroadcastInput) (BroadcastResult, error) {
	if in.BroadcastID == uuid.Nil || in.Total < 0 {
		return BroadcastResult{}, temporal.NewNonRetryableApplicationError("a broadcast id and a total are required", "BadInput", nil)
	}
	logger := workflow.GetLogger(ctx)
	next := max(in.Next, 1)
	p := BroadcastProgress{Status: broadcast.Sending, Total: in.Total, Sent: in.Sent, Failed: in.Failed, Skipped: in.Skipped, Next: next}
	if err := workflow.SetQueryHandler(ctx, ProgressQuery, func() (BroadcastProgress, error) { return p, nil }); err != nil {
		return BroadcastResult{}, err
	}
	perRun := in.PerRun
	if perRun <= 0 {
		perRun = BroadcastPerRun
	}
	var a *activities.BroadcastActivities
	opts := batchOptions
	opts.TaskQueue = BroadcastTaskQueue(workflow.GetInfo(ctx).TaskQueueName)
	// Stopping cancels the batches still waiting for their turn at once.
	bctx, cancelBatches := workflow.WithCancel(workflow.WithActivityOptions(ctx, opts))

	var (
		sel      = workflow.NewSelector(ctx)
		inFlight int
		handed   int   // recipients handed out by this run
		stop     bool  // no more batches: cancelled or failed
		batchErr error // the first batch that failed for good
	)
	for {
		for inFlight < BroadcastInFlight && !stop && next <= in.Total && handed < perRun {
			last := min(next+BroadcastBatchSize-1, in.Total)
			f := workflow.ExecuteActivity(bctx, a.SendBroadcastBatch, activities.BroadcastBatchInput{
				BroadcastID: in.BroadcastID, First: next, Last: last, PublicURL: in.PublicURL})
			sel.AddFuture(f, func(f workflow.Future) {
				inFlight--
				var r activities.BroadcastBatchResult
				switch err := f.Get(ctx, &r); {
				case err != nil:
					if batchErr == nil && !temporal.IsCanceledError(err) {
						batchErr = err
					}
					stop = true
					cancelBatches()
				case r.Cancelled:
					stop = true
					cancelBatches()
				default:
					p.Sent += r.Sent
					p.Failed += r.Failed
					p.Skipped += r.Skipped
				}
			})
			inFlight++
			handed += last - next + 1
			next = last + 1
			p.Next = next
		}
		if inFlight == 0 {
			break
		}
		sel.Select(ctx)
		if ctx.Err() != nil {
			stop = true
		}
	}

	if !stop && next <= in.Total {
		logger.Info("broadcast continues as new", "next", next, "sent", p.Sent, "failed", p.Failed)
		cont := in
		cont.Next, cont.Sent, cont.Failed, cont.Skipped = next, p.Sent, p.Failed, p.Skipped
		return BroadcastResult{}, workflow.NewContinueAsNewError(ctx, Broadcast, cont)
	}

	status := broadcast.Done
	if stop {
		status = broadcast.Cancelled
	}
	// A cancelled run still records its end and deletes the list.
	fctx := ctx
	if ctx.Err() != nil {
		fctx, _ = workflow.NewDisconnectedContext(ctx)
	}
	var counts activities.BroadcastCounts
	if err := workflow.ExecuteActivity(storeActivity(fctx, "BadInput"), a.FinishBroadcast, activities.FinishBroadcastInput{
		BroadcastID: in.BroadcastID, Status: status}).Get(fctx, &counts); err != nil {
		return BroadcastResult{}, err
	}
	p.Status, p.Sent, p.Failed, p.Skipped = broadcast.Status(counts.Status), counts.Sent, counts.Failed, counts.Skipped
	res := BroadcastResult{Status: p.Status, Sent: p.Sent, Failed: p.Failed, Skipped: p.Skipped}
	logger.Info("broadcast ended", "status", res.Status, "sent", res.Sent, "failed", res.Failed, "skipped", res.Skipped,
		"recipients_deleted", counts.RecipientsDeleted)
	switch {
	case batchErr != nil:
		return res, batchErr
	case ctx.Err() != nil:
		return res, ctx.Err()
	}
	return res, nil
}
