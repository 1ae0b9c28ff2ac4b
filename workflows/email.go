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

// SendEmail renders and records the email, then delivers it through the
// configured driver. Both steps are idempotent by key, so a second run with
// the same key sends nothing.
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
	if err := workflow.ExecuteActivity(storeActivity(ctx, permanent...), a.RecordEmail, activities.RecordEmailInput{
		Key: in.Key, Kind: in.Kind, To: in.To, Data: in.Data,
	}).Get(ctx, &res.Recorded); err != nil {
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
