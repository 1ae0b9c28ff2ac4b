package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"

	"hackdesk/worker"
	"hackdesk/workflows"
)

// plainQueue is the task queue of the bench's worker without the payload
// codec.
const plainQueue = "hackdesk-bench-plain"

// codecOverhead measures what encrypting every payload costs SendEmail: it
// runs SendEmail workflowCount times through the app's client (the
// AES-256-GCM codec, on the app's worker) and workflowCount times through a
// client without the codec on a worker of its own (worker.New, the same
// activities), workflowInFlight in flight, in sixteen alternating blocks
// (encrypted, plain, plain, encrypted, ...) so that the machine's load
// weighs on both alike. It answers the encrypted p95 and its ratio to the
// plain one's.
func (b *bench) codecOverhead(ctx context.Context) (codecP95, ratio float64, err error) {
	plain, err := client.DialContext(ctx, client.Options{HostPort: b.cfg.TemporalAddress, Namespace: b.cfg.TemporalNamespace,
		Logger: sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler))})
	if err != nil {
		return 0, 0, err
	}
	defer plain.Close()
	o := worker.Options{TaskQueue: plainQueue, BuildID: b.a.Config.BuildID}
	w := worker.New(plain, o, b.a.Activities())
	if err := w.Start(); err != nil {
		return 0, 0, err
	}
	defer w.Stop()
	if _, err := worker.TakeCurrent(ctx, plain, o.Version(), o.Queues()[:1]); err != nil {
		return 0, 0, err
	}
	plainRequest := func(in workflows.SendEmailInput) workflows.Request {
		r := workflows.SendEmailRequest(in)
		r.TaskQueue = plainQueue
		return r
	}
	var (
		enc, pln         []time.Duration
		encTook, plnTook time.Duration
		block            = workflowCount / 8
	)
	say("codec: %d SendEmail encrypted and %d plain in blocks of %d, %d in flight...", workflowCount, workflowCount, block, workflowInFlight)
	for i := range 16 {
		c, prefix, request, lat, total := b.a.Temporal, "codec", workflows.SendEmailRequest, &enc, &encTook
		if i%4 == 1 || i%4 == 2 {
			c, prefix, request, lat, total = plain, "plain", plainRequest, &pln, &plnTook
		}
		l, took, err := b.runWorkflowsOn(ctx, c, prefix, i*block, block, request)
		if err != nil {
			return 0, 0, err
		}
		*lat, *total = append(*lat, l...), *total+took
	}
	b.add(fmt.Sprintf("SendEmail without the codec: completed/s (%d, %d in flight)", workflowCount, workflowInFlight),
		fmt.Sprintf("%.0f", float64(len(pln))/plnTook.Seconds()))
	b.add("SendEmail without the codec: p50 / p95", fmt.Sprintf("%.0f ms / %.0f ms", ms(percentile(pln, 0.5)), ms(percentile(pln, 0.95))))
	b.add(fmt.Sprintf("SendEmail with the codec: completed/s (%d, %d in flight)", workflowCount, workflowInFlight),
		fmt.Sprintf("%.0f", float64(len(enc))/encTook.Seconds()))
	b.add("SendEmail with the codec: p50 / p95", fmt.Sprintf("%.0f ms / %.0f ms", ms(percentile(enc, 0.5)), ms(percentile(enc, 0.95))))
	codecP95 = ms(percentile(enc, 0.95))
	ratio = codecP95 / ms(percentile(pln, 0.95))
	b.add("SendEmail p95 with the codec vs without (target ≤ 1.15)", fmt.Sprintf("%.2f", ratio))
	return codecP95, ratio, nil
}
