package workflows_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/testsuite"

	"hackdesk/activities"
	"hackdesk/internal/feature/hiring"
	"hackdesk/workflows"
)

func TestHiringFinalization(t *testing.T) {
	t.Parallel()
	var a *activities.HiringActivities
	term := uuid.New()
	in := workflows.HiringFinalizationInput{TermID: term, TermName: "2026-2027", AllHandsURL: "https://cal.test/x",
		OnboardingURL: "https://h.test/onboarding", ChatInviteURL: "https://chat.test/i"}

	t.Run("PromotesInBatchesDemotesWelcomes", func(t *testing.T) {
		t.Parallel()
		var s testsuite.WorkflowTestSuite
		env := s.NewTestWorkflowEnvironment()
		env.RegisterWorkflow(workflows.HiringFinalization)
		env.RegisterWorkflow(workflows.SendEmail)
		env.RegisterActivity(&activities.HiringActivities{})

		hires := make([]activities.Hire, 45)
		for i := range hires {
			hires[i] = activities.Hire{ProfileID: uuid.New(), Email: fmt.Sprintf("h%d@x.test", i), Name: "H", Position: "Dev", Subteam: "Tech", Exec: "Exec"}
		}
		prev := []uuid.UUID{uuid.New(), uuid.New()}
		env.OnActivity(a.LoadHiringPlan, mock.Anything, activities.HiringPlanInput{TermID: term}).
			Return(activities.HiringPlan{TermName: "2026-2027", Hires: hires, Previous: prev}, nil).Once()
		var batches []int
		env.OnActivity(a.PromoteHires, mock.Anything, mock.Anything).Run(func(args mock.Arguments) {
			in := args.Get(1).(activities.PromoteHiresInput)
			batches = append(batches, len(in.Hires))
		}).Return(func(_ context.Context, in activities.PromoteHiresInput) (int, error) { return len(in.Hires), nil })
		env.OnActivity(a.DemotePrevious, mock.Anything, activities.DemoteInput{TermID: term, ProfileIDs: prev}).Return(nil).Once()
		env.OnActivity(a.RecordWelcomeEmails, mock.Anything, mock.MatchedBy(func(w activities.WelcomeInput) bool {
			return w.AllHandsURL == in.AllHandsURL && w.ChatInviteURL == in.ChatInviteURL && len(w.Hires) == 45 && w.TermName == "2026-2027"
		})).Return(func(_ context.Context, w activities.WelcomeInput) ([]activities.EmailRef, error) {
			refs := make([]activities.EmailRef, len(w.Hires))
			for i, h := range w.Hires {
				refs[i] = activities.EmailRef{Key: hiring.WelcomeKey(term, h.ProfileID), Kind: "exec_welcome"}
			}
			return refs, nil
		}).Once()
		var mu sync.Mutex // children run on goroutines of their own
		sent := map[string]int{}
		env.OnWorkflow(workflows.SendEmail, mock.Anything, mock.Anything).
			Run(func(args mock.Arguments) {
				mu.Lock()
				defer mu.Unlock()
				sent[args.Get(1).(workflows.SendEmailInput).Key]++
			}).
			Return(workflows.SendEmailResult{Status: "sent"}, nil)
		env.OnActivity(a.RecordFinalization, mock.Anything, activities.FinalizationResult{TermID: term, Promoted: 45, Demoted: 2, Welcomed: 45}).Return(nil).Once()

		env.ExecuteWorkflow(workflows.HiringFinalization, in)
		if err := env.GetWorkflowError(); err != nil {
			t.Fatal(err)
		}
		var res activities.FinalizationResult
		if err := env.GetWorkflowResult(&res); err != nil {
			t.Fatal(err)
		}
		if res.Promoted != 45 || res.Demoted != 2 || res.Welcomed != 45 {
			t.Fatalf("result %+v", res)
		}
		if fmt.Sprint(batches) != "[20 20 5]" {
			t.Fatalf("promotion batches %v", batches)
		}
		if len(sent) != 45 {
			t.Fatalf("%d welcome emails started", len(sent))
		}
		for k, n := range sent {
			if n != 1 {
				t.Fatalf("%s started %d times", k, n)
			}
		}
		v, err := env.QueryWorkflow(workflows.ProgressQuery)
		if err != nil {
			t.Fatal(err)
		}
		var p workflows.HiringProgress
		if err := v.Get(&p); err != nil || p.Step != "done" || p.Promoted != 45 || p.Welcomed != 45 {
			t.Fatalf("progress %+v %v", p, err)
		}
		env.AssertExpectations(t)
	})

	t.Run("RejectsBadInput", func(t *testing.T) {
		t.Parallel()
		var s testsuite.WorkflowTestSuite
		env := s.NewTestWorkflowEnvironment()
		env.RegisterWorkflow(workflows.HiringFinalization)
		env.RegisterActivity(&activities.HiringActivities{})
		env.ExecuteWorkflow(workflows.HiringFinalization, workflows.HiringFinalizationInput{})
		if env.GetWorkflowError() == nil {
			t.Fatal("no error for a missing term")
		}
	})

	t.Run("Request", func(t *testing.T) {
		t.Parallel()
		req := workflows.HiringFinalizationRequest(in)
		if req.ID != "hiring-finalize:"+term.String() || req.Kind != workflows.KindHiring || req.Subject != term.String() ||
			req.Type != "HiringFinalization" || req.Summary != "Hiring finalization for 2026-2027" {
			t.Fatalf("request %+v", req)
		}
	})
}
