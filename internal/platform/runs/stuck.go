package runs

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	historypb "go.temporal.io/api/history/v1"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
)

// StuckActivityAttempt is the attempt from which a running activity counts
// as stuck: three attempts have failed. (Activities retry without an
// attempt cap for up to a day, so without a look nothing says a run is
// not moving.)
const StuckActivityAttempt = 4

// ErrorTextMax bounds the last error reported for a problem, in runes.
const ErrorTextMax = 500

// Problem is why a running run is stuck.
type Problem struct {
	// Reason is "workflow_task" (its workflow task keeps failing: a bug or
	// a nondeterminism after a deploy) or "activity" (an activity has
	// failed three attempts or more and is being retried).
	Reason string
	// ActivityType is the activity's name, for Reason "activity".
	ActivityType string
	// Attempt is the attempt the task or activity is on.
	Attempt int32
	// LastError is the message of the last failure (ErrorTextMax runes at
	// most), "" when the server kept none.
	LastError string
	// LastFailedAt is when it last failed (zero when unknown).
	LastFailedAt time.Time
	// NextAttemptAt is when an activity is tried next (zero when unknown
	// or running now).
	NextAttemptAt time.Time
}

// Reasons of a Problem.
const (
	ReasonWorkflowTask = "workflow_task"
	ReasonActivity     = "activity"
)

// StuckRun is a running run of one of Kinds with at least one problem.
type StuckRun struct {
	WorkflowID string
	RunID      string
	Type       string
	Kind       string
	StartedAt  time.Time
	Problems   []Problem
}

// StuckReport is what ListStuck found: the stuck runs, oldest first, and
// how many running runs it looked at. Truncated is set when there were
// more running runs than it looks at (scanMax); the oldest are looked at
// first.
type StuckReport struct {
	Runs      []StuckRun
	Scanned   int
	Truncated bool
}

// How far ListStuck looks: at most scanMax running runs, described
// describeAtOnce at a time.
const (
	scanMax        = 500
	describeAtOnce = 8
)

// ListStuck looks at the running runs of hackdesk's kinds on taskQueue
// (this deployment's: another installation may share the namespace) and
// reports the stuck ones: a workflow task on its second attempt or later (its last
// failure read from the history), or an activity on attempt
// StuckActivityAttempt or later (with its last failure). A run that ends
// while it looks is left out. dc is the client's data converter: failures
// are recorded encoded (their message and stack trace encrypted), and the
// messages are read through it (nil: the SDK's default, for plaintext
// failures).
func ListStuck(ctx context.Context, c client.Client, dc converter.DataConverter, namespace, taskQueue string) (StuckReport, error) {
	if dc == nil {
		dc = converter.GetDefaultDataConverter()
	}
	var infos []*workflowpb.WorkflowExecutionInfo
	var rep StuckReport
	var token []byte
	for {
		resp, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
			PageSize: 100, NextPageToken: token, Query: runningQuery(taskQueue),
		})
		if err != nil {
			return rep, err
		}
		infos = append(infos, resp.GetExecutions()...)
		if token = resp.GetNextPageToken(); len(token) == 0 || len(infos) >= scanMax {
			rep.Truncated = len(token) > 0
			break
		}
	}
	// Oldest first: a run stuck longest matters most, and is looked at
	// when there are too many.
	slices.SortStableFunc(infos, func(a, b *workflowpb.WorkflowExecutionInfo) int {
		return a.GetStartTime().AsTime().Compare(b.GetStartTime().AsTime())
	})
	if len(infos) > scanMax {
		infos, rep.Truncated = infos[:scanMax], true
	}
	rep.Scanned = len(infos)
	found := make([]*StuckRun, len(infos))
	errs := make([]error, len(infos))
	sem := make(chan struct{}, describeAtOnce)
	var wg sync.WaitGroup
	for i, info := range infos {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			found[i], errs[i] = stuck(ctx, c, dc, namespace, info)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return StuckReport{}, err
	}
	for _, r := range found {
		if r != nil {
			rep.Runs = append(rep.Runs, *r)
		}
	}
	return rep, nil
}

// runningQuery is the visibility query of hackdesk's running runs on a
// task queue.
func runningQuery(taskQueue string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "ExecutionStatus = 'Running' AND TaskQueue = '%s' AND HackdeskKind IN (", strings.ReplaceAll(taskQueue, "'", ""))
	for i, k := range Kinds {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "'%s'", k)
	}
	b.WriteString(")")
	return b.String()
}

// stuck describes one running run and answers its problems (nil when it
// has none, or has ended since it was listed).
func stuck(ctx context.Context, c client.Client, dc converter.DataConverter, namespace string, info *workflowpb.WorkflowExecutionInfo) (*StuckRun, error) {
	ex := info.GetExecution()
	d, err := c.DescribeWorkflowExecution(ctx, ex.GetWorkflowId(), ex.GetRunId())
	if err != nil {
		return nil, fmt.Errorf("describe %s: %w", ex.GetWorkflowId(), err)
	}
	if d.GetWorkflowExecutionInfo().GetStatus() != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
		return nil, nil
	}
	var problems []Problem
	if wt := d.GetPendingWorkflowTask(); wt != nil && wt.GetAttempt() > 1 {
		p := Problem{Reason: ReasonWorkflowTask, Attempt: wt.GetAttempt()}
		p.LastError, p.LastFailedAt, err = lastTaskFailure(ctx, c, dc, namespace, ex)
		if err != nil {
			return nil, err
		}
		problems = append(problems, p)
	}
	for _, a := range d.GetPendingActivities() {
		if a.GetAttempt() < StuckActivityAttempt {
			continue
		}
		p := Problem{Reason: ReasonActivity, ActivityType: a.GetActivityType().GetName(), Attempt: a.GetAttempt(),
			LastError: clipText(failureMessage(dc, a.GetLastFailure()))}
		if t := a.GetLastAttemptCompleteTime(); t != nil {
			p.LastFailedAt = t.AsTime()
		}
		if t := a.GetNextAttemptScheduleTime(); t != nil {
			p.NextAttemptAt = t.AsTime()
		}
		problems = append(problems, p)
	}
	if len(problems) == 0 {
		return nil, nil
	}
	r := runOf(info)
	return &StuckRun{WorkflowID: r.WorkflowID, RunID: r.RunID, Type: r.Type, Kind: r.Kind,
		StartedAt: info.GetStartTime().AsTime(), Problems: problems}, nil
}

// lastTaskFailure is the message and time of the newest failed (or timed
// out) workflow task in a run's history, read newest first. Only the
// first failure of a streak is in the history (the retries of a failing
// task are not written down), so its message is that one's.
func lastTaskFailure(ctx context.Context, c client.Client, dc converter.DataConverter, namespace string, ex *commonpb.WorkflowExecution) (string, time.Time, error) {
	var token []byte
	for page := 0; page < 5; page++ {
		resp, err := c.WorkflowService().GetWorkflowExecutionHistoryReverse(ctx, &workflowservice.GetWorkflowExecutionHistoryReverseRequest{
			Namespace:       namespace,
			Execution:       &commonpb.WorkflowExecution{WorkflowId: ex.GetWorkflowId(), RunId: ex.GetRunId()},
			MaximumPageSize: 50, NextPageToken: token,
		})
		if err != nil {
			return "", time.Time{}, fmt.Errorf("history of %s: %w", ex.GetWorkflowId(), err)
		}
		for _, ev := range resp.GetHistory().GetEvents() {
			if msg, ok := taskFailure(dc, ev); ok {
				return clipText(msg), ev.GetEventTime().AsTime(), nil
			}
		}
		if token = resp.GetNextPageToken(); len(token) == 0 {
			break
		}
	}
	return "", time.Time{}, nil
}

func taskFailure(dc converter.DataConverter, ev *historypb.HistoryEvent) (string, bool) {
	if a := ev.GetWorkflowTaskFailedEventAttributes(); a != nil {
		return failureMessage(dc, a.GetFailure()), true
	}
	if a := ev.GetWorkflowTaskTimedOutEventAttributes(); a != nil {
		return "workflow task timed out (" + strings.ToLower(strings.TrimPrefix(a.GetTimeoutType().String(), "TIMEOUT_TYPE_")) + ")", true
	}
	return "", false
}

// failureMessage is a recorded failure's message, decoded when the failure
// converter encoded it ("Encoded failure" otherwise stands in its place).
// The failure is not changed.
func failureMessage(dc converter.DataConverter, f *failurepb.Failure) string {
	if f == nil {
		return ""
	}
	if f.GetEncodedAttributes() == nil {
		return f.GetMessage()
	}
	g := &failurepb.Failure{Message: f.GetMessage(), EncodedAttributes: f.GetEncodedAttributes()}
	converter.DecodeCommonFailureAttributes(dc, g)
	return g.GetMessage()
}

// clipText cuts s to ErrorTextMax runes.
func clipText(s string) string {
	if utf8.RuneCountInString(s) <= ErrorTextMax {
		return s
	}
	r := []rune(s)
	return string(r[:ErrorTextMax-1]) + "…"
}
