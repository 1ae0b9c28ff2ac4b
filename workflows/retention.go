package workflows

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"hackdesk/activities"
	"hackdesk/internal/feature/privacy"
)

// RetentionResult is what one run purged, by kind.
type RetentionResult = privacy.Purged

// retentionOptions: each purge activity works for a bounded slice and
// heartbeats; a failing one retries for an hour, then the run fails and
// the next day's run takes over (the purges are by age: nothing is lost).
var retentionOptions = workflow.ActivityOptions{
	StartToCloseTimeout:    2 * time.Minute,
	HeartbeatTimeout:       time.Minute,
	ScheduleToCloseTimeout: time.Hour,
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval:    2 * time.Second,
		BackoffCoefficient: 2,
		MaximumInterval:    time.Minute,
	},
}

// Retention purges what is past its retention (the hackdesk-retention
// schedule, daily): applications of editions that ended RETENTION_DAYS ago
// (résumés deleted, identifying fields stripped, what the dashboard and
// leaderboard read kept), onboarding submissions and headshots of terms
// that ended RETENTION_DAYS ago, email bodies and addresses after 90 days,
// settled raw receipts after 90 days, started outbox inputs after 7 days,
// access-log rows after a year, spent sessions and tokens at once; then it
// records what it purged for the operator page. The progress query
// answers the step under way.
func Retention(ctx workflow.Context) (RetentionResult, error) {
	var res RetentionResult
	progress := "purging applications"
	if err := workflow.SetQueryHandler(ctx, ProgressQuery, func() (string, error) { return progress, nil }); err != nil {
		return res, err
	}
	ctx = workflow.WithActivityOptions(ctx, retentionOptions)
	var a *activities.RetentionActivities
	for more := true; more; {
		var b activities.RetentionBatch
		if err := workflow.ExecuteActivity(ctx, a.PurgeApplications).Get(ctx, &b); err != nil {
			return res, err
		}
		res.Applications += b.Rows
		res.Resumes += b.Objects
		more = b.More
	}
	progress = "purging onboarding submissions"
	for more := true; more; {
		var b activities.RetentionBatch
		if err := workflow.ExecuteActivity(ctx, a.PurgeSubmissions).Get(ctx, &b); err != nil {
			return res, err
		}
		res.Submissions += b.Rows
		res.Headshots += b.Objects
		more = b.More
	}
	progress = "purging emails, receipts, outbox inputs, the access log, sessions and tokens"
	var r RetentionResult
	if err := workflow.ExecuteActivity(ctx, a.PurgeRecords).Get(ctx, &r); err != nil {
		return res, err
	}
	res.Emails, res.Receipts, res.OutboxInputs, res.AccessLog = r.Emails, r.Receipts, r.OutboxInputs, r.AccessLog
	res.Sessions, res.Tokens = r.Sessions, r.Tokens
	progress = "recording"
	info := workflow.GetInfo(ctx)
	if err := workflow.ExecuteActivity(ctx, a.RecordRetentionRun, activities.RecordRetentionInput{
		WorkflowID: info.WorkflowExecution.ID, StartedAt: info.WorkflowStartTime, Purged: res}).Get(ctx, nil); err != nil {
		return res, err
	}
	progress = "done"
	workflow.GetLogger(ctx).Info("retention run", "applications", res.Applications, "resumes", res.Resumes,
		"submissions", res.Submissions, "emails", res.Emails, "receipts", res.Receipts,
		"outbox_inputs", res.OutboxInputs, "access_log", res.AccessLog, "sessions", res.Sessions)
	return res, nil
}
