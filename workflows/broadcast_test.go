package workflows_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"hackdesk/activities"
	"hackdesk/internal/feature/broadcast"
	"hackdesk/workflows"
)

// broadcastEnv is a test environment with the Broadcast workflow and its
// activities registered, and a record of the batches it was asked for.
type broadcastEnv struct {
	*testsuite.TestWorkflowEnvironment
	mu       sync.Mutex
	batches  []activities.BroadcastBatchInput // every attempt
	finished []broadcast.Status
}

// ranges are the batches asked for, as "first-last" in order (several run
// at once).
func (e *broadcastEnv) ranges() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	b := slices.Clone(e.batches)
	slices.SortFunc(b, func(x, y activities.BroadcastBatchInput) int { return x.First - y.First })
	out := make([]string, len(b))
	for i, in := range b {
		out[i] = fmt.Sprintf("%d-%d", in.First, in.Last)
	}
	return fmt.Sprint(out)
}

func newBroadcastEnv(t *testing.T) *broadcastEnv {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	e := &broadcastEnv{TestWorkflowEnvironment: s.NewTestWorkflowEnvironment()}
	e.RegisterWorkflow(workflows.Broadcast)
	e.RegisterActivity(&activities.BroadcastActivities{})
	return e
}

var bcast *activities.BroadcastActivities

// onBatches answers every batch with fn.
func (e *broadcastEnv) onBatches(fn func(in activities.BroadcastBatchInput) (activities.BroadcastBatchResult, error)) {
	e.OnActivity(bcast.SendBroadcastBatch, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in activities.BroadcastBatchInput) (activities.BroadcastBatchResult, error) {
			e.mu.Lock()
			e.batches = append(e.batches, in)
			e.mu.Unlock()
			return fn(in)
		})
}

// onFinish answers FinishBroadcast with the counts the batches reported.
func (e *broadcastEnv) onFinish(total, sent, failed, skipped int) {
	e.OnActivity(bcast.FinishBroadcast, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in activities.FinishBroadcastInput) (activities.BroadcastCounts, error) {
			e.finished = append(e.finished, in.Status)
			return activities.BroadcastCounts{Status: string(in.Status), Total: total, Sent: sent, Failed: failed, Skipped: skipped}, nil
		})
}

// allSent is a batch in which every recipient got the email.
func allSent(in activities.BroadcastBatchInput) (activities.BroadcastBatchResult, error) {
	return activities.BroadcastBatchResult{Sent: in.Last - in.First + 1}, nil
}

func TestBroadcast(t *testing.T) {
	t.Parallel()
	id := uuid.New()

	t.Run("OKBatches", func(t *testing.T) {
		t.Parallel()
		e := newBroadcastEnv(t)
		e.onBatches(func(in activities.BroadcastBatchInput) (activities.BroadcastBatchResult, error) {
			if in.First == 21 { // one address refused for good, one unsubscribed since
				return activities.BroadcastBatchResult{Sent: 3, Failed: 1, Skipped: 1}, nil
			}
			return allSent(in)
		})
		e.onFinish(25, 23, 1, 1)
		e.ExecuteWorkflow(workflows.Broadcast, workflows.BroadcastInput{BroadcastID: id, Subject: "News", Total: 25})
		var res workflows.BroadcastResult
		if err := e.GetWorkflowResult(&res); err != nil {
			t.Fatal(err)
		}
		if res != (workflows.BroadcastResult{Status: broadcast.Done, Sent: 23, Failed: 1, Skipped: 1}) {
			t.Fatalf("result %+v", res)
		}
		if got := e.ranges(); got != "[1-10 11-20 21-25]" {
			t.Fatalf("batches %s", got)
		}
		if fmt.Sprint(e.finished) != "[done]" {
			t.Fatalf("finished %v", e.finished)
		}
		v, err := e.QueryWorkflow(workflows.ProgressQuery)
		if err != nil {
			t.Fatal(err)
		}
		var p workflows.BroadcastProgress
		if err := v.Get(&p); err != nil || p != (workflows.BroadcastProgress{Status: broadcast.Done, Total: 25, Sent: 23, Failed: 1, Skipped: 1, Next: 26}) {
			t.Fatalf("progress %+v %v", p, err)
		}
	})

	t.Run("OKBatchesRunOnTheBroadcastQueue", func(t *testing.T) {
		t.Parallel()
		e := newBroadcastEnv(t)
		var queues []string
		e.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
			queues = append(queues, info.ActivityType.Name+"@"+info.TaskQueue)
		})
		e.onBatches(allSent)
		e.onFinish(3, 3, 0, 0)
		e.ExecuteWorkflow(workflows.Broadcast, workflows.BroadcastInput{BroadcastID: id, Total: 3})
		if err := e.GetWorkflowError(); err != nil {
			t.Fatal(err)
		}
		want := "[SendBroadcastBatch@default-test-taskqueue-broadcast FinishBroadcast@default-test-taskqueue]"
		if fmt.Sprint(queues) != want {
			t.Fatalf("activities ran as %v, want %s", queues, want)
		}
	})

	t.Run("OKContinuesAsNew", func(t *testing.T) {
		t.Parallel()
		e := newBroadcastEnv(t)
		e.onBatches(allSent)
		e.ExecuteWorkflow(workflows.Broadcast, workflows.BroadcastInput{BroadcastID: id, Subject: "News", Total: 95,
			Next: 41, Sent: 39, Failed: 1, PerRun: 30})
		var can *workflow.ContinueAsNewError
		if err := e.GetWorkflowError(); !errors.As(err, &can) {
			t.Fatalf("error %v, want continue-as-new", err)
		}
		if got := e.ranges(); got != "[41-50 51-60 61-70]" {
			t.Fatalf("batches %s", got)
		}
		var next workflows.BroadcastInput
		if err := converter.GetDefaultDataConverter().FromPayloads(can.Input, &next); err != nil {
			t.Fatal(err)
		}
		want := workflows.BroadcastInput{BroadcastID: id, Subject: "News", Total: 95, Next: 71, Sent: 69, Failed: 1, PerRun: 30}
		if next != want || can.WorkflowType.Name != "Broadcast" {
			t.Fatalf("continued as %s with %+v, want %+v", can.WorkflowType.Name, next, want)
		}
	})

	t.Run("OKLastRunEndsTheBroadcast", func(t *testing.T) {
		t.Parallel()
		e := newBroadcastEnv(t)
		e.onBatches(allSent)
		e.onFinish(95, 95, 0, 0)
		e.ExecuteWorkflow(workflows.Broadcast, workflows.BroadcastInput{BroadcastID: id, Total: 95, Next: 71, Sent: 70, PerRun: 30})
		if err := e.GetWorkflowError(); err != nil {
			t.Fatal(err)
		}
		if got := e.ranges(); got != "[71-80 81-90 91-95]" || fmt.Sprint(e.finished) != "[done]" {
			t.Fatalf("batches %s, finished %v", got, e.finished)
		}
	})

	t.Run("OKNoRecipients", func(t *testing.T) {
		t.Parallel()
		e := newBroadcastEnv(t)
		e.onBatches(allSent)
		e.onFinish(0, 0, 0, 0)
		e.ExecuteWorkflow(workflows.Broadcast, workflows.BroadcastInput{BroadcastID: id, Total: 0})
		if err := e.GetWorkflowError(); err != nil || len(e.batches) != 0 || fmt.Sprint(e.finished) != "[done]" {
			t.Fatalf("error %v, batches %v, finished %v", err, e.batches, e.finished)
		}
	})

	t.Run("OKCancelRequestStopsBetweenBatches", func(t *testing.T) {
		t.Parallel()
		e := newBroadcastEnv(t)
		// The cancel request is seen by the batch after the first two.
		e.onBatches(func(in activities.BroadcastBatchInput) (activities.BroadcastBatchResult, error) {
			if in.First > 20 {
				return activities.BroadcastBatchResult{Cancelled: true}, nil
			}
			return allSent(in)
		})
		e.onFinish(500, 20, 0, 0)
		e.ExecuteWorkflow(workflows.Broadcast, workflows.BroadcastInput{BroadcastID: id, Total: 500})
		var res workflows.BroadcastResult
		if err := e.GetWorkflowResult(&res); err != nil {
			t.Fatal(err)
		}
		if res.Status != broadcast.Cancelled || res.Sent != 20 || fmt.Sprint(e.finished) != "[cancelled]" {
			t.Fatalf("result %+v, finished %v", res, e.finished)
		}
		// Batches already in flight when the request was seen end, and no
		// new one is handed out.
		if len(e.batches) > 2+workflows.BroadcastInFlight {
			t.Fatalf("%d batches after the cancel request: %v", len(e.batches), e.batches)
		}
	})

	t.Run("OKRunCancelledStopsAndCleansUp", func(t *testing.T) {
		t.Parallel()
		e := newBroadcastEnv(t)
		e.OnActivity(bcast.SendBroadcastBatch, mock.Anything, mock.Anything).After(time.Second).Return(
			func(_ context.Context, in activities.BroadcastBatchInput) (activities.BroadcastBatchResult, error) {
				return allSent(in)
			})
		e.onFinish(1000, 0, 0, 0)
		e.RegisterDelayedCallback(e.CancelWorkflow, 2500*time.Millisecond)
		e.ExecuteWorkflow(workflows.Broadcast, workflows.BroadcastInput{BroadcastID: id, Total: 1000})
		if err := e.GetWorkflowError(); !temporal.IsCanceledError(err) {
			t.Fatalf("error %v, want cancelled", err)
		}
		if fmt.Sprint(e.finished) != "[cancelled]" {
			t.Fatalf("finished %v, want the list deleted as cancelled", e.finished)
		}
	})

	t.Run("OKBatchRetriedAfterCrash", func(t *testing.T) {
		t.Parallel()
		e := newBroadcastEnv(t)
		attempts := map[int]int{}
		var mu sync.Mutex
		e.onBatches(func(in activities.BroadcastBatchInput) (activities.BroadcastBatchResult, error) {
			mu.Lock()
			attempts[in.First]++
			first := attempts[in.First] == 1
			mu.Unlock()
			if in.First == 11 && first {
				return activities.BroadcastBatchResult{}, errors.New("worker lost")
			}
			return allSent(in)
		})
		e.onFinish(30, 30, 0, 0)
		e.ExecuteWorkflow(workflows.Broadcast, workflows.BroadcastInput{BroadcastID: id, Total: 30})
		var res workflows.BroadcastResult
		if err := e.GetWorkflowResult(&res); err != nil {
			t.Fatal(err)
		}
		if attempts[11] != 2 || attempts[1] != 1 || attempts[21] != 1 {
			t.Fatalf("attempts %v", attempts)
		}
		v, _ := e.QueryWorkflow(workflows.ProgressQuery)
		var p workflows.BroadcastProgress
		if err := v.Get(&p); err != nil || p.Sent != 30 {
			t.Fatalf("progress %+v %v: the retried batch counted once", p, err)
		}
	})

	t.Run("ErrBatchFailsForGood", func(t *testing.T) {
		t.Parallel()
		e := newBroadcastEnv(t)
		e.onBatches(func(in activities.BroadcastBatchInput) (activities.BroadcastBatchResult, error) {
			if in.First == 1 {
				return allSent(in)
			}
			return activities.BroadcastBatchResult{}, temporal.NewNonRetryableApplicationError("no key", activities.ErrTypeNoSigningKey, nil)
		})
		e.onFinish(100, 10, 0, 0)
		e.ExecuteWorkflow(workflows.Broadcast, workflows.BroadcastInput{BroadcastID: id, Total: 100})
		var app *temporal.ApplicationError
		if err := e.GetWorkflowError(); !errors.As(err, &app) || app.Type() != activities.ErrTypeNoSigningKey {
			t.Fatalf("error %v, want the batch's", err)
		}
		if fmt.Sprint(e.finished) != "[cancelled]" {
			t.Fatalf("finished %v", e.finished)
		}
	})

	t.Run("ErrBadInput", func(t *testing.T) {
		t.Parallel()
		e := newBroadcastEnv(t)
		e.ExecuteWorkflow(workflows.Broadcast, workflows.BroadcastInput{Total: 3})
		if e.GetWorkflowError() == nil {
			t.Fatal("no error without a broadcast id")
		}
	})

	t.Run("Request", func(t *testing.T) {
		t.Parallel()
		req := workflows.BroadcastRequest(workflows.BroadcastInput{BroadcastID: id, Subject: "Hack night", Total: 3})
		if req.ID != "broadcast:"+id.String() || req.Kind != workflows.KindBroadcast || req.Subject != id.String() ||
			req.Type != "Broadcast" || req.Summary != "Broadcast "+id.String() || req.TaskQueue != "" {
			t.Fatalf("request %+v", req)
		}
		if got := workflows.BroadcastTaskQueue("hackdesk"); got != "hackdesk-broadcast" {
			t.Fatalf("task queue %q", got)
		}
	})
}
