package codehost

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"
	"time"

	"hackdesk/dev/fakegithub"
)

func newPair(t *testing.T) (*Client, *fakegithub.Server) {
	t.Helper()
	fake := fakegithub.New(fakegithub.Options{QueuedFor: 50 * time.Millisecond, RunFor: 300 * time.Millisecond})
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	c, err := New(Config{Token: fake.Token(), Org: fake.Org(), APIURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	return c, fake
}

func TestNewNeedsTokenAndOrg(t *testing.T) {
	t.Parallel()
	if _, err := New(Config{Org: "x"}); err == nil {
		t.Error("no token: want an error")
	}
	if _, err := New(Config{Token: "x"}); err == nil {
		t.Error("no org: want an error")
	}
	if _, err := New(Config{Token: "x", Org: "y", APIURL: "not a url"}); err == nil {
		t.Error("bad API URL: want an error")
	}
}

func TestTeamsAndTemplates(t *testing.T) {
	t.Parallel()
	c, _ := newPair(t)
	ctx := context.Background()
	teams, err := c.Teams(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(teams) != 2 || teams[0].Slug == "" || teams[0].Name == "" {
		t.Fatalf("teams = %+v", teams)
	}
	tpls, err := c.Templates(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, tp := range tpls {
		got[tp.ProjectType] = tp.FullName
	}
	for _, pt := range []string{"nextjs", "express", "fastapi"} {
		if got[pt] == "" {
			t.Errorf("no template for %s in %+v", pt, tpls)
		}
	}
	if _, err := c.TemplateFor(ctx, "rails"); !errors.Is(err, ErrNotFound) {
		t.Errorf("TemplateFor(rails) = %v, want ErrNotFound", err)
	}
}

func TestCreateGrantDispatchAndWatch(t *testing.T) {
	t.Parallel()
	c, fake := newPair(t)
	ctx := context.Background()
	tpl, err := c.TemplateFor(ctx, "express")
	if err != nil {
		t.Fatal(err)
	}
	repo, err := c.CreateFromTemplate(ctx, tpl.FullName, "svc", "a service", true)
	if err != nil {
		t.Fatal(err)
	}
	if repo.FullName != fake.Org()+"/svc" || repo.Template != tpl.FullName || repo.URL == "" {
		t.Fatalf("repo = %+v", repo)
	}
	if _, err := c.CreateFromTemplate(ctx, tpl.FullName, "svc", "", true); !errors.Is(err, ErrNameTaken) {
		t.Fatalf("second create: %v, want ErrNameTaken", err)
	}
	if got, err := c.Repository(ctx, "svc"); err != nil || got.FullName != repo.FullName {
		t.Fatalf("Repository = %+v, %v", got, err)
	}
	if _, err := c.Repository(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Repository(nope) = %v", err)
	}
	if err := c.GrantTeam(ctx, "platform", "svc", "push"); err != nil {
		t.Fatal(err)
	}
	if p := fake.TeamPermission("svc", "platform"); p != "push" {
		t.Fatalf("permission = %q", p)
	}
	if err := c.GrantTeam(ctx, "ghosts", "svc", "push"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown team: %v, want ErrNotFound", err)
	}
	if _, ok, err := c.FindRun(ctx, "svc", "corr-1"); err != nil || ok {
		t.Fatalf("FindRun before dispatch: ok=%v err=%v", ok, err)
	}
	if err := c.DispatchSetup(ctx, "svc", repo.DefaultBranch, map[string]any{"correlation_id": "corr-1", "database": "postgresql"}); err != nil {
		t.Fatal(err)
	}
	run, ok, err := c.FindRun(ctx, "svc", "corr-1")
	if err != nil || !ok {
		t.Fatalf("FindRun: ok=%v err=%v", ok, err)
	}
	if run.Completed() {
		t.Fatalf("run completed at once: %+v", run)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !run.Completed() && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		if run, err = c.Run(ctx, "svc", run.ID); err != nil {
			t.Fatal(err)
		}
	}
	if run.Conclusion != "success" {
		t.Fatalf("run = %+v", run)
	}
	runs, err := c.RecentRuns(ctx, "svc", 10)
	if err != nil || len(runs) != 1 || runs[0].ID != run.ID {
		t.Fatalf("RecentRuns = %+v, %v", runs, err)
	}
	if in := fake.Dispatched("svc"); len(in) != 1 || in[0]["database"] != "postgresql" {
		t.Fatalf("dispatched inputs = %v", in)
	}
}

func TestFailedStep(t *testing.T) {
	t.Parallel()
	c, fake := newPair(t)
	ctx := context.Background()
	tpl, _ := c.TemplateFor(ctx, "fastapi")
	if _, err := c.CreateFromTemplate(ctx, tpl.FullName, "api", "", false); err != nil {
		t.Fatal(err)
	}
	fake.FailStep("api", "Configure database")
	if err := c.DispatchSetup(ctx, "api", "main", map[string]any{"correlation_id": "c2"}); err != nil {
		t.Fatal(err)
	}
	run, _, err := c.FindRun(ctx, "api", "c2")
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(400 * time.Millisecond)
	if run, err = c.Run(ctx, "api", run.ID); err != nil || run.Conclusion != "failure" {
		t.Fatalf("run = %+v, %v", run, err)
	}
	step, err := c.FailedStep(ctx, "api", run.ID)
	if err != nil || step != "setup / Configure database" {
		t.Fatalf("FailedStep = %q, %v", step, err)
	}
}

func TestRateLimitRetried(t *testing.T) {
	t.Parallel()
	for _, secondary := range []bool{false, true} {
		c, fake := newPair(t)
		fake.RateLimit(1, secondary)
		start := time.Now()
		teams, err := c.Teams(context.Background())
		if err != nil || len(teams) != 2 {
			t.Fatalf("secondary=%v: Teams = %v, %v", secondary, teams, err)
		}
		if time.Since(start) < 900*time.Millisecond {
			t.Errorf("secondary=%v: answered after %s, before the limit passed", secondary, time.Since(start))
		}
	}
}

func TestRateLimitGivesUpPastMaxWait(t *testing.T) {
	t.Parallel()
	c, fake := newPair(t)
	c.maxWait = 100 * time.Millisecond
	fake.RateLimit(1, true)
	if _, err := c.Teams(context.Background()); !errors.Is(err, ErrRateLimited) {
		t.Fatalf("Teams = %v, want ErrRateLimited", err)
	}
}

// TestRateLimitWithoutWaiting: a client for Temporal activities returns a
// rate limit at once with the wait GitHub asked for, instead of sleeping
// through it (which can outlast an activity's timeout).
func TestRateLimitWithoutWaiting(t *testing.T) {
	t.Parallel()
	for _, secondary := range []bool{false, true} {
		c, fake := newPair(t)
		fake.RateLimitFor(1, secondary, 90*time.Second)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		start := time.Now()
		_, err := c.WithoutWaiting().Teams(ctx)
		cancel()
		var rl *RateLimitError
		if !errors.As(err, &rl) || !errors.Is(err, ErrRateLimited) {
			t.Fatalf("secondary=%v: Teams = %v, want a *RateLimitError", secondary, err)
		}
		if rl.RetryAfter < 85*time.Second || rl.RetryAfter > 92*time.Second {
			t.Errorf("secondary=%v: retry after %s, want about 90 s", secondary, rl.RetryAfter)
		}
		if took := time.Since(start); took > time.Second {
			t.Errorf("secondary=%v: answered after %s, want at once", secondary, took)
		}
		// The client it was made from still waits.
		if c.noWait {
			t.Error("WithoutWaiting changed the original client")
		}
	}
}

func TestBadToken(t *testing.T) {
	t.Parallel()
	fake := fakegithub.New(fakegithub.Options{})
	srv := httptest.NewServer(fake)
	defer srv.Close()
	c, _ := New(Config{Token: "wrong", Org: fake.Org(), APIURL: srv.URL})
	if _, err := c.Teams(context.Background()); err == nil {
		t.Fatal("want an error for a bad token")
	}
}
