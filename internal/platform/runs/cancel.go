package runs

import (
	"context"
	"errors"
	"fmt"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"hackdesk/internal/platform/apperr"
	"hackdesk/workflows"
)

// ErrNotHackdesk is a workflow id Temporal has no run of, or whose runs
// are not hackdesk's (they carry no HackdeskKind).
var ErrNotHackdesk = apperr.New(apperr.NotFound, "Not found")

// Cancel asks Temporal to cancel the running run of workflowID and
// answers its run id. The workflow decides what cancelling means (a
// launch records its step failed, a broadcast stops sending); it ends
// cancelled once it has. Refused: an id with no hackdesk run (NotFound),
// a run that is not running (a Conflict, "Not running").
func Cancel(ctx context.Context, c client.Client, workflowID string) (string, error) {
	d, err := c.DescribeWorkflowExecution(ctx, workflowID, "")
	var notFound *serviceerror.NotFound
	if errors.As(err, &notFound) {
		return "", ErrNotHackdesk
	}
	if err != nil {
		return "", err
	}
	info := d.GetWorkflowExecutionInfo()
	if _, ok := info.GetSearchAttributes().GetIndexedFields()[workflows.KindAttribute.GetName()]; !ok {
		return "", ErrNotHackdesk
	}
	runID := info.GetExecution().GetRunId()
	if st := StatusOf(info.GetStatus()); st != Running {
		return "", apperr.WithMessage(apperr.Conflict, "Not running",
			fmt.Sprintf("Workflow %s is %s; only a running run is cancelled.", workflowID, statusWords(st)))
	}
	if err := c.CancelWorkflow(ctx, workflowID, runID); err != nil {
		if errors.As(err, &notFound) { // it ended meanwhile
			return "", apperr.WithMessage(apperr.Conflict, "Not running", fmt.Sprintf("Workflow %s has ended.", workflowID))
		}
		return "", err
	}
	return runID, nil
}

func statusWords(st Status) string {
	switch st {
	case Completed:
		return "completed"
	case Failed:
		return "failed"
	case TimedOut:
		return "timed out"
	}
	return describe(st)
}
