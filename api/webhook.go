package api

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"hackdesk/db"
	"hackdesk/internal/feature/membership"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/receipts"
	"hackdesk/outbox"
	"hackdesk/workflows"
)

// The inbound-email webhook's limits: the size of a post (the receipt
// plus form overhead), and how long a post waits for a place among the
// WEBHOOK_CONCURRENCY being handled before it is answered 503.
const (
	webhookMaxBody  = receipts.MaxSize + 64<<10
	webhookGateWait = 5 * time.Second
)

var (
	errWebhookOff        = apperr.New(apperr.Unavailable, "Webhook not configured")
	errDKIMUnavailable   = apperr.WithMessage(apperr.Unavailable, "Service unavailable", "The sender's DKIM key could not be read; retry later")
	errReceiptRejected   = &apperr.Error{Code: apperr.NotAcceptable, Title: "Receipt rejected"}
	errWebhookMissingRaw = apperr.ValidationFailed(map[string]string{"body-mime": "is required"})
)

// membershipWebhook is POST /api/webhooks/membership: the inbound-email
// provider forwards a shop receipt as a signed form (Mailgun-style:
// timestamp, token, signature = hex HMAC-SHA256(key, timestamp+token),
// body-mime).
//
// In order: the signature and its 300 s window (401, nothing stored); the
// sender domain, its DKIM signature and the parse, checked in memory; then
// one transaction: the token, once (a token seen with another email is
// 401); the raw email, stored unique by its SHA-256 before any other
// write, so a replay finds it; the verdict: rejected by sender or DKIM
// (406, the transaction not claimed), unreadable (parked for an admin), or
// the transaction claimed once per shop (another copy: duplicate) and
// ReceiptProcessing queued through the outbox, 200. A replay answers as
// the first delivery did and changes nothing.
func (s *Server) membershipWebhook(w http.ResponseWriter, r *http.Request) (err error) {
	var stored membership.Stored
	defer func() { s.metrics.Webhook("membership", webhookOutcome(stored, err)) }()
	if s.cfg.WebhookSigningKey == "" || s.dkimLookup == nil {
		return errWebhookOff
	}
	r.Body = http.MaxBytesReader(w, r.Body, webhookMaxBody)
	if err := parseForm(r); err != nil {
		return err
	}
	form := r.Form
	if err := receipts.VerifyWebhook([]byte(s.cfg.WebhookSigningKey), form.Get("timestamp"), form.Get("token"),
		form.Get("signature"), time.Now(), membership.WebhookWindow); err != nil {
		return membership.ErrWebhookSignature
	}
	raw := []byte(form.Get("body-mime"))
	if len(raw) == 0 {
		return errWebhookMissingRaw
	}
	ctx := r.Context()
	// The sender, the DKIM signature and the parse need nothing stored, so
	// they come first, outside the transaction (a DKIM key may wait on DNS)
	// and outside the places below (they hold no connection).
	v, dkimErr := membership.Verify(raw, s.cfg.ReceiptSenderDomains, s.dkimLookup)
	release, err := s.webhooks.Acquire(ctx)
	if err != nil {
		return errBusy // the caller has gone, or every place stayed taken
	}
	defer release()
	// One transaction: the raw email is its first write, then the verdict
	// and, for a readable receipt, its transaction claimed and
	// ReceiptProcessing queued. A receipt whose key could not be read stays
	// received, stored for the provider's retry. Its statements are
	// look-ups and inserts by key, run on their generic plans.
	err = s.store.InTxGeneric(ctx, func(q *db.Queries) (err error) {
		if stored, err = membership.Intake(ctx, q, form.Get("token"), raw); err != nil || stored.Status != membership.ReceiptReceived || dkimErr != nil {
			return err
		}
		v.ID = stored.ID
		var req workflows.Request
		if v.Rejection == nil && v.ParseErr == nil {
			req = workflows.ReceiptProcessingRequest(workflows.ReceiptProcessingInput{ReceiptID: v.ID, ShopDomain: v.ShopDomain, TransactionID: v.Receipt.TransactionID})
			v.WorkflowID = req.ID
		}
		if stored, err = membership.Claim(ctx, q, v); err != nil || stored.Status != membership.ReceiptProcessing {
			return err
		}
		_, err = outbox.Enqueue(ctx, q, req)
		return err
	})
	if err != nil {
		return err
	}
	if dkimErr != nil && stored.Status == membership.ReceiptReceived {
		// The shop's key could not be read for now: neither accepted nor
		// rejected; the provider retries the post (and finds it received).
		s.log.WarnContext(ctx, "receipt DKIM key unavailable", "receipt", stored.ID, "reason", dkimErr.Error())
		return errDKIMUnavailable
	}
	if v.Rejection != nil && stored.Status == membership.ReceiptRejected {
		s.log.WarnContext(ctx, "receipt rejected", "receipt", stored.ID, "reason", v.Rejection.Error())
	}
	return answerStored(w, stored)
}

// answerStored answers a post with what became of its receipt: 406 for a
// rejected one (the provider does not retry it), else 200.
func answerStored(w http.ResponseWriter, stored membership.Stored) error {
	if stored.Status == membership.ReceiptRejected {
		return errReceiptRejected
	}
	writeJSON(w, http.StatusOK, stored)
	return nil
}

// parseForm reads a multipart or urlencoded post; anything else is 415.
func parseForm(r *http.Request) error {
	ct := r.Header.Get("Content-Type")
	var err error
	switch {
	case strings.HasPrefix(ct, "multipart/form-data"):
		err = r.ParseMultipartForm(webhookMaxBody)
	case strings.HasPrefix(ct, "application/x-www-form-urlencoded"):
		err = r.ParseForm()
	default:
		return apperr.New(apperr.Unsupported, "Unsupported media type")
	}
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return apperr.New(apperr.TooLarge, "Payload too large")
		}
		return apperr.WithMessage(apperr.Invalid, "Validation failed", "The form could not be read")
	}
	return nil
}
