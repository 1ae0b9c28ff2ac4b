package worker_test

import (
	"slices"
	"testing"

	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"hackdesk/worker"
)

// registry records the workflows registered and their options.
type registry struct {
	sdkworker.WorkflowRegistry
	got map[string]workflow.RegisterOptions
}

func (r *registry) RegisterWorkflowWithOptions(_ any, o workflow.RegisterOptions) { r.got[o.Name] = o }

// TestVersioningBehaviors: the long-running workflows auto-upgrade, every
// other one is pinned to the build that started it, and none is left to a
// default (a worker with Worker Versioning on refuses one).
func TestVersioningBehaviors(t *testing.T) {
	r := &registry{got: map[string]workflow.RegisterOptions{}}
	worker.RegisterWorkflows(r)
	if len(r.got) != len(worker.Workflows) || len(r.got) < 11 {
		t.Fatalf("%d workflows registered, want each of the %d", len(r.got), len(worker.Workflows))
	}
	autoUpgrade := []string{"RsvpDeadline", "TermWindow", "ApplicationWindow", "AccountErasure", "EventDay"}
	for name, o := range r.got {
		want := workflow.VersioningBehaviorPinned
		if slices.Contains(autoUpgrade, name) {
			want = workflow.VersioningBehaviorAutoUpgrade
		}
		if o.VersioningBehavior != want {
			t.Errorf("%s registered with versioning behaviour %v, want %v", name, o.VersioningBehavior, want)
		}
	}
	for _, name := range append(autoUpgrade, "SendEmail", "HiringFinalization", "FoundryLaunch", "Broadcast") {
		if _, ok := r.got[name]; !ok {
			t.Errorf("%s is not registered", name)
		}
	}
}
