package schedules

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
)

// State is a schedule as the operator's page shows it: whether it exists
// and is paused, its interval, its last run and its next.
type State struct {
	ID       string
	Workflow string
	// Every is the interval the schedule has (its definition's while it
	// does not exist).
	Every time.Duration
	// Exists is false for a schedule no worker has created yet.
	Exists bool
	// Paused is true when someone paused it (the Temporal UI, or the CLI's
	// `temporal schedule toggle --pause`); Note then says why, as given.
	Paused bool
	Note   string
	// LastRun is the newest run it started (nil: none yet).
	LastRun *Run
	// NextRunAt is when it starts the next run (zero when paused or
	// missing).
	NextRunAt time.Time
}

// Run is a run a schedule started.
type Run struct {
	WorkflowID string
	RunID      string
	// ScheduledAt is the time it was due; StartedAt when it was started.
	ScheduledAt time.Time
	StartedAt   time.Time
}

// States describes each of all, in order.
func States(ctx context.Context, c client.Client, all []Schedule) ([]State, error) {
	out := make([]State, 0, len(all))
	for _, s := range all {
		st := State{ID: s.ID, Workflow: s.Workflow, Every: s.Every}
		d, err := c.ScheduleClient().GetHandle(ctx, s.ID).Describe(ctx)
		var notFound *serviceerror.NotFound
		switch {
		case errors.As(err, &notFound):
			out = append(out, st)
			continue
		case err != nil:
			return nil, fmt.Errorf("describe schedule %s: %w", s.ID, err)
		}
		st.Exists = true
		if spec := d.Schedule.Spec; spec != nil && len(spec.Intervals) == 1 {
			st.Every = spec.Intervals[0].Every
		}
		if a, ok := d.Schedule.Action.(*client.ScheduleWorkflowAction); ok {
			if name, ok := a.Workflow.(string); ok {
				st.Workflow = name
			}
		}
		if state := d.Schedule.State; state != nil {
			st.Paused, st.Note = state.Paused, state.Note
		}
		// Recent actions are oldest first.
		for i := len(d.Info.RecentActions) - 1; i >= 0; i-- {
			a := d.Info.RecentActions[i]
			if a.StartWorkflowResult == nil {
				continue
			}
			st.LastRun = &Run{WorkflowID: a.StartWorkflowResult.WorkflowID, RunID: a.StartWorkflowResult.FirstExecutionRunID,
				ScheduledAt: a.ScheduleTime, StartedAt: a.ActualTime}
			break
		}
		if !st.Paused && len(d.Info.NextActionTimes) > 0 {
			st.NextRunAt = d.Info.NextActionTimes[0]
		}
		out = append(out, st)
	}
	return out, nil
}
