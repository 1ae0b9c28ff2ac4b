package workflows

import (
	"errors"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"hackdesk/activities"
)

// The recurring workflows, each started by a Temporal Schedule (package
// schedules) rather than by a request.

// scheduledOptions: a scheduled job is small and the next run comes in
// minutes, so a failing one gives up well before then instead of
// retrying for a day (the schedule skips a start while one still runs).
var scheduledOptions = workflow.ActivityOptions{
	StartToCloseTimeout:    time.Minute,
	ScheduleToCloseTimeout: 5 * time.Minute,
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval:    time.Second,
		BackoffCoefficient: 2,
		MaximumInterval:    30 * time.Second,
	},
}

// sweepOptions: the sweep's activities delete in batches and heartbeat
// after each (activities.SweepActivities), so one that has stopped making
// progress is noticed within the heartbeat timeout, while one working
// through a large backlog may run for minutes. Each attempt keeps what it
// deleted; the whole stays under the schedule's interval.
var sweepOptions = workflow.ActivityOptions{
	StartToCloseTimeout:    5 * time.Minute,
	HeartbeatTimeout:       time.Minute,
	ScheduleToCloseTimeout: 9 * time.Minute,
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval:    time.Second,
		BackoffCoefficient: 2,
		MaximumInterval:    30 * time.Second,
	},
}

// SweepResult is how many expired rows each activity deleted.
type SweepResult struct {
	WebhookTokens   int64
	IdempotencyKeys int64
	RateLimits      int64
}

// Sweep deletes expired rows: the membership webhook's replay tokens,
// idempotency keys and rate-limit counters. The three run side by side;
// each that fails is retried alone, and the run fails (to be tried again
// at the next schedule) only when one gives up. The progress query
// answers what is left.
func Sweep(ctx workflow.Context) (SweepResult, error) {
	var res SweepResult
	progress := "sweeping"
	if err := workflow.SetQueryHandler(ctx, ProgressQuery, func() (string, error) { return progress, nil }); err != nil {
		return res, err
	}
	ctx = workflow.WithActivityOptions(ctx, sweepOptions)
	var a *activities.SweepActivities
	tokens := workflow.ExecuteActivity(ctx, a.SweepWebhookTokens)
	keys := workflow.ExecuteActivity(ctx, a.SweepIdempotencyKeys)
	limits := workflow.ExecuteActivity(ctx, a.SweepRateLimits)
	err := errors.Join(tokens.Get(ctx, &res.WebhookTokens), keys.Get(ctx, &res.IdempotencyKeys), limits.Get(ctx, &res.RateLimits))
	if err != nil {
		progress = "failed"
		return res, err
	}
	progress = "done"
	workflow.GetLogger(ctx).Info("expired rows deleted", "webhook_tokens", res.WebhookTokens,
		"idempotency_keys", res.IdempotencyKeys, "rate_limits", res.RateLimits)
	return res, nil
}

// TermReconcileInput is what the TermWindow runs it starts need beyond
// the term. PublicURL, the site's address for the emails' links, was the
// defining worker's own until each term's came from the term's start
// (activities.FutureWindowTerm.PublicURL); it is still read for a term
// that has none.
type TermReconcileInput struct {
	PublicURL string
}

// TermReconcileResult lists the terms looked at and those whose TermWindow
// run was missing and has been started; then the same for the hackathon
// editions and their ApplicationWindow runs.
type TermReconcileResult struct {
	Terms   int
	Started []string // term ids
	// Since reconcileApplicationWindows.
	Hackathons        int
	StartedHackathons []string // hackathon ids
}

// reconcileApplicationWindows is the change that made TermReconcile also
// restart the missing ApplicationWindow run of each edition with its
// window ahead. Runs started before it reconcile terms only.
const reconcileApplicationWindows = "reconcile-application-windows"

// TermReconcile (re)starts the TermWindow workflow of every term with a
// form window yet to close that has no running run: one whose start was
// never made, or whose run failed or was terminated; then, likewise, the
// ApplicationWindow workflow of every hackathon edition whose opening or
// close is ahead. Each is started as an abandoned child under its
// business-key ID, as the outbox would start it; one whose run is running
// is left alone (the start is refused as already started), so running the
// reconciler again starts nothing new.
func TermReconcile(ctx workflow.Context, in TermReconcileInput) (TermReconcileResult, error) {
	var res TermReconcileResult
	progress := "listing terms"
	if err := workflow.SetQueryHandler(ctx, ProgressQuery, func() (string, error) { return progress, nil }); err != nil {
		return res, err
	}
	var a *activities.TermActivities
	var terms []activities.FutureWindowTerm
	if err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, scheduledOptions), a.TermsWithFutureWindows).Get(ctx, &terms); err != nil {
		progress = "failed"
		return res, err
	}
	res.Terms = len(terms)
	progress = "starting missing term windows"
	futures := make([]workflow.ChildWorkflowFuture, len(terms))
	for i, t := range terms {
		url := t.PublicURL
		if url == "" {
			url = in.PublicURL
		}
		req := TermWindowRequest(TermWindowInput{TermID: t.TermID, TermName: t.TermName, PublicURL: url, Windows: t.Windows})
		cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
			WorkflowID:        req.ID,
			ParentClosePolicy: enumspb.PARENT_CLOSE_POLICY_ABANDON,
			// A run that ended (failed, terminated) while a window is
			// still ahead is started afresh; a running one refuses.
			WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
			TypedSearchAttributes: req.SearchAttributes(),
			StaticSummary:         req.Summary,
		})
		futures[i] = workflow.ExecuteChildWorkflow(cctx, TermWindow, req.Input)
	}
	for i, f := range futures {
		err := f.GetChildWorkflowExecution().Get(ctx, nil)
		var running *temporal.ChildWorkflowExecutionAlreadyStartedError
		switch {
		case errors.As(err, &running):
		case err != nil:
			progress = "failed"
			return res, err
		default:
			res.Started = append(res.Started, terms[i].TermID.String())
		}
	}
	if len(res.Started) > 0 {
		workflow.GetLogger(ctx).Info("term windows restarted", "terms", res.Started)
	}
	if workflow.GetVersion(ctx, reconcileApplicationWindows, workflow.DefaultVersion, 1) >= 1 {
		if err := reconcileApplicationWindowRuns(ctx, in, &res); err != nil {
			progress = "failed"
			return res, err
		}
		if len(res.StartedHackathons) > 0 {
			workflow.GetLogger(ctx).Info("application windows restarted", "hackathons", res.StartedHackathons)
		}
	}
	progress = "done"
	return res, nil
}

// reconcileApplicationWindowRuns starts the missing ApplicationWindow run
// of each edition whose window is ahead, as TermReconcile does for terms.
func reconcileApplicationWindowRuns(ctx workflow.Context, in TermReconcileInput, res *TermReconcileResult) error {
	var a *activities.HackathonActivities
	var editions []activities.FutureApplicationWindow
	if err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, sweepOptions), a.HackathonsWithFutureWindows).Get(ctx, &editions); err != nil {
		return err
	}
	res.Hackathons = len(editions)
	futures := make([]workflow.ChildWorkflowFuture, len(editions))
	for i, e := range editions {
		url := e.PublicURL
		if url == "" {
			url = in.PublicURL
		}
		req := ApplicationWindowRequest(ApplicationWindowInput{HackathonID: e.HackathonID, PublicURL: url, Dates: e.Dates})
		cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
			WorkflowID:            req.ID,
			ParentClosePolicy:     enumspb.PARENT_CLOSE_POLICY_ABANDON,
			WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
			TypedSearchAttributes: req.SearchAttributes(),
			StaticSummary:         req.Summary,
		})
		futures[i] = workflow.ExecuteChildWorkflow(cctx, ApplicationWindow, req.Input)
	}
	for i, f := range futures {
		err := f.GetChildWorkflowExecution().Get(ctx, nil)
		var running *temporal.ChildWorkflowExecutionAlreadyStartedError
		switch {
		case errors.As(err, &running):
		case err != nil:
			return err
		default:
			res.StartedHackathons = append(res.StartedHackathons, editions[i].HackathonID.String())
		}
	}
	return nil
}
