package app

import (
	"context"
	"strings"

	"hackdesk/internal/platform/schedules"
)

// EnsureSchedules creates hackdesk's Temporal Schedules (package
// schedules) that are missing and updates those whose definition
// changed; `hackdesk worker` and `hackdesk dev` call it at start-up.
func (a *App) EnsureSchedules(ctx context.Context) (schedules.Outcome, error) {
	all := schedules.All(a.Config.TaskQueue, strings.TrimRight(a.Config.PublicURL, "/"))
	out, err := schedules.Ensure(ctx, a.Temporal, a.DataConverter(), a.Config.TaskQueue, all)
	if err != nil {
		return out, err
	}
	if len(out.Created)+len(out.Updated) > 0 {
		a.Log.Info("schedules", "created", out.Created, "updated", out.Updated)
	}
	return out, nil
}
