// Package outbox carries requests to start (or signal) workflows from a
// request's transaction to Temporal.
//
// A handler never calls Temporal inside its transaction: the workflow
// could run before the commit (and find nothing), or the commit could fail
// after the start (and the workflow act on rows that do not exist).
// Instead the handler calls Enqueue with the transaction's queries; the
// row commits or rolls back with the rest, and a trigger NOTIFYs the
// dispatchers on commit. A Dispatcher (in `serve` and `dev`) starts each
// row under its business-key ID. See docs/design.md, "The outbox".
package outbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"hackdesk/db"
	"hackdesk/internal/platform/tracing"
	"hackdesk/workflows"
)

// Enqueue writes req to the outbox in the transaction behind q. It returns
// false when a start with the same workflow ID was already queued (the
// same business key starts one workflow); signals are always queued.
func Enqueue(ctx context.Context, q *db.Queries, req workflows.Request) (bool, error) {
	if req.ID == "" || req.Type == "" || req.Kind == "" {
		return false, errors.New("outbox: a request needs an ID, a type and a kind")
	}
	input, err := json.Marshal(req.Input)
	if err != nil {
		return false, fmt.Errorf("outbox: marshal %s input: %w", req.Type, err)
	}
	p := db.WorkflowStartInsertParams{
		WorkflowID: req.ID, Type: req.Type, Input: input,
		Kind: string(req.Kind), Subject: req.Subject, Summary: req.Summary, Retry: int32(req.Retry),
	}
	if req.TaskQueue != "" {
		p.TaskQueue = &req.TaskQueue
	}
	// The request's trace: the dispatcher starts the workflow under it.
	if tp := tracing.TraceParent(ctx); tp != "" {
		p.TraceParent = &tp
	}
	if req.Signal != "" {
		p.Signal = &req.Signal
		if p.SignalInput, err = json.Marshal(req.SignalInput); err != nil {
			return false, fmt.Errorf("outbox: marshal %s signal: %w", req.Signal, err)
		}
	}
	n, err := q.WorkflowStartInsert(ctx, p)
	return n == 1, err
}

// Start starts req now, outside any transaction: the dispatcher's step, and
// what benchmarks and tests that need no transaction use. A workflow that
// is running, or that already ran, under the same ID counts as started;
// the run returned is that one.
func Start(ctx context.Context, c client.Client, taskQueue string, req workflows.Request) (client.WorkflowRun, error) {
	if req.TaskQueue != "" {
		taskQueue = req.TaskQueue
	}
	opts := client.StartWorkflowOptions{
		ID:                       req.ID,
		TaskQueue:                taskQueue,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		TypedSearchAttributes:    req.SearchAttributes(),
		StaticSummary:            req.Summary,
	}
	if req.Retry > 0 {
		// A retry starts a new run only after a failed (or timed-out,
		// terminated, cancelled) one; a running one is used as it is.
		opts.WorkflowIDReusePolicy = enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY
	}
	if req.Signal != "" {
		// Signal-with-start must be allowed to start a fresh run after a
		// finished one (a term whose workflow ended gets its dates again).
		opts.WorkflowIDReusePolicy = enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE
		opts.WorkflowIDConflictPolicy = enumspb.WORKFLOW_ID_CONFLICT_POLICY_UNSPECIFIED
		return c.SignalWithStartWorkflow(ctx, req.ID, req.Signal, req.SignalInput, opts, req.Type, req.Input)
	}
	run, err := c.ExecuteWorkflow(ctx, opts, req.Type, req.Input)
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &started) {
		return c.GetWorkflow(ctx, req.ID, started.RunId), nil
	}
	return run, err
}
