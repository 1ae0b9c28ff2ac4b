package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"hackdesk/internal/platform/schedules"
)

// ScheduleEnsurer ensures the app's Temporal Schedules once; owner is set
// when this build is the deployment's current one (package schedules).
type ScheduleEnsurer func(ctx context.Context, owner bool) (schedules.Outcome, error)

// WithScheduleEnsurer makes KeepSchedules and EnsureSchedules call f
// instead of Temporal's schedule API (tests: a set-up that fails).
func WithScheduleEnsurer(f ScheduleEnsurer) Option {
	return func(o *openOptions) { o.ensureSchedules = f }
}

// The schedule keeper's timing: a failed set-up is tried again after 1 s,
// doubling up to 5 minutes; once it succeeds, it runs again every
// scheduleRecheck, so a build made current since (a roll-out) brings its
// definitions.
const (
	scheduleRetryFirst = time.Second
	scheduleRetryMax   = 5 * time.Minute
	scheduleRecheck    = 10 * time.Minute
)

// EnsureSchedules creates hackdesk's Temporal Schedules (package
// schedules) that are missing and, when this build is the deployment's
// current one, updates those whose definition changed; once.
func (a *App) EnsureSchedules(ctx context.Context) (schedules.Outcome, error) {
	owner, err := a.isCurrent(ctx)
	if err != nil {
		return schedules.Outcome{}, err
	}
	f := a.opts.ensureSchedules
	if f == nil {
		f = a.ensureSchedules
	}
	out, err := f(ctx, owner)
	if err != nil {
		return out, err
	}
	if len(out.Created)+len(out.Updated) > 0 {
		a.Log.Info("schedules", "created", out.Created, "updated", out.Updated)
	}
	if len(out.Left) > 0 {
		a.Log.Info("schedules: left as defined by the current build (this build is not current)", "schedules", out.Left)
	}
	return out, nil
}

func (a *App) ensureSchedules(ctx context.Context, owner bool) (schedules.Outcome, error) {
	return schedules.Ensure(ctx, a.Temporal, a.DataConverter(), a.Config.TaskQueue, schedules.All(a.Config.TaskQueue), owner)
}

// isCurrent reports whether this build is its deployment's current version.
func (a *App) isCurrent(ctx context.Context) (bool, error) {
	d, err := a.Temporal.WorkerDeploymentClient().GetHandle(a.Version().DeploymentName).
		Describe(ctx, client.WorkerDeploymentDescribeOptions{})
	var notFound *serviceerror.NotFound
	if errors.As(err, &notFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("describe worker deployment: %w", err)
	}
	v := d.Info.RoutingConfig.CurrentVersion
	return v != nil && v.BuildID == a.Config.BuildID, nil
}

// KeepSchedules ensures the schedules in the background, as `hackdesk
// worker` and `hackdesk dev` do after their workers start: a set-up that
// fails is logged and tried again with backoff while the workers go on
// polling (a fleet whose Temporal hiccups at start-up keeps running), and
// one that succeeds is made again every scheduleRecheck. It stops when
// the app closes.
func (a *App) KeepSchedules() {
	a.goBackground(func(ctx context.Context) {
		wait := scheduleRetryFirst
		for {
			tctx, cancel := context.WithTimeout(ctx, time.Minute)
			_, err := a.EnsureSchedules(tctx)
			cancel()
			next := scheduleRecheck
			if err != nil {
				if ctx.Err() != nil {
					return
				}
				next, wait = wait, min(2*wait, scheduleRetryMax)
				a.Log.Warn("schedules: set-up failed; the workers keep polling, trying again", "err", err, "in", next)
			} else {
				wait = scheduleRetryFirst
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(next):
			}
		}
	})
}
