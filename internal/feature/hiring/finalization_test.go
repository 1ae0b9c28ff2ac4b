package hiring

import (
	"testing"

	"hackdesk/db"
)

// The API names the workflow's steps; a step it does not know is null, and
// a result (returned or recorded) is the done step with its counts.
func TestFinalizationProgressView(t *testing.T) {
	t.Parallel()
	step := func(p *FinalizationProgress) string {
		if p.Step == nil {
			return "<nil>"
		}
		return *p.Step
	}
	for _, tc := range []struct {
		name string
		got  *FinalizationProgress
		want FinalizationProgress
		step string
	}{
		{"OKLoad", Progress{Step: StepLoad, Hires: 3, Previous: 2}.View(), FinalizationProgress{Hires: 3, Previous: 2}, "load"},
		{"OKPromote", Progress{Step: StepPromote, Hires: 3, Promoted: 1}.View(), FinalizationProgress{Hires: 3, Promoted: 1}, "promote"},
		{"OKDemote", Progress{Step: StepDemote}.View(), FinalizationProgress{}, "demote"},
		{"OKWelcome", Progress{Step: StepWelcome, Welcomed: 1}.View(), FinalizationProgress{Welcomed: 1}, "welcome"},
		{"OKRecord", Progress{Step: StepRecord}.View(), FinalizationProgress{}, "record"},
		{"OKDone", Progress{Step: StepDone}.View(), FinalizationProgress{}, "done"},
		{"UnknownStepIsNull", Progress{Step: "something new", Hires: 1}.View(), FinalizationProgress{Hires: 1}, "<nil>"},
		{"OKResult", Result{Promoted: 3, Demoted: 2, Welcomed: 3}.View(), FinalizationProgress{Hires: 3, Promoted: 3, Previous: 2, Welcomed: 3}, "done"},
		{"OKRecorded", RecordedView(db.HiringFinalization{Promoted: ptr32(4), Demoted: ptr32(1)}),
			FinalizationProgress{Hires: 4, Promoted: 4, Previous: 1}, "done"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := step(tc.got); got != tc.step {
				t.Errorf("step = %s, want %s", got, tc.step)
			}
			got := *tc.got
			got.Step = nil
			if got != tc.want {
				t.Errorf("counts = %+v, want %+v", got, tc.want)
			}
		})
	}
}
