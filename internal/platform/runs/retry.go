// Package runs is the operator's view of workflow runs: retrying a failed
// run of the workflows that may be retried, the recent failed runs, and
// failure counts by kind. Retries travel through the outbox like every
// other start.
package runs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
	"hackdesk/outbox"
	"hackdesk/workflows"
)

// Status is a run's execution status as the API names it.
type Status string

// The statuses of a run. Unknown is a workflow id Temporal has no run of.
const (
	Running        Status = "running"
	Completed      Status = "completed"
	Failed         Status = "failed"
	TimedOut       Status = "timed_out"
	Terminated     Status = "terminated"
	Canceled       Status = "canceled"
	ContinuedAsNew Status = "continued_as_new"
	Unknown        Status = "unknown"
)

// retryableTypes are the workflows a superadmin may retry: each one's
// activities are safe to run again for the same business key.
var retryableTypes = map[string]bool{
	"HiringFinalization": true,
	"FoundryLaunch":      true,
	"ReceiptProcessing":  true,
	"TermWindow":         true,
}

// RetryableType reports whether runs of a workflow type may be retried.
func RetryableType(typ string) bool { return retryableTypes[typ] }

// RetryableStatus reports whether a run of type typ that ended with st may
// be retried: one that failed or timed out, and a TermWindow that an
// operator terminated or cancelled (the term reconciler leaves it stopped
// until its dates change or an admin restarts it here). Runs of the other
// types that were stopped on purpose stay stopped.
func RetryableStatus(typ string, st Status) bool {
	switch st {
	case Failed, TimedOut:
		return true
	case Terminated, Canceled:
		return typ == "TermWindow"
	}
	return false
}

// ErrNoWorkflow is a workflow id the outbox never queued.
var ErrNoWorkflow = apperr.New(apperr.NotFound, "Not found")

func notRetryable(format string, args ...any) *apperr.Error {
	return apperr.WithMessage(apperr.Conflict, "Not retryable", fmt.Sprintf(format, args...))
}

// Retry queues one more start of workflowID, whose latest run has status
// st, in the transaction behind q, and answers its retry number (a
// terminated or cancelled TermWindow is restarted the same way). The
// start is a new outbox row numbered after the workflow id's last, with
// the input of its newest row (the business key's input; a TermWindow's
// latest dates); the dispatcher starts it only if the last run failed.
// Refused with a Conflict: a type that is not retried, a start whose
// input retention has cleared (7 days after it), a run that is
// running or queued (a retry not yet started counts), one that completed
// or ended otherwise. Two retries at once queue one: both take the same
// number and the start-once index keeps the first.
//
// A FoundryLaunch retry runs again on its project: the project is running
// again and its steps that did not succeed are pending, so the project's
// page follows the retry; a name another live project has taken since is
// refused.
func Retry(ctx context.Context, q *db.Queries, workflowID string, st Status) (int, error) {
	latest, err := q.WorkflowRetryLatest(ctx, workflowID)
	if errors.Is(err, db.ErrNotFound) {
		return 0, ErrNoWorkflow
	}
	if err != nil {
		return 0, err
	}
	if !RetryableType(latest.Type) {
		return 0, notRetryable("%s workflows are not retried here.", latest.Type)
	}
	if latest.InputClearedAt != nil {
		return 0, notRetryable("Workflow %s started more than 7 days ago: its input has been cleared (retention), so it cannot be started again from here.", workflowID)
	}
	state, err := q.WorkflowRetryState(ctx, workflowID)
	if err != nil {
		return 0, err
	}
	if state.Pending > 0 {
		return 0, notRetryable("Workflow %s is running: a start is queued.", workflowID)
	}
	switch {
	case st == Running:
		return 0, notRetryable("Workflow %s is running.", workflowID)
	case st == Completed:
		return 0, notRetryable("Workflow %s completed.", workflowID)
	case !RetryableStatus(latest.Type, st):
		return 0, notRetryable("Workflow %s is %s; only a failed or timed-out run is retried.", workflowID, describe(st))
	}
	next := int(state.LastRetry) + 1
	req := workflows.Request{
		ID: workflowID, Type: latest.Type, Input: json.RawMessage(latest.Input),
		Kind: workflows.Kind(latest.Kind), Subject: latest.Subject, Summary: latest.Summary, Retry: next,
	}
	if latest.TaskQueue != nil {
		req.TaskQueue = *latest.TaskQueue
	}
	queued, err := outbox.Enqueue(ctx, q, req)
	if err != nil {
		return 0, err
	}
	if !queued {
		return 0, notRetryable("Workflow %s is running: a retry is queued.", workflowID)
	}
	if latest.Type == "FoundryLaunch" {
		err := q.FoundryProjectReopen(ctx, workflowID)
		if errors.Is(err, db.ErrConflict) {
			return 0, notRetryable("Another project has taken this project's name since it failed; launch it again from the Foundry page.")
		}
		if err != nil {
			return 0, err
		}
	}
	return next, nil
}

func describe(st Status) string {
	switch st {
	case Terminated:
		return "terminated"
	case Canceled:
		return "cancelled"
	case ContinuedAsNew:
		return "continued as new"
	}
	return "not known to Temporal"
}

// Listed is a closed run and whether it may be retried now.
type Listed struct {
	Run
	Retryable bool
}

// Annotate marks which of the runs may be retried: a failed or timed-out
// run of a retried type (or a stopped TermWindow, RetryableStatus) that this deployment's outbox queued, and after
// which nothing was queued under its id (no retry, no fresh start).
func Annotate(ctx context.Context, q *db.Queries, list []Run) ([]Listed, error) {
	ids := make([]string, 0, len(list))
	for _, r := range list {
		ids = append(ids, r.WorkflowID)
	}
	known, err := q.WorkflowRetryKnown(ctx, ids)
	if err != nil {
		return nil, err
	}
	last := make(map[string]db.WorkflowRetryKnownRow, len(known))
	for _, k := range known {
		last[k.WorkflowID] = k
	}
	out := make([]Listed, len(list))
	for i, r := range list {
		k, ok := last[r.WorkflowID]
		out[i] = Listed{Run: r, Retryable: ok && RetryableType(r.Type) && RetryableStatus(r.Type, r.Status) &&
			!k.LastQueuedAt.After(r.ClosedAt)}
	}
	return out, nil
}
