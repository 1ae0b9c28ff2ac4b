// Package workflows holds hackdesk's Temporal workflow definitions. They are
// deterministic: every side effect goes through an activity, and IDs come
// from business keys through one helper per workflow.
package workflows

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// TaskQueue is the default task queue shared by the worker and every
// caller that starts a workflow (TEMPORAL_TASK_QUEUE overrides it).
const TaskQueue = "hackdesk"

// ProgressQuery is the query name every workflow answers with its progress.
const ProgressQuery = "progress"

// shortActivity is the options for quick database or provider calls.
func shortActivity(ctx workflow.Context, nonRetryable ...string) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:        time.Second,
			BackoffCoefficient:     2,
			MaximumInterval:        time.Minute,
			MaximumAttempts:        20,
			NonRetryableErrorTypes: nonRetryable,
		},
	})
}
