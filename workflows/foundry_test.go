package workflows_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/mock"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"hackdesk/activities"
	"hackdesk/workflows"
)

func newFoundryEnv(t *testing.T) (*testsuite.TestWorkflowEnvironment, *[]activities.StepUpdate) {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflow(workflows.FoundryLaunch)
	env.RegisterActivity(&activities.FoundryActivities{})
	var a *activities.FoundryActivities
	steps := &[]activities.StepUpdate{}
	env.OnActivity(a.RecordStep, mock.Anything, mock.Anything).
		Run(func(args mock.Arguments) { *steps = append(*steps, args.Get(1).(activities.StepUpdate)) }).
		Return(nil)
	return env, steps
}

func foundryInput() workflows.FoundryLaunchInput {
	return workflows.FoundryLaunchInput{ProjectID: uuid.New(), Name: "web", ProjectType: "nextjs", Database: "postgresql",
		Redis: true, TeamSlug: "platform", Private: true, LaunchedAt: time.Now()}
}

var testRepo = activities.RepoRef{Name: "web", FullName: "org/web", URL: "https://gh.test/org/web", DefaultBranch: "main"}

// summary is "step:status" for each recorded update, with ":project" when
// it ends the project.
func summary(steps []activities.StepUpdate) string {
	var out []string
	for _, s := range steps {
		x := s.Step + ":" + s.Status
		if s.Project != "" {
			x += ":" + s.Project
		}
		out = append(out, x)
	}
	return strings.Join(out, " ")
}

func TestFoundryLaunchSucceeds(t *testing.T) {
	t.Parallel()
	env, steps := newFoundryEnv(t)
	var a *activities.FoundryActivities
	in := foundryInput()
	env.OnActivity(a.CreateRepository, mock.Anything, mock.MatchedBy(func(c activities.CreateRepositoryInput) bool {
		return c.Name == "web" && c.ProjectType == "nextjs" && c.Private && c.LaunchedAt.Equal(in.LaunchedAt)
	})).Return(testRepo, nil).Once()
	env.OnActivity(a.GrantTeam, mock.Anything, activities.GrantTeamInput{Repo: "web", TeamSlug: "platform"}).Return(nil).Once()
	// Each run of the launch has a correlation id of its own (a retry
	// dispatches a setup run of its own), and follows the run it
	// dispatched.
	correlation := workflows.FoundryCorrelationID(in.ProjectID, "default-test-run-id")
	env.OnActivity(a.DispatchSetup, mock.Anything, activities.DispatchInput{ProjectID: in.ProjectID, Repo: "web", Ref: "main", CorrelationID: correlation,
		ProjectType: "nextjs", Database: "postgresql", Redis: true}).Return(nil).Once()
	env.OnActivity(a.WatchSetupRun, mock.Anything, mock.MatchedBy(func(w activities.WatchInput) bool {
		return w.CorrelationID == correlation && w.ProjectID == in.ProjectID
	})).Return(activities.RunOutcome{RunID: 7, URL: "https://gh.test/run/7", Conclusion: "success"}, nil).Once()

	env.ExecuteWorkflow(workflows.FoundryLaunch, in)
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var res workflows.FoundryLaunchResult
	_ = env.GetWorkflowResult(&res)
	if res.Status != "succeeded" || res.RepositoryURL != testRepo.URL || res.RunURL != "https://gh.test/run/7" {
		t.Fatalf("result = %+v", res)
	}
	want := "create_repository:running create_repository:succeeded grant_team:running grant_team:succeeded " +
		"dispatch_setup:running dispatch_setup:succeeded setup_run:running setup_run:succeeded:succeeded"
	if got := summary(*steps); got != want {
		t.Fatalf("steps:\n got %s\nwant %s", got, want)
	}
	if (*steps)[1].RepositoryURL != testRepo.URL || (*steps)[7].RunURL != "https://gh.test/run/7" {
		t.Fatalf("links not recorded: %+v", *steps)
	}
	env.AssertExpectations(t)
}

// TestFoundryLaunchCancelled: a launch cancelled while it follows the
// setup run (the Temporal UI's cancel) records that step and the project
// failed, so the project does not stay "running", and ends cancelled.
func TestFoundryLaunchCancelled(t *testing.T) {
	t.Parallel()
	env, steps := newFoundryEnv(t)
	var a *activities.FoundryActivities
	env.OnActivity(a.CreateRepository, mock.Anything, mock.Anything).Return(testRepo, nil).Once()
	env.OnActivity(a.GrantTeam, mock.Anything, mock.Anything).Return(nil).Once()
	env.OnActivity(a.DispatchSetup, mock.Anything, mock.Anything).Return(nil).Once()
	env.OnActivity(a.WatchSetupRun, mock.Anything, mock.Anything).After(time.Hour).
		Return(activities.RunOutcome{Conclusion: "success"}, nil)
	env.RegisterDelayedCallback(env.CancelWorkflow, 10*time.Minute)
	env.ExecuteWorkflow(workflows.FoundryLaunch, foundryInput())
	if err := env.GetWorkflowError(); !temporal.IsCanceledError(err) {
		t.Fatalf("workflow error = %v, want cancelled", err)
	}
	last := (*steps)[len(*steps)-1]
	if last.Step != workflows.StepSetupRun || last.Status != "failed" || last.Project != "failed" || last.Detail != workflows.FoundryCancelledDetail {
		t.Fatalf("last update = %+v (all: %s), want the setup run and the project failed", last, summary(*steps))
	}
}

// TestFoundryLaunchRetries: a code host outage (a retryable error) is
// retried until it passes; the step is recorded once.
func TestFoundryLaunchRetries(t *testing.T) {
	t.Parallel()
	env, steps := newFoundryEnv(t)
	var a *activities.FoundryActivities
	env.OnActivity(a.CreateRepository, mock.Anything, mock.Anything).Return(activities.RepoRef{}, errors.New("502 bad gateway")).Twice()
	env.OnActivity(a.CreateRepository, mock.Anything, mock.Anything).Return(testRepo, nil).Once()
	env.OnActivity(a.GrantTeam, mock.Anything, mock.Anything).Return(errors.New("connection reset")).Once()
	env.OnActivity(a.GrantTeam, mock.Anything, mock.Anything).Return(nil).Once()
	env.OnActivity(a.DispatchSetup, mock.Anything, mock.Anything).Return(nil).Once()
	env.OnActivity(a.WatchSetupRun, mock.Anything, mock.Anything).Return(activities.RunOutcome{Conclusion: "success"}, nil).Once()
	env.ExecuteWorkflow(workflows.FoundryLaunch, foundryInput())
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	if got := summary(*steps); !strings.HasPrefix(got, "create_repository:running create_repository:succeeded grant_team:running grant_team:succeeded") {
		t.Fatalf("steps = %s", got)
	}
	env.AssertExpectations(t)
}

// TestFoundryLaunchPermanentFailure: a permanent code host answer (an
// unknown team) is not retried; the step and project fail with its
// message and the later steps never run.
func TestFoundryLaunchPermanentFailure(t *testing.T) {
	t.Parallel()
	env, steps := newFoundryEnv(t)
	var a *activities.FoundryActivities
	env.OnActivity(a.CreateRepository, mock.Anything, mock.Anything).Return(testRepo, nil).Once()
	env.OnActivity(a.GrantTeam, mock.Anything, mock.Anything).
		Return(temporal.NewNonRetryableApplicationError("team ghosts not found in org", activities.ErrTypeTeamNotFound, nil)).Once()
	env.ExecuteWorkflow(workflows.FoundryLaunch, foundryInput())
	err := env.GetWorkflowError()
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || app.Type() != "FoundryStepFailed" || !strings.Contains(app.Message(), "team ghosts not found") {
		t.Fatalf("workflow error = %v", err)
	}
	last := (*steps)[len(*steps)-1]
	if last.Step != "grant_team" || last.Status != "failed" || last.Project != "failed" || last.Detail != "team ghosts not found in org" {
		t.Fatalf("last update = %+v (all: %s)", last, summary(*steps))
	}
	env.AssertExpectations(t)
}

// TestFoundryLaunchNameTaken: a name taken on the code host fails the
// first step with the reason.
func TestFoundryLaunchNameTaken(t *testing.T) {
	t.Parallel()
	env, steps := newFoundryEnv(t)
	var a *activities.FoundryActivities
	env.OnActivity(a.CreateRepository, mock.Anything, mock.Anything).
		Return(activities.RepoRef{}, temporal.NewNonRetryableApplicationError("a repository named web already exists in org", activities.ErrTypeNameTaken, nil)).Once()
	env.ExecuteWorkflow(workflows.FoundryLaunch, foundryInput())
	if env.GetWorkflowError() == nil {
		t.Fatal("want the workflow to fail")
	}
	if got := summary(*steps); got != "create_repository:running create_repository:failed:failed" {
		t.Fatalf("steps = %s", got)
	}
	if d := (*steps)[1].Detail; d != "a repository named web already exists in org" {
		t.Fatalf("detail = %q", d)
	}
}

// TestFoundryLaunchHeartbeatTimeout: a watch whose worker stops
// heartbeating (a heartbeat timeout) is run again, and the launch goes on
// to succeed.
func TestFoundryLaunchHeartbeatTimeout(t *testing.T) {
	t.Parallel()
	env, steps := newFoundryEnv(t)
	var a *activities.FoundryActivities
	env.OnActivity(a.CreateRepository, mock.Anything, mock.Anything).Return(testRepo, nil).Once()
	env.OnActivity(a.GrantTeam, mock.Anything, mock.Anything).Return(nil).Once()
	env.OnActivity(a.DispatchSetup, mock.Anything, mock.Anything).Return(nil).Once()
	env.OnActivity(a.WatchSetupRun, mock.Anything, mock.Anything).
		Return(activities.RunOutcome{}, temporal.NewTimeoutError(enumspb.TIMEOUT_TYPE_HEARTBEAT, nil, activities.RunProgress{RunID: 7})).Once()
	env.OnActivity(a.WatchSetupRun, mock.Anything, mock.Anything).
		Return(activities.RunOutcome{RunID: 7, URL: "u", Conclusion: "success"}, nil).Once()
	env.ExecuteWorkflow(workflows.FoundryLaunch, foundryInput())
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	if got := summary(*steps); !strings.HasSuffix(got, "setup_run:running setup_run:succeeded:succeeded") {
		t.Fatalf("steps = %s", got)
	}
	env.AssertExpectations(t)
}

// TestFoundryLaunchSetupRunFails: a run that ends in failure fails the
// setup_run step, naming the step that failed.
func TestFoundryLaunchSetupRunFails(t *testing.T) {
	t.Parallel()
	env, steps := newFoundryEnv(t)
	var a *activities.FoundryActivities
	env.OnActivity(a.CreateRepository, mock.Anything, mock.Anything).Return(testRepo, nil).Once()
	env.OnActivity(a.GrantTeam, mock.Anything, mock.Anything).Return(nil).Once()
	env.OnActivity(a.DispatchSetup, mock.Anything, mock.Anything).Return(nil).Once()
	env.OnActivity(a.WatchSetupRun, mock.Anything, mock.Anything).
		Return(activities.RunOutcome{RunID: 7, URL: "u", Conclusion: "failure", FailedStep: "setup / Configure database"}, nil).Once()
	env.ExecuteWorkflow(workflows.FoundryLaunch, foundryInput())
	if env.GetWorkflowError() == nil {
		t.Fatal("want the workflow to fail")
	}
	last := (*steps)[len(*steps)-1]
	if last.Step != "setup_run" || last.Status != "failed" || last.Project != "failed" ||
		last.Detail != "the setup run ended: failure at step setup / Configure database" {
		t.Fatalf("last update = %+v", last)
	}
}

func TestFoundryLaunchRequest(t *testing.T) {
	t.Parallel()
	in := foundryInput()
	r := workflows.FoundryLaunchRequest(in)
	if r.ID != "foundry:"+in.ProjectID.String() || r.Kind != workflows.KindFoundry || r.Subject != "web" || r.Type != "FoundryLaunch" || r.Summary == "" {
		t.Fatalf("request = %+v", r)
	}
}
