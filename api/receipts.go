package api

import (
	"crypto/rand"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/membership"
	"hackdesk/internal/platform/receipts"
	"hackdesk/internal/platform/signing"
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
	if lookup == nil {
		if lookup, err = receipts.KeySource(d.Config.DKIMTXTFile); err != nil {
			s.log.Error("DKIM_TXT_FILE unreadable: the membership webhook answers 503", "error", err.Error())
		}
	}
	return membership.QRSigner(key), lookup
}

// listReceipts is GET /api/admin/receipts?status= (admin): stored shop
// receipts, newest first.
func (s *Server) listReceipts(w http.ResponseWriter, r *http.Request) error {
	f := membership.ReceiptFilter{Status: optional(r, "status")}
	fields := f.Validate()
	p := parsePage(r, fields)
	if err := fields.Err(); err != nil {
		return err
	}
	items, total, err := membership.ListReceipts(r.Context(), s.store.Queries, f, p.Size, p.offset())
	if err != nil {
		return err
	}
	writeList(w, "items", items, total, p)
	return nil
}

// matchReceipt is POST /api/admin/receipts/{id}/match {email} (admin): a
// parked receipt is applied to the account with that email, through the
// same function the ReceiptProcessing activity runs. It answers the
// receipt, processed; a receipt that still does not fit (its total, its
// term) is 409 with the reason and nothing changes.
func (s *Server) matchReceipt(w http.ResponseWriter, r *http.Request) error {
	id, err := uuid.Parse(chi.URLParam(r, "id"))
	if err != nil {
		return membership.ErrReceiptNotFound
	}
	var body membership.MatchInput
	if err := decode(w, r, &body); err != nil {
		return err
	}
	ctx := r.Context()
	var out membership.ReceiptView
	err = s.store.InTx(ctx, func(q *db.Queries) error {
		var e membership.Email
		var err error
		if out, e, err = membership.MatchReceipt(ctx, q, id, principalFrom(ctx).ProfileID, body, s.cfg.MembershipDuesCents); err != nil {
			return err
		}
		return queueEmails(ctx, q, e)
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}
