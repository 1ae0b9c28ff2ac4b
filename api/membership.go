package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/membership"
	"hackdesk/internal/feature/privacy"
	"hackdesk/internal/feature/term"
)

// getMembership is GET /api/membership: the caller's membership of the
// active term (null before joining), the term and the dues.
func (s *Server) getMembership(w http.ResponseWriter, r *http.Request) error {
	mine, err := membership.Current(r.Context(), s.store.Queries, principalFrom(r.Context()).ProfileID)
	if err != nil {
		return err
	}
	out := map[string]any{"membership": mine.Membership, "term": nil, "dues_cents": s.cfg.MembershipDuesCents}
	if mine.Term != nil {
		out["term"] = term.ToView(*mine.Term)
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// joinMembership is POST /api/membership: joins the active term, unpaid
// (201), or returns the membership already there (200).
func (s *Server) joinMembership(w http.ResponseWriter, r *http.Request) error {
	j, err := membership.Join(r.Context(), s.store.Queries, principalFrom(r.Context()).ProfileID)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if j.Created {
		status = http.StatusCreated
	}
	writeJSON(w, status, map[string]any{"membership": j.Membership, "term": term.ToView(j.Term), "dues_cents": s.cfg.MembershipDuesCents})
	return nil
}

// membershipQR is GET /api/membership/qr: a PNG of the signed link an exec
// scans to open the caller's membership.
func (s *Server) membershipQR(w http.ResponseWriter, r *http.Request) error {
	id, err := membership.Own(r.Context(), s.store.Queries, principalFrom(r.Context()).ProfileID)
	if err != nil {
		return err
	}
	png, err := membership.QRPNG(membership.QRLink(s.cfg.PublicURL, s.qrSigner, id))
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "private, no-store")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(png)
	return nil
}

// loadMembershipParam reads {id}.
func loadMembershipParam(r *http.Request) (uuid.UUID, error) {
	id, err := uuid.Parse(chi.URLParam(r, "id"))
	if err != nil {
		return uuid.Nil, membership.ErrMembershipNotFound
	}
	return id, nil
}

// checkQRSignature verifies the signature of the member's QR link for the
// {id} of the path: ?sig= and, when given, the body's sig. At least one
// must be there, and each one there must verify (403 otherwise).
func (s *Server) checkQRSignature(r *http.Request, bodySig *string) error {
	var sigs []string
	if q := r.URL.Query(); q.Has("sig") {
		sigs = append(sigs, q.Get("sig"))
	}
	if bodySig != nil {
		sigs = append(sigs, *bodySig)
	}
	return membership.CheckQRSignatures(s.qrSigner, chi.URLParam(r, "id"), sigs)
}

// adminGetMembership is GET /api/admin/memberships/{id}?sig= (admin): what
// an exec sees after scanning a member's QR code. The signature proves the
// link came from the member's own code.
func (s *Server) adminGetMembership(w http.ResponseWriter, r *http.Request) error {
	if err := s.checkQRSignature(r, nil); err != nil {
		return err
	}
	id, err := loadMembershipParam(r)
	if err != nil {
		return err
	}
	d, err := membership.GetDetail(r.Context(), s.store.Queries, id)
	if err != nil {
		return err
	}
	// The QR page's read of a member is logged before it is answered.
	if err := s.logAccess(r.Context(), privacy.ActionMembershipQR,
		privacy.Read{Subject: d.Membership.ProfileID, Object: d.Membership.ID}); err != nil {
		return err
	}
	writeMembershipDetail(w, d)
	return nil
}

func writeMembershipDetail(w http.ResponseWriter, d membership.Detail) {
	writeJSON(w, http.StatusOK, map[string]any{"membership": d.Membership, "member": d.Member, "term": term.ToView(d.Term)})
}

// adminListMemberships is GET /api/admin/memberships?q=&status=&term_id=
// (admin): a term's memberships (the active term by default).
func (s *Server) adminListMemberships(w http.ResponseWriter, r *http.Request) error {
	f := membership.ListFilter{Q: optional(r, "q"), Status: optional(r, "status"), TermID: r.URL.Query().Get("term_id")}
	fields := f.Validate()
	p := parsePage(r, fields)
	if err := fields.Err(); err != nil {
		return err
	}
	items, total, err := membership.List(r.Context(), s.store.Queries, f, p.Size, p.offset())
	if err != nil {
		return err
	}
	writeList(w, "items", items, total, p)
	return nil
}

// recordPayment is POST /api/admin/memberships/{id}/payments?sig= (admin):
// an exec marks a membership paid in person, once, from the page the
// member's QR code opens; the member gets the confirmation email once. The
// signature of that code (in the query or the body; both, when both are
// sent) proves the member showed it: without it, or with a wrong one, the
// answer is 403 and nothing is recorded, whether the membership exists or
// not.
func (s *Server) recordPayment(w http.ResponseWriter, r *http.Request) error {
	body := membership.PaymentInput{DuesCents: s.cfg.MembershipDuesCents}
	if err := decode(w, r, &body); err != nil {
		return err
	}
	if err := s.checkQRSignature(r, body.Sig); err != nil {
		return err
	}
	id, err := loadMembershipParam(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	var d membership.Detail
	err = s.store.InTx(ctx, func(q *db.Queries) error {
		var e membership.Email
		var err error
		if d, e, err = membership.RecordPayment(ctx, q, id, principalFrom(ctx).ProfileID, body); err != nil {
			return err
		}
		return queueEmails(ctx, q, e)
	})
	if err != nil {
		return err
	}
	writeMembershipDetail(w, d)
	return nil
}
