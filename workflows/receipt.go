package workflows

import (
	"strings"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"hackdesk/activities"
	"hackdesk/internal/feature/membership"
)

// ReceiptProcessingInput names a stored, verified shop receipt.
type ReceiptProcessingInput struct {
	ReceiptID     uuid.UUID
	ShopDomain    string
	TransactionID string
}

// ReceiptProcessingResult is where a receipt ended up: the Result part of
// the ApplyReceipt activity's outcome, without the email.
type ReceiptProcessingResult = membership.Result

// ReceiptProcessingID is the workflow ID of one shop transaction.
func ReceiptProcessingID(shop, transactionID string) string {
	return "receipt:" + strings.ToLower(shop) + ":" + transactionID
}

// ReceiptProcessingRequest starts ReceiptProcessing for a claimed
// transaction.
func ReceiptProcessingRequest(in ReceiptProcessingInput) Request {
	return Request{ID: ReceiptProcessingID(in.ShopDomain, in.TransactionID), Type: "ReceiptProcessing", Input: in,
		Kind: KindReceipt, Subject: in.TransactionID, Summary: "Receipt " + in.TransactionID}
}

// receiptLocalSteps is the change that runs a receipt in one workflow
// task: ApplyReceipt and the confirmation's delivery are local
// activities, and the confirmation is delivered by this run instead of a
// SendEmail child.
//
//   - DefaultVersion (no marker): ApplyReceipt is an activity, and a
//     SendEmail child delivers the confirmation (sendAll).
//   - 1: both are local activities of this run. The email was recorded,
//     with its key, in ApplyReceipt's transaction, so delivering it is
//     all that is left; DeliverEmail's rules make it at most once.
//
// A version that shipped is never removed while a run of it may be open.
const receiptLocalSteps = "receipt-local-steps"

// ReceiptProcessing applies a receipt to its membership (pays it once, or
// parks the receipt for an admin) and delivers the confirmation email once.
func ReceiptProcessing(ctx workflow.Context, in ReceiptProcessingInput) (ReceiptProcessingResult, error) {
	if in.ReceiptID == uuid.Nil || in.TransactionID == "" || in.ShopDomain == "" {
		return ReceiptProcessingResult{}, temporal.NewNonRetryableApplicationError("receipt, shop and transaction are required", "BadInput", nil)
	}
	logger := workflow.GetLogger(ctx)
	progress := "matching"
	if err := workflow.SetQueryHandler(ctx, ProgressQuery, func() (string, error) { return progress, nil }); err != nil {
		return ReceiptProcessingResult{}, err
	}
	var a *activities.ReceiptActivities
	var out activities.ReceiptOutcome
	inOneTask := workflow.GetVersion(ctx, receiptLocalSteps, workflow.DefaultVersion, 1) >= 1
	var applied workflow.Future
	if inOneTask {
		applied = workflow.ExecuteLocalActivity(local(ctx, storeOptions, []string{activities.ErrTypeReceiptNotApplicable}), a.ApplyReceipt, in.ReceiptID)
	} else {
		applied = workflow.ExecuteActivity(storeActivity(ctx, activities.ErrTypeReceiptNotApplicable), a.ApplyReceipt, in.ReceiptID)
	}
	if err := applied.Get(ctx, &out); err != nil {
		progress = "failed"
		return ReceiptProcessingResult{}, err
	}
	res := out.Result
	if out.Email == nil {
		progress = "parked: " + out.Reason
		// The reason is for admins: it stays in the result and the progress
		// query (payloads, encrypted). The log, read more widely, carries
		// the transaction only.
		logger.Info("receipt parked", "transaction", in.TransactionID)
		return res, nil
	}
	progress = "sending the confirmation"
	if inOneTask {
		var sent activities.DeliverEmailResult
		if err := deliverLocally(ctx, out.Email.Key).Get(ctx, &sent); err != nil {
			progress = "failed"
			return res, err
		}
	} else if err := sendAll(ctx, []activities.EmailRef{*out.Email}); err != nil {
		progress = "failed"
		return res, err
	}
	progress = "processed"
	logger.Info("receipt processed", "transaction", in.TransactionID, "membership", out.MembershipID)
	return res, nil
}
