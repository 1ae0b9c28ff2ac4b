package workflows_test

import (
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/testsuite"

	"hackdesk/activities"
	"hackdesk/workflows"
)

func TestHeadshotCleanup(t *testing.T) {
	t.Parallel()
	var a *activities.HeadshotActivities
	in := workflows.HeadshotCleanupInput{TermID: uuid.New(), ProfileID: uuid.New(), Kind: "onboarding",
		Key: "headshots/t/onboarding/p.png", ChangeID: uuid.New()}
	for _, c := range []struct {
		name string
		out  activities.CleanupResult
	}{
		{"Deletes", activities.CleanupResult{Deleted: true, Reason: "deleted"}},
		{"KeepsCurrentHeadshot", activities.CleanupResult{Reason: "kept: it is the current headshot"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var s testsuite.WorkflowTestSuite
			env := s.NewTestWorkflowEnvironment()
			env.RegisterWorkflow(workflows.HeadshotCleanup)
			env.RegisterActivity(&activities.HeadshotActivities{})
			env.OnActivity(a.DeleteHeadshotIfUnused, mock.Anything, activities.DeleteHeadshotInput{
				TermID: in.TermID, ProfileID: in.ProfileID, Kind: in.Kind, Key: in.Key}).Return(c.out, nil).Once()
			env.ExecuteWorkflow(workflows.HeadshotCleanup, in)
			if err := env.GetWorkflowError(); err != nil {
				t.Fatal(err)
			}
			var got workflows.ResumeCleanupResult
			if err := env.GetWorkflowResult(&got); err != nil {
				t.Fatal(err)
			}
			if got.Deleted != c.out.Deleted || got.Reason != c.out.Reason {
				t.Fatalf("result %+v, want %+v", got, c.out)
			}
			env.AssertExpectations(t)
		})
	}
	t.Run("ErrMissingKey", func(t *testing.T) {
		t.Parallel()
		var s testsuite.WorkflowTestSuite
		env := s.NewTestWorkflowEnvironment()
		env.RegisterWorkflow(workflows.HeadshotCleanup)
		env.ExecuteWorkflow(workflows.HeadshotCleanup, workflows.HeadshotCleanupInput{TermID: in.TermID, ProfileID: in.ProfileID})
		if env.GetWorkflowError() == nil {
			t.Fatal("want an error without a key")
		}
	})
	if req := workflows.HeadshotCleanupRequest(in); req.ID != "headshot-cleanup:"+in.Key+":"+in.ChangeID.String() ||
		req.Kind != workflows.KindTerm || req.Subject != in.TermID.String() {
		t.Fatalf("request %+v", req)
	}
}
