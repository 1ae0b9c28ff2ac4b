package workflows_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"hackdesk/activities"
	"hackdesk/workflows"
)

func TestSweep(t *testing.T) {
	t.Parallel()
	var a *activities.SweepActivities
	newEnv := func() *testsuite.TestWorkflowEnvironment {
		var s testsuite.WorkflowTestSuite
		env := s.NewTestWorkflowEnvironment()
		env.RegisterWorkflow(workflows.Sweep)
		env.RegisterActivity(&activities.SweepActivities{})
		return env
	}
	t.Run("DeletesEach", func(t *testing.T) {
		t.Parallel()
		env := newEnv()
		env.OnActivity(a.SweepWebhookTokens, mock.Anything).Return(int64(3), nil).Once()
		env.OnActivity(a.SweepIdempotencyKeys, mock.Anything).Return(int64(2), nil).Once()
		env.OnActivity(a.SweepRateLimits, mock.Anything).Return(int64(7), nil).Once()
		env.ExecuteWorkflow(workflows.Sweep)
		var got workflows.SweepResult
		if err := env.GetWorkflowResult(&got); err != nil {
			t.Fatal(err)
		}
		if got != (workflows.SweepResult{WebhookTokens: 3, IdempotencyKeys: 2, RateLimits: 7}) {
			t.Fatalf("result %+v", got)
		}
		env.AssertExpectations(t)
	})
	t.Run("OneFailingIsRetriedAlone", func(t *testing.T) {
		t.Parallel()
		env := newEnv()
		env.OnActivity(a.SweepWebhookTokens, mock.Anything).Return(int64(1), nil).Once()
		env.OnActivity(a.SweepIdempotencyKeys, mock.Anything).Return(int64(0), errors.New("connection reset")).Once()
		env.OnActivity(a.SweepIdempotencyKeys, mock.Anything).Return(int64(4), nil).Once()
		env.OnActivity(a.SweepRateLimits, mock.Anything).Return(int64(0), nil).Once()
		env.ExecuteWorkflow(workflows.Sweep)
		var got workflows.SweepResult
		if err := env.GetWorkflowResult(&got); err != nil {
			t.Fatal(err)
		}
		if got.IdempotencyKeys != 4 || got.WebhookTokens != 1 {
			t.Fatalf("result %+v", got)
		}
		env.AssertExpectations(t)
	})
	t.Run("GivesUpBeforeTheNextRun", func(t *testing.T) {
		t.Parallel()
		env := newEnv()
		env.OnActivity(a.SweepWebhookTokens, mock.Anything).Return(int64(0), nil)
		env.OnActivity(a.SweepIdempotencyKeys, mock.Anything).Return(int64(0), nil)
		env.OnActivity(a.SweepRateLimits, mock.Anything).Return(int64(0), errors.New("database down"))
		start := env.Now()
		env.ExecuteWorkflow(workflows.Sweep)
		if err := env.GetWorkflowError(); err == nil {
			t.Fatal("a sweep whose activity never succeeds succeeded")
		}
		// The schedule skips starts while a run is open: a failing sweep
		// must end before the next one is due.
		if took := env.Now().Sub(start); took > 10*time.Minute {
			t.Fatalf("a failing sweep ran %s, longer than the schedule's interval", took)
		}
	})
}

// noEditions registers the reconciler's hackathon activities with no
// edition whose window is ahead: the term tests see the terms alone.
func noEditions(env *testsuite.TestWorkflowEnvironment) {
	var h *activities.HackathonActivities
	env.RegisterActivity(&activities.HackathonActivities{})
	env.OnActivity(h.HackathonsWithFutureWindows, mock.Anything).Return([]activities.FutureApplicationWindow{}, nil)
}

func TestTermReconcile(t *testing.T) {
	t.Parallel()
	var a *activities.TermActivities
	opens := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	closes := opens.Add(14 * 24 * time.Hour)
	running, missing := uuid.New(), uuid.New()
	terms := []activities.FutureWindowTerm{
		{TermID: running, TermName: "2026-2027", Windows: activities.TermDates{OnboardingOpensAt: &opens, OnboardingClosesAt: &closes}},
		{TermID: missing, TermName: "2027-2028", Windows: activities.TermDates{ReturningOpensAt: &opens, ReturningClosesAt: &closes}},
	}

	t.Run("StartsEachTermsWindow", func(t *testing.T) {
		t.Parallel()
		var s testsuite.WorkflowTestSuite
		env := s.NewTestWorkflowEnvironment()
		env.RegisterWorkflow(workflows.TermReconcile)
		env.RegisterWorkflow(workflows.TermWindow)
		env.RegisterActivity(&activities.TermActivities{})
		noEditions(env)
		env.OnActivity(a.TermsWithFutureWindows, mock.Anything).Return(terms, nil).Once()
		started := map[uuid.UUID]workflows.TermWindowInput{}
		env.OnWorkflow(workflows.TermWindow, mock.Anything, mock.Anything).
			Run(func(args mock.Arguments) {
				in := args.Get(1).(workflows.TermWindowInput)
				started[in.TermID] = in
			}).
			Return(workflows.TermWindowResult{}, nil)
		env.ExecuteWorkflow(workflows.TermReconcile, workflows.TermReconcileInput{PublicURL: "https://hackdesk.test"})
		var got workflows.TermReconcileResult
		if err := env.GetWorkflowResult(&got); err != nil {
			t.Fatal(err)
		}
		if got.Terms != 2 || len(got.Started) != 2 {
			t.Fatalf("result %+v, want both terms started", got)
		}
		in := started[missing]
		if len(started) != 2 || in.TermName != "2027-2028" || in.PublicURL != "https://hackdesk.test" ||
			in.Windows.ReturningClosesAt == nil || !in.Windows.ReturningClosesAt.Equal(closes) {
			t.Fatalf("TermWindow inputs %+v", started)
		}
		env.AssertExpectations(t)
	})
	t.Run("NoTerms", func(t *testing.T) {
		t.Parallel()
		var s testsuite.WorkflowTestSuite
		env := s.NewTestWorkflowEnvironment()
		env.RegisterWorkflow(workflows.TermReconcile)
		env.RegisterWorkflow(workflows.TermWindow)
		env.RegisterActivity(&activities.TermActivities{})
		noEditions(env)
		env.OnActivity(a.TermsWithFutureWindows, mock.Anything).Return([]activities.FutureWindowTerm{}, nil).Once()
		env.ExecuteWorkflow(workflows.TermReconcile, workflows.TermReconcileInput{})
		var got workflows.TermReconcileResult
		if err := env.GetWorkflowResult(&got); err != nil {
			t.Fatal(err)
		}
		if got.Terms != 0 || len(got.Started) != 0 {
			t.Fatalf("result %+v", got)
		}
	})
	t.Run("ListFails", func(t *testing.T) {
		t.Parallel()
		var s testsuite.WorkflowTestSuite
		env := s.NewTestWorkflowEnvironment()
		env.RegisterWorkflow(workflows.TermReconcile)
		env.RegisterActivity(&activities.TermActivities{})
		env.OnActivity(a.TermsWithFutureWindows, mock.Anything).
			Return(nil, temporal.NewNonRetryableApplicationError("boom", "Test", nil))
		env.ExecuteWorkflow(workflows.TermReconcile, workflows.TermReconcileInput{})
		if err := env.GetWorkflowError(); err == nil {
			t.Fatal("a failed listing succeeded")
		}
	})
}
