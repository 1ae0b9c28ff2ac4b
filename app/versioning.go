package app

import (
	"context"
	"fmt"
	"time"

	sdkworker "go.temporal.io/sdk/worker"

	"hackdesk/worker"
)

// Worker Versioning. Every worker registers as a version of the Worker
// Deployment named after the task queue, its build id the binary's
// (config.Config.BuildID). New runs start on the deployment's current
// version; a pinned run stays on the version that started it, an
// auto-upgrade run (workflows.AutoUpgrade) moves to each new current
// version. Who makes a version current: a starting worker when none is
// (a first deploy); after that the operator, with `temporal worker
// deployment set-current-version` (docs/operations.md, "Releases").
// `hackdesk dev` registers as the build "dev" whatever the binary
// (StartDev), so a rebuilt binary is the same version and the one made
// current at the first start stays current.

// versionWait bounds how long a starting worker waits for its version to
// be registered and made current before it goes on in the background.
const versionWait = 30 * time.Second

// workerOptions are the options of the app's workers.
func (a *App) workerOptions() worker.Options {
	return worker.Options{TaskQueue: a.Config.TaskQueue, BuildID: a.Config.BuildID, StopTimeout: a.stopTimeout,
		Interceptors: a.inFlightInterceptors()}
}

// Version is the deployment version the app's workers register.
func (a *App) Version() sdkworker.WorkerDeploymentVersion { return a.workerOptions().Version() }

// rollOut is a starting worker's step after its workers poll: make its
// build current when no version is (worker.TakeCurrent), within
// versionWait, and say what it found; failing that, go on trying in the
// background (the workers poll meanwhile) until it succeeds or the app
// closes.
func (a *App) rollOut() {
	ctx, cancel := context.WithTimeout(a.background, versionWait)
	r, err := a.takeCurrent(ctx)
	cancel()
	if err == nil {
		a.logRouting(r)
		return
	}
	a.Log.Warn("worker versioning: will try again", "err", err)
	a.goBackground(func(ctx context.Context) {
		for wait := time.Second; ; wait = min(2*wait, time.Minute) {
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
			r, err := a.takeCurrent(ctx)
			if err == nil {
				a.logRouting(r)
				return
			}
			if ctx.Err() == nil {
				a.Log.Warn("worker versioning: will try again", "err", err, "in", min(2*wait, time.Minute))
			}
		}
	})
}

// takeCurrent is worker.TakeCurrent for the app's workers.
func (a *App) takeCurrent(ctx context.Context) (worker.Routing, error) {
	o := a.workerOptions()
	return worker.TakeCurrent(ctx, a.Temporal, o.Version(), o.Queues())
}

func (a *App) logRouting(r worker.Routing) {
	v := a.Version()
	switch {
	case r.Made:
		a.Log.Info("worker versioning: this build is now current", "deployment", v.DeploymentName, "build_id", v.BuildID)
	case r.Current == v.BuildID:
		a.Log.Info("worker versioning: this build is current", "deployment", v.DeploymentName, "build_id", v.BuildID)
	default:
		current := r.Current
		if current == "" {
			current = "(unversioned workers)"
		}
		a.Log.Info("worker versioning: this build's workers poll; another build is current, so new runs go there until this one is made current",
			"deployment", v.DeploymentName, "build_id", v.BuildID, "current", current,
			"roll_out", fmt.Sprintf("temporal worker deployment set-current-version --deployment-name %s --build-id %s", v.DeploymentName, v.BuildID))
	}
}
