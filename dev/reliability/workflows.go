package main

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"

	"hackdesk/internal/feature/membership"
	"hackdesk/workflows"
)

// WorkflowIDs are every workflow the env's requests started: its outbox
// rows and the SendEmail workflow of each recorded email (the ones
// started as children of another workflow included). A receipt's
// confirmation has no SendEmail run unless an admin's match queued one (an
// outbox row): ReceiptProcessing delivers it itself.
func (e *Env) WorkflowIDs(ctx context.Context) ([]string, error) {
	rows, err := e.Store.Pool().Query(ctx, `
		SELECT workflow_id FROM workflow_starts WHERE signal IS NULL
		UNION SELECT 'email:' || idempotency_key FROM emails WHERE kind <> $1`, membership.ConfirmationKind)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// Closed is how a set of workflows ended.
type Closed struct {
	ByStatus map[string]int // completed, failed, ... running for the ones that did not end
	// Bad lists the workflows that did not complete, with their status.
	Bad []string
}

func (c Closed) String() string {
	keys := make([]string, 0, len(c.ByStatus))
	for k := range c.ByStatus {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%d %s", c.ByStatus[k], k)
	}
	s := strings.Join(parts, ", ")
	if len(c.Bad) > 0 {
		s += fmt.Sprintf(" (%s)", strings.Join(c.Bad[:min(3, len(c.Bad))], ", "))
	}
	return s
}

// WaitClosed waits until the latest run of every id has ended (or timeout)
// and says how each ended.
func (s *Suite) WaitClosed(ctx context.Context, ids []string, timeout time.Duration) (Closed, error) {
	status := map[string]enumspb.WorkflowExecutionStatus{}
	err := poll(ctx, timeout, func() (bool, error) {
		open := 0
		for _, id := range ids {
			if st, ok := status[id]; ok && st != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
				continue
			}
			d, err := s.Temporal.DescribeWorkflowExecution(ctx, id, "")
			if err != nil {
				open++ // not visible yet, or the server is coming back
				continue
			}
			status[id] = d.GetWorkflowExecutionInfo().GetStatus()
			if status[id] == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
				open++
			}
		}
		return open == 0, nil
	})
	c := Closed{ByStatus: map[string]int{}}
	for _, id := range ids {
		st, ok := status[id]
		name := "not found"
		if ok {
			name = strings.ToLower(st.String())
		}
		c.ByStatus[name]++
		if st != enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED {
			c.Bad = append(c.Bad, id+" "+name)
		}
	}
	if err != nil && len(c.Bad) == 0 {
		return c, err
	}
	return c, nil
}

// Runs counts the runs of every workflow on the env's task queue, by
// workflow id (visibility is eventually consistent: it waits until it has
// seen at least want ids, up to 20 s).
func (s *Suite) Runs(ctx context.Context, e *Env, want int) (map[string]int, error) {
	var runs map[string]int
	err := poll(ctx, 20*time.Second, func() (bool, error) {
		runs = map[string]int{}
		var token []byte
		for {
			resp, err := s.Temporal.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
				Query: fmt.Sprintf("TaskQueue = '%s'", e.TaskQueue), NextPageToken: token, PageSize: 1000})
			if err != nil {
				return false, err
			}
			for _, ex := range resp.GetExecutions() {
				runs[ex.GetExecution().GetWorkflowId()]++
			}
			if token = resp.GetNextPageToken(); len(token) == 0 {
				break
			}
		}
		return len(runs) >= want, nil
	})
	return runs, err
}

// MaxAttempt is the highest attempt any activity of the workflow's latest
// run succeeded or failed on (1 when nothing was retried), with the
// activity's name: proof that a fault hit the run.
func (s *Suite) MaxAttempt(ctx context.Context, id string) (int32, string, error) {
	it := s.Temporal.GetWorkflowHistory(ctx, id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	names := map[int64]string{}
	var best int32
	var name string
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			return 0, "", err
		}
		if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil {
			names[ev.GetEventId()] = a.GetActivityType().GetName()
		}
		if a := ev.GetActivityTaskStartedEventAttributes(); a != nil && a.GetAttempt() > best {
			best, name = a.GetAttempt(), names[a.GetScheduledEventId()]
		}
	}
	return best, name, nil
}

// PendingActivities names the activities of the workflow's latest run
// that have been handed to a worker and not finished.
func (s *Suite) PendingActivities(ctx context.Context, id string) ([]string, error) {
	d, err := s.Temporal.DescribeWorkflowExecution(ctx, id, "")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, a := range d.GetPendingActivities() {
		if a.GetState() == enumspb.PENDING_ACTIVITY_STATE_STARTED {
			out = append(out, a.GetActivityType().GetName())
		}
	}
	// A local activity (SendEmail records its email with one) runs inside
	// a workflow task and is not listed: the open workflow task is where
	// the worker is.
	if len(out) == 0 && kindOf(id) == "SendEmail" && d.GetPendingWorkflowTask() != nil {
		out = append(out, "RecordEmail (a local activity)")
	}
	return out, nil
}

// kindOf is the workflow kind of an id ("email:..." → SendEmail).
func kindOf(id string) string {
	for prefix, kind := range map[string]string{
		workflows.SendEmailID(""): "SendEmail", "hiring-finalize:": "HiringFinalization", "rsvp-deadline:": "RsvpDeadline",
		"resume-cleanup:": "ResumeCleanup", "foundry:": "FoundryLaunch", "term-window:": "TermWindow",
		"headshot-cleanup:": "HeadshotCleanup",
	} {
		if strings.HasPrefix(id, prefix) {
			return kind
		}
	}
	return "other"
}
