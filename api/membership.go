package api

import (
	"bytes"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"
	qrcode "github.com/yeqown/go-qrcode/v2"
	"github.com/yeqown/go-qrcode/writer/standard"

	"hackdesk/apperr"
	"hackdesk/db"
	"hackdesk/membership"
	"hackdesk/outbox"
	"hackdesk/receipts"
	"hackdesk/workflows"
)

var (
	errMembershipNotFound = apperr.New(apperr.NotFound, "Membership not found")
	errNotAMember         = apperr.WithMessage(apperr.NotFound, "Membership not found", "Join the active term first (POST /api/membership)")
	errBadMembershipSig   = apperr.New(apperr.Forbidden, "Invalid signature")
	errAlreadyPaid        = apperr.New(apperr.Conflict, "Membership already paid")
)

// membershipJSON is a membership as the API shows it.
type membershipJSON struct {
	ID          uuid.UUID  `json:"id"`
	ProfileID   uuid.UUID  `json:"profile_id"`
	TermID      uuid.UUID  `json:"term_id"`
	Status      string     `json:"status"`
	AmountCents *int64     `json:"amount_cents"`
	Method      *string    `json:"method"`
	PaidAt      *time.Time `json:"paid_at"`
	ConfirmedBy *uuid.UUID `json:"confirmed_by"`
	ReceiptID   *uuid.UUID `json:"receipt_id"`
	CreatedAt   time.Time  `json:"created_at"`
}

func toMembershipJSON(m db.Membership) membershipJSON {
	return membershipJSON{ID: m.ID, ProfileID: m.ProfileID, TermID: m.TermID, Status: m.Status,
		AmountCents: m.AmountCents, Method: m.Method, PaidAt: m.PaidAt, ConfirmedBy: m.ConfirmedBy,
		ReceiptID: m.ReceiptID, CreatedAt: m.CreatedAt}
}

// getMembership is GET /api/membership: the caller's membership of the
// active term (null before joining), the term and the dues.
func (s *Server) getMembership(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	t, err := s.store.TermActive(ctx)
	if errors.Is(err, db.ErrNotFound) {
		writeJSON(w, http.StatusOK, map[string]any{"membership": nil, "term": nil, "dues_cents": s.cfg.MembershipDuesCents})
		return nil
	}
	if err != nil {
		return err
	}
	var out *membershipJSON
	m, err := s.store.MembershipGetByProfileTerm(ctx, db.MembershipGetByProfileTermParams{
		ProfileID: principalFrom(ctx).ProfileID, TermID: t.ID})
	switch {
	case err == nil:
		j := toMembershipJSON(m)
		out = &j
	case !errors.Is(err, db.ErrNotFound):
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"membership": out, "term": toTermJSON(t), "dues_cents": s.cfg.MembershipDuesCents})
	return nil
}

// joinMembership is POST /api/membership: joins the active term, unpaid
// (201), or returns the membership already there (200).
func (s *Server) joinMembership(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	t, err := s.store.TermActive(ctx)
	if errors.Is(err, db.ErrNotFound) {
		return errNoActiveTerm
	}
	if err != nil {
		return err
	}
	// The insert of a member who has joined already returns no row (a
	// concurrent join waits for the other's commit first); then the
	// existing one is read.
	status := http.StatusCreated
	params := db.MembershipInsertParams{ProfileID: principalFrom(ctx).ProfileID, TermID: t.ID}
	m, err := s.store.MembershipInsert(ctx, params)
	if errors.Is(err, db.ErrNotFound) {
		status = http.StatusOK
		m, err = s.store.MembershipGetByProfileTerm(ctx, db.MembershipGetByProfileTermParams(params))
	}
	if err != nil {
		return err
	}
	writeJSON(w, status, map[string]any{"membership": toMembershipJSON(m), "term": toTermJSON(t), "dues_cents": s.cfg.MembershipDuesCents})
	return nil
}

// membershipQR is GET /api/membership/qr: a PNG of the signed link an exec
// scans to open the caller's membership.
func (s *Server) membershipQR(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	t, err := s.store.TermActive(ctx)
	if errors.Is(err, db.ErrNotFound) {
		return errNoActiveTerm
	}
	if err != nil {
		return err
	}
	m, err := s.store.MembershipGetByProfileTerm(ctx, db.MembershipGetByProfileTermParams{
		ProfileID: principalFrom(ctx).ProfileID, TermID: t.ID})
	if errors.Is(err, db.ErrNotFound) {
		return errNotAMember
	}
	if err != nil {
		return err
	}
	png, err := qrPNG(membership.QRLink(s.cfg.PublicURL, s.qrSigner, m.ID))
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "private, no-store")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(png)
	return nil
}

// qrPNG renders text as a QR code PNG (error correction M, 8-pixel
// modules with the standard quiet zone).
func qrPNG(text string) ([]byte, error) {
	code, err := qrcode.NewWith(text, qrcode.WithErrorCorrectionLevel(qrcode.ErrorCorrectionMedium))
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	wr := standard.NewWithWriter(nopCloser{&buf}, standard.WithBuiltinImageEncoder(standard.PNG_FORMAT),
		standard.WithQRWidth(8), standard.WithBorderWidth(32))
	if err := code.Save(wr); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

type nopCloser struct{ *bytes.Buffer }

func (nopCloser) Close() error { return nil }

// memberJSON names the member on the exec's confirmation page.
type memberJSON struct {
	DisplayName string `json:"display_name"`
	Email       string `json:"email"`
}

func toMemberJSON(name *string, email string) memberJSON {
	m := memberJSON{Email: email}
	if name != nil {
		m.DisplayName = *name
	}
	return m
}

// loadMembershipParam reads {id}.
func loadMembershipParam(r *http.Request) (uuid.UUID, error) {
	id, err := uuid.Parse(chi.URLParam(r, "id"))
	if err != nil {
		return uuid.Nil, errMembershipNotFound
	}
	return id, nil
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
	return s.writeMembershipDetail(w, r, id, http.StatusOK)
}

// checkQRSignature verifies the signature of the member's QR link for the
// {id} of the path: ?sig= and, when given, the body's sig. At least one
// must be there, and each one there must verify (403 otherwise).
func (s *Server) checkQRSignature(r *http.Request, bodySig *string) error {
	idText := chi.URLParam(r, "id")
	var sigs []string
	if q := r.URL.Query(); q.Has("sig") {
		sigs = append(sigs, q.Get("sig"))
	}
	if bodySig != nil {
		sigs = append(sigs, *bodySig)
	}
	if len(sigs) == 0 {
		return errBadMembershipSig
	}
	for _, sig := range sigs {
		if s.qrSigner.Verify(idText, sig) != nil {
			return errBadMembershipSig
		}
	}
	return nil
}

func (s *Server) writeMembershipDetail(w http.ResponseWriter, r *http.Request, id uuid.UUID, status int) error {
	d, err := s.store.MembershipDetail(r.Context(), id)
	if errors.Is(err, db.ErrNotFound) {
		return errMembershipNotFound
	}
	if err != nil {
		return err
	}
	t, err := s.store.TermGet(r.Context(), d.Membership.TermID)
	if err != nil {
		return err
	}
	writeJSON(w, status, map[string]any{
		"membership": toMembershipJSON(d.Membership),
		"member":     toMemberJSON(d.DisplayName, d.Email),
		"term":       toTermJSON(t),
	})
	return nil
}

type membershipListItem struct {
	membershipJSON
	Member memberJSON `json:"member"`
}

// adminListMemberships is GET /api/admin/memberships?q=&status=&term_id=
// (admin): a term's memberships (the active term by default).
func (s *Server) adminListMemberships(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	fields := apperr.Fields{}
	p := parsePage(r, fields)
	status := optional(r, "status")
	if status != nil && *status != string(membership.Paid) && *status != string(membership.Unpaid) {
		fields.Add("status", "must be paid or unpaid")
	}
	q := optional(r, "q")
	if q != nil {
		v := strings.TrimSpace(*q)
		switch {
		case v == "":
			q = nil
		case len(v) > 200:
			fields.Add("q", "must be at most 200 characters")
		default:
			v = strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(v)
			q = &v
		}
	}
	var termID uuid.UUID
	if v := r.URL.Query().Get("term_id"); v != "" {
		id, err := uuid.Parse(v)
		if err != nil {
			fields.Add("term_id", "must be a term id")
		}
		termID = id
	}
	if err := fields.Err(); err != nil {
		return err
	}
	if termID == uuid.Nil {
		t, err := s.store.TermActive(ctx)
		if errors.Is(err, db.ErrNotFound) {
			return errNoActiveTerm
		}
		if err != nil {
			return err
		}
		termID = t.ID
	}
	rows, err := s.store.MembershipList(ctx, db.MembershipListParams{TermID: termID, Status: status, Q: q,
		PageSize: p.Size, PageOffset: p.offset()})
	if err != nil {
		return err
	}
	total, err := s.store.MembershipCount(ctx, db.MembershipCountParams{TermID: termID, Status: status, Q: q})
	if err != nil {
		return err
	}
	items := make([]membershipListItem, len(rows))
	for i, m := range rows {
		items[i] = membershipListItem{
			membershipJSON: toMembershipJSON(m.Membership),
			Member:         toMemberJSON(m.DisplayName, m.Email),
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"items": items, "total": total, "page": p.Number, "page_size": p.Size})
	return nil
}

type paymentBody struct {
	Method      string `json:"method"`
	AmountCents *int64 `json:"amount_cents"`
	// Sig is the signature of the member's QR link; it may come in the
	// query (?sig=, as the QR page's URL has it) instead.
	Sig  *string `json:"sig"`
	dues int64
}

func (b *paymentBody) Validate() apperr.Fields {
	f := apperr.Fields{}
	if !membership.ValidInPerson(b.Method) {
		f.Add("method", "must be cash, etransfer or card")
	}
	switch {
	case b.AmountCents == nil:
		f.Add("amount_cents", "is required")
	case *b.AmountCents < b.dues:
		f.Add("amount_cents", "must be at least the dues ("+receipts.FormatCents(b.dues)+")")
	case *b.AmountCents > 100_000_00:
		f.Add("amount_cents", "must be at most 10000000")
	}
	return f
}

// recordPayment is POST /api/admin/memberships/{id}/payments?sig= (admin):
// an exec marks a membership paid in person, once, from the page the
// member's QR code opens; the member gets the confirmation email once. The
// signature of that code (in the query or the body; both, when both are
// sent) proves the member showed it: without it, or with a wrong one, the
// answer is 403 and nothing is recorded, whether the membership exists or
// not.
func (s *Server) recordPayment(w http.ResponseWriter, r *http.Request) error {
	body := paymentBody{dues: s.cfg.MembershipDuesCents}
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
	exec := principalFrom(ctx).ProfileID
	err = s.store.InTx(ctx, func(q *db.Queries) error {
		_, e, err := membership.Pay(ctx, q, membership.Payment{MembershipID: id, Method: membership.Method(body.Method),
			AmountCents: *body.AmountCents, ConfirmedBy: &exec})
		if err != nil {
			return err
		}
		_, err = outbox.Enqueue(ctx, q, workflows.SendEmailRequest(workflows.SendEmailInput{Key: e.Key, Kind: e.Kind, To: e.To}))
		return err
	})
	switch {
	case errors.Is(err, membership.ErrAlreadyPaid):
		return errAlreadyPaid
	case errors.Is(err, db.ErrNotFound):
		return errMembershipNotFound
	case err != nil:
		return err
	}
	return s.writeMembershipDetail(w, r, id, http.StatusOK)
}
