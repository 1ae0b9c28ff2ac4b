package workflows_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/testsuite"

	"hackdesk/activities"
	"hackdesk/internal/feature/privacy"
	"hackdesk/workflows"
)

// erasureRun runs AccountErasure with stand-in activities: the account's
// state is a script (the next answer of ErasureState each call), and every
// call is recorded with the workflow time it happened at.
type erasureRun struct {
	env    *testsuite.TestWorkflowEnvironment
	mu     sync.Mutex
	states []privacy.State
	begun  privacy.Begun
	calls  []string
	at     map[string]time.Time
}

func newErasureRun(t *testing.T, states []privacy.State, begun privacy.Begun) *erasureRun {
	var s testsuite.WorkflowTestSuite
	r := &erasureRun{env: s.NewTestWorkflowEnvironment(), states: states, begun: begun, at: map[string]time.Time{}}
	r.env.RegisterWorkflow(workflows.AccountErasure)
	note := func(ctx context.Context, name string) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.calls = append(r.calls, name)
		r.at[name] = r.env.Now()
		_ = activity.GetInfo(ctx)
	}
	reg := func(name string, fn any) {
		r.env.RegisterActivityWithOptions(fn, activity.RegisterOptions{Name: name})
	}
	reg("ErasureState", func(ctx context.Context, _ uuid.UUID) (privacy.State, error) {
		note(ctx, "state")
		r.mu.Lock()
		defer r.mu.Unlock()
		st := r.states[0]
		if len(r.states) > 1 {
			r.states = r.states[1:]
		}
		return st, nil
	})
	reg("BeginErasure", func(ctx context.Context, _ uuid.UUID) (privacy.Begun, error) {
		note(ctx, "begin")
		return r.begun, nil
	})
	reg("EraseObjects", func(ctx context.Context, _ privacy.Subject) (int, error) { note(ctx, "objects"); return 3, nil })
	reg("EraseApplications", func(ctx context.Context, _ privacy.Subject) (int, error) { note(ctx, "applications"); return 2, nil })
	reg("EraseRecords", func(ctx context.Context, _ privacy.Subject) (privacy.Erased, error) {
		note(ctx, "records")
		return privacy.Erased{Sessions: 1, Submissions: 1}, nil
	})
	reg("EraseEmails", func(ctx context.Context, _ privacy.Subject) (int, error) { note(ctx, "emails"); return 4, nil })
	reg("EraseTombstone", func(ctx context.Context, _ privacy.Subject) (int, error) { note(ctx, "tombstone"); return 1, nil })
	return r
}

func (r *erasureRun) run(t *testing.T, in workflows.AccountErasureInput) workflows.AccountErasureResult {
	t.Helper()
	r.env.ExecuteWorkflow(workflows.AccountErasure, in)
	if err := r.env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var res workflows.AccountErasureResult
	if err := r.env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	return res
}

func TestAccountErasure(t *testing.T) {
	t.Parallel()
	id := uuid.New()
	const grace = 7 * 24 * time.Hour

	t.Run("ErasedAfterGrace", func(t *testing.T) {
		t.Parallel()
		var r *erasureRun
		var s testsuite.WorkflowTestSuite
		start := s.NewTestWorkflowEnvironment().Now()
		eraseAt := start.Add(grace)
		r = newErasureRun(t, []privacy.State{{State: privacy.StateScheduled, EraseAt: eraseAt}, {State: privacy.StateDue, EraseAt: eraseAt}},
			privacy.Begun{State: privacy.StateErasing, Email: "ada@example.org"})
		start = r.env.Now()
		var waiting workflows.ErasureProgress
		r.env.RegisterDelayedCallback(func() {
			v, err := r.env.QueryWorkflow(workflows.ProgressQuery)
			if err != nil {
				t.Error(err)
				return
			}
			if err := v.Get(&waiting); err != nil {
				t.Error(err)
			}
		}, time.Hour)
		res := r.run(t, workflows.AccountErasureInput{ProfileID: id, Settle: 2 * time.Minute})
		if res.Outcome != workflows.ErasureErased || res.Erased.Objects != 3 || res.Erased.Applications != 2 || res.Erased.Emails != 5 {
			t.Fatalf("result %+v", res)
		}
		if waiting.Status != "waiting" || waiting.EraseAt == nil {
			t.Errorf("progress during the grace: %+v", waiting)
		}
		want := "state state begin objects applications records emails tombstone"
		if got := strings.Join(r.calls, " "); got != want {
			t.Errorf("calls %q, want %q", got, want)
		}
		if r.at["begin"].Before(start.Add(grace)) {
			t.Errorf("began at +%v, before the grace ended", r.at["begin"].Sub(start))
		}
		if d := r.at["tombstone"].Sub(r.at["emails"]); d < 2*time.Minute {
			t.Errorf("the tombstone came %v after the emails, before the settle time", d)
		}
		v, err := r.env.QueryWorkflow(workflows.ProgressQuery)
		if err != nil {
			t.Fatal(err)
		}
		var done workflows.ErasureProgress
		if err := v.Get(&done); err != nil {
			t.Fatal(err)
		}
		if done.Status != workflows.ErasureErased || strings.Join(done.Done, ",") != strings.Join(workflows.ErasureSteps, ",") {
			t.Errorf("final progress %+v", done)
		}
	})

	t.Run("KeptDuringGrace", func(t *testing.T) {
		t.Parallel()
		r := newErasureRun(t, nil, privacy.Begun{})
		eraseAt := r.env.Now().Add(grace)
		r.states = []privacy.State{{State: privacy.StateScheduled, EraseAt: eraseAt}, {State: privacy.StateNone}}
		r.env.RegisterDelayedCallback(func() { r.env.SignalWorkflow(workflows.AccountErasureSignal, struct{}{}) }, time.Hour)
		start := r.env.Now()
		res := r.run(t, workflows.AccountErasureInput{ProfileID: id})
		if res.Outcome != workflows.ErasureKept {
			t.Fatalf("outcome %q, want kept", res.Outcome)
		}
		if d := r.at["state"].Sub(start); d > 2*time.Hour {
			t.Errorf("the keep was read %v after the start, not at the signal", d)
		}
		for _, c := range r.calls {
			if c != "state" {
				t.Errorf("an erasure step ran: %v", r.calls)
			}
		}
	})

	t.Run("NotScheduled", func(t *testing.T) {
		t.Parallel()
		r := newErasureRun(t, []privacy.State{{State: privacy.StateNone}}, privacy.Begun{})
		if res := r.run(t, workflows.AccountErasureInput{ProfileID: id}); res.Outcome != workflows.ErasureKept || len(r.calls) != 1 {
			t.Fatalf("result %+v, calls %v", res, r.calls)
		}
	})

	t.Run("AlreadyErased", func(t *testing.T) {
		t.Parallel()
		r := newErasureRun(t, []privacy.State{{State: privacy.StateErased}}, privacy.Begun{})
		if res := r.run(t, workflows.AccountErasureInput{ProfileID: id}); res.Outcome != workflows.ErasureErased || len(r.calls) != 1 {
			t.Fatalf("result %+v, calls %v", res, r.calls)
		}
	})

	t.Run("RefusedAtBegin", func(t *testing.T) {
		t.Parallel()
		r := newErasureRun(t, []privacy.State{{State: privacy.StateDue}},
			privacy.Begun{State: privacy.StateNone, Refused: "You are the last superadmin"})
		res := r.run(t, workflows.AccountErasureInput{ProfileID: id})
		if res.Outcome != workflows.ErasureRefused || res.Refused == "" || strings.Contains(strings.Join(r.calls, " "), "objects") {
			t.Fatalf("result %+v, calls %v", res, r.calls)
		}
	})

	t.Run("ErrNoProfile", func(t *testing.T) {
		t.Parallel()
		var s testsuite.WorkflowTestSuite
		env := s.NewTestWorkflowEnvironment()
		env.RegisterWorkflow(workflows.AccountErasure)
		env.ExecuteWorkflow(workflows.AccountErasure, workflows.AccountErasureInput{})
		if env.GetWorkflowError() == nil {
			t.Fatal("want an error without a profile")
		}
	})
}

func TestAccountErasureRequest(t *testing.T) {
	t.Parallel()
	id := uuid.MustParse("11111111-2222-3333-4444-555555555555")
	r := workflows.AccountErasureRequest(workflows.AccountErasureInput{ProfileID: id})
	if r.ID != "erase:"+id.String() || r.Kind != workflows.KindErase || r.Subject != id.String() ||
		r.Signal != workflows.AccountErasureSignal || !strings.Contains(r.Summary, id.String()) {
		t.Fatalf("request %+v", r)
	}
}

func TestRetentionWorkflow(t *testing.T) {
	t.Parallel()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflow(workflows.Retention)
	var a *activities.RetentionActivities
	env.RegisterActivity(a)
	apps := []activities.RetentionBatch{{Rows: 500, Objects: 480, More: true}, {Rows: 20, Objects: 20}}
	env.OnActivity(a.PurgeApplications, mock.Anything).Return(func(context.Context) (activities.RetentionBatch, error) {
		b := apps[0]
		apps = apps[1:]
		return b, nil
	})
	env.OnActivity(a.PurgeSubmissions, mock.Anything).Return(activities.RetentionBatch{Rows: 2, Objects: 1}, nil).Once()
	env.OnActivity(a.PurgeRecords, mock.Anything).Return(activities.RetentionCount{Emails: 7, Receipts: 1, Sessions: 3, OutboxInputs: 9}, nil).Once()
	var recorded activities.RecordRetentionInput
	env.OnActivity(a.RecordRetentionRun, mock.Anything, mock.Anything).Return(func(_ context.Context, in activities.RecordRetentionInput) error {
		recorded = in
		return nil
	}).Once()
	env.ExecuteWorkflow(workflows.Retention)
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var res workflows.RetentionResult
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	want := workflows.RetentionResult{Applications: 520, Resumes: 500, Submissions: 2, Headshots: 1, Emails: 7,
		Receipts: 1, Sessions: 3, OutboxInputs: 9}
	if res != want || recorded.Purged != want || recorded.WorkflowID == "" {
		t.Fatalf("result %+v, recorded %+v; want %+v", res, recorded, want)
	}
	env.AssertExpectations(t)
}
