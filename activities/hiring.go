package activities

import (
	"context"
	"errors"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"

	"hackdesk/db"
	"hackdesk/internal/feature/hiring"
	"hackdesk/internal/feature/term"
)

// The HiringFinalization workflow's activity types are package hiring's:
// one type on each side of the Temporal boundary.
type (
	Hire               = hiring.Hire
	HiringPlanInput    = hiring.PlanInput
	HiringPlan         = hiring.Plan
	PromoteHiresInput  = hiring.PromoteInput
	DemoteInput        = hiring.DemoteInput
	WelcomeInput       = hiring.WelcomeInput
	FinalizationResult = hiring.Result
)

// Each activity of the finalization first marks its step on the term's
// finalization row (hiring.MarkStep), which is where the hiring page reads
// the progress: the workflow's own progress query is for operators.

// markStep marks the step the run of the calling activity has started
// (called outside an activity, as the tests do, the run is not known).
func (a *HiringActivities) markStep(ctx context.Context, termID uuid.UUID, step string) error {
	var runID string
	if activity.IsActivity(ctx) {
		runID = activity.GetInfo(ctx).WorkflowExecution.RunID
	}
	return hiring.MarkStep(ctx, a.Store.Queries, termID, step, runID)
}

// LoadHiringPlan reads what the finalization does (hiring.LoadPlan) and
// keeps its size on the finalization. A term that no longer exists fails
// it for good (TermNotFound).
func (a *HiringActivities) LoadHiringPlan(ctx context.Context, in HiringPlanInput) (HiringPlan, error) {
	if err := a.markStep(ctx, in.TermID, hiring.StepLoad); err != nil {
		return HiringPlan{}, err
	}
	plan, err := hiring.LoadPlan(ctx, a.Store.Queries, in)
	if errors.Is(err, term.ErrMissing) {
		return plan, termGone(in.TermID)
	}
	if err != nil {
		return plan, err
	}
	return plan, hiring.MarkPlanned(ctx, a.Store.Queries, in.TermID, plan)
}

// PromoteHires promotes a batch of hires (hiring.Promote) in one
// transaction, counting the hires promoted so far, and answers how many
// it covered.
func (a *HiringActivities) PromoteHires(ctx context.Context, in PromoteHiresInput) (int, error) {
	if err := a.markStep(ctx, in.TermID, hiring.StepPromote); err != nil {
		return 0, err
	}
	var n int
	err := a.Store.InTx(ctx, func(q *db.Queries) (err error) {
		if n, err = hiring.Promote(ctx, q, in); err != nil {
			return err
		}
		return hiring.MarkPromoted(ctx, q, in.TermID)
	})
	return n, err
}

// DemotePrevious ends the previous execs' roles (hiring.Demote).
func (a *HiringActivities) DemotePrevious(ctx context.Context, in DemoteInput) error {
	if err := a.markStep(ctx, in.TermID, hiring.StepDemote); err != nil {
		return err
	}
	if len(in.ProfileIDs) == 0 {
		return nil
	}
	return a.Store.InTx(ctx, func(q *db.Queries) error { return hiring.Demote(ctx, q, in) })
}

// RecordWelcomeEmails records one welcome email per hire (hiring.Welcome)
// and returns their refs for the workflow to deliver.
func (a *HiringActivities) RecordWelcomeEmails(ctx context.Context, in WelcomeInput) ([]EmailRef, error) {
	if err := a.markStep(ctx, in.TermID, hiring.StepWelcome); err != nil {
		return nil, err
	}
	var refs []EmailRef
	err := a.Store.InTx(ctx, func(q *db.Queries) (err error) {
		refs, err = hiring.Welcome(ctx, q, in)
		return err
	})
	return refs, err
}

// RecordFinalization stores the outcome on the term's finalization once
// (hiring.RecordResult), which marks it done.
func (a *HiringActivities) RecordFinalization(ctx context.Context, in FinalizationResult) error {
	if err := a.markStep(ctx, in.TermID, hiring.StepRecord); err != nil {
		return err
	}
	return hiring.RecordResult(ctx, a.Store.Queries, in)
}
