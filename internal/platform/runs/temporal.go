package runs

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"hackdesk/workflows"
)

// Kinds are every HackdeskKind (workflows.Kinds), in the order the
// operator's page lists them; the scheduled jobs' kinds (sweep,
// reconcile) included, so their failures are counted and listed too.
var Kinds = workflows.Kinds

// StatusOf maps a Temporal execution status.
func StatusOf(s enumspb.WorkflowExecutionStatus) Status {
	switch s {
	case enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING:
		return Running
	case enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED:
		return Completed
	case enumspb.WORKFLOW_EXECUTION_STATUS_FAILED:
		return Failed
	case enumspb.WORKFLOW_EXECUTION_STATUS_TIMED_OUT:
		return TimedOut
	case enumspb.WORKFLOW_EXECUTION_STATUS_TERMINATED:
		return Terminated
	case enumspb.WORKFLOW_EXECUTION_STATUS_CANCELED:
		return Canceled
	case enumspb.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW:
		return ContinuedAsNew
	}
	return Unknown
}

// LatestStatus is the status of the latest run under workflowID; Unknown
// when Temporal has none.
func LatestStatus(ctx context.Context, c client.Client, workflowID string) (Status, error) {
	d, err := c.DescribeWorkflowExecution(ctx, workflowID, "")
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) {
		return Unknown, nil
	}
	if err != nil {
		return Unknown, err
	}
	return StatusOf(d.GetWorkflowExecutionInfo().GetStatus()), nil
}

// Run is one closed run as the operator's page lists it.
type Run struct {
	WorkflowID string
	RunID      string
	Type       string
	Kind       string
	Status     Status
	ClosedAt   time.Time
}

// failedSince is the visibility query of hackdesk's runs that failed or
// timed out since a time, of one kind when kind is set; with stopped, the
// runs that were terminated or cancelled too.
func failedSince(since time.Time, kind workflows.Kind, stopped bool) string {
	var b strings.Builder
	b.WriteString("(ExecutionStatus = 'Failed' OR ExecutionStatus = 'TimedOut'")
	if stopped {
		b.WriteString(" OR ExecutionStatus = 'Terminated' OR ExecutionStatus = 'Canceled'")
	}
	b.WriteString(")")
	fmt.Fprintf(&b, " AND CloseTime >= '%s'", since.UTC().Format(time.RFC3339))
	if kind != "" {
		fmt.Fprintf(&b, " AND HackdeskKind = '%s'", kind)
		return b.String()
	}
	b.WriteString(" AND HackdeskKind IN (")
	for i, k := range Kinds {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "'%s'", k)
	}
	b.WriteString(")")
	return b.String()
}

// ListFailed lists up to limit runs that ended without completing since a
// time (failed, timed out, terminated or cancelled), newest first (visibility lists closed runs by close time, newest
// first; it takes no ORDER BY on every store, so the page is sorted here).
func ListFailed(ctx context.Context, c client.Client, since time.Time, limit int) ([]Run, error) {
	resp, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
		PageSize: int32(limit), Query: failedSince(since, "", true),
	})
	if err != nil {
		return nil, err
	}
	out := make([]Run, 0, len(resp.GetExecutions()))
	for _, e := range resp.GetExecutions() {
		if len(out) == limit {
			break
		}
		out = append(out, runOf(e))
	}
	slices.SortStableFunc(out, func(a, b Run) int { return b.ClosedAt.Compare(a.ClosedAt) })
	return out, nil
}

func runOf(e *workflowpb.WorkflowExecutionInfo) Run {
	r := Run{
		WorkflowID: e.GetExecution().GetWorkflowId(), RunID: e.GetExecution().GetRunId(),
		Type: e.GetType().GetName(), Status: StatusOf(e.GetStatus()),
	}
	if t := e.GetCloseTime(); t != nil {
		r.ClosedAt = t.AsTime()
	}
	if p := e.GetSearchAttributes().GetIndexedFields()[workflows.KindAttribute.GetName()]; p != nil {
		_ = converter.GetDefaultDataConverter().FromPayload(p, &r.Kind)
	}
	return r
}

// CountFailed counts the runs of each kind that failed or timed out since
// a time (one visibility count per kind, at once).
func CountFailed(ctx context.Context, c client.Client, since time.Time) (map[workflows.Kind]int64, error) {
	counts := make([]int64, len(Kinds))
	errs := make([]error, len(Kinds))
	var wg sync.WaitGroup
	for i, k := range Kinds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := c.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{Query: failedSince(since, k, false)})
			counts[i], errs[i] = resp.GetCount(), err
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	out := make(map[workflows.Kind]int64, len(Kinds))
	for i, k := range Kinds {
		out[k] = counts[i]
	}
	return out, nil
}
