// Package workflows holds hackdesk's Temporal workflow definitions. They are
// deterministic: every side effect goes through an activity, and IDs come
// from business keys through one helper per workflow.
package workflows

import (
	"slices"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// TaskQueue is the default task queue shared by the worker and every
// caller that starts a workflow (TEMPORAL_TASK_QUEUE overrides it).
const TaskQueue = "hackdesk"

// ProgressQuery is the query name every workflow answers with its progress.
const ProgressQuery = "progress"

// Retry policies by kind of activity. Neither has an attempt cap: a
// workflow waiting on an outage (PostgreSQL down at an RSVP deadline, the
// mail provider unreachable) keeps retrying with backoff until the outage
// ends, bounded by the schedule-to-close timeout. Permanent failures are
// non-retryable application errors and end the activity at once.
var (
	// storeOptions are for activities that only read and write the
	// database.
	storeOptions = workflow.ActivityOptions{
		StartToCloseTimeout:    30 * time.Second,
		ScheduleToCloseTimeout: 24 * time.Hour,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:    time.Second,
			BackoffCoefficient: 2,
			MaximumInterval:    time.Minute,
		},
	}
	// providerOptions are for activities that call an outside provider
	// (the mail driver, the object store) besides the database.
	providerOptions = workflow.ActivityOptions{
		StartToCloseTimeout:    time.Minute,
		ScheduleToCloseTimeout: 24 * time.Hour,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:    2 * time.Second,
			BackoffCoefficient: 2,
			MaximumInterval:    5 * time.Minute,
		},
	}
)

func storeActivity(ctx workflow.Context, nonRetryable ...string) workflow.Context {
	return withOptions(ctx, storeOptions, nonRetryable)
}

func providerActivity(ctx workflow.Context, nonRetryable ...string) workflow.Context {
	return withOptions(ctx, providerOptions, nonRetryable)
}

func withOptions(ctx workflow.Context, o workflow.ActivityOptions, nonRetryable []string) workflow.Context {
	rp := *o.RetryPolicy
	rp.NonRetryableErrorTypes = nonRetryable
	o.RetryPolicy = &rp
	return workflow.WithActivityOptions(ctx, o)
}

// AutoUpgrade are the workflow types that move to a new build when it is
// made current (Worker Versioning's auto-upgrade): the long-running ones,
// which wait days or months and would otherwise hold their build's workers
// up that long. Their changes go behind workflow.GetVersion, and a release
// that adds a marker to one cannot be rolled back past once a run has
// recorded it (docs/operations.md, "Releases"). Every other type is pinned
// to the build that started it and needs no marker. A new long-running
// workflow is one more line here.
var AutoUpgrade = []string{
	"TermWindow",        // from a term's creation to its last window's close: months
	"RsvpDeadline",      // from the offers to the RSVP deadline: days
	"ApplicationWindow", // from an edition's creation to its close: months
	"AccountErasure",    // from a deletion request through its grace period: a week
	"EventDay",          // from an edition's dates to a day after its end: months
}

// VersioningBehavior is how runs of a workflow type follow builds:
// auto-upgrade for AutoUpgrade, else pinned.
func VersioningBehavior(workflowType string) workflow.VersioningBehavior {
	if slices.Contains(AutoUpgrade, workflowType) {
		return workflow.VersioningBehaviorAutoUpgrade
	}
	return workflow.VersioningBehaviorPinned
}
