package workflows

import (
	"errors"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"hackdesk/activities"
	"hackdesk/internal/feature/foundry"
)

// The steps of a Foundry launch, in order, as recorded on the project.
const (
	StepCreateRepository = foundry.StepCreateRepository
	StepGrantTeam        = foundry.StepGrantTeam
	StepDispatchSetup    = foundry.StepDispatchSetup
	StepSetupRun         = foundry.StepSetupRun
)

// FoundryLaunchInput is one launched project and its options.
type FoundryLaunchInput struct {
	ProjectID   uuid.UUID
	Name        string
	Description string
	ProjectType string
	Database    string
	Redis       bool
	S3          bool
	TeamSlug    string
	Private     bool
	LaunchedAt  time.Time
	// PollInterval is how often the setup run is read (zero: 5 s).
	PollInterval time.Duration
}

// FoundryLaunchResult is the project's outcome.
type FoundryLaunchResult struct {
	Status        string // succeeded (a failure fails the workflow)
	RepositoryURL string
	RunURL        string
}

// FoundryLaunchID is the workflow ID of a project.
func FoundryLaunchID(projectID uuid.UUID) string { return "foundry:" + projectID.String() }

// FoundryLaunchRequest starts the FoundryLaunch workflow of a project.
func FoundryLaunchRequest(in FoundryLaunchInput) Request {
	return Request{ID: FoundryLaunchID(in.ProjectID), Type: "FoundryLaunch", Input: in, Kind: KindFoundry,
		Subject: in.Name, Summary: "Foundry launch of " + in.Name + " (" + in.ProjectType + ")"}
}

// watchOptions are for the activity that follows the setup run: it runs as
// long as the run does and heartbeats at each poll, so a lost worker is
// noticed within the heartbeat timeout and the next attempt resumes from
// the last heartbeat.
var watchOptions = workflow.ActivityOptions{
	StartToCloseTimeout:    2 * time.Hour,
	ScheduleToCloseTimeout: 24 * time.Hour,
	HeartbeatTimeout:       time.Minute,
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval:    2 * time.Second,
		BackoffCoefficient: 2,
		MaximumInterval:    5 * time.Minute,
	},
}

// recordCancel is the change that makes a cancelled launch record its
// step and project failed ("cancelled") before it ends; runs started before
// it end as they did, leaving the project running.
const recordCancel = "foundry-record-cancel"

// attemptCorrelation is the change that gives each run of a launch its
// own setup correlation id (the project id and the run id): a retried
// launch dispatches a setup run of its own and follows that one. Before
// it the correlation id was the project id, so a retry found the failed
// run of the first attempt, dispatched nothing and failed again.
const attemptCorrelation = "foundry-attempt-correlation"

// FoundryCorrelationID is the setup correlation id of one run of a launch.
func FoundryCorrelationID(projectID uuid.UUID, runID string) string {
	return projectID.String() + "-" + runID
}

// FoundryCancelledDetail is the detail of the step a cancelled launch was
// on.
const FoundryCancelledDetail = "the launch was cancelled"

// FoundryLaunch creates the project's repository from its template, gives
// the team access, dispatches the setup Actions workflow with the options
// and follows the run to its end, recording each step as it starts and
// ends. A failed step fails the project with its reason and ends the
// workflow with that reason. A cancelled run (the Temporal UI's cancel)
// records the step it was on and the project failed, then ends cancelled.
func FoundryLaunch(ctx workflow.Context, in FoundryLaunchInput) (FoundryLaunchResult, error) {
	if in.ProjectID == uuid.Nil || in.Name == "" {
		return FoundryLaunchResult{}, temporal.NewNonRetryableApplicationError("project and name are required", "BadInput", nil)
	}
	progress := "starting"
	if err := workflow.SetQueryHandler(ctx, ProgressQuery, func() (string, error) { return progress, nil }); err != nil {
		return FoundryLaunchResult{}, err
	}
	markCancel := workflow.GetVersion(ctx, recordCancel, workflow.DefaultVersion, 1) >= 1
	step := StepCreateRepository // the step under way
	res, err := foundryLaunch(ctx, in, &progress, &step, markCancel)
	if err == nil || !markCancel || ctx.Err() == nil {
		return res, err
	}
	// Cancelled: the context can run no activity, a disconnected one can.
	dctx, _ := workflow.NewDisconnectedContext(ctx)
	var a *activities.FoundryActivities
	if rerr := workflow.ExecuteActivity(storeActivity(dctx), a.RecordStep, activities.StepUpdate{ProjectID: in.ProjectID,
		Step: step, Status: "failed", Detail: FoundryCancelledDetail, Project: "failed"}).Get(dctx, nil); rerr != nil {
		return res, rerr
	}
	progress = step + " cancelled"
	return res, err
}

// foundryLaunch runs the steps, keeping *step on the one under way.
func foundryLaunch(ctx workflow.Context, in FoundryLaunchInput, progress, step *string, markCancel bool) (FoundryLaunchResult, error) {
	var res FoundryLaunchResult
	var a *activities.FoundryActivities
	sctx := storeActivity(ctx)
	pctx := providerActivity(ctx, activities.FoundryNonRetryable...)
	record := func(u activities.StepUpdate) error {
		u.ProjectID = in.ProjectID
		return workflow.ExecuteActivity(sctx, a.RecordStep, u).Get(ctx, nil)
	}
	// fail records the failed step and project, and ends the run. A
	// cancellation is recorded by FoundryLaunch.
	fail := func(step string, cause error) (FoundryLaunchResult, error) {
		if markCancel && ctx.Err() != nil {
			return res, cause
		}
		detail := reason(cause)
		*progress = step + " failed: " + detail
		if err := record(activities.StepUpdate{Step: step, Status: "failed", Detail: detail, Project: "failed"}); err != nil {
			return res, err
		}
		return res, temporal.NewNonRetryableApplicationError(step+" failed: "+detail, "FoundryStepFailed", nil)
	}

	*progress, *step = StepCreateRepository, StepCreateRepository
	if err := record(activities.StepUpdate{Step: StepCreateRepository, Status: "running"}); err != nil {
		return res, err
	}
	var repo activities.RepoRef
	if err := workflow.ExecuteActivity(pctx, a.CreateRepository, activities.CreateRepositoryInput{
		ProjectID: in.ProjectID, Name: in.Name, Description: in.Description, ProjectType: in.ProjectType,
		Private: in.Private, LaunchedAt: in.LaunchedAt,
	}).Get(ctx, &repo); err != nil {
		return fail(StepCreateRepository, err)
	}
	res.RepositoryURL = repo.URL
	detail := "created " + repo.FullName
	if repo.Reused {
		detail = "reused " + repo.FullName + " from an earlier attempt"
	}
	if err := record(activities.StepUpdate{Step: StepCreateRepository, Status: "succeeded", Detail: detail, RepositoryURL: repo.URL}); err != nil {
		return res, err
	}

	*progress, *step = StepGrantTeam, StepGrantTeam
	if err := record(activities.StepUpdate{Step: StepGrantTeam, Status: "running"}); err != nil {
		return res, err
	}
	if err := workflow.ExecuteActivity(pctx, a.GrantTeam, activities.GrantTeamInput{Repo: repo.Name, TeamSlug: in.TeamSlug}).Get(ctx, nil); err != nil {
		return fail(StepGrantTeam, err)
	}
	if err := record(activities.StepUpdate{Step: StepGrantTeam, Status: "succeeded", Detail: "team " + in.TeamSlug + " can push"}); err != nil {
		return res, err
	}

	*progress, *step = StepDispatchSetup, StepDispatchSetup
	if err := record(activities.StepUpdate{Step: StepDispatchSetup, Status: "running"}); err != nil {
		return res, err
	}
	correlation := in.ProjectID.String()
	if workflow.GetVersion(ctx, attemptCorrelation, workflow.DefaultVersion, 1) >= 1 {
		correlation = FoundryCorrelationID(in.ProjectID, workflow.GetInfo(ctx).WorkflowExecution.RunID)
	}
	if err := workflow.ExecuteActivity(pctx, a.DispatchSetup, activities.DispatchInput{ProjectID: in.ProjectID,
		Repo: repo.Name, Ref: repo.DefaultBranch, CorrelationID: correlation,
		ProjectType: in.ProjectType, Database: in.Database, Redis: in.Redis, S3: in.S3,
	}).Get(ctx, nil); err != nil {
		return fail(StepDispatchSetup, err)
	}
	if err := record(activities.StepUpdate{Step: StepDispatchSetup, Status: "succeeded", Detail: "dispatched on " + repo.DefaultBranch}); err != nil {
		return res, err
	}

	*progress, *step = StepSetupRun, StepSetupRun
	if err := record(activities.StepUpdate{Step: StepSetupRun, Status: "running", Detail: "waiting for the run"}); err != nil {
		return res, err
	}
	wctx := withOptions(ctx, watchOptions, activities.FoundryNonRetryable)
	var out activities.RunOutcome
	if err := workflow.ExecuteActivity(wctx, a.WatchSetupRun, activities.WatchInput{
		ProjectID: in.ProjectID, Repo: repo.Name, CorrelationID: correlation, PollInterval: in.PollInterval,
	}).Get(ctx, &out); err != nil {
		return fail(StepSetupRun, err)
	}
	res.RunURL = out.URL
	if out.Conclusion != "success" {
		why := "the setup run ended: " + out.Conclusion
		if out.FailedStep != "" {
			why += " at step " + out.FailedStep
		}
		return fail(StepSetupRun, errors.New(why))
	}
	if err := record(activities.StepUpdate{Step: StepSetupRun, Status: "succeeded", Detail: "the setup run succeeded",
		RunURL: out.URL, Project: "succeeded"}); err != nil {
		return res, err
	}
	*progress = "succeeded"
	res.Status = "succeeded"
	return res, nil
}

// reason is the readable part of an activity's error: an application
// error's own message, without the wrapping Temporal adds.
func reason(err error) string {
	var app *temporal.ApplicationError
	if errors.As(err, &app) && app.Message() != "" {
		return app.Message()
	}
	var timeout *temporal.TimeoutError
	if errors.As(err, &timeout) {
		return "timed out (" + timeout.TimeoutType().String() + ")"
	}
	return err.Error()
}
