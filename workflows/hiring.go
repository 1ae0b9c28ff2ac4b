package workflows

import (
	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"hackdesk/activities"
	"hackdesk/internal/feature/hiring"
)

// HiringFinalizationInput is one term's finalization.
type HiringFinalizationInput struct {
	TermID   uuid.UUID
	TermName string // for the UI summary only
	// Links of the welcome email.
	AllHandsURL   string
	OnboardingURL string
	ChatInviteURL string
}

// HiringFinalizationResult is a finalization's outcome: the workflow's
// result, and the input of its last activity (RecordFinalization).
type HiringFinalizationResult = activities.FinalizationResult

// HiringProgress is what the progress query answers; its Step is one of
// hiring's Step constants.
type HiringProgress = hiring.Progress

// HiringPromoteBatch is how many hires one PromoteHires activity covers.
const HiringPromoteBatch = 20

// HiringFinalizationID is the workflow ID of a term's finalization.
func HiringFinalizationID(termID uuid.UUID) string { return "hiring-finalize:" + termID.String() }

// HiringFinalizationRequest starts a term's finalization.
func HiringFinalizationRequest(in HiringFinalizationInput) Request {
	name := in.TermName
	if name == "" {
		name = in.TermID.String()
	}
	return Request{ID: HiringFinalizationID(in.TermID), Type: "HiringFinalization", Input: in, Kind: KindHiring,
		Subject: in.TermID.String(), Summary: "Hiring finalization for " + name}
}

// HiringFinalization makes the term's accepted offers its execs: it
// promotes each hire to admin with the exec role of their position, ends
// the exec roles of previous execs not hired again and makes them members
// (never lowering a superadmin), sends one welcome email per new exec and
// records the outcome. Every step is safe to repeat, so a run resumed on
// another worker finishes with each role right and each email sent once.
func HiringFinalization(ctx workflow.Context, in HiringFinalizationInput) (HiringFinalizationResult, error) {
	res := HiringFinalizationResult{TermID: in.TermID}
	if in.TermID == uuid.Nil || in.AllHandsURL == "" {
		return res, temporal.NewNonRetryableApplicationError("term and all-hands link are required", "BadInput", nil)
	}
	progress := HiringProgress{Step: hiring.StepLoad}
	if err := workflow.SetQueryHandler(ctx, ProgressQuery, func() (HiringProgress, error) { return progress, nil }); err != nil {
		return res, err
	}
	var a *activities.HiringActivities
	actx := storeActivity(ctx)

	var plan activities.HiringPlan
	if err := workflow.ExecuteActivity(actx, a.LoadHiringPlan, activities.HiringPlanInput{TermID: in.TermID}).Get(ctx, &plan); err != nil {
		return res, err
	}
	progress.Hires, progress.Previous = len(plan.Hires), len(plan.Previous)

	progress.Step = hiring.StepPromote
	for start := 0; start < len(plan.Hires); start += HiringPromoteBatch {
		batch := plan.Hires[start:min(start+HiringPromoteBatch, len(plan.Hires))]
		var n int
		if err := workflow.ExecuteActivity(actx, a.PromoteHires, activities.PromoteHiresInput{TermID: in.TermID, Hires: batch}).Get(ctx, &n); err != nil {
			return res, err
		}
		res.Promoted += n
		progress.Promoted = res.Promoted
	}

	progress.Step = hiring.StepDemote
	if err := workflow.ExecuteActivity(actx, a.DemotePrevious, activities.DemoteInput{TermID: in.TermID, ProfileIDs: plan.Previous}).Get(ctx, nil); err != nil {
		return res, err
	}
	res.Demoted = len(plan.Previous)

	progress.Step = hiring.StepWelcome
	var refs []activities.EmailRef
	if err := workflow.ExecuteActivity(actx, a.RecordWelcomeEmails, activities.WelcomeInput{
		TermID: in.TermID, TermName: plan.TermName, Hires: plan.Hires,
		OnboardingURL: in.OnboardingURL, ChatInviteURL: in.ChatInviteURL, AllHandsURL: in.AllHandsURL,
	}).Get(ctx, &refs); err != nil {
		return res, err
	}
	if err := sendAll(ctx, refs); err != nil {
		return res, err
	}
	res.Welcomed = len(refs)
	progress.Welcomed = res.Welcomed

	progress.Step = hiring.StepRecord
	if err := workflow.ExecuteActivity(actx, a.RecordFinalization, res).Get(ctx, nil); err != nil {
		return res, err
	}
	progress.Step = hiring.StepDone
	workflow.GetLogger(ctx).Info("hiring finalized", "term", in.TermID, "promoted", res.Promoted, "demoted", res.Demoted, "welcomed", res.Welcomed)
	return res, nil
}
