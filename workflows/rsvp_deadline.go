package workflows

import (
	"errors"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"hackdesk/activities"
)

// RsvpReminderLead is how long before the deadline unanswered offers are
// reminded.
const RsvpReminderLead = 48 * time.Hour

// RsvpDeadlineInput is one batch of offers sharing a deadline.
type RsvpDeadlineInput struct {
	BatchID  uuid.UUID
	Deadline time.Time
	// Window is how long a place offered from the waitlist stays open;
	// zero means freed places are not offered on.
	Window    time.Duration
	PublicURL string
}

// RsvpDeadlineResult sums up the run (of the last batch, after any
// continue-as-new).
type RsvpDeadlineResult struct {
	Offered  int
	Reminded int
	Expired  int
	Promoted int
}

// RsvpDeadlineID is the workflow ID for a decision batch.
func RsvpDeadlineID(batchID uuid.UUID) string { return "rsvp-deadline:" + batchID.String() }

// PromotionBatchID derives the batch id of the waitlist promotion that
// follows a batch, deterministically (replays and retries agree on it).
func PromotionBatchID(batchID uuid.UUID) uuid.UUID {
	return uuid.NewSHA1(batchID, []byte("waitlist-promotion"))
}

// RsvpDeadline announces the batch's offers, reminds unanswered ones 48
// hours before the deadline,
// expires the ones still unanswered at the deadline, and offers the freed
// places to the waitlist in order, continuing as a new run for the
// promoted batch.
func RsvpDeadline(ctx workflow.Context, in RsvpDeadlineInput) (RsvpDeadlineResult, error) {
	if in.BatchID == uuid.Nil || in.Deadline.IsZero() {
		return RsvpDeadlineResult{}, temporal.NewNonRetryableApplicationError("batch and deadline are required", "BadInput", nil)
	}
	logger := workflow.GetLogger(ctx)
	var res RsvpDeadlineResult
	progress := "starting"
	if err := workflow.SetQueryHandler(ctx, ProgressQuery, func() (string, error) { return progress, nil }); err != nil {
		return res, err
	}
	var a *activities.RsvpActivities
	actx := storeActivity(ctx)

	progress = "announcing offers"
	var offers []activities.EmailRef
	if err := workflow.ExecuteActivity(actx, a.RecordOfferEmails,
		activities.OfferEmailsInput{BatchID: in.BatchID, PublicURL: in.PublicURL}).Get(ctx, &offers); err != nil {
		return res, err
	}
	if err := sendAll(ctx, offers); err != nil {
		return res, err
	}
	res.Offered = len(offers)

	progress = "waiting to remind"
	// A batch whose deadline is already inside the lead was just offered:
	// no reminder right after the offer.
	remindAt := in.Deadline.Add(-RsvpReminderLead)
	if remindAt.After(workflow.Now(ctx)) {
		if err := sleepUntil(ctx, remindAt); err != nil {
			return res, err
		}
		progress = "reminding"
		var refs []activities.EmailRef
		if err := workflow.ExecuteActivity(actx, a.RecordRsvpReminders,
			activities.RsvpEmailsInput{Deadline: in.Deadline, PublicURL: in.PublicURL}).Get(ctx, &refs); err != nil {
			return res, err
		}
		if err := sendAll(ctx, refs); err != nil {
			return res, err
		}
		res.Reminded = len(refs)
	}

	progress = "waiting for the deadline"
	// A second past the deadline, so an answer given at its last instant
	// has committed.
	if err := sleepUntil(ctx, in.Deadline.Add(time.Second)); err != nil {
		return res, err
	}
	progress = "expiring unanswered offers"
	// The offers are expired against the deadline this run carries, on its
	// own clock: the database's clock may run behind it.
	if err := workflow.ExecuteActivity(actx, a.ExpireOffers,
		activities.ExpireOffersInput{BatchID: in.BatchID, Deadline: in.Deadline}).Get(ctx, &res.Expired); err != nil {
		return res, err
	}
	if res.Expired == 0 || in.Window <= 0 {
		progress = "done"
		logger.Info("rsvp deadline passed", "batch", in.BatchID, "reminded", res.Reminded, "expired", res.Expired)
		return res, nil
	}

	progress = "offering freed places to the waitlist"
	next := RsvpDeadlineInput{
		BatchID:   PromotionBatchID(in.BatchID),
		Deadline:  workflow.Now(ctx).Add(in.Window).Truncate(time.Second),
		Window:    in.Window,
		PublicURL: in.PublicURL,
	}
	if err := workflow.ExecuteActivity(actx, a.PromoteWaitlist, activities.PromoteInput{
		BatchID: next.BatchID, Places: res.Expired, Deadline: next.Deadline,
	}).Get(ctx, &res.Promoted); err != nil {
		return res, err
	}
	logger.Info("rsvp deadline passed", "batch", in.BatchID, "reminded", res.Reminded, "expired", res.Expired, "promoted", res.Promoted)
	if res.Promoted == 0 {
		progress = "done"
		return res, nil
	}
	// The promoted batch is announced, reminded and expired by a new run.
	return res, workflow.NewContinueAsNewError(ctx, RsvpDeadline, next)
}

// sleepUntil sleeps until t (workflow time); a past t returns at once.
func sleepUntil(ctx workflow.Context, t time.Time) error {
	if d := t.Sub(workflow.Now(ctx)); d > 0 {
		return workflow.Sleep(ctx, d)
	}
	return nil
}

// EmailChildrenInFlight is how many SendEmail children sendAll keeps
// started and unfinished at once, well under the Temporal server's limit
// on a run's pending children (2,000 by default), above which a run can
// start no more children and is stuck.
const EmailChildrenInFlight = 100

// boundedSends is the change that bounds sendAll to EmailChildrenInFlight
// unfinished children, starting the next as one finishes, instead of
// starting every child in one workflow task. Runs started before it keep
// starting them all at once.
const boundedSends = "send-all-bounded"

// sendAll starts one SendEmail child per recorded email and waits until
// each has started; the children outlive this run. A child that already
// exists (a retry) counts as started. At most EmailChildrenInFlight
// children are unfinished at once: beyond that, the next child starts when
// one finishes. A batch of up to EmailChildrenInFlight emails is started
// in one workflow task, as before the bound.
func sendAll(ctx workflow.Context, refs []activities.EmailRef) error {
	bounded := workflow.GetVersion(ctx, boundedSends, workflow.DefaultVersion, 1) >= 1
	futures := make([]workflow.ChildWorkflowFuture, 0, len(refs))
	sel := workflow.NewSelector(ctx)
	unfinished := 0
	for _, ref := range refs {
		for bounded && unfinished >= EmailChildrenInFlight {
			sel.Select(ctx)
		}
		req := SendEmailRequest(SendEmailInput{Key: ref.Key, Kind: ref.Kind, To: ref.To})
		cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
			WorkflowID:            req.ID,
			ParentClosePolicy:     enumspb.PARENT_CLOSE_POLICY_ABANDON,
			TypedSearchAttributes: req.SearchAttributes(),
			StaticSummary:         req.Summary,
		})
		f := workflow.ExecuteChildWorkflow(cctx, SendEmail, req.Input)
		futures = append(futures, f)
		if bounded {
			// Finished, failed or never started (already running): a place
			// is free.
			unfinished++
			sel.AddFuture(f, func(workflow.Future) { unfinished-- })
		}
	}
	for _, f := range futures {
		err := f.GetChildWorkflowExecution().Get(ctx, nil)
		var started *temporal.ChildWorkflowExecutionAlreadyStartedError
		if err != nil && !errors.As(err, &started) {
			return err
		}
	}
	return nil
}
