package workflows_test

import (
	"errors"
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

// TestReplay replays histories recorded from real runs (see
// testdata/README.md); a change that breaks determinism fails here.
func TestReplay(t *testing.T) {
	t.Parallel()
	for _, file := range []string{
		// SendEmail, every version shipped (testdata/README.md).
		"testdata/send_email_v0.json",
		"testdata/send_email_prerecorded_v0.json",
		"testdata/send_email_v1.json",
		"testdata/send_email_prerecorded_v1.json",
		"testdata/send_email_local_activities.json",
		"testdata/send_email_prerecorded_local_activities.json",
		"testdata/send_email.json",
		"testdata/send_email_prerecorded.json",
		"testdata/resume_cleanup_deleted.json",
		"testdata/resume_cleanup_kept.json",
		"testdata/rsvp_deadline.json",
		"testdata/rsvp_deadline_reminder_v0.json",
		"testdata/rsvp_deadline_reminder.json",
		"testdata/hiring_finalization.json",
		"testdata/foundry_launch.json",
		"testdata/foundry_launch_failed_v0.json",
		"testdata/foundry_launch_failed.json",
		"testdata/foundry_launch_cancelled.json",
		"testdata/term_window.json",
		"testdata/term_window_rearm_v0.json",
		"testdata/term_window_rearm.json",
		"testdata/term_window_signal_with_timer.json",
		"testdata/headshot_cleanup.json",
		"testdata/broadcast.json",
		"testdata/broadcast_continue_as_new.json",
		"testdata/broadcast_cancelled.json",
		"testdata/receipt_processing.json",
		"testdata/receipt_processing_parked.json",
		"testdata/sweep.json",
		"testdata/term_reconcile.json",
		"testdata/term_reconcile_running.json",
		"testdata/term_reconcile_editions.json",
		"testdata/application_window.json",
		"testdata/application_window_reminder.json",
		"testdata/application_window_rearm.json",
		"testdata/application_window_e2e.json",
		"testdata/account_erasure.json",
		"testdata/account_erasure_kept.json",
		"testdata/retention.json",
	} {
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
