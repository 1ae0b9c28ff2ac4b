package workflows

import (
	"errors"
	"strings"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"hackdesk/activities"
)

// SendEmailInput is one email to send exactly once per Key.
type SendEmailInput struct {
	Key  string            // idempotency key; the workflow ID is built from it
	Kind string            // template name (mail.Render)
	To   string            // recipient address
	Data map[string]string // template data
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

// recordLocally is the change that made RecordEmail a local activity: it
// runs in the worker inside the workflow task, so an email costs one
// activity task (delivery) and two workflow tasks instead of two and
// three. Runs started before it replay with the activity.
const recordLocally = "record-email-locally"

// recordOptions are storeOptions for the local RecordEmail: a retry that
// waits longer than a workflow task is scheduled as a timer by the SDK.
var recordOptions = workflow.LocalActivityOptions{
	StartToCloseTimeout:    storeOptions.StartToCloseTimeout,
	ScheduleToCloseTimeout: storeOptions.ScheduleToCloseTimeout,
	RetryPolicy:            storeOptions.RetryPolicy,
}

// SendEmail renders and records the email, then delivers it through the
// configured driver. Both steps are idempotent by key, so a second run with
// the same key sends nothing. Recording is a local activity (a database
// write, run by the worker within the workflow task); delivery, which
// calls the provider, is an ordinary activity.
func SendEmail(ctx workflow.Context, in SendEmailInput) (SendEmailResult, error) {
	if strings.TrimSpace(in.Key) == "" || strings.TrimSpace(in.To) == "" || in.Kind == "" {
		return SendEmailResult{}, temporal.NewNonRetryableApplicationError("key, kind and to are required", "BadInput", nil)
	}
	logger := workflow.GetLogger(ctx)
	progress := "recording"
	if err := workflow.SetQueryHandler(ctx, ProgressQuery, func() (string, error) { return progress, nil }); err != nil {
		return SendEmailResult{}, err
	}
	var a *activities.EmailActivities

	permanent := []string{activities.ErrTypeBadEmail, activities.ErrTypeDeliveryFailed, activities.ErrTypeOutcomeUnknown}
	var res SendEmailResult
	record := activities.RecordEmailInput{Key: in.Key, Kind: in.Kind, To: in.To, Data: in.Data}
	var recorded workflow.Future
	if workflow.GetVersion(ctx, recordLocally, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		recorded = workflow.ExecuteActivity(storeActivity(ctx, permanent...), a.RecordEmail, record)
	} else {
		opts := recordOptions
		rp := *opts.RetryPolicy
		rp.NonRetryableErrorTypes = permanent
		opts.RetryPolicy = &rp
		recorded = workflow.ExecuteLocalActivity(workflow.WithLocalActivityOptions(ctx, opts), a.RecordEmail, record)
	}
	if err := recorded.Get(ctx, &res.Recorded); err != nil {
		progress = "failed"
		return res, err
	}

	progress = "sending"
	var out activities.DeliverEmailResult
	err := workflow.ExecuteActivity(providerActivity(ctx, permanent...), a.DeliverEmail, in.Key).Get(ctx, &out)
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
