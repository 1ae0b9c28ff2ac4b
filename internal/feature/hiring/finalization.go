package hiring

import (
	"context"
	"errors"

	"github.com/google/uuid"

	"hackdesk/db"
)

// How the hiring page follows a term's finalization: its status, its run's
// step and counts. The API reads the run from Temporal and answers with
// these types; the words are here.

// FinalizationStatus is where a term's finalization is.
type FinalizationStatus string

const (
	FinalizationNone      FinalizationStatus = "none"    // not claimed
	FinalizationRunning   FinalizationStatus = "running" // claimed: queued in the outbox or running
	FinalizationCompleted FinalizationStatus = "completed"
	FinalizationFailed    FinalizationStatus = "failed" // failed, terminated, timed out or cancelled
)

// The steps of a finalization, in order, as the HiringFinalization
// workflow's progress query names them (Progress.Step).
const (
	StepLoad    = "loading the hires"
	StepPromote = "promoting the hires"
	StepDemote  = "demoting previous execs"
	StepWelcome = "sending welcome emails"
	StepRecord  = "recording the result"
	StepDone    = "done"
)

// stepNames names each step in the API.
var stepNames = map[string]string{
	StepLoad:    "load",
	StepPromote: "promote",
	StepDemote:  "demote",
	StepWelcome: "welcome",
	StepRecord:  "record",
	StepDone:    "done",
}

// Progress is what the HiringFinalization workflow's progress query
// answers. Its field names are the JSON of recorded histories.
type Progress struct {
	Step     string
	Hires    int
	Promoted int
	Previous int
	Welcomed int
}

// FinalizationProgress is where a finalization is in the API: its step
// (null before the run has started, or when the run could not tell) and
// its counts. Once it has completed the counts are its result: hires and
// promoted the new execs, previous the execs demoted, welcomed the emails
// sent.
type FinalizationProgress struct {
	Step     *string `json:"step"`
	Hires    int     `json:"hires"`
	Promoted int     `json:"promoted"`
	Previous int     `json:"previous"`
	Welcomed int     `json:"welcomed"`
}

// FinalizationView is the answer of GET /api/applications/hiring/finalization.
type FinalizationView struct {
	WorkflowID *string               `json:"workflow_id"`
	Status     FinalizationStatus    `json:"status"`
	Progress   *FinalizationProgress `json:"progress"`
	RunURL     *string               `json:"run_url"`
}

// View is the progress query's answer as the API gives it; a step it does
// not know is null.
func (p Progress) View() *FinalizationProgress {
	out := &FinalizationProgress{Hires: p.Hires, Promoted: p.Promoted, Previous: p.Previous, Welcomed: p.Welcomed}
	if step, ok := stepNames[p.Step]; ok {
		out.Step = &step
	}
	return out
}

// View is a completed finalization's result as the API gives it.
func (r Result) View() *FinalizationProgress {
	done := stepNames[StepDone]
	return &FinalizationProgress{Step: &done, Hires: r.Promoted, Promoted: r.Promoted, Previous: r.Demoted, Welcomed: r.Welcomed}
}

// RecordedView is the result a finalization recorded on its row (a
// missing count is 0), as the API gives it.
func RecordedView(f db.HiringFinalization) *FinalizationProgress {
	n := func(v *int32) int {
		if v == nil {
			return 0
		}
		return int(*v)
	}
	return Result{Promoted: n(f.Promoted), Demoted: n(f.Demoted), Welcomed: n(f.Welcomed)}.View()
}

// StoredView is the progress a finalization's row holds: its result once
// recorded (RecordedView); before that the step its run marked (nil while
// queued), the plan's size and the hires promoted so far. Welcome emails
// are counted with the result.
func StoredView(f db.HiringFinalization) *FinalizationProgress {
	if f.FinalizedAt != nil {
		v := RecordedView(f)
		if f.Hires != nil {
			v.Hires = int(*f.Hires)
		}
		return v
	}
	n := func(v *int32) int {
		if v == nil {
			return 0
		}
		return int(*v)
	}
	out := &FinalizationProgress{Hires: n(f.Hires), Promoted: n(f.Promoted), Previous: n(f.Previous)}
	for _, name := range stepNames { // the row holds the API's names
		if f.Step != nil && *f.Step == name {
			out.Step = &name
		}
	}
	return out
}

// MarkStep records on the term's finalization the step its run (runID,
// kept when empty) has started; nothing once the outcome is recorded.
// Marking a step again changes nothing, so an activity marks its own step
// as it starts.
func MarkStep(ctx context.Context, q *db.Queries, termID uuid.UUID, step, runID string) error {
	var run *string
	if runID != "" {
		run = &runID
	}
	name := stepNames[step]
	return q.HiringFinalizationStep(ctx, db.HiringFinalizationStepParams{TermID: termID, Step: &name, RunID: run})
}

// MarkPlanned records the plan's size on the term's finalization.
func MarkPlanned(ctx context.Context, q *db.Queries, termID uuid.UUID, p Plan) error {
	return q.HiringFinalizationPlanned(ctx, db.HiringFinalizationPlannedParams{TermID: termID,
		Hires: ptr32(len(p.Hires)), Previous: ptr32(len(p.Previous))})
}

// MarkPromoted counts the hires promoted so far on the term's
// finalization (those holding their exec role of the term now), so a
// batch run twice counts its hires once.
func MarkPromoted(ctx context.Context, q *db.Queries, termID uuid.UUID) error {
	return q.HiringFinalizationCountPromoted(ctx, termID)
}

// FinalizationOf reads the finalization claimed for the term TermOf finds
// (termID, else the hiring term); claimed is false when there is none
// yet. TermOf's errors are returned as they are.
func FinalizationOf(ctx context.Context, q *db.Queries, termID string) (f db.HiringFinalization, claimed bool, err error) {
	t, err := TermOf(ctx, q, termID)
	if err != nil {
		return f, false, err
	}
	f, err = q.HiringFinalizationGet(ctx, t.ID)
	if errors.Is(err, db.ErrNotFound) {
		return f, false, nil
	}
	return f, err == nil, err
}
