package workflows_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/mock"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"hackdesk/activities"
	"hackdesk/internal/feature/membership"
	"hackdesk/workflows"
)

func TestReceiptProcessing(t *testing.T) {
	t.Parallel()
	var a *activities.ReceiptActivities
	in := workflows.ReceiptProcessingInput{ReceiptID: uuid.New(), ShopDomain: "shop.hackdesk.test", TransactionID: "TX-1"}
	mid := uuid.New()
	newEnv := func(logger ...tlog.Logger) (*testsuite.TestWorkflowEnvironment, map[string]int) {
		var s testsuite.WorkflowTestSuite
		if len(logger) > 0 {
			s.SetLogger(logger[0])
		}
		env := s.NewTestWorkflowEnvironment()
		env.RegisterWorkflow(workflows.ReceiptProcessing)
		env.RegisterWorkflow(workflows.SendEmail)
		env.RegisterActivity(&activities.ReceiptActivities{})
		env.RegisterActivity(&activities.EmailActivities{})
		// The run delivers its confirmation itself (a local activity). A
		// SendEmail child would run for real and fail on its unmocked
		// RecordEmail, and deliver nothing here.
		sent := map[string]int{}
		var e *activities.EmailActivities
		env.OnActivity(e.DeliverEmail, mock.Anything, mock.Anything).
			Run(func(args mock.Arguments) { sent[args.Get(1).(string)]++ }).
			Return(activities.DeliverEmailResult{Status: "sent"}, nil)
		return env, sent
	}

	t.Run("Processed", func(t *testing.T) {
		t.Parallel()
		env, sent := newEnv()
		key := "membership-paid:" + mid.String()
		env.OnActivity(a.ApplyReceipt, mock.Anything, in.ReceiptID).Return(activities.ReceiptOutcome{
			Result: membership.Result{Status: "processed", MembershipID: &mid},
			Email:  &activities.EmailRef{Key: key, Kind: "membership_paid"},
		}, nil).Once()
		env.ExecuteWorkflow(workflows.ReceiptProcessing, in)
		var got workflows.ReceiptProcessingResult
		if err := env.GetWorkflowResult(&got); err != nil {
			t.Fatal(err)
		}
		if got.Status != "processed" || got.MembershipID == nil || *got.MembershipID != mid {
			t.Fatalf("result %+v", got)
		}
		if len(sent) != 1 || sent[key] != 1 {
			t.Fatalf("emails started %v, want one %s", sent, key)
		}
		env.AssertExpectations(t)
	})
	t.Run("Parked", func(t *testing.T) {
		t.Parallel()
		// What the run logs: the reason names the customer's email, which
		// stays out of every log line.
		var logged bytes.Buffer
		var lock sync.Mutex
		env, sent := newEnv(tlog.NewStructuredLogger(slog.New(slog.NewTextHandler(lockedWriter{&lock, &logged}, nil))))
		env.OnActivity(a.ApplyReceipt, mock.Anything, in.ReceiptID).Return(activities.ReceiptOutcome{
			Result: membership.Result{Status: "parked", Reason: "no account with the email b@x.test"}}, nil).Once()
		env.ExecuteWorkflow(workflows.ReceiptProcessing, in)
		var got workflows.ReceiptProcessingResult
		if err := env.GetWorkflowResult(&got); err != nil {
			t.Fatal(err)
		}
		if got.Status != "parked" || got.Reason != "no account with the email b@x.test" || len(sent) != 0 {
			t.Fatalf("result %+v, emails %v", got, sent)
		}
		lock.Lock()
		defer lock.Unlock()
		if !strings.Contains(logged.String(), "receipt parked") || strings.Contains(logged.String(), "b@x.test") {
			t.Fatalf("want the parking logged without the email; logged:\n%s", logged.String())
		}
	})
	t.Run("RetriesTransientErrors", func(t *testing.T) {
		t.Parallel()
		env, sent := newEnv()
		calls := 0
		env.OnActivity(a.ApplyReceipt, mock.Anything, in.ReceiptID).Return(
			func(_ context.Context, _ uuid.UUID) (activities.ReceiptOutcome, error) {
				calls++
				if calls < 3 {
					return activities.ReceiptOutcome{}, errors.New("database unreachable")
				}
				return activities.ReceiptOutcome{Result: membership.Result{Status: "processed", MembershipID: &mid},
					Email: &activities.EmailRef{Key: "k", Kind: "membership_paid"}}, nil
			})
		env.ExecuteWorkflow(workflows.ReceiptProcessing, in)
		if err := env.GetWorkflowError(); err != nil {
			t.Fatal(err)
		}
		if calls != 3 || sent["k"] != 1 {
			t.Fatalf("calls %d, emails %v", calls, sent)
		}
	})
	t.Run("ErrNotApplicableIsNotRetried", func(t *testing.T) {
		t.Parallel()
		env, _ := newEnv()
		calls := 0
		env.OnActivity(a.ApplyReceipt, mock.Anything, in.ReceiptID).Return(
			func(_ context.Context, _ uuid.UUID) (activities.ReceiptOutcome, error) {
				calls++
				return activities.ReceiptOutcome{}, temporal.NewNonRetryableApplicationError("rejected", activities.ErrTypeReceiptNotApplicable, nil)
			})
		env.ExecuteWorkflow(workflows.ReceiptProcessing, in)
		if env.GetWorkflowError() == nil || calls != 1 {
			t.Fatalf("error %v after %d calls, want a failure after 1", env.GetWorkflowError(), calls)
		}
	})
	t.Run("DeliveryRefusedFailsTheRun", func(t *testing.T) {
		t.Parallel()
		var s testsuite.WorkflowTestSuite
		env := s.NewTestWorkflowEnvironment()
		env.RegisterWorkflow(workflows.ReceiptProcessing)
		env.RegisterActivity(&activities.ReceiptActivities{})
		env.RegisterActivity(&activities.EmailActivities{})
		env.OnActivity(a.ApplyReceipt, mock.Anything, in.ReceiptID).Return(activities.ReceiptOutcome{
			Result: membership.Result{Status: "processed", MembershipID: &mid},
			Email:  &activities.EmailRef{Key: "k", Kind: "membership_paid"}}, nil)
		calls := 0
		var e *activities.EmailActivities
		env.OnActivity(e.DeliverEmail, mock.Anything, "k").Return(
			func(context.Context, string) (activities.DeliverEmailResult, error) {
				calls++
				return activities.DeliverEmailResult{}, temporal.NewNonRetryableApplicationError("refused", activities.ErrTypeDeliveryFailed, nil)
			})
		env.ExecuteWorkflow(workflows.ReceiptProcessing, in)
		if env.GetWorkflowError() == nil || calls != 1 {
			t.Fatalf("error %v after %d deliveries, want a failure after 1 (a refusal is not retried)", env.GetWorkflowError(), calls)
		}
	})
	t.Run("ErrBadInput", func(t *testing.T) {
		t.Parallel()
		env, _ := newEnv()
		env.ExecuteWorkflow(workflows.ReceiptProcessing, workflows.ReceiptProcessingInput{ReceiptID: in.ReceiptID})
		if env.GetWorkflowError() == nil {
			t.Fatal("want an error without a transaction")
		}
	})
	req := workflows.ReceiptProcessingRequest(in)
	if req.ID != "receipt:shop.hackdesk.test:TX-1" || req.Kind != workflows.KindReceipt || req.Subject != "TX-1" || req.Summary != "Receipt TX-1" {
		t.Fatalf("request %+v", req)
	}
}

// lockedWriter serializes writes to w: a test environment's logger is
// called from the workflow's and the activities' goroutines.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
