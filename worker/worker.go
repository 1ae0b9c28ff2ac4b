// Package worker registers every workflow and activity on the task queue,
// as a version of hackdesk's Worker Deployment.
package worker

import (
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/interceptor"
	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"hackdesk/activities"
	"hackdesk/workflows"
)

// StopTimeout is how long a stopping worker waits for running activities
// before cancelling them (their bookkeeping then still runs: see
// app.App.Close).
const StopTimeout = 30 * time.Second

// Options configure the workers of one process.
type Options struct {
	// TaskQueue is TEMPORAL_TASK_QUEUE; it also names the Worker
	// Deployment (DeploymentName).
	TaskQueue string
	// BuildID is the binary's build id (package version): the workers
	// register as this version of the deployment.
	BuildID string
	// StopTimeout overrides StopTimeout when set (tests).
	StopTimeout time.Duration
	// Interceptors run after activities.Interceptors (the app's count of
	// running activities).
	Interceptors []interceptor.WorkerInterceptor
}

func (o Options) stopTimeout() time.Duration {
	if o.StopTimeout > 0 {
		return o.StopTimeout
	}
	return StopTimeout
}

func (o Options) interceptors() []interceptor.WorkerInterceptor {
	return append(activities.Interceptors(), o.Interceptors...)
}

// DeploymentName is the Worker Deployment of a task queue: named after it,
// so two installations sharing a namespace on different queues roll out
// apart.
func DeploymentName(taskQueue string) string { return taskQueue }

// Version is the Worker Deployment version the workers of o register.
func (o Options) Version() sdkworker.WorkerDeploymentVersion {
	return sdkworker.WorkerDeploymentVersion{DeploymentName: DeploymentName(o.TaskQueue), BuildID: o.BuildID}
}

// deployment turns Worker Versioning on: each workflow type declares its
// behaviour when registered (RegisterWorkflows), so there is no default.
func (o Options) deployment() sdkworker.DeploymentOptions {
	return sdkworker.DeploymentOptions{UseVersioning: true, Version: o.Version()}
}

// New returns a worker for o.TaskQueue with every workflow and activity
// registered. The caller starts and stops it.
func New(c client.Client, o Options, acts activities.Set) sdkworker.Worker {
	// More pollers than the SDK's default of two keep tasks flowing when
	// many short workflows (emails) run at once.
	w := sdkworker.New(c, o.TaskQueue, sdkworker.Options{
		MaxConcurrentWorkflowTaskPollers: 8,
		MaxConcurrentActivityTaskPollers: 8,
		// On shutdown, running activities get this long to finish before
		// their contexts are cancelled; an email handed to the driver is
		// then still written down (activities.DeliverEmail).
		WorkerStopTimeout: o.stopTimeout(),
		// Permanent database errors are not retried (activities.Classify).
		Interceptors:      o.interceptors(),
		DeploymentOptions: o.deployment(),
	})
	Register(w, acts)
	return w
}

// NewBroadcast returns the worker of the broadcast task queue of
// o.TaskQueue (workflows.BroadcastTaskQueue): no workflows, only the
// broadcast activities, whose dispatch the Temporal server limits for the
// whole queue (every worker of it) to rate emails a second. It is the same
// deployment version as New's, so a Broadcast run's batches go to workers
// of the build the run is on. The caller starts and stops it.
func NewBroadcast(c client.Client, o Options, acts *activities.BroadcastActivities, rate float64) sdkworker.Worker {
	w := sdkworker.New(c, workflows.BroadcastTaskQueue(o.TaskQueue), sdkworker.Options{
		DisableWorkflowWorker:        true,
		TaskQueueActivitiesPerSecond: BroadcastBatchesPerSecond(rate),
		WorkerStopTimeout:            o.stopTimeout(),
		Interceptors:                 o.interceptors(),
		DeploymentOptions:            o.deployment(),
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

// Workflows are every workflow type the worker runs, by name.
var Workflows = []struct {
	Name string
	Fn   any
}{
	{"SendEmail", workflows.SendEmail},
	{"ResumeCleanup", workflows.ResumeCleanup},
	{"RsvpDeadline", workflows.RsvpDeadline},
	{"HiringFinalization", workflows.HiringFinalization},
	{"FoundryLaunch", workflows.FoundryLaunch},
	{"TermWindow", workflows.TermWindow},
	{"HeadshotCleanup", workflows.HeadshotCleanup},
	{"Broadcast", workflows.Broadcast},
	{"ReceiptProcessing", workflows.ReceiptProcessing},
	{"Sweep", workflows.Sweep},
	{"TermReconcile", workflows.TermReconcile},
	{"ApplicationWindow", workflows.ApplicationWindow},
	{"AccountErasure", workflows.AccountErasure},
	{"Retention", workflows.Retention},
	{"EventDay", workflows.EventDay},
}

// RegisterWorkflows adds only the workflows (enough for replay), each with
// its versioning behaviour (workflows.VersioningBehavior): pinned to the
// build that started it, or auto-upgrading.
func RegisterWorkflows(r sdkworker.WorkflowRegistry) {
	for _, w := range Workflows {
		r.RegisterWorkflowWithOptions(w.Fn, workflow.RegisterOptions{Name: w.Name,
			VersioningBehavior: workflows.VersioningBehavior(w.Name)})
	}
}
