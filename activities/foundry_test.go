package activities_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"hackdesk/activities"
	"hackdesk/app"
	"hackdesk/codehost"
	"hackdesk/codehost/fakegithub"
	"hackdesk/db"
	"hackdesk/testenv"
)

// foundryWorld is a database with one running project and a stand-in
// GitHub of its own.
type foundryWorld struct {
	acts    *activities.FoundryActivities
	fake    *fakegithub.Server
	host    *codehost.Client
	project uuid.UUID
	env     *testsuite.TestActivityEnvironment
}

func newFoundryWorld(t *testing.T) foundryWorld {
	t.Helper()
	ctx := context.Background()
	store := testenv.Store(t)
	admin, err := app.CreateUser(ctx, store, "admin@example.com", "Admin", "password-admin", "admin")
	if err != nil {
		t.Fatal(err)
	}
	id := uuid.New()
	if _, err := store.FoundryProjectInsert(ctx, db.FoundryProjectInsertParams{ID: id, Name: "web", ProjectType: "nextjs",
		Database: "postgresql", TeamSlug: "platform", WorkflowID: "foundry:" + id.String(), CreatedBy: admin.ID}); err != nil {
		t.Fatal(err)
	}
	if err := store.FoundryStepsInit(ctx, id); err != nil {
		t.Fatal(err)
	}
	fake := fakegithub.New(fakegithub.Options{QueuedFor: 100 * time.Millisecond, RunFor: 300 * time.Millisecond})
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	host, err := codehost.New(codehost.Config{Token: fake.Token(), Org: fake.Org(), APIURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	acts := &activities.FoundryActivities{Store: store, Host: host}
	var s testsuite.WorkflowTestSuite
	env := s.NewTestActivityEnvironment()
	env.RegisterActivity(acts)
	return foundryWorld{acts: acts, fake: fake, host: host, project: id, env: env}
}

func errType(err error) string {
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		return app.Type()
	}
	return ""
}

func TestCreateRepositoryReusesItsOwn(t *testing.T) {
	w := newFoundryWorld(t)
	in := activities.CreateRepositoryInput{ProjectID: w.project, Name: "web", ProjectType: "nextjs", LaunchedAt: time.Now()}
	v, err := w.env.ExecuteActivity(w.acts.CreateRepository, in)
	if err != nil {
		t.Fatal(err)
	}
	var first activities.RepoRef
	_ = v.Get(&first)
	if first.Reused || first.FullName != w.fake.Org()+"/web" {
		t.Fatalf("first = %+v", first)
	}
	// A retry after the repository was made: the same repository, reused.
	v, err = w.env.ExecuteActivity(w.acts.CreateRepository, in)
	if err != nil {
		t.Fatal(err)
	}
	var again activities.RepoRef
	_ = v.Get(&again)
	if !again.Reused || again.URL != first.URL {
		t.Fatalf("again = %+v", again)
	}
	// Someone else's repository of that name (older than the launch) is not.
	w.fake.AddRepository("old", time.Now().Add(-time.Hour))
	in.Name = "old"
	if _, err := w.env.ExecuteActivity(w.acts.CreateRepository, in); errType(err) != activities.ErrTypeNameTaken {
		t.Fatalf("taken name: %v", err)
	}
}

func TestFoundryPermanentErrors(t *testing.T) {
	w := newFoundryWorld(t)
	if _, err := w.env.ExecuteActivity(w.acts.CreateRepository, activities.CreateRepositoryInput{Name: "web", ProjectType: "rails"}); errType(err) != activities.ErrTypeTemplateNotFound {
		t.Fatalf("unknown project type: %v", err)
	}
	if _, err := w.env.ExecuteActivity(w.acts.CreateRepository, activities.CreateRepositoryInput{Name: "web", ProjectType: "express"}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.env.ExecuteActivity(w.acts.GrantTeam, activities.GrantTeamInput{Repo: "web", TeamSlug: "ghosts"}); errType(err) != activities.ErrTypeTeamNotFound {
		t.Fatalf("unknown team: %v", err)
	}
	if _, err := w.env.ExecuteActivity(w.acts.DispatchSetup, activities.DispatchInput{Repo: "nope", Ref: "main", CorrelationID: "c"}); errType(err) != activities.ErrTypeSetupNotFound {
		t.Fatalf("no setup workflow: %v", err)
	}
	// No code host configured.
	none := &activities.FoundryActivities{}
	var s testsuite.WorkflowTestSuite
	env := s.NewTestActivityEnvironment()
	env.RegisterActivity(none)
	if _, err := env.ExecuteActivity(none.GrantTeam, activities.GrantTeamInput{Repo: "web", TeamSlug: "platform"}); errType(err) != activities.ErrTypeNotConfigured {
		t.Fatalf("no code host: %v", err)
	}
}

// TestWatchSetupRun follows a dispatched run to its end, recording its
// link, and a retried attempt resumes from its heartbeat (the run it had
// found) instead of looking for it again.
func TestWatchSetupRun(t *testing.T) {
	w := newFoundryWorld(t)
	ctx := context.Background()
	if _, err := w.env.ExecuteActivity(w.acts.CreateRepository, activities.CreateRepositoryInput{Name: "web", ProjectType: "fastapi", LaunchedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	dispatch := activities.DispatchInput{Repo: "web", Ref: "main", CorrelationID: w.project.String(), ProjectType: "fastapi", Database: "mongodb"}
	if _, err := w.env.ExecuteActivity(w.acts.DispatchSetup, dispatch); err != nil {
		t.Fatal(err)
	}
	// Dispatching again (a retry) makes no second run.
	if _, err := w.env.ExecuteActivity(w.acts.DispatchSetup, dispatch); err != nil {
		t.Fatal(err)
	}
	if n := len(w.fake.Dispatched("web")); n != 1 {
		t.Fatalf("%d runs dispatched", n)
	}
	in := activities.WatchInput{ProjectID: w.project, Repo: "web", CorrelationID: w.project.String(), PollInterval: 50 * time.Millisecond}
	v, err := w.env.ExecuteActivity(w.acts.WatchSetupRun, in)
	if err != nil {
		t.Fatal(err)
	}
	var out activities.RunOutcome
	_ = v.Get(&out)
	if out.Conclusion != "success" || out.RunID == 0 || out.URL == "" {
		t.Fatalf("outcome = %+v", out)
	}
	p, err := w.acts.Store.FoundryProjectGet(ctx, w.project)
	if err != nil || p.RunUrl == nil || *p.RunUrl != out.URL {
		t.Fatalf("run_url = %v, %v", p.RunUrl, err)
	}

	// Resumed from a heartbeat: the correlation id matches no run, so only
	// the heartbeat's run id can lead to the outcome.
	w.env.SetHeartbeatDetails(activities.RunProgress{RunID: out.RunID, URL: out.URL, Status: "in_progress"})
	in.CorrelationID = "no-such-run"
	v, err = w.env.ExecuteActivity(w.acts.WatchSetupRun, in)
	if err != nil {
		t.Fatal(err)
	}
	var resumed activities.RunOutcome
	_ = v.Get(&resumed)
	if resumed.RunID != out.RunID || resumed.Conclusion != "success" {
		t.Fatalf("resumed = %+v", resumed)
	}
}

func TestWatchSetupRunFailedStep(t *testing.T) {
	w := newFoundryWorld(t)
	if _, err := w.env.ExecuteActivity(w.acts.CreateRepository, activities.CreateRepositoryInput{Name: "web", ProjectType: "nextjs", LaunchedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	w.fake.FailStep("web", "Commit configuration")
	if _, err := w.env.ExecuteActivity(w.acts.DispatchSetup, activities.DispatchInput{Repo: "web", Ref: "main", CorrelationID: "c1"}); err != nil {
		t.Fatal(err)
	}
	v, err := w.env.ExecuteActivity(w.acts.WatchSetupRun, activities.WatchInput{ProjectID: w.project, Repo: "web", CorrelationID: "c1", PollInterval: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	var out activities.RunOutcome
	_ = v.Get(&out)
	if out.Conclusion != "failure" || out.FailedStep != "setup / Commit configuration" {
		t.Fatalf("outcome = %+v", out)
	}
}

func TestWatchSetupRunNeverAppears(t *testing.T) {
	w := newFoundryWorld(t)
	if _, err := w.env.ExecuteActivity(w.acts.CreateRepository, activities.CreateRepositoryInput{Name: "web", ProjectType: "nextjs", LaunchedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	_, err := w.env.ExecuteActivity(w.acts.WatchSetupRun, activities.WatchInput{ProjectID: w.project, Repo: "web", CorrelationID: "never",
		PollInterval: 20 * time.Millisecond, FindTimeout: 100 * time.Millisecond})
	if errType(err) != activities.ErrTypeRunNotFound {
		t.Fatalf("err = %v", err)
	}
}

// TestRecordStep: updates are conditional, so a repeated or late update
// leaves an ended step and project as they are.
func TestRecordStep(t *testing.T) {
	w := newFoundryWorld(t)
	ctx := context.Background()
	rec := func(u activities.StepUpdate) {
		t.Helper()
		u.ProjectID = w.project
		if err := w.acts.RecordStep(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	rec(activities.StepUpdate{Step: "create_repository", Status: "running"})
	rec(activities.StepUpdate{Step: "create_repository", Status: "failed", Detail: "taken", Project: "failed"})
	rec(activities.StepUpdate{Step: "create_repository", Status: "succeeded", Detail: "late", Project: "succeeded"})
	rec(activities.StepUpdate{Step: "create_repository", Status: "running", Detail: "again"})
	steps, err := w.acts.Store.FoundryStepsList(ctx, w.project)
	if err != nil {
		t.Fatal(err)
	}
	if s := steps[0]; s.Name != "create_repository" || s.Status != "failed" || s.Detail != "taken" || s.StartedAt == nil || s.FinishedAt == nil {
		t.Fatalf("step = %+v", s)
	}
	if steps[1].Status != "pending" {
		t.Fatalf("grant_team = %+v", steps[1])
	}
	p, _ := w.acts.Store.FoundryProjectGet(ctx, w.project)
	if p.Status != "failed" {
		t.Fatalf("project status = %s", p.Status)
	}
}
