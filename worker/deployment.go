package worker

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"

	"hackdesk/workflows"
)

// Queue is a task queue a version's workers poll, and for what.
type Queue struct {
	Name string
	Type client.TaskQueueType
}

// Queues are the task queues New and NewBroadcast poll for o: the
// workflows and activities of o.TaskQueue, the broadcast batches of its
// broadcast queue.
func (o Options) Queues() []Queue {
	return []Queue{
		{o.TaskQueue, client.TaskQueueTypeWorkflow},
		{workflows.BroadcastTaskQueue(o.TaskQueue), client.TaskQueueTypeActivity},
	}
}

// Routing is what TakeCurrent found of a deployment's routing.
type Routing struct {
	// Current is the current version's build id; "" when no version is
	// current (new runs go to unversioned workers).
	Current string
	// Ramping is the ramping version's build id, if any.
	Ramping string
	// Made is true when TakeCurrent made v current.
	Made bool
}

// TakeCurrent makes version v of its deployment current when no version is
// current or ramping (a first deploy), and answers what it found. It first waits until v is registered with each of queues
// (a worker of v has polled them), which takes the server a moment after
// the workers start; ctx bounds the wait. A routing that another worker
// changes meanwhile is looked at again (the conflict token), so workers
// starting together make one version current.
func TakeCurrent(ctx context.Context, c client.Client, v sdkworker.WorkerDeploymentVersion, queues []Queue) (Routing, error) {
	h := c.WorkerDeploymentClient().GetHandle(v.DeploymentName)
	for {
		d, err := h.Describe(ctx, client.WorkerDeploymentDescribeOptions{})
		var notFound *serviceerror.NotFound
		switch {
		case errors.As(err, &notFound):
			// The deployment exists once a worker of it has polled.
		case err != nil:
			return Routing{}, fmt.Errorf("describe worker deployment %s: %w", v.DeploymentName, err)
		default:
			r := routingOf(d.Info.RoutingConfig)
			if r.Current != "" || r.Ramping != "" {
				return r, nil
			}
			ready, err := registered(ctx, h, v.BuildID, queues)
			if err != nil {
				return r, err
			}
			if ready {
				_, err := h.SetCurrentVersion(ctx, client.WorkerDeploymentSetCurrentVersionOptions{
					BuildID: v.BuildID, ConflictToken: d.ConflictToken})
				var changed *serviceerror.FailedPrecondition
				switch {
				case err == nil:
					r.Current, r.Made = v.BuildID, true
					if r.Ramping == v.BuildID {
						r.Ramping = ""
					}
					return r, nil
				case errors.As(err, &changed):
					continue // another worker changed the routing: look again
				default:
					return r, fmt.Errorf("set current version %s of %s: %w", v.BuildID, v.DeploymentName, err)
				}
			}
		}
		select {
		case <-ctx.Done():
			return Routing{}, fmt.Errorf("version %s of %s not registered: %w", v.BuildID, v.DeploymentName, ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func routingOf(rc client.WorkerDeploymentRoutingConfig) Routing {
	var r Routing
	if rc.CurrentVersion != nil {
		r.Current = rc.CurrentVersion.BuildID
	}
	if rc.RampingVersion != nil {
		r.Ramping = rc.RampingVersion.BuildID
	}
	return r
}

// registered reports whether buildID has been registered with every one
// of queues.
func registered(ctx context.Context, h client.WorkerDeploymentHandle, buildID string, queues []Queue) (bool, error) {
	d, err := h.DescribeVersion(ctx, client.WorkerDeploymentDescribeVersionOptions{BuildID: buildID})
	var notFound *serviceerror.NotFound
	if errors.As(err, &notFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("describe version %s: %w", buildID, err)
	}
	have := map[Queue]bool{}
	for _, tq := range d.Info.TaskQueuesInfos {
		have[Queue{tq.Name, tq.Type}] = true
	}
	for _, q := range queues {
		if !have[q] {
			return false, nil
		}
	}
	return true, nil
}
