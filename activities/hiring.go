package activities

import (
	"context"
	"errors"

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

// LoadHiringPlan reads what the finalization does (hiring.LoadPlan). A
// term that no longer exists fails it for good (TermNotFound).
func (a *HiringActivities) LoadHiringPlan(ctx context.Context, in HiringPlanInput) (HiringPlan, error) {
	plan, err := hiring.LoadPlan(ctx, a.Store.Queries, in)
	if errors.Is(err, term.ErrMissing) {
		return plan, termGone(in.TermID)
	}
	return plan, err
}

// PromoteHires promotes a batch of hires (hiring.Promote) in one
// transaction and answers how many it covered.
func (a *HiringActivities) PromoteHires(ctx context.Context, in PromoteHiresInput) (int, error) {
	var n int
	err := a.Store.InTx(ctx, func(q *db.Queries) (err error) {
		n, err = hiring.Promote(ctx, q, in)
		return err
	})
	return n, err
}

// DemotePrevious ends the previous execs' roles (hiring.Demote).
func (a *HiringActivities) DemotePrevious(ctx context.Context, in DemoteInput) error {
	if len(in.ProfileIDs) == 0 {
		return nil
	}
	return a.Store.InTx(ctx, func(q *db.Queries) error { return hiring.Demote(ctx, q, in) })
}

// RecordWelcomeEmails records one welcome email per hire (hiring.Welcome)
// and returns their refs for the workflow to deliver.
func (a *HiringActivities) RecordWelcomeEmails(ctx context.Context, in WelcomeInput) ([]EmailRef, error) {
	var refs []EmailRef
	err := a.Store.InTx(ctx, func(q *db.Queries) (err error) {
		refs, err = hiring.Welcome(ctx, q, in)
		return err
	})
	return refs, err
}

// RecordFinalization stores the outcome on the term's finalization once
// (hiring.RecordResult).
func (a *HiringActivities) RecordFinalization(ctx context.Context, in FinalizationResult) error {
	return hiring.RecordResult(ctx, a.Store.Queries, in)
}
