package api

import (
	"crypto/rand"
	"errors"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"hackdesk/apperr"
	"hackdesk/db"
	"hackdesk/membership"
	"hackdesk/outbox"
	"hackdesk/receipts"
	"hackdesk/signing"
	"hackdesk/workflows"
)

var (
	errReceiptNotFound = apperr.New(apperr.NotFound, "Receipt not found")
	errNotParked       = apperr.WithMessage(apperr.Conflict, "Receipt not parked", "Only a parked receipt can be matched")
	errAccountNotFound = apperr.New(apperr.NotFound, "Account not found")
)

// signers derives the QR signer from SIGNING_KEY and picks the DKIM key
// source. Without a usable SIGNING_KEY (a test that builds a bare Server)
// links are signed with a random key: they work until the process ends.
func (s *Server) signers(d Deps) (signing.Signer, receipts.LookupTXT) {
	key, err := d.Config.SigningKeyBytes()
	if err != nil {
		s.log.Warn("membership QR links are signed with a random key until restart", "reason", err.Error())
		key = make([]byte, 32)
		_, _ = rand.Read(key)
	}
	lookup := d.DKIMLookup
	switch {
	case lookup != nil:
	case d.Config.DKIMTXTFile != "":
		lookup, err = receipts.TXTFile(d.Config.DKIMTXTFile)
		if err != nil {
			s.log.Error("DKIM_TXT_FILE unreadable: the membership webhook answers 503", "error", err.Error())
			lookup = nil
		}
	default:
		lookup = receipts.DNS(5 * time.Second)
	}
	return membership.QRSigner(key), lookup
}

type receiptJSON struct {
	ID            uuid.UUID `json:"id"`
	TransactionID string    `json:"transaction_id"`
	CustomerEmail string    `json:"customer_email"`
	AmountCents   *int64    `json:"amount_cents"`
	Status        string    `json:"status"`
	Reason        string    `json:"reason"`
	CreatedAt     time.Time `json:"created_at"`
}

var receiptStatuses = []membership.ReceiptStatus{membership.ReceiptReceived, membership.ReceiptProcessing,
	membership.ReceiptProcessed, membership.ReceiptParked, membership.ReceiptRejected, membership.ReceiptDuplicate}

// listReceipts is GET /api/admin/receipts?status= (admin): stored shop
// receipts, newest first.
func (s *Server) listReceipts(w http.ResponseWriter, r *http.Request) error {
	fields := apperr.Fields{}
	p := parsePage(r, fields)
	status := optional(r, "status")
	if status != nil && !validReceiptStatus(*status) {
		fields.Add("status", "must be one of processed, parked, rejected, processing, received, duplicate")
	}
	if err := fields.Err(); err != nil {
		return err
	}
	ctx := r.Context()
	rows, err := s.store.ReceiptList(ctx, db.ReceiptListParams{Status: status, PageSize: p.Size, PageOffset: p.offset()})
	if err != nil {
		return err
	}
	total, err := s.store.ReceiptCount(ctx, status)
	if err != nil {
		return err
	}
	items := make([]receiptJSON, len(rows))
	for i, rc := range rows {
		items[i] = receiptJSON{ID: rc.ID, TransactionID: rc.TransactionID, CustomerEmail: rc.CustomerEmail,
			AmountCents: rc.AmountCents, Status: rc.Status, Reason: rc.Reason, CreatedAt: rc.CreatedAt}
	}
	writeJSON(w, http.StatusOK, map[string]any{"items": items, "total": total, "page": p.Number, "page_size": p.Size})
	return nil
}

func validReceiptStatus(v string) bool {
	for _, st := range receiptStatuses {
		if string(st) == v {
			return true
		}
	}
	return false
}

type matchBody struct {
	Email string `json:"email"`
}

func (b *matchBody) Validate() apperr.Fields {
	f := apperr.Fields{}
	b.Email = strings.TrimSpace(b.Email)
	if b.Email == "" || utf8.RuneCountInString(b.Email) > maxEmail || !strings.Contains(b.Email, "@") {
		f.Add("email", "must be an email address")
	}
	return f
}

// matchReceipt is POST /api/admin/receipts/{id}/match {email} (admin): a
// parked receipt is applied to the account with that email, through the
// same function the ReceiptProcessing activity runs. It answers the
// receipt, processed; a receipt that still does not fit (its total, its
// term) is 409 with the reason and nothing changes.
func (s *Server) matchReceipt(w http.ResponseWriter, r *http.Request) error {
	id, err := uuid.Parse(chi.URLParam(r, "id"))
	if err != nil {
		return errReceiptNotFound
	}
	var body matchBody
	if err := decode(w, r, &body); err != nil {
		return err
	}
	ctx := r.Context()
	admin := principalFrom(ctx).ProfileID
	var parkedAgain string
	err = s.store.InTx(ctx, func(q *db.Queries) error {
		cur, err := q.ReceiptGet(ctx, id)
		if err != nil {
			return err
		}
		if membership.ReceiptStatus(cur.Status) != membership.ReceiptParked || cur.TransactionID == "" {
			return errNotParked
		}
		if _, err := q.ProfileGetByEmail(ctx, body.Email); errors.Is(err, db.ErrNotFound) {
			return errAccountNotFound
		} else if err != nil {
			return err
		}
		out, err := membership.ApplyReceipt(ctx, q, id, s.cfg.MembershipDuesCents, &membership.Match{Email: body.Email, By: admin})
		if err != nil {
			return err
		}
		if out.Email == nil {
			parkedAgain = out.Reason
			return errRollback
		}
		_, err = outbox.Enqueue(ctx, q, workflows.SendEmailRequest(workflows.SendEmailInput{Key: out.Email.Key, Kind: out.Email.Kind, To: out.Email.To}))
		return err
	})
	switch {
	case errors.Is(err, errRollback):
		return apperr.WithMessage(apperr.Conflict, "Receipt cannot be matched", parkedAgain)
	case errors.Is(err, db.ErrNotFound):
		return errReceiptNotFound
	case errors.Is(err, membership.ErrNotApplicable):
		return errNotParked
	case err != nil:
		return err
	}
	rc, err := s.store.ReceiptGet(ctx, id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, receiptJSON{ID: rc.ID, TransactionID: rc.TransactionID, CustomerEmail: rc.CustomerEmail,
		AmountCents: rc.AmountCents, Status: rc.Status, Reason: rc.Reason, CreatedAt: rc.CreatedAt})
	return nil
}

// errRollback ends a transaction without an error for the client.
var errRollback = errors.New("rollback")
