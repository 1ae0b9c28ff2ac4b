package membership_test

import (
	"errors"
	"net"
	"testing"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/dev/receipttest"
	"hackdesk/internal/feature/membership"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/receipts"
)

// shop signs sample receipts; lookup answers with its DKIM key.
type shop struct {
	key    receipttest.ShopKey
	lookup receipts.LookupTXT
}

func newShop(t *testing.T) shop {
	t.Helper()
	k, err := receipttest.NewShopKey(receipttest.DevShopDomain, "dev")
	if err != nil {
		t.Fatal(err)
	}
	name, value := k.TXTRecord()
	return shop{key: k, lookup: func(domain string) ([]string, error) {
		if domain == name {
			return []string{value}, nil
		}
		return nil, &net.DNSError{Err: "no such host", Name: domain, IsNotFound: true}
	}}
}

func (s shop) sign(t *testing.T, sample receipttest.Sample) []byte {
	t.Helper()
	raw, err := s.key.Sign(sample.Build())
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

var senders = []string{receipttest.DevShopDomain}

// post takes raw in as the webhook does: Intake, Verify, Claim. It returns
// what became of the receipt.
func (f *fixture) post(s shop, token string, raw []byte) membership.Stored {
	f.t.Helper()
	var stored membership.Stored
	if err := f.tx(func(q *db.Queries) (err error) {
		stored, err = membership.Intake(f.ctx, q, token, raw)
		return err
	}); err != nil {
		f.t.Fatal(err)
	}
	if stored.Status != membership.ReceiptReceived {
		return stored
	}
	v, err := membership.Verify(raw, senders, s.lookup)
	if err != nil {
		f.t.Fatal(err)
	}
	v.ID = stored.ID
	v.WorkflowID = "receipt:" + v.Receipt.TransactionID
	if err := f.tx(func(q *db.Queries) (err error) {
		stored, err = membership.Claim(f.ctx, q, v)
		return err
	}); err != nil {
		f.t.Fatal(err)
	}
	return stored
}

// receipt reads a stored receipt.
func (f *fixture) receipt(id uuid.UUID) db.Receipt {
	f.t.Helper()
	r, err := f.store.ReceiptGet(f.ctx, id)
	if err != nil {
		f.t.Fatal(err)
	}
	return r
}

// TestIntakeAndClaim: a post is stored once per email and its token used
// once; the verdict moves the received receipt once, and a readable one
// keeps what Parse read.
func TestIntakeAndClaim(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := newShop(t)
	raw := s.sign(t, receipttest.Sample{Email: "Ana@X.test", TermName: termName, TransactionID: "TX-ANA", AmountCents: 2500})

	first := f.post(s, "token-1", raw)
	if first.Status != membership.ReceiptProcessing {
		t.Fatalf("first post: %+v", first)
	}
	r := f.receipt(first.ID)
	if r.CustomerEmail != "ana@x.test" || r.TermName != termName || *r.AmountCents != 2500 || r.TransactionID != "TX-ANA" ||
		r.ShopDomain != receipttest.DevShopDomain || *r.WorkflowID != "receipt:TX-ANA" {
		t.Fatalf("stored %+v", r)
	}
	// A replay (same token or another) finds the receipt as it is.
	for _, token := range []string{"token-1", "token-2"} {
		if again := f.post(s, token, raw); again != first {
			t.Fatalf("replay with %s: %+v, want %+v", token, again, first)
		}
	}
	// A token seen with another email is refused.
	err := f.tx(func(q *db.Queries) error {
		_, err := membership.Intake(f.ctx, q, "token-1", []byte("another email"))
		return err
	})
	if err != membership.ErrWebhookSignature {
		t.Fatalf("token reused: %v, want ErrWebhookSignature", err)
	}

	// Another copy of the transaction is a duplicate.
	dup := f.post(s, "token-3", s.sign(t, receipttest.Sample{Email: "ana@x.test", TermName: termName, TransactionID: "TX-ANA"}))
	if dup.Status != membership.ReceiptDuplicate || f.receipt(dup.ID).Reason != "another receipt of transaction TX-ANA was received first" {
		t.Fatalf("copy: %+v, %q", dup, f.receipt(dup.ID).Reason)
	}

	// An unreadable receipt is parked without its transaction.
	bad := f.post(s, "token-4", s.sign(t, receipttest.Sample{Email: "not an address", TermName: termName}))
	if r := f.receipt(bad.ID); bad.Status != membership.ReceiptParked || r.TransactionID != "" ||
		r.Reason != `unreadable receipt: customer_email not a single email address: "not an address"` {
		t.Fatalf("unreadable: %+v, %+v", bad, r)
	}

	// A receipt from another shop is rejected, and stays so.
	other, err := receipttest.NewShopKey("evil.test", "dev")
	if err != nil {
		t.Fatal(err)
	}
	forged, err := other.Sign(receipttest.Sample{Email: "ana@x.test", TermName: termName, Domain: "evil.test"}.Build())
	if err != nil {
		t.Fatal(err)
	}
	rej := f.post(s, "token-5", forged)
	if r := f.receipt(rej.ID); rej.Status != membership.ReceiptRejected || r.Reason != "sender domain evil.test is not a receipt sender" || r.ShopDomain != "evil.test" {
		t.Fatalf("forged: %+v, %+v", rej, r)
	}
	if again := f.post(s, "token-6", forged); again != rej {
		t.Fatalf("forged again: %+v", again)
	}

	// A rejection that comes after a concurrent copy moved the receipt on
	// is answered rejected and changes nothing.
	var got membership.Stored
	if err := f.tx(func(q *db.Queries) (err error) {
		got, err = membership.Claim(f.ctx, q, membership.Verified{ID: first.ID, Rejection: errors.New("late")})
		return err
	}); err != nil || got.Status != membership.ReceiptRejected || f.receipt(first.ID).Status != "processing" {
		t.Fatalf("late rejection: %+v, %v; receipt %s", got, err, f.receipt(first.ID).Status)
	}

	// A key that cannot be read for now is neither verdict.
	temporary := func(string) ([]string, error) { return nil, &net.DNSError{Err: "timeout", IsTemporary: true} }
	if _, err := membership.Verify(raw, senders, temporary); !errors.Is(err, receipts.ErrDKIMTemporary) {
		t.Fatalf("temporary DNS failure: %v, want ErrDKIMTemporary", err)
	}
}

// TestApply pays the membership a receipt is for, once, or parks the
// receipt with a reason, working from the columns Claim stored.
func TestApply(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := newShop(t)
	exec := f.profile("exec@x.test")
	apply := func(id uuid.UUID) (membership.Outcome, error) {
		var out membership.Outcome
		err := f.tx(func(q *db.Queries) (err error) {
			out, err = membership.Apply(f.ctx, q, id, dues, nil)
			return err
		})
		return out, err
	}
	post := func(token string, sample receipttest.Sample) uuid.UUID {
		return f.post(s, token, s.sign(t, sample)).ID
	}

	// Ana never joined: her membership is created paid.
	ana := f.profile("ana@x.test")
	id := post("t-ana", receipttest.Sample{Email: "ana@x.test", TermName: termName, TransactionID: "TX-ANA"})
	// The email is not read again: only the stored columns count.
	if _, err := f.store.Pool().Exec(f.ctx, `UPDATE receipts SET raw = 'not a receipt' WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	out, err := apply(id)
	if err != nil || out.Status != membership.ReceiptProcessed || out.MembershipID == nil || out.Email == nil || f.emailTo(out.Email.Key) != "ana@x.test" {
		t.Fatalf("Apply = %+v, %v", out, err)
	}
	var status, method string
	var amount int64
	var receiptID uuid.UUID
	f.scan(`SELECT status, method, amount_cents, receipt_id FROM memberships WHERE profile_id = $1 AND term_id = $2`,
		[]any{ana, f.term}, &status, &method, &amount, &receiptID)
	if status != "paid" || method != "shop" || amount != 2000 || receiptID != id || f.receipt(id).Status != "processed" {
		t.Fatalf("membership %s %s %d %s", status, method, amount, receiptID)
	}
	again, err := apply(id)
	if err != nil || again.Status != membership.ReceiptProcessed || *again.MembershipID != *out.MembershipID || *again.Email != *out.Email ||
		f.emails(out.Email.Key) != 1 {
		t.Fatalf("Apply again = %+v, %v; %d emails", again, err, f.emails(out.Email.Key))
	}

	// Bo joined: his membership is paid by the shop.
	bo := f.profile("bo@x.test")
	j, err := membership.Join(f.ctx, f.store.Queries, bo)
	if err != nil {
		t.Fatal(err)
	}
	out, err = apply(post("t-bo", receipttest.Sample{Email: "bo@x.test", TermName: termName, AmountCents: 3000}))
	if err != nil || out.Status != membership.ReceiptProcessed || *out.MembershipID != j.Membership.ID || out.Email == nil {
		t.Fatalf("Apply for a member who joined = %+v, %v", out, err)
	}

	// Cy was paid in person: a receipt is parked, not paid twice.
	cy := f.profile("cy@x.test")
	if j, err = membership.Join(f.ctx, f.store.Queries, cy); err != nil {
		t.Fatal(err)
	}
	if _, _, err := membership.Pay(f.ctx, f.store.Queries, membership.Payment{MembershipID: j.Membership.ID, Method: membership.Cash, AmountCents: 2000, ConfirmedBy: &exec}); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		name   string
		sample receipttest.Sample
		reason string
	}{
		{"AlreadyPaid", receipttest.Sample{Email: "cy@x.test", TermName: termName}, "the account's 2026-2027 membership is already paid"},
		{"NoAccount", receipttest.Sample{Email: "nobody@x.test", TermName: termName}, "no account with the receipt's email"},
		{"NoMembershipItem", receipttest.Sample{Email: "ana@x.test"}, "no membership item on the receipt"},
		{"UnknownTerm", receipttest.Sample{Email: "ana@x.test", TermName: "2030-2031"}, "unknown term 2030-2031"},
		{"BelowDues", receipttest.Sample{Email: "ana@x.test", TermName: termName, AmountCents: 1500}, "total paid $15.00 is below the dues of $20.00"},
	} {
		t.Run(c.name, func(t *testing.T) {
			id := post("t-"+c.name, c.sample)
			out, err := apply(id)
			if err != nil || out.Status != membership.ReceiptParked || out.Reason != c.reason || out.Email != nil || out.MembershipID != nil {
				t.Fatalf("Apply = %+v, %v; want parked: %s", out, err, c.reason)
			}
			if r := f.receipt(id); r.Status != "parked" || r.Reason != c.reason {
				t.Fatalf("receipt %s %q", r.Status, r.Reason)
			}
			// Applied again (a retry), it stays parked.
			if out, err := apply(id); err != nil || out.Status != membership.ReceiptParked || out.Reason != c.reason {
				t.Fatalf("Apply again = %+v, %v", out, err)
			}
		})
	}

	// A receipt that was never verified, or a duplicate, is not applied.
	for _, st := range []string{"received", "rejected", "duplicate"} {
		id := f.one(`INSERT INTO receipts (body_sha256, raw, status, transaction_id) VALUES (sha256($1::bytea), $1::bytea, $2, $3) RETURNING id`,
			[]byte("raw "+st), st, "TX-"+st)
		if _, err := apply(id); !errors.Is(err, membership.ErrNotApplicable) {
			t.Errorf("a %s receipt: %v, want ErrNotApplicable", st, err)
		}
	}
	if _, err := apply(uuid.New()); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("no receipt: %v, want db.ErrNotFound", err)
	}
}

// TestMatchReceipt: an admin applies a parked receipt to an account; one
// that still does not fit is a conflict and nothing changes.
func TestMatchReceipt(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := newShop(t)
	admin := f.profile("admin@x.test")
	f.profile("dee@x.test")
	match := func(id uuid.UUID, email string) (membership.ReceiptView, membership.Email, error) {
		var v membership.ReceiptView
		var e membership.Email
		err := f.tx(func(q *db.Queries) (err error) {
			v, e, err = membership.MatchReceipt(f.ctx, q, id, admin, membership.MatchInput{Email: email}, dues)
			return err
		})
		return v, e, err
	}

	// Dee paid with her school address: the receipt is parked.
	parked := f.post(s, "t-1", s.sign(t, receipttest.Sample{Email: "dee@school.test", TermName: termName, TransactionID: "TX-DEE"}))
	if parked.Status != membership.ReceiptProcessing {
		t.Fatalf("post: %+v", parked)
	}
	if _, _, err := match(parked.ID, "dee@x.test"); err != membership.ErrNotParked {
		t.Fatalf("match of a processing receipt: %v, want ErrNotParked", err)
	}
	if _, _, err := match(uuid.New(), "dee@x.test"); err != membership.ErrReceiptNotFound {
		t.Fatalf("match of no receipt: %v, want ErrReceiptNotFound", err)
	}
	var out membership.Outcome
	if err := f.tx(func(q *db.Queries) (err error) {
		out, err = membership.Apply(f.ctx, q, parked.ID, dues, nil)
		return err
	}); err != nil || out.Status != membership.ReceiptParked {
		t.Fatalf("Apply = %+v, %v", out, err)
	}
	if _, _, err := match(parked.ID, "nobody@x.test"); err != membership.ErrAccountNotFound {
		t.Fatalf("match to no account: %v, want ErrAccountNotFound", err)
	}
	v, e, err := match(parked.ID, "dee@x.test")
	if err != nil || v.Status != "processed" || v.ID != parked.ID || v.TransactionID != "TX-DEE" || e.Kind != membership.ConfirmationKind || f.emailTo(e.Key) != "dee@x.test" || f.emails(e.Key) != 1 {
		t.Fatalf("match = %+v, %+v, %v", v, e, err)
	}
	if r := f.receipt(parked.ID); r.MatchedBy == nil || *r.MatchedBy != admin {
		t.Fatalf("matched by %v, want %s", r.MatchedBy, admin)
	}
	if _, _, err := match(parked.ID, "dee@x.test"); err != membership.ErrNotParked {
		t.Fatalf("match of a processed receipt: %v, want ErrNotParked", err)
	}

	// Short of the dues whoever it is matched to: 409 with the reason, and
	// the receipt is left as it was.
	short := f.post(s, "t-2", s.sign(t, receipttest.Sample{Email: "eve@school.test", TermName: termName, AmountCents: 500}))
	if err := f.tx(func(q *db.Queries) (err error) {
		_, err = membership.Apply(f.ctx, q, short.ID, dues, nil)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	_, _, err = match(short.ID, "admin@x.test")
	ae, ok := apperr.As(err)
	if !ok || ae.Code != apperr.Conflict || ae.Title != "Receipt cannot be matched" || ae.Message != "total paid $5.00 is below the dues of $20.00" {
		t.Fatalf("match of a short receipt: %v", err)
	}
	if r := f.receipt(short.ID); r.Status != "parked" || r.Reason != "no account with the receipt's email" || r.MatchedBy != nil {
		t.Fatalf("after a failed match: %s %q %v", r.Status, r.Reason, r.MatchedBy)
	}

	// An unreadable receipt cannot be matched.
	bad := f.post(s, "t-3", s.sign(t, receipttest.Sample{Email: "not an address", TermName: termName}))
	if _, _, err := match(bad.ID, "dee@x.test"); err != membership.ErrNotParked {
		t.Fatalf("match of an unreadable receipt: %v, want ErrNotParked", err)
	}

	items, total, err := membership.ListReceipts(f.ctx, f.store.Queries, membership.ReceiptFilter{Status: ptr("parked")}, 25, 0)
	if err != nil || total != 2 || len(items) != 2 || items[0].ID != bad.ID || items[1].ID != short.ID {
		t.Fatalf("parked receipts: %+v (total %d), %v", items, total, err)
	}
	if _, total, err := membership.ListReceipts(f.ctx, f.store.Queries, membership.ReceiptFilter{}, 25, 0); err != nil || total != 3 {
		t.Fatalf("all receipts: %d, %v", total, err)
	}
}

func ptr[T any](v T) *T { return &v }
