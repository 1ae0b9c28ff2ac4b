package workflows

import (
	"errors"
	"strings"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"hackdesk/activities"
)

// SendEmailInput is one email to send exactly once per Key. The email is
// recorded (mail.Record) before the workflow starts, with its recipient, so
// the input names no one: the activities read the address from the record.
type SendEmailInput struct {
	Key  string // idempotency key; the workflow ID is built from it
	Kind string // template name (mail.Render)
	// To and Data are for an email the workflow records itself: runs
	// started before addresses left the input carry To, and the bench's
	// runs once carried both. Requests never set them.
	To   string            `json:",omitempty"`
	Data map[string]string `json:",omitempty"`
}

// SendEmailResult is the outcome of a SendEmail run.
type SendEmailResult struct {
	Status     string // sent or failed
	ProviderID string
	// Recorded is false when an email with this key already existed.
	Recorded bool
}

// SendEmailID is the workflow ID for the email with the given key.
func SendEmailID(key string) string { return "email:" + key }

// SendEmailRequest starts the SendEmail workflow for one recorded email.
// Its subject and summary name the email by its idempotency key, never by
// the recipient: everyone who can open the Temporal UI sees them.
func SendEmailRequest(in SendEmailInput) Request {
	return Request{ID: SendEmailID(in.Key), Type: "SendEmail", Input: in, Kind: KindEmail,
		Subject: in.Key, Summary: "Email " + in.Kind + " " + in.Key}
}

// localSteps is the change that moved SendEmail's steps into the workflow
// task as local activities, one step per version, under one change id:
//
//   - DefaultVersion (no marker): both steps are ordinary activities.
//   - 1: RecordEmail is a local activity; DeliverEmail is an activity.
//   - 2: both are local activities, so an email takes one workflow task
//     and no activity task, as a workflow that does nothing does.
//
// A version that shipped is never removed while a run of it may be open.
const localSteps = "record-email-locally"

// localStepsRenamed is the change id one build recorded instead of raising
// localSteps (its version 1 is localSteps' version 2). Runs it started
// carry only this marker, so it is read, never written: a new run records
// localSteps first and never gets here.
const localStepsRenamed = "email-local-activities"

// sendEmailSteps is the version of localSteps a run follows.
func sendEmailSteps(ctx workflow.Context) workflow.Version {
	v := workflow.GetVersion(ctx, localSteps, workflow.DefaultVersion, 2)
	if v == workflow.DefaultVersion && workflow.GetVersion(ctx, localStepsRenamed, workflow.DefaultVersion, 1) == 1 {
		return 2
	}
	return v
}

// local turns activity options into local ones: the same timeouts and
// retry policy, the given error types not retried. A retry that waits
// longer than a workflow task is scheduled as a timer by the SDK.
func local(ctx workflow.Context, o workflow.ActivityOptions, nonRetryable []string) workflow.Context {
	rp := *o.RetryPolicy
	rp.NonRetryableErrorTypes = nonRetryable
	return workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		StartToCloseTimeout:    o.StartToCloseTimeout,
		ScheduleToCloseTimeout: o.ScheduleToCloseTimeout,
		RetryPolicy:            &rp,
	})
}

// emailPermanent are the email errors a retry cannot mend: a bad address,
// a provider's refusal, and a send whose outcome is unknown (sending again
// could send twice).
func emailPermanent() []string {
	return []string{activities.ErrTypeBadEmail, activities.ErrTypeDeliveryFailed, activities.ErrTypeOutcomeUnknown}
}

// deliverLocally delivers the recorded email with key as a local activity,
// within the caller's workflow task, under the provider retry policy: the
// delivery step of SendEmail, and of a workflow that sends its own email.
func deliverLocally(ctx workflow.Context, key string) workflow.Future {
	var a *activities.EmailActivities
	return workflow.ExecuteLocalActivity(local(ctx, providerOptions, emailPermanent()), a.DeliverEmail, key)
}

// SendEmail renders and records the email, then delivers it through the
// configured driver. Both steps are idempotent by key, so a second run with
// the same key sends nothing. Both are local activities, run by the worker
// within the workflow task, with the retry policies of database work and
// of provider calls: recording is one write, and delivery is one provider
// call between two writes that make it at most once (DeliverEmail), so
// neither needs a task of its own.
func SendEmail(ctx workflow.Context, in SendEmailInput) (SendEmailResult, error) {
	if strings.TrimSpace(in.Key) == "" || in.Kind == "" || (in.Data != nil && strings.TrimSpace(in.To) == "") {
		return SendEmailResult{}, temporal.NewNonRetryableApplicationError("key and kind are required (and to, with data)", "BadInput", nil)
	}
	logger := workflow.GetLogger(ctx)
	progress := "recording"
	if err := workflow.SetQueryHandler(ctx, ProgressQuery, func() (string, error) { return progress, nil }); err != nil {
		return SendEmailResult{}, err
	}
	var a *activities.EmailActivities

	permanent := emailPermanent()
	var res SendEmailResult
	record := activities.RecordEmailInput{Key: in.Key, Kind: in.Kind, To: in.To, Data: in.Data}
	steps := sendEmailSteps(ctx)
	var recorded workflow.Future
	if steps >= 1 {
		recorded = workflow.ExecuteLocalActivity(local(ctx, storeOptions, permanent), a.RecordEmail, record)
	} else {
		recorded = workflow.ExecuteActivity(storeActivity(ctx, permanent...), a.RecordEmail, record)
	}
	if err := recorded.Get(ctx, &res.Recorded); err != nil {
		progress = "failed"
		return res, err
	}

	progress = "sending"
	var out activities.DeliverEmailResult
	var delivered workflow.Future
	if steps >= 2 {
		delivered = deliverLocally(ctx, in.Key)
	} else {
		delivered = workflow.ExecuteActivity(providerActivity(ctx, permanent...), a.DeliverEmail, in.Key)
	}
	err := delivered.Get(ctx, &out)
	res.Status, res.ProviderID = out.Status, out.ProviderID
	if err != nil {
		var appErr *temporal.ApplicationError
		if errors.As(err, &appErr) {
			logger.Warn("email not delivered", "key", in.Key, "reason", appErr.Type())
		}
		progress = "failed"
		return res, err
	}
	progress = out.Status
	logger.Info("email delivered", "key", in.Key, "status", out.Status, "already_done", out.AlreadyDone)
	return res, nil
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
		req := SendEmailRequest(SendEmailInput{Key: ref.Key, Kind: ref.Kind})
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
