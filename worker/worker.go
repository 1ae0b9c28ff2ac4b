// Package worker registers every workflow and activity on the task queue.
package worker

import (
	"time"

	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"

	"hackdesk/activities"
	"hackdesk/workflows"
)

// StopTimeout is how long a stopping worker waits for running activities.
const StopTimeout = 30 * time.Second

// New returns a worker for taskQueue with every workflow and activity
// registered. The caller starts and stops it.
func New(c client.Client, taskQueue string, acts activities.Set) sdkworker.Worker {
	// More pollers than the SDK's default of two keep tasks flowing when
	// many short workflows (emails) run at once.
	w := sdkworker.New(c, taskQueue, sdkworker.Options{
		MaxConcurrentWorkflowTaskPollers: 8,
		MaxConcurrentActivityTaskPollers: 8,
		// On shutdown, running activities get this long to finish before
		// their contexts are cancelled; an email handed to the driver is
		// then still written down (activities.DeliverEmail).
		WorkerStopTimeout: StopTimeout,
		// Permanent database errors are not retried (activities.Classify).
		Interceptors: activities.Interceptors(),
	})
	Register(w, acts)
	return w
}

// NewBroadcast returns the worker of the broadcast task queue of
// taskQueue (workflows.BroadcastTaskQueue): no workflows, only the
// broadcast activities, whose dispatch the Temporal server limits for the
// whole queue (every worker of it) to rate emails a second. The caller
// starts and stops it.
func NewBroadcast(c client.Client, taskQueue string, acts *activities.BroadcastActivities, rate float64) sdkworker.Worker {
	w := sdkworker.New(c, workflows.BroadcastTaskQueue(taskQueue), sdkworker.Options{
		DisableWorkflowWorker:        true,
		TaskQueueActivitiesPerSecond: BroadcastBatchesPerSecond(rate),
		WorkerStopTimeout:            StopTimeout,
		Interceptors:                 activities.Interceptors(),
	})
	w.RegisterActivity(acts)
	return w
}

// BroadcastBatchesPerSecond is the broadcast queue's dispatch rate for
// BROADCAST_RATE emails a second: each activity sends a batch of
// workflows.BroadcastBatchSize emails.
func BroadcastBatchesPerSecond(rate float64) float64 {
	return rate / workflows.BroadcastBatchSize
}

// Register adds hackdesk's workflows and activities to any registry (a
// worker, a replayer or a test environment).
func Register(r sdkworker.Registry, acts activities.Set) {
	RegisterWorkflows(r)
	for _, a := range acts.All() {
		r.RegisterActivity(a)
	}
}

// RegisterWorkflows adds only the workflows (enough for replay).
func RegisterWorkflows(r sdkworker.WorkflowRegistry) {
	r.RegisterWorkflow(workflows.SendEmail)
	r.RegisterWorkflow(workflows.ResumeCleanup)
	r.RegisterWorkflow(workflows.RsvpDeadline)
	r.RegisterWorkflow(workflows.HiringFinalization)
	r.RegisterWorkflow(workflows.FoundryLaunch)
	r.RegisterWorkflow(workflows.TermWindow)
	r.RegisterWorkflow(workflows.HeadshotCleanup)
	r.RegisterWorkflow(workflows.Broadcast)
	r.RegisterWorkflow(workflows.ReceiptProcessing)
	r.RegisterWorkflow(workflows.Sweep)
	r.RegisterWorkflow(workflows.TermReconcile)
	r.RegisterWorkflow(workflows.ApplicationWindow)
	r.RegisterWorkflow(workflows.AccountErasure)
	r.RegisterWorkflow(workflows.Retention)
}
