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
	"hackdesk/db"
	"hackdesk/dev/fakegithub"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/account"
	"hackdesk/internal/platform/codehost"
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
	admin, err := account.Create(ctx, store.Queries, "admin@example.com", "Admin", "password-admin", "admin")
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
	w := newFoundryWorld(t)
	ctx := context.Background()
	if _, err := w.env.ExecuteActivity(w.acts.CreateRepository, activities.CreateRepositoryInput{Name: "web", ProjectType: "fastapi", LaunchedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	dispatch := activities.DispatchInput{ProjectID: w.project, Repo: "web", Ref: "main", CorrelationID: w.project.String(), ProjectType: "fastapi", Database: "mongodb"}
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
	t.Parallel()
	w := newFoundryWorld(t)
	if _, err := w.env.ExecuteActivity(w.acts.CreateRepository, activities.CreateRepositoryInput{Name: "web", ProjectType: "nextjs", LaunchedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	w.fake.FailStep("web", "Commit configuration")
	if _, err := w.env.ExecuteActivity(w.acts.DispatchSetup, activities.DispatchInput{ProjectID: w.project, Repo: "web", Ref: "main", CorrelationID: "c1"}); err != nil {
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
	t.Parallel()
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

// TestRateLimitIsTemporalsWait: a rate limit longer than the activity's
// timeout (a minute) is not slept through inside the activity: it fails at
// once with a retryable RateLimited error whose NextRetryDelay is the wait
// GitHub asked for, and Temporal schedules the next attempt then.
func TestRateLimitIsTemporalsWait(t *testing.T) {
	t.Parallel()
	for _, secondary := range []bool{false, true} {
		w := newFoundryWorld(t) // a client of its own: go-github remembers a limit until it ends
		if _, err := w.env.ExecuteActivity(w.acts.CreateRepository, activities.CreateRepositoryInput{Name: "web", ProjectType: "nextjs", LaunchedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
		w.fake.RateLimitFor(1, secondary, 75*time.Second)
		start := time.Now()
		_, err := w.env.ExecuteActivity(w.acts.GrantTeam, activities.GrantTeamInput{Repo: "web", TeamSlug: "platform"})
		var app *temporal.ApplicationError
		if !errors.As(err, &app) || app.Type() != activities.ErrTypeRateLimited || app.NonRetryable() {
			t.Fatalf("secondary=%v: GrantTeam = %v, want a retryable RateLimited error", secondary, err)
		}
		if d := app.NextRetryDelay(); d < 70*time.Second || d > 80*time.Second {
			t.Errorf("secondary=%v: next retry in %s, want the 75 s GitHub asked for", secondary, d)
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("secondary=%v: the activity took %s, want an answer at once", secondary, took)
		}
	}
}

// TestDispatchSetupOnceAfterLostAnswer: GitHub made the run but its answer
// was lost, and lists the run only a while later. The retry must not
// dispatch a second run: it waits (a retryable error with a next retry
// delay) until the run appears. A dispatch whose run never appears is made
// again once DispatchLostAfter has passed, and a rate-limited dispatch
// (which made no run) at once.
func TestDispatchSetupOnceAfterLostAnswer(t *testing.T) {
	t.Parallel()
	w := newFoundryWorld(t)
	ctx := context.Background()
	if _, err := w.env.ExecuteActivity(w.acts.CreateRepository, activities.CreateRepositoryInput{Name: "web", ProjectType: "nextjs", LaunchedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	w.fake.ListRunsAfter(time.Hour)
	w.fake.LoseDispatchAnswers(1)
	in := activities.DispatchInput{ProjectID: w.project, Repo: "web", Ref: "main", CorrelationID: w.project.String(), ProjectType: "nextjs"}
	var app *temporal.ApplicationError
	if _, err := w.env.ExecuteActivity(w.acts.DispatchSetup, in); !errors.As(err, &app) || app.NonRetryable() {
		t.Fatalf("lost answer: %v, want a retryable error", err)
	}
	_, err := w.env.ExecuteActivity(w.acts.DispatchSetup, in) // the retry
	if n := len(w.fake.Dispatched("web")); n != 1 {
		t.Fatalf("%d runs dispatched after a retry, want 1", n)
	}
	if !errors.As(err, &app) || app.Type() != activities.ErrTypeDispatchPending || app.NonRetryable() || app.NextRetryDelay() <= 0 {
		t.Fatalf("retry = %v, want a retryable DispatchPending with a delay", err)
	}
	// Once GitHub lists the run, the retry finds it and dispatches nothing.
	w.fake.ListRunsAfter(0)
	if _, err := w.env.ExecuteActivity(w.acts.DispatchSetup, in); err != nil {
		t.Fatal(err)
	}
	if n := len(w.fake.Dispatched("web")); n != 1 {
		t.Fatalf("%d runs dispatched, want 1", n)
	}

	// A recorded dispatch whose run never appeared (GitHub never got it)
	// is made again once DispatchLostAfter has passed.
	w.fake.ListRunsAfter(time.Hour)
	if _, err := w.acts.Store.Pool().Exec(ctx, `UPDATE foundry_projects SET setup_dispatched_at = now() - make_interval(secs => $2) WHERE id = $1`,
		w.project, (activities.DispatchLostAfter + time.Second).Seconds()); err != nil {
		t.Fatal(err)
	}
	if _, err := w.env.ExecuteActivity(w.acts.DispatchSetup, in); err != nil {
		t.Fatal(err)
	}
	if n := len(w.fake.Dispatched("web")); n != 2 {
		t.Fatalf("%d runs dispatched after the first was lost, want 2", n)
	}

	// A dispatch refused for a rate limit made no run: it is retried after
	// the limit's wait, and not taken for a dispatch whose run is coming.
	in.CorrelationID = "c2" // no run carries it
	if _, err := w.acts.Store.Pool().Exec(ctx, `UPDATE foundry_projects SET setup_dispatched_at = NULL WHERE id = $1`, w.project); err != nil {
		t.Fatal(err)
	}
	w.fake.RateLimitDispatches(1, time.Second)
	_, err = w.env.ExecuteActivity(w.acts.DispatchSetup, in)
	if !errors.As(err, &app) || app.Type() != activities.ErrTypeRateLimited || app.NextRetryDelay() < time.Second {
		t.Fatalf("rate-limited dispatch = %v, want RateLimited with a delay", err)
	}
	time.Sleep(app.NextRetryDelay()) // Temporal's wait before the next attempt
	if _, err := w.env.ExecuteActivity(w.acts.DispatchSetup, in); err != nil {
		t.Fatalf("dispatch after the rate limit: %v", err)
	}
	if n := len(w.fake.Dispatched("web")); n != 3 {
		t.Fatalf("%d runs dispatched, want 3", n)
	}
}
