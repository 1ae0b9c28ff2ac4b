package main

import (
	"context"
	"fmt"
	"time"

	"go.temporal.io/sdk/workflow"

	"hackdesk/worker"
	"hackdesk/workflows"
)

// noopQueue is the task queue of the bench's own worker, which runs the
// no-op workflow the SendEmail figure is measured against.
const noopQueue = "hackdesk-bench-noop"

// benchNoop does nothing: the cost of a workflow run itself (start,
// one workflow task, completion, search attributes and summary) on this
// stack.
func benchNoop(workflow.Context, workflows.SendEmailInput) (workflows.SendEmailResult, error) {
	return workflows.SendEmailResult{Status: "sent"}, nil
}

// workflowsVsNoop runs the no-op workflow and SendEmail workflowCount
// times each, workflowInFlight in flight, started and awaited the same
// way, in sixteen alternating blocks (no-op, SendEmail, SendEmail, no-op,
// ...) so that a machine getting busier or quieter meanwhile weighs on
// both; it answers
// SendEmail's p95 and its ratio to the no-op's. The no-op runs on a worker
// with hackdesk's worker options (worker.New) on a queue of its own.
func (b *bench) workflowsVsNoop(ctx context.Context) (sendP95, ratio float64, err error) {
	o := worker.Options{TaskQueue: noopQueue, BuildID: b.a.Config.BuildID}
	w := worker.New(b.a.Temporal, o, b.a.Activities())
	w.RegisterWorkflowWithOptions(benchNoop, workflow.RegisterOptions{Name: "BenchNoop",
		VersioningBehavior: workflow.VersioningBehaviorPinned})
	if err := w.Start(); err != nil {
		return 0, 0, err
	}
	defer w.Stop()
	if _, err := worker.TakeCurrent(ctx, b.a.Temporal, o.Version(), o.Queues()[:1]); err != nil {
		return 0, 0, err
	}
	noopRequest := func(in workflows.SendEmailInput) workflows.Request {
		r := workflows.SendEmailRequest(in)
		r.ID, r.Type, r.TaskQueue = "bench-noop:"+in.Key, "BenchNoop", noopQueue
		return r
	}
	var (
		noop, send         []time.Duration
		noopTook, sendTook time.Duration
		block              = workflowCount / 8
	)
	say("workflows: %d no-op and %d SendEmail in blocks of %d, %d in flight...", workflowCount, workflowCount, block, workflowInFlight)
	for i := range 16 {
		request, lat, total := noopRequest, &noop, &noopTook
		if i%4 == 1 || i%4 == 2 {
			request, lat, total = workflows.SendEmailRequest, &send, &sendTook
		}
		l, took, err := b.runWorkflows(ctx, i*block, block, request)
		if err != nil {
			return 0, 0, err
		}
		*lat, *total = append(*lat, l...), *total+took
	}
	rate := func(n int, took time.Duration) string { return fmt.Sprintf("%.0f", float64(n)/took.Seconds()) }
	b.add(fmt.Sprintf("no-op workflows: completed/s (%d, %d in flight)", workflowCount, workflowInFlight), rate(len(noop), noopTook))
	b.add("no-op start → complete p50 / p95", fmt.Sprintf("%.0f ms / %.0f ms", ms(percentile(noop, 0.5)), ms(percentile(noop, 0.95))))
	b.add(fmt.Sprintf("SendEmail workflows: completed/s (%d, %d in flight)", workflowCount, workflowInFlight), rate(len(send), sendTook))
	b.add("SendEmail start → complete p50 / p95", fmt.Sprintf("%.0f ms / %.0f ms", ms(percentile(send, 0.5)), ms(percentile(send, 0.95))))
	b.noopPerS = float64(len(noop)) / noopTook.Seconds()
	sendP95 = ms(percentile(send, 0.95))
	ratio = sendP95 / ms(percentile(noop, 0.95))
	b.add("SendEmail p95 vs no-op p95", fmt.Sprintf("%.2f", ratio))
	return sendP95, ratio, nil
}
