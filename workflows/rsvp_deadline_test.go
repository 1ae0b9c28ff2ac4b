package workflows_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"hackdesk/activities"
	"hackdesk/workflows"
)

func newRsvpEnv(t *testing.T) *testsuite.TestWorkflowEnvironment {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflow(workflows.RsvpDeadline)
	env.RegisterWorkflow(workflows.SendEmail)
	env.RegisterActivity(&activities.RsvpActivities{})
	return env
}

// expiring matches ExpireOffers for batch against deadline: the offers are
// expired by the deadline the workflow carries, not the database's clock.
func expiring(batch uuid.UUID, deadline time.Time) any {
	return mock.MatchedBy(func(in activities.ExpireOffersInput) bool {
		return in.BatchID == batch && in.Deadline.Equal(deadline)
	})
}

func TestRsvpDeadline(t *testing.T) {
	t.Parallel()
	var a *activities.RsvpActivities
	batch := uuid.New()

	t.Run("RemindsThenExpiresNothing", func(t *testing.T) {
		t.Parallel()
		env := newRsvpEnv(t)
		start := env.Now()
		deadline := start.Add(5 * 24 * time.Hour)
		var remindedAt, expiredAt time.Time
		env.OnActivity(a.RecordRsvpReminders, mock.Anything, mock.MatchedBy(func(in activities.RsvpEmailsInput) bool {
			return in.Deadline.Equal(deadline) && in.PublicURL == "https://h.test"
		})).
			Run(func(mock.Arguments) { remindedAt = env.Now() }).
			Return([]activities.EmailRef{{Key: "r1", Kind: "rsvp_reminder"}, {Key: "r2", Kind: "rsvp_reminder"}}, nil).Once()
		env.OnActivity(a.RecordOfferEmails, mock.Anything, activities.OfferEmailsInput{BatchID: batch, PublicURL: "https://h.test"}).
			Return([]activities.EmailRef{{Key: "o1", Kind: "offer"}}, nil).Once()
		var mu sync.Mutex // children run on goroutines of their own
		sent := map[string]bool{}
		env.OnWorkflow(workflows.SendEmail, mock.Anything, mock.Anything).
			Run(func(args mock.Arguments) {
				mu.Lock()
				defer mu.Unlock()
				sent[args.Get(1).(workflows.SendEmailInput).Key] = true
			}).
			Return(workflows.SendEmailResult{Status: "sent"}, nil)
		env.OnActivity(a.ExpireOffers, mock.Anything, expiring(batch, deadline)).Run(func(mock.Arguments) { expiredAt = env.Now() }).Return(0, nil).Once()

		env.ExecuteWorkflow(workflows.RsvpDeadline, workflows.RsvpDeadlineInput{BatchID: batch, Deadline: deadline, Window: 72 * time.Hour, PublicURL: "https://h.test"})
		if err := env.GetWorkflowError(); err != nil {
			t.Fatal(err)
		}
		var res workflows.RsvpDeadlineResult
		_ = env.GetWorkflowResult(&res)
		if res != (workflows.RsvpDeadlineResult{Offered: 1, Reminded: 2}) {
			t.Fatalf("result %+v", res)
		}
		if want := deadline.Add(-workflows.RsvpReminderLead); remindedAt.Before(want) || remindedAt.After(want.Add(time.Minute)) {
			t.Fatalf("reminded at %v, want 48 h before the deadline (%v)", remindedAt, want)
		}
		if expiredAt.Before(deadline) {
			t.Fatalf("expired at %v, before the deadline %v", expiredAt, deadline)
		}
		if !sent["o1"] || !sent["r1"] || !sent["r2"] {
			t.Fatalf("reminder emails started: %v", sent)
		}
		env.AssertExpectations(t)
	})

	t.Run("ExpiredPlacesGoToWaitlist", func(t *testing.T) {
		t.Parallel()
		env := newRsvpEnv(t)
		deadline := env.Now().Add(time.Hour) // inside the 48 h lead: no reminder
		env.OnActivity(a.RecordOfferEmails, mock.Anything, mock.Anything).Return([]activities.EmailRef{}, nil).Once()
		env.OnActivity(a.ExpireOffers, mock.Anything, expiring(batch, deadline)).Return(2, nil).Once()
		var promote activities.PromoteInput
		env.OnActivity(a.PromoteWaitlist, mock.Anything, mock.Anything).
			Run(func(args mock.Arguments) { promote = args.Get(1).(activities.PromoteInput) }).
			Return(1, nil).Once()
		env.ExecuteWorkflow(workflows.RsvpDeadline, workflows.RsvpDeadlineInput{BatchID: batch, Deadline: deadline, Window: 72 * time.Hour})
		var cont *workflow.ContinueAsNewError
		if err := env.GetWorkflowError(); !errors.As(err, &cont) {
			t.Fatalf("err = %v, want continue-as-new for the promoted batch", err)
		}
		if promote.Places != 2 || promote.BatchID != workflows.PromotionBatchID(batch) ||
			promote.Deadline.Sub(deadline) < 72*time.Hour {
			t.Fatalf("promotion %+v", promote)
		}
		env.AssertExpectations(t)
	})

	t.Run("NoWindowNoPromotion", func(t *testing.T) {
		t.Parallel()
		env := newRsvpEnv(t)
		deadline := env.Now().Add(time.Minute)
		env.OnActivity(a.RecordOfferEmails, mock.Anything, mock.Anything).Return([]activities.EmailRef{}, nil).Once()
		env.OnActivity(a.ExpireOffers, mock.Anything, expiring(batch, deadline)).Return(3, nil).Once()
		env.ExecuteWorkflow(workflows.RsvpDeadline, workflows.RsvpDeadlineInput{BatchID: batch, Deadline: deadline})
		var res workflows.RsvpDeadlineResult
		if err := env.GetWorkflowError(); err != nil {
			t.Fatal(err)
		}
		_ = env.GetWorkflowResult(&res)
		if res.Expired != 3 || res.Promoted != 0 {
			t.Fatalf("result %+v", res)
		}
	})
}

// TestRsvpDeadlineOutlivesDatabaseOutage: the database is down at the
// deadline (attempts fail for minutes, backing off); the activity keeps
// retrying and the workflow ends normally once it is back. (The test
// environment caps attempts at ten; TestRetryPoliciesOutlastOutages checks
// that the real policy has no cap.)
func TestRsvpDeadlineOutlivesDatabaseOutage(t *testing.T) {
	t.Parallel()
	var a *activities.RsvpActivities
	batch := uuid.New()
	env := newRsvpEnv(t)
	deadline := env.Now().Add(time.Minute)
	env.OnActivity(a.RecordOfferEmails, mock.Anything, mock.Anything).Return([]activities.EmailRef{}, nil).Once()
	outage := errors.New("connect: connection refused")
	env.OnActivity(a.ExpireOffers, mock.Anything, expiring(batch, deadline)).Return(0, outage).Times(9)
	env.OnActivity(a.ExpireOffers, mock.Anything, expiring(batch, deadline)).Return(4, nil).Once()
	env.ExecuteWorkflow(workflows.RsvpDeadline, workflows.RsvpDeadlineInput{BatchID: batch, Deadline: deadline})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatalf("the workflow ended during the outage: %v", err)
	}
	var res workflows.RsvpDeadlineResult
	if err := env.GetWorkflowResult(&res); err != nil || res.Expired != 4 {
		t.Fatalf("result %+v, %v", res, err)
	}
	env.AssertExpectations(t)
}

func TestPromotionBatchIDDeterministic(t *testing.T) {
	t.Parallel()
	b := uuid.New()
	first, again := workflows.PromotionBatchID(b), workflows.PromotionBatchID(b)
	if first != again || first == b || first == workflows.PromotionBatchID(uuid.New()) {
		t.Fatalf("promotion batch id %s (again %s) for batch %s: want a stable id of its own per batch", first, again, b)
	}
}

// TestSendAllBoundsChildren: an offer batch of 250 emails never has more
// than EmailChildrenInFlight SendEmail children started and unfinished
// (the server refuses a run more than 2,000 pending children); the next
// starts as one finishes, and every email is sent.
func TestSendAllBoundsChildren(t *testing.T) {
	t.Parallel()
	var a *activities.RsvpActivities
	batch := uuid.New()
	env := newRsvpEnv(t)
	refs := make([]activities.EmailRef, 250)
	for i := range refs {
		refs[i] = activities.EmailRef{Key: fmt.Sprintf("offer:%d", i), Kind: "offer"}
	}
	env.OnActivity(a.RecordOfferEmails, mock.Anything, mock.Anything).Return(refs, nil).Once()
	deadline := env.Now().Add(time.Hour)
	env.OnActivity(a.ExpireOffers, mock.Anything, expiring(batch, deadline)).Return(0, nil).Once()
	// Each email takes a minute to send: started ones stay unfinished.
	var mu sync.Mutex // children run on goroutines of their own
	startedAt := map[time.Time]int{}
	sent := map[string]bool{}
	env.OnWorkflow(workflows.SendEmail, mock.Anything, mock.Anything).After(time.Minute).
		Run(func(args mock.Arguments) {
			mu.Lock()
			defer mu.Unlock()
			startedAt[env.Now()]++
			sent[args.Get(1).(workflows.SendEmailInput).Key] = true
		}).
		Return(workflows.SendEmailResult{Status: "sent"}, nil)
	env.ExecuteWorkflow(workflows.RsvpDeadline, workflows.RsvpDeadlineInput{BatchID: batch, Deadline: deadline})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	for at, n := range startedAt {
		if n > workflows.EmailChildrenInFlight {
			t.Errorf("%d children started at %v, want at most %d unfinished at once", n, at, workflows.EmailChildrenInFlight)
		}
	}
	if len(sent) != len(refs) {
		t.Fatalf("%d of %d emails started", len(sent), len(refs))
	}
}
