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
	if err := workflow.ExecuteActivity(storeActivity(ctx, activities.ErrTypeReceiptNotApplicable), a.ApplyReceipt, in.ReceiptID).Get(ctx, &out); err != nil {
		progress = "failed"
		return ReceiptProcessingResult{}, err
	}
	res := out.Result
	if out.Email == nil {
		progress = "parked: " + out.Reason
		logger.Info("receipt parked", "transaction", in.TransactionID, "reason", out.Reason)
		return res, nil
	}
	progress = "sending the confirmation"
	if err := sendAll(ctx, []activities.EmailRef{*out.Email}); err != nil {
		progress = "failed"
		return res, err
	}
	progress = "processed"
	logger.Info("receipt processed", "transaction", in.TransactionID, "membership", out.MembershipID)
	return res, nil
}
