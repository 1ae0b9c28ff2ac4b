package workflows_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/testsuite"

	"hackdesk/activities"
	"hackdesk/workflows"
)

func TestResumeCleanup(t *testing.T) {
	t.Parallel()
	var a *activities.ResumeActivities
	profile := uuid.New()
	in := workflows.ResumeCleanupInput{ProfileID: profile, OldKey: profile.String() + "/old.pdf", UploadID: uuid.New(), Grace: time.Hour}

	for _, c := range []struct {
		name string
		out  activities.CleanupResult
	}{
		{"DeletesAfterGrace", activities.CleanupResult{Deleted: true, Reason: "deleted"}},
		{"KeepsCurrentResume", activities.CleanupResult{Reason: "kept: it is the current resume"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var s testsuite.WorkflowTestSuite
			env := s.NewTestWorkflowEnvironment()
			env.RegisterWorkflow(workflows.ResumeCleanup)
			env.RegisterActivity(&activities.ResumeActivities{})
			start := env.Now()
			var calledAt time.Time
			env.OnActivity(a.DeleteResumeIfUnused, mock.Anything, activities.DeleteResumeInput{ProfileID: profile, Key: in.OldKey}).
				Run(func(mock.Arguments) { calledAt = env.Now() }).
				Return(c.out, nil).Once()
			env.ExecuteWorkflow(workflows.ResumeCleanup, in)
			if err := env.GetWorkflowError(); err != nil {
				t.Fatal(err)
			}
			if waited := calledAt.Sub(start); waited < time.Hour {
				t.Fatalf("deleted after %v, before the links' hour ran out", waited)
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
		env.RegisterWorkflow(workflows.ResumeCleanup)
		env.ExecuteWorkflow(workflows.ResumeCleanup, workflows.ResumeCleanupInput{ProfileID: profile})
		if env.GetWorkflowError() == nil {
			t.Fatal("want an error without an old key")
		}
	})
}

func TestResumeCleanupID(t *testing.T) {
	t.Parallel()
	u := uuid.MustParse("11111111-2222-3333-4444-555555555555")
	if got := workflows.ResumeCleanupID(u); got != "resume-cleanup:11111111-2222-3333-4444-555555555555" {
		t.Fatalf("got %q", got)
	}
	// The file name (personal data) is neither in the ID nor the summary.
	r := workflows.ResumeCleanupRequest(workflows.ResumeCleanupInput{ProfileID: u, OldKey: u.String() + "/Ada Lovelace CV.pdf", UploadID: u})
	if strings.Contains(r.ID, "Lovelace") || strings.Contains(r.Summary, "Lovelace") || strings.Contains(r.Subject, "Lovelace") {
		t.Fatalf("request names the file: %+v", r)
	}
}
