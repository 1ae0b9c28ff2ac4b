package api

import (
	"context"
	"crypto/sha256"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"hackdesk/apperr"
	"hackdesk/db"
	"hackdesk/membership"
	"hackdesk/outbox"
	"hackdesk/receipts"
	"hackdesk/workflows"
)

// The inbound-email webhook's limits: the signature window, and the size
// of a post (the receipt plus form overhead).
const (
	webhookWindow  = 300 * time.Second
	webhookMaxBody = receipts.MaxSize + 64<<10
	// webhookGateWait is how long a post waits for a place among the
	// WEBHOOK_CONCURRENCY being handled before it is answered 503.
	webhookGateWait = 5 * time.Second
	// webhookTokenKeep is how long a used token is kept: a token comes
	// with a timestamp signed with it, accepted for webhookWindow either
	// side of now, so after twice the window it can never pass again.
	webhookTokenKeep = 2 * webhookWindow
)

var (
	errWebhookSignature  = apperr.New(apperr.Unauthorized, "Invalid signature")
	errWebhookOff        = apperr.New(apperr.Unavailable, "Webhook not configured")
	errDKIMUnavailable   = apperr.WithMessage(apperr.Unavailable, "Service unavailable", "The sender's DKIM key could not be read; retry later")
	errReceiptRejected   = &apperr.Error{Code: apperr.NotAcceptable, Title: "Receipt rejected"}
	errWebhookMissingRaw = apperr.ValidationFailed(map[string]string{"body-mime": "is required"})
)

// webhookAnswer is the body of a 200: what became of the receipt.
type webhookAnswer struct {
	Status    string `json:"status"`
	ReceiptID string `json:"receipt_id"`
}

// membershipWebhook is POST /api/webhooks/membership: the inbound-email
// provider forwards a shop receipt as a signed form (Mailgun-style:
// timestamp, token, signature = hex HMAC-SHA256(key, timestamp+token),
// body-mime).
//
// In order: the signature and its 300 s window (401, nothing stored); the
// token, once (a token seen with another email is 401); the raw email,
// stored unique by its SHA-256 before anything else, so a replay finds
// it; the sender domain and its DKIM signature (406, stored as rejected,
// the transaction not claimed); the parse (unreadable: parked for an
// admin); the transaction, claimed once per shop (another copy: duplicate);
// then ReceiptProcessing through the outbox and 200. A replay answers as
// the first delivery did and changes nothing.
func (s *Server) membershipWebhook(w http.ResponseWriter, r *http.Request) error {
	if s.cfg.WebhookSigningKey == "" || s.dkimLookup == nil {
		return errWebhookOff
	}
	r.Body = http.MaxBytesReader(w, r.Body, webhookMaxBody)
	if err := parseForm(r); err != nil {
		return err
	}
	form := r.Form
	if err := receipts.VerifyWebhook([]byte(s.cfg.WebhookSigningKey), form.Get("timestamp"), form.Get("token"),
		form.Get("signature"), time.Now(), webhookWindow); err != nil {
		return errWebhookSignature
	}
	raw := []byte(form.Get("body-mime"))
	if len(raw) == 0 {
		return errWebhookMissingRaw
	}
	ctx := r.Context()
	release, err := s.webhooks.Acquire(ctx)
	if err != nil {
		return errBusy // the caller has gone, or every place stayed taken
	}
	defer release()
	s.tokenSweep.maybe(time.Minute, s.log, "expired webhook tokens", func(ctx context.Context) (int64, error) {
		return s.store.WebhookTokensPrune(ctx, time.Now().Add(-webhookTokenKeep))
	})
	sum := sha256.Sum256(raw)
	var stored db.ReceiptStoreRow
	err = s.store.InTx(ctx, func(q *db.Queries) error {
		bound, err := retryRead(func() ([]byte, error) {
			return q.WebhookTokenUse(ctx, db.WebhookTokenUseParams{Token: form.Get("token"), BodySha256: sum[:]})
		})
		if err != nil {
			return err
		}
		if string(bound) != string(sum[:]) {
			return errWebhookSignature
		}
		stored, err = retryRead(func() (db.ReceiptStoreRow, error) {
			return q.ReceiptStore(ctx, db.ReceiptStoreParams{BodySha256: sum[:], Raw: raw})
		})
		return err
	})
	if err != nil {
		return err
	}
	if membership.ReceiptStatus(stored.Status) != membership.ReceiptReceived {
		return answerStored(w, stored.ID.String(), stored.Status)
	}

	// Verified outside any transaction: DNS may be slow.
	domain, err := receipts.SenderDomain(raw)
	if err == nil && !slices.Contains(s.cfg.ReceiptSenderDomains, domain) {
		err = errors.New("sender domain " + domain + " is not a receipt sender")
	}
	if err == nil {
		err = receipts.VerifyDKIM(raw, domain, s.dkimLookup)
	}
	if errors.Is(err, receipts.ErrDKIMTemporary) {
		// The shop's key could not be read for now: neither accepted nor
		// rejected; the provider retries the post (and finds it received).
		s.log.WarnContext(ctx, "receipt DKIM key unavailable", "receipt", stored.ID, "reason", err.Error())
		return errDKIMUnavailable
	}
	if err != nil {
		if _, rerr := s.store.ReceiptReject(ctx, db.ReceiptRejectParams{ID: stored.ID, Reason: clipReason(err.Error()), ShopDomain: domain}); rerr != nil {
			return rerr
		}
		s.log.WarnContext(ctx, "receipt rejected", "receipt", stored.ID, "reason", err.Error())
		return errReceiptRejected
	}
	rc, parseErr := receipts.Parse(raw)

	status := ""
	err = s.store.InTx(ctx, func(q *db.Queries) error {
		cur, err := q.ReceiptLock(ctx, stored.ID)
		if err != nil {
			return err
		}
		if membership.ReceiptStatus(cur.Status) != membership.ReceiptReceived {
			status = cur.Status // a concurrent copy of this post got here first
			return nil
		}
		if parseErr != nil {
			reason := receipts.Reason(parseErr)
			status = string(membership.ReceiptParked)
			return q.ReceiptSetStatus(ctx, db.ReceiptSetStatusParams{ID: cur.ID, Status: status, Reason: clipReason(reason)})
		}
		if err := q.ReceiptSetParsed(ctx, db.ReceiptSetParsedParams{ID: cur.ID, ShopDomain: domain,
			TransactionID: rc.TransactionID, OrderNumber: rc.OrderNumber, CustomerEmail: rc.CustomerEmail,
			AmountCents: &rc.TotalCents, TermName: rc.MembershipTerm()}); err != nil {
			return err
		}
		n, err := q.ReceiptTransactionClaim(ctx, db.ReceiptTransactionClaimParams{ShopDomain: domain, TransactionID: rc.TransactionID, ReceiptID: cur.ID})
		if err != nil {
			return err
		}
		if n == 0 {
			status = string(membership.ReceiptDuplicate)
			return q.ReceiptSetStatus(ctx, db.ReceiptSetStatusParams{ID: cur.ID, Status: status,
				Reason: "another receipt of transaction " + rc.TransactionID + " was received first"})
		}
		req := workflows.ReceiptProcessingRequest(workflows.ReceiptProcessingInput{ReceiptID: cur.ID, ShopDomain: domain, TransactionID: rc.TransactionID})
		status = string(membership.ReceiptProcessing)
		if err := q.ReceiptSetStatus(ctx, db.ReceiptSetStatusParams{ID: cur.ID, Status: status, WorkflowID: &req.ID}); err != nil {
			return err
		}
		_, err = outbox.Enqueue(ctx, q, req)
		return err
	})
	if err != nil {
		return err
	}
	return answerStored(w, stored.ID.String(), status)
}

// answerStored answers a post with what became of its receipt: 406 for a
// rejected one (the provider does not retry it), else 200.
func answerStored(w http.ResponseWriter, id, status string) error {
	if membership.ReceiptStatus(status) == membership.ReceiptRejected {
		return errReceiptRejected
	}
	writeJSON(w, http.StatusOK, webhookAnswer{Status: status, ReceiptID: id})
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

// retryRead runs an insert-or-read statement again when it found neither
// (a concurrent insert committed after its snapshot was taken).
func retryRead[T any](f func() (T, error)) (T, error) {
	var v T
	var err error
	for try := 0; try < 3; try++ {
		if v, err = f(); !errors.Is(err, db.ErrNotFound) {
			return v, err
		}
	}
	return v, err
}

func clipReason(s string) string {
	if len(s) > 500 {
		return s[:500]
	}
	return s
}
