// Package worker registers every workflow and activity on the task queue.
package worker

import (
	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"

	"hackdesk/activities"
	"hackdesk/workflows"
)

// New returns a worker for taskQueue with every workflow and activity
// registered. The caller starts and stops it.
func New(c client.Client, taskQueue string, acts *activities.Activities) sdkworker.Worker {
	// More pollers than the SDK's default of two keep tasks flowing when
	// many short workflows (emails) run at once.
	w := sdkworker.New(c, taskQueue, sdkworker.Options{
		MaxConcurrentWorkflowTaskPollers: 8,
		MaxConcurrentActivityTaskPollers: 8,
	})
	Register(w, acts)
	return w
}

// Register adds hackdesk's workflows and activities to any registry (a
// worker, a replayer or a test environment).
func Register(r sdkworker.Registry, acts *activities.Activities) {
	RegisterWorkflows(r)
	r.RegisterActivity(acts)
}

// RegisterWorkflows adds only the workflows (enough for replay).
func RegisterWorkflows(r sdkworker.WorkflowRegistry) {
	r.RegisterWorkflow(workflows.SendEmail)
	r.RegisterWorkflow(workflows.ResumeCleanup)
	r.RegisterWorkflow(workflows.RsvpDeadline)
}
