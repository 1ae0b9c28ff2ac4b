package workflows

import (
	"time"

	"github.com/google/uuid"
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

// RsvpDeadlineRequest starts the RsvpDeadline workflow of a decision batch.
func RsvpDeadlineRequest(in RsvpDeadlineInput) Request {
	return Request{ID: RsvpDeadlineID(in.BatchID), Type: "RsvpDeadline", Input: in, Kind: KindRsvp,
		Subject: in.BatchID.String(), Summary: "RSVP deadline " + in.Deadline.UTC().Format("2006-01-02 15:04 MST") + " for offer batch " + in.BatchID.String()}
}

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
	// The waitlist is the freeing batch's edition's (FromBatch: a field
	// of the activity's input, not a new command, so older histories
	// replay as they are).
	if err := workflow.ExecuteActivity(actx, a.PromoteWaitlist, activities.PromoteInput{
		BatchID: next.BatchID, Places: res.Expired, Deadline: next.Deadline, FromBatch: in.BatchID,
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
