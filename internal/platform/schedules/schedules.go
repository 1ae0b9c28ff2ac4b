// Package schedules keeps hackdesk's Temporal Schedules: the recurring
// workflows, started by the Temporal server on an interval instead of by
// requests or goroutines. `hackdesk worker` and `hackdesk dev` ensure them
// in the background (Ensure, retried until it succeeds): each is created
// when missing and otherwise left as it is, so any number of starts, from
// any number of workers, leave one schedule of each.
//
// One owner of their definitions: a schedule's definition holds no
// process setting (only its task queue, which also names it), so workers
// configured differently define it alike; and an existing schedule whose
// definition differs is updated only by a worker of the deployment's
// current build. During a roll-out the previous build's workers, still
// running for their pinned runs, leave the new definitions alone.
package schedules

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"

	"hackdesk/workflows"
)

// The schedules' intervals.
const (
	// SweepEvery: Sweep deletes expired webhook tokens, idempotency keys
	// and rate-limit counters. Nothing reads an expired row as live (each
	// reader checks the expiry itself), so the interval only bounds how
	// many dead rows wait: at most ten minutes' worth.
	SweepEvery = 10 * time.Minute
	// TermReconcileEvery: TermReconcile restarts a term's missing
	// TermWindow run. A window's first step is its announcement, days
	// ahead; a quarter of an hour late is harmless.
	TermReconcileEvery = 15 * time.Minute
	// RetentionEvery: Retention purges what is past its retention
	// (docs/privacy.md). Retention is counted in days; once a day is
	// enough.
	RetentionEvery = 24 * time.Hour
)

// SweepID is the ID of the Sweep schedule of a task queue
// ("hackdesk-sweep" for the default queue): two installations sharing a
// namespace on different queues each have their own.
func SweepID(taskQueue string) string { return taskQueue + "-sweep" }

// TermReconcileID is the ID of the TermReconcile schedule of a task queue
// ("hackdesk-term-reconcile").
func TermReconcileID(taskQueue string) string { return taskQueue + "-term-reconcile" }

// RetentionID is the ID of the Retention schedule of a task queue
// ("hackdesk-retention").
func RetentionID(taskQueue string) string { return taskQueue + "-retention" }

// Schedule is one schedule's definition.
type Schedule struct {
	ID       string
	Every    time.Duration
	Workflow string // the registered workflow name
	Args     []any
	Kind     workflows.Kind
	Summary  string
}

// All are hackdesk's schedules for the workers of taskQueue. They take no
// setting of the process that defines them: TermReconcile's runs take
// each term's site address from the term's own start (its TermWindow's
// outbox row, the API's PUBLIC_URL).
func All(taskQueue string) []Schedule {
	return []Schedule{
		{ID: SweepID(taskQueue), Every: SweepEvery, Workflow: "Sweep", Kind: workflows.KindSweep,
			Summary: "Delete expired webhook tokens, idempotency keys and rate-limit counters"},
		{ID: TermReconcileID(taskQueue), Every: TermReconcileEvery, Workflow: "TermReconcile", Kind: workflows.KindReconcile,
			Args:    []any{workflows.TermReconcileInput{}},
			Summary: "Restart the missing window workflow of each term and hackathon edition with a window ahead"},
		{ID: RetentionID(taskQueue), Every: RetentionEvery, Workflow: "Retention", Kind: workflows.KindRetention,
			Summary: "Purge personal data past its retention"},
	}
}

// Options are the ScheduleOptions of s for taskQueue: an interval, never
// two runs at once (a start while one runs is skipped), and the
// workflow's search attributes and summary as every hackdesk workflow
// has them (HackdeskSubject is the schedule's ID). Each run's workflow ID
// is the schedule's ID and the start time.
func (s Schedule) Options(taskQueue string) client.ScheduleOptions {
	attrs := workflows.Request{Kind: s.Kind, Subject: s.ID}.SearchAttributes()
	return client.ScheduleOptions{
		ID:      s.ID,
		Spec:    client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: s.Every}}},
		Overlap: enumspb.SCHEDULE_OVERLAP_POLICY_SKIP,
		Action: &client.ScheduleWorkflowAction{
			ID: s.ID, Workflow: s.Workflow, Args: s.Args, TaskQueue: taskQueue,
			TypedSearchAttributes: attrs, StaticSummary: s.Summary,
		},
		TypedSearchAttributes: attrs,
		Note:                  s.Summary,
	}
}

// Outcome is what Ensure did.
type Outcome struct {
	Created, Updated, Unchanged []string // schedule IDs
	// Left are the schedules whose definition differs, left as they are
	// by a worker that is not the owner.
	Left []string
}

// Ensure creates each schedule that does not exist and, when owner is set
// (a worker of the current build), updates each whose interval, workflow,
// task queue, arguments, summary or overlap policy differ from the
// definition; a schedule as defined is left alone, and so is a differing
// one when owner is not set. dc is the client's data converter (nil: the
// default), which the described arguments are decoded with before they
// are compared: encrypted arguments differ byte for byte every time they
// are written.
func Ensure(ctx context.Context, c client.Client, dc converter.DataConverter, taskQueue string, all []Schedule, owner bool) (Outcome, error) {
	if dc == nil {
		dc = converter.GetDefaultDataConverter()
	}
	var out Outcome
	for _, s := range all {
		opts := s.Options(taskQueue)
		_, err := c.ScheduleClient().Create(ctx, opts)
		if err == nil {
			out.Created = append(out.Created, s.ID)
			continue
		}
		if !errors.Is(err, temporal.ErrScheduleAlreadyRunning) {
			return out, fmt.Errorf("create schedule %s: %w", s.ID, err)
		}
		updated, left := false, false
		err = c.ScheduleClient().GetHandle(ctx, s.ID).Update(ctx, client.ScheduleUpdateOptions{
			DoUpdate: func(in client.ScheduleUpdateInput) (*client.ScheduleUpdate, error) {
				have := in.Description.Schedule
				same, err := matches(dc, have, opts)
				if err != nil {
					return nil, err
				}
				if same {
					return nil, temporal.ErrSkipScheduleUpdate
				}
				if !owner {
					left = true
					return nil, temporal.ErrSkipScheduleUpdate
				}
				updated = true
				want := have
				want.Spec = &opts.Spec
				want.Action = opts.Action
				if want.Policy == nil {
					want.Policy = &client.SchedulePolicies{}
				}
				want.Policy.Overlap = opts.Overlap
				return &client.ScheduleUpdate{Schedule: &want, TypedSearchAttributes: &opts.TypedSearchAttributes}, nil
			},
		})
		if err != nil {
			return out, fmt.Errorf("update schedule %s: %w", s.ID, err)
		}
		switch {
		case updated:
			out.Updated = append(out.Updated, s.ID)
		case left:
			out.Left = append(out.Left, s.ID)
		default:
			out.Unchanged = append(out.Unchanged, s.ID)
		}
	}
	return out, nil
}

// matches reports whether a described schedule is as opts define it.
func matches(dc converter.DataConverter, have client.Schedule, opts client.ScheduleOptions) (bool, error) {
	if have.Spec == nil || len(have.Spec.Intervals) != 1 || len(have.Spec.Calendars) != 0 || len(have.Spec.CronExpressions) != 0 ||
		have.Spec.Intervals[0].Every != opts.Spec.Intervals[0].Every || have.Spec.Intervals[0].Offset != 0 {
		return false, nil
	}
	if have.Policy == nil || have.Policy.Overlap != opts.Overlap {
		return false, nil
	}
	got, ok := have.Action.(*client.ScheduleWorkflowAction)
	want := opts.Action.(*client.ScheduleWorkflowAction)
	if !ok || got.Workflow != want.Workflow || got.TaskQueue != want.TaskQueue || got.StaticSummary != want.StaticSummary {
		return false, nil
	}
	return sameArgs(dc, got.Args, want.Args)
}

// sameArgs compares the described arguments (payloads, decoded with dc)
// with the defined ones, as JSON.
func sameArgs(dc converter.DataConverter, got, want []any) (bool, error) {
	if len(got) != len(want) {
		return false, nil
	}
	for i := range want {
		p, ok := got[i].(*commonpb.Payload)
		if !ok {
			return false, nil
		}
		var have json.RawMessage
		if err := dc.FromPayload(p, &have); err != nil {
			return false, nil // unreadable (another key, another shape): rewrite it
		}
		wantJSON, err := json.Marshal(want[i])
		if err != nil {
			return false, err
		}
		if !bytes.Equal(bytes.TrimSpace(have), wantJSON) {
			return false, nil
		}
	}
	return true, nil
}
