package activities_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"hackdesk/activities"
	"hackdesk/db"
	"hackdesk/dev/testenv"
	hdworker "hackdesk/worker"
)

func TestClassify(t *testing.T) {
	t.Parallel()
	own := temporal.NewApplicationError("a concurrent insert won", "Race", nil)
	for _, c := range []struct {
		name, wantType string
		err            error
		nonRetryable   bool
	}{
		{"Conflict", activities.ErrTypeDataConflict, &db.ConstraintError{Kind: db.ErrConflict, Constraint: "memberships_profile_id_term_id_key"}, true},
		{"WrappedInvalid", activities.ErrTypeDataInvalid, fmt.Errorf("record close: %w", &db.ConstraintError{Kind: db.ErrInvalid, Constraint: "x"}), true},
		{"InvalidSentinel", activities.ErrTypeDataInvalid, fmt.Errorf("%w: bad uuid", db.ErrInvalid), true},
		{"NotFoundStaysRetryable", "", fmt.Errorf("%w: no rows", db.ErrNotFound), false},
		{"OutageStaysRetryable", "", errors.New("dial tcp: connection refused"), false},
		{"ActivitysOwnKept", "Race", own, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := activities.Classify(c.err)
			var app *temporal.ApplicationError
			isApp := errors.As(got, &app)
			if c.wantType == "" {
				if isApp || got != c.err {
					t.Fatalf("Classify(%v) = %v, want it unchanged", c.err, got)
				}
				return
			}
			if !isApp || app.Type() != c.wantType || app.NonRetryable() != c.nonRetryable {
				t.Fatalf("Classify(%v) = %v, want type %s, non-retryable %v", c.err, got, c.wantType, c.nonRetryable)
			}
			if !errors.Is(got, db.ErrConflict) && !errors.Is(got, db.ErrInvalid) && c.wantType != "Race" {
				t.Errorf("Classify(%v) lost its cause", c.err)
			}
		})
	}
}

// TestWorkerStopsRetryingConstraintViolations runs a database activity
// that breaks a rule (the close of a term that does not exist: a foreign
// key) on hackdesk's worker, with a retry policy that would retry for a
// day: the workflow sees a non-retryable DataInvalid error at once.
func TestWorkerStopsRetryingConstraintViolations(t *testing.T) {
	t.Parallel()
	cfg := testenv.Config(t)
	store := testenv.Store(t)
	tc := testenv.Temporal(t, cfg)
	w := hdworker.New(tc, testenv.WorkerOptions(cfg), activities.NewSet(activities.Deps{Store: store}))
	w.RegisterWorkflowWithOptions(func(ctx workflow.Context, in activities.TermWindowCloseInput) (int, error) {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			StartToCloseTimeout: 30 * time.Second, ScheduleToCloseTimeout: 24 * time.Hour,
			RetryPolicy: &temporal.RetryPolicy{InitialInterval: 100 * time.Millisecond, BackoffCoefficient: 1},
		})
		var a *activities.TermActivities
		var n int
		err := workflow.ExecuteActivity(ctx, a.RecordWindowClosed, in).Get(ctx, &n)
		return n, err
	}, workflow.RegisterOptions{Name: "RecordCloseOfMissingTerm", VersioningBehavior: workflow.VersioningBehaviorPinned})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	testenv.MakeCurrent(t, tc, testenv.WorkerOptions(cfg))

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	run, err := tc.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "missing-term-close:" + uuid.NewString(), TaskQueue: cfg.TaskQueue},
		"RecordCloseOfMissingTerm", activities.TermWindowCloseInput{TermID: uuid.New(), Kind: "onboarding", ClosesAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	err = run.Get(ctx, nil)
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || app.Type() != activities.ErrTypeDataInvalid || !app.NonRetryable() {
		t.Fatalf("workflow error %v, want a non-retryable %s from the first attempt", err, activities.ErrTypeDataInvalid)
	}
}
