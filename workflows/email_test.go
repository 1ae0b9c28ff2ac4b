package workflows_test

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"hackdesk/activities"
	hdworker "hackdesk/worker"
	"hackdesk/workflows"
)

func newEnv(t *testing.T) *testsuite.TestWorkflowEnvironment {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflow(workflows.SendEmail)
	env.RegisterActivity(&activities.EmailActivities{})
	return env
}

func TestSendEmail(t *testing.T) {
	t.Parallel()
	in := workflows.SendEmailInput{Key: "k1", Kind: "notice", To: "a@example.com",
		Data: map[string]string{"subject": "Hi", "body": "Hello"}}
	var a *activities.EmailActivities

	t.Run("OK", func(t *testing.T) {
		t.Parallel()
		env := newEnv(t)
		env.OnActivity(a.RecordEmail, mock.Anything, activities.RecordEmailInput{
			Key: "k1", Kind: "notice", To: "a@example.com", Data: in.Data,
		}).Return(true, nil).Once()
		env.OnActivity(a.DeliverEmail, mock.Anything, "k1").
			Return(activities.DeliverEmailResult{Status: "sent", ProviderID: "p1"}, nil).Once()
		env.ExecuteWorkflow(workflows.SendEmail, in)
		if err := env.GetWorkflowError(); err != nil {
			t.Fatalf("workflow error: %v", err)
		}
		var got workflows.SendEmailResult
		if err := env.GetWorkflowResult(&got); err != nil {
			t.Fatal(err)
		}
		want := workflows.SendEmailResult{Status: "sent", ProviderID: "p1", Recorded: true}
		if got != want {
			t.Fatalf("result = %+v, want %+v", got, want)
		}
		env.AssertExpectations(t)
		v, err := env.QueryWorkflow(workflows.ProgressQuery)
		if err != nil {
			t.Fatal(err)
		}
		var progress string
		if err := v.Get(&progress); err != nil || progress != "sent" {
			t.Fatalf("progress = %q, %v; want sent", progress, err)
		}
	})

	t.Run("RetriesTransientDeliveryFailure", func(t *testing.T) {
		t.Parallel()
		env := newEnv(t)
		env.OnActivity(a.RecordEmail, mock.Anything, mock.Anything).Return(false, nil)
		env.OnActivity(a.DeliverEmail, mock.Anything, "k1").
			Return(activities.DeliverEmailResult{}, errors.New("connection refused")).Twice()
		env.OnActivity(a.DeliverEmail, mock.Anything, "k1").
			Return(activities.DeliverEmailResult{Status: "sent", ProviderID: "p2"}, nil).Once()
		env.ExecuteWorkflow(workflows.SendEmail, in)
		if err := env.GetWorkflowError(); err != nil {
			t.Fatalf("workflow error: %v", err)
		}
		var got workflows.SendEmailResult
		_ = env.GetWorkflowResult(&got)
		if got.Status != "sent" || got.ProviderID != "p2" || got.Recorded {
			t.Fatalf("result = %+v", got)
		}
		env.AssertExpectations(t)
	})

	t.Run("ErrPermanentNotRetried", func(t *testing.T) {
		t.Parallel()
		env := newEnv(t)
		env.OnActivity(a.RecordEmail, mock.Anything, mock.Anything).Return(true, nil)
		env.OnActivity(a.DeliverEmail, mock.Anything, "k1").Return(activities.DeliverEmailResult{Status: "failed"},
			temporal.NewNonRetryableApplicationError("rejected", activities.ErrTypeDeliveryFailed, nil)).Once()
		env.ExecuteWorkflow(workflows.SendEmail, in)
		err := env.GetWorkflowError()
		var appErr *temporal.ApplicationError
		if !errors.As(err, &appErr) || appErr.Type() != activities.ErrTypeDeliveryFailed {
			t.Fatalf("err = %v, want DeliveryFailed application error", err)
		}
		env.AssertExpectations(t)
	})

	t.Run("ErrMissingKey", func(t *testing.T) {
		t.Parallel()
		env := newEnv(t)
		env.ExecuteWorkflow(workflows.SendEmail, workflows.SendEmailInput{Kind: "notice", To: "a@example.com"})
		if env.GetWorkflowError() == nil {
			t.Fatal("want an error for a missing key")
		}
	})
}

func TestSendEmailID(t *testing.T) {
	t.Parallel()
	if got := workflows.SendEmailID("confirm:123"); got != "email:confirm:123" {
		t.Fatalf("got %q", got)
	}
}

// TestReplay replays every history recorded from a real run (see
// testdata/README.md: every version shipped is kept, and
// TestWorkflowVersionsHaveHistories holds one per version); a change that
// breaks determinism fails here.
func TestReplay(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/*.json")
	if err != nil || len(files) < 30 {
		t.Fatalf("%d recorded histories (%v): has testdata moved?", len(files), err)
	}
	for _, file := range files {
		t.Run(file, func(t *testing.T) {
			t.Parallel()
			r := newReplayer(t)
			hdworker.RegisterWorkflows(r)
			if err := r.ReplayWorkflowHistoryFromJSONFile(nil, file); err != nil {
				t.Fatalf("replay %s: %v", file, err)
			}
		})
	}
}
