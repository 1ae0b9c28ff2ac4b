package e2e

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image/png"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"

	"hackdesk/app"
	"hackdesk/dev/receipttest"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/membership"
	"hackdesk/workflows"
)

// memberFixture is an app with an active term, a superadmin, an exec
// (admin) and helpers for members.
type memberFixture struct {
	a      *app.App
	anon   *client
	super  *client
	exec   *client
	execID uuid.UUID
	termID uuid.UUID
	term   string
}

func newMemberFixture(t *testing.T) memberFixture {
	t.Helper()
	a, anon := newApp(t)
	return memberFixtureOn(t, a, anon)
}

// memberFixtureOn is newMemberFixture on a running app.
func memberFixtureOn(t *testing.T, a *app.App, anon *client) memberFixture {
	t.Helper()
	super, _ := decAccount(t, a, anon, "super@x.test", "superadmin")
	exec, execID := decAccount(t, a, anon, "exec@x.test", "admin")
	f := memberFixture{a: a, anon: anon, super: super, exec: exec, execID: execID, term: "2026-2027"}
	f.termID = hiringTermVia(t, super, f.term, "2026-09-01", "2027-04-30", true)
	return f
}

type membershipAnswer struct {
	Membership *struct {
		ID          uuid.UUID `json:"id"`
		Status      string    `json:"status"`
		Method      *string   `json:"method"`
		AmountCents *int64    `json:"amount_cents"`
		TermID      uuid.UUID `json:"term_id"`
		ReceiptID   *string   `json:"receipt_id"`
	} `json:"membership"`
	Term *struct {
		ID   uuid.UUID `json:"id"`
		Name string    `json:"name"`
	} `json:"term"`
	DuesCents int64 `json:"dues_cents"`
	Member    *struct {
		Email       string `json:"email"`
		DisplayName string `json:"display_name"`
	} `json:"member"`
}

func decodeQR(t *testing.T, data []byte) string {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("QR is not a PNG: %v", err)
	}
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		t.Fatal(err)
	}
	// The PNG is a clean, unrotated rendering, so it is decoded as a pure
	// barcode: gozxing's finder-pattern search alone misses about one valid
	// code in thirty (any generator's, checked against two others), which
	// made this test flaky. Pure decoding still checks the format bits and
	// the Reed-Solomon blocks.
	res, err := qrcode.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]interface{}{
		gozxing.DecodeHintType_PURE_BARCODE: true,
	})
	if err != nil {
		t.Fatalf("QR does not decode: %v", err)
	}
	return res.GetText()
}

func TestMembershipJoinQRAndPayment(t *testing.T) {
	t.Parallel()
	f := newMemberFixture(t)
	jane, _ := decAccount(t, f.a, f.anon, "jane@x.test", "member")
	bob, _ := decAccount(t, f.a, f.anon, "bob@x.test", "member")

	var got membershipAnswer
	jane.expect(200, "GET", "/api/membership", nil).JSON(t, &got)
	if got.Membership != nil || got.Term == nil || got.Term.ID != f.termID || got.DuesCents != 2000 {
		t.Fatalf("before joining: %+v", got)
	}
	jane.expect(404, "GET", "/api/membership/qr", nil)
	jane.expect(201, "POST", "/api/membership", nil).JSON(t, &got)
	if got.Membership == nil || got.Membership.Status != "unpaid" || got.Membership.TermID != f.termID {
		t.Fatalf("joined: %+v", got.Membership)
	}
	id := got.Membership.ID
	var again membershipAnswer
	jane.expect(200, "POST", "/api/membership", nil).JSON(t, &again)
	if again.Membership.ID != id {
		t.Fatalf("joining again gave %s, want %s", again.Membership.ID, id)
	}
	bob.expect(201, "POST", "/api/membership", nil)
	var profile struct {
		Membership *struct {
			ID     uuid.UUID `json:"id"`
			Status string    `json:"status"`
		} `json:"membership"`
	}
	jane.expect(200, "GET", "/api/profile", nil).JSON(t, &profile)
	if profile.Membership == nil || profile.Membership.ID != id || profile.Membership.Status != "unpaid" {
		t.Fatalf("profile membership %+v", profile.Membership)
	}

	// The QR code holds the signed link to the exec's page.
	qr := jane.expect(200, "GET", "/api/membership/qr", nil)
	if ct := qr.Header.Get("Content-Type"); ct != "image/png" {
		t.Fatalf("QR content type %q", ct)
	}
	link := decodeQR(t, qr.Body)
	u, err := url.Parse(link)
	if err != nil || u.Scheme+"://"+u.Host != "http://hackdesk.test" || u.Path != "/admin/memberships/"+id.String() || u.Query().Get("sig") == "" {
		t.Fatalf("QR link %q", link)
	}
	sig := u.Query().Get("sig")
	var seen membershipAnswer
	f.exec.expect(200, "GET", "/api/admin/memberships/"+id.String()+"?sig="+url.QueryEscape(sig), nil).JSON(t, &seen)
	if seen.Member == nil || seen.Member.Email != "jane@x.test" || seen.Membership.ID != id || seen.Term.Name != f.term {
		t.Fatalf("exec view %+v", seen)
	}
	f.exec.expect(403, "GET", "/api/admin/memberships/"+id.String(), nil)
	f.exec.expect(403, "GET", "/api/admin/memberships/"+id.String()+"?sig=AAAA"+sig[4:], nil)
	bobQR := decodeQR(t, bob.expect(200, "GET", "/api/membership/qr", nil).Body)
	bu, _ := url.Parse(bobQR)
	f.exec.expect(403, "GET", "/api/admin/memberships/"+id.String()+"?sig="+url.QueryEscape(bu.Query().Get("sig")), nil)
	jane.expect(403, "GET", "/api/admin/memberships/"+id.String()+"?sig="+url.QueryEscape(sig), nil)

	// The list, searched and filtered.
	var list struct {
		Items []struct {
			ID     uuid.UUID `json:"id"`
			Status string    `json:"status"`
			Member struct {
				Email string `json:"email"`
			} `json:"member"`
		} `json:"items"`
		Total int `json:"total"`
	}
	f.exec.expect(200, "GET", "/api/admin/memberships?q=JANE", nil).JSON(t, &list)
	if list.Total != 1 || list.Items[0].ID != id || list.Items[0].Member.Email != "jane@x.test" {
		t.Fatalf("search: %+v", list)
	}
	f.exec.expect(400, "GET", "/api/admin/memberships?status=maybe", nil)

	// Paid in person once, from the QR page (with its signature); the
	// confirmation email once.
	path := "/api/admin/memberships/" + id.String() + "/payments?sig=" + url.QueryEscape(sig)
	f.exec.expect(400, "POST", path, map[string]any{"method": "shop", "amount_cents": 2000})
	f.exec.expect(400, "POST", path, map[string]any{"method": "cash", "amount_cents": 1999})
	f.exec.expect(400, "POST", path, map[string]any{"method": "cash"})
	f.exec.expect(403, "POST", "/api/admin/memberships/"+uuid.NewString()+"/payments", map[string]any{"method": "cash", "amount_cents": 2000})
	jane.expect(403, "POST", path, map[string]any{"method": "cash", "amount_cents": 2000})
	var paid membershipAnswer
	f.exec.expect(200, "POST", path, map[string]any{"method": "cash", "amount_cents": 2500}).JSON(t, &paid)
	if paid.Membership.Status != "paid" || *paid.Membership.Method != "cash" || *paid.Membership.AmountCents != 2500 {
		t.Fatalf("paid: %+v", paid.Membership)
	}
	f.exec.expect(409, "POST", path, map[string]any{"method": "card", "amount_cents": 2000})
	e := sentEmail(t, f.a, "jane@x.test", membership.ConfirmationKind)
	if e.IdempotencyKey != "membership-paid:"+id.String() || !strings.Contains(e.TextBody, "$25.00") {
		t.Fatalf("confirmation %s: %q", e.IdempotencyKey, e.TextBody)
	}
	if n := countRows(t, f.a, `SELECT count(*) FROM emails WHERE kind = 'membership_paid'`); n != 1 {
		t.Fatalf("%d confirmation emails, want 1", n)
	}
	f.exec.expect(200, "GET", "/api/admin/memberships?status=paid", nil).JSON(t, &list)
	if list.Total != 1 || list.Items[0].ID != id {
		t.Fatalf("paid list: %+v", list)
	}
}

// TestMembershipPaymentSignature: a payment in person is recorded from the
// QR page, and only with the signature of the member's own code (in the
// query or the body), spelled exactly as the code spells it; without it,
// or with another member's, nothing is recorded.
func TestMembershipPaymentSignature(t *testing.T) {
	t.Parallel()
	f := newMemberFixture(t)
	join := func(email string) (uuid.UUID, string) {
		t.Helper()
		c, _ := decAccount(t, f.a, f.anon, email, "member")
		var got membershipAnswer
		c.expect(201, "POST", "/api/membership", nil).JSON(t, &got)
		u, err := url.Parse(decodeQR(t, c.expect(200, "GET", "/api/membership/qr", nil).Body))
		if err != nil {
			t.Fatal(err)
		}
		return got.Membership.ID, u.Query().Get("sig")
	}
	jane, janeSig := join("jane@x.test")
	bob, bobSig := join("bob@x.test")
	pay := map[string]any{"method": "cash", "amount_cents": 2000}
	path := func(id uuid.UUID) string { return "/api/admin/memberships/" + id.String() + "/payments" }
	// Spellings of the same signature bytes that must not verify.
	raw, err := base64.RawURLEncoding.DecodeString(janeSig)
	if err != nil {
		t.Fatal(err)
	}
	var lenient string // the same bytes with other spare bits in the last character
	for _, c := range "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_" {
		v := janeSig[:len(janeSig)-1] + string(c)
		if b, err := base64.RawURLEncoding.DecodeString(v); err == nil && v != janeSig && bytes.Equal(b, raw) {
			lenient = v
			break
		}
	}
	if lenient == "" {
		t.Fatal("no other spelling of the signature found")
	}
	for _, bad := range []string{"", "?sig=", "?sig=" + url.QueryEscape(bobSig), "?sig=" + url.QueryEscape(lenient),
		"?sig=" + url.QueryEscape(base64.URLEncoding.EncodeToString(raw)), "?sig=" + url.QueryEscape(base64.StdEncoding.EncodeToString(raw))} {
		r := f.exec.expect(403, "POST", path(jane)+bad, pay)
		if e, _ := errorOf(t, r); e != "Invalid signature" {
			t.Errorf("sig %q: %s", bad, r.Body)
		}
		f.exec.expect(403, "GET", "/api/admin/memberships/"+jane.String()+bad, nil)
	}
	withSig := map[string]any{"method": "cash", "amount_cents": 2000, "sig": bobSig}
	f.exec.expect(403, "POST", path(jane), withSig) // another member's, in the body
	if n := countRows(t, f.a, `SELECT count(*) FROM memberships WHERE status = 'paid'`); n != 0 {
		t.Fatalf("%d memberships paid without their signature", n)
	}
	// The member's own, in the query or the body.
	f.exec.expect(200, "POST", path(jane)+"?sig="+url.QueryEscape(janeSig), pay)
	f.exec.expect(200, "POST", path(bob), withSig)
	if n := countRows(t, f.a, `SELECT count(*) FROM memberships WHERE status = 'paid'`); n != 2 {
		t.Fatalf("%d memberships paid, want 2", n)
	}
}

// awaitWorkflow waits for a workflow run to finish and records its history
// for the replay tests (RECORD_HISTORIES=1).
func awaitWorkflow(t *testing.T, a *app.App, id, history string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := a.Temporal.GetWorkflow(ctx, id, "").Get(ctx, nil); err != nil {
		t.Fatalf("workflow %s: %v", id, err)
	}
	testenv.RecordHistory(t, a.Temporal, id, history)
}

// signedReceipt is a sample receipt signed by the test shop.
func signedReceipt(t *testing.T, s receipttest.Sample) []byte {
	t.Helper()
	raw, err := testenv.Shop().Key.Sign(s.Build())
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// postReceipt posts raw as the inbound-email provider would, signed with
// key at now.
func postReceipt(c *client, form url.Values) response {
	return c.do("POST", "/api/webhooks/membership", form.Encode(), "Content-Type", "application/x-www-form-urlencoded")
}

func webhookForm(raw []byte) url.Values {
	return receipttest.WebhookForm([]byte(testenv.Shop().WebhookKey), raw, time.Now())
}

type receiptRow struct {
	ID            uuid.UUID `json:"id"`
	TransactionID string    `json:"transaction_id"`
	CustomerEmail string    `json:"customer_email"`
	AmountCents   *int64    `json:"amount_cents"`
	Status        string    `json:"status"`
	Reason        string    `json:"reason"`
}

// waitReceipt waits until the receipt of a transaction leaves processing.
func waitReceipt(t *testing.T, c *client, tx string) receiptRow {
	t.Helper()
	var found receiptRow
	testenv.Eventually(t, 20*time.Second, func() (bool, string) {
		var list struct {
			Items []receiptRow `json:"items"`
		}
		c.expect(200, "GET", "/api/admin/receipts?page_size=50", nil).JSON(t, &list)
		for _, r := range list.Items {
			if r.TransactionID == tx && r.Status != "processing" && r.Status != "duplicate" {
				found = r
				return true, ""
			}
		}
		return false, fmt.Sprintf("receipt %s not processed: %+v", tx, list.Items)
	})
	return found
}

func membershipOf(t *testing.T, a *app.App, email string, term uuid.UUID) (status, method string, amount int64, n int) {
	t.Helper()
	err := a.Store.Pool().QueryRow(context.Background(), `
		SELECT coalesce(max(m.status), ''), coalesce(max(m.method), ''), coalesce(max(m.amount_cents), 0), count(m.id)
		FROM profiles p LEFT JOIN memberships m ON m.profile_id = p.id AND m.term_id = $2
		WHERE lower(p.email) = lower($1)`, email, term).Scan(&status, &method, &amount, &n)
	if err != nil {
		t.Fatal(err)
	}
	return
}

func TestMembershipWebhook(t *testing.T) {
	t.Parallel()
	f := newMemberFixture(t)
	jane, _ := decAccount(t, f.a, f.anon, "jane@x.test", "member")
	jane.expect(201, "POST", "/api/membership", nil)
	decAccount(t, f.a, f.anon, "kim@x.test", "member") // never joined

	t.Run("PaidAndEmailedOnce", func(t *testing.T) {
		raw := signedReceipt(t, receipttest.Sample{Email: "Jane@X.test", TermName: f.term, TransactionID: "TX-JANE1", Encoding: "quoted-printable"})
		form := webhookForm(raw)
		r := postReceipt(f.anon, form)
		if r.Status != 200 {
			t.Fatalf("post = %d %s", r.Status, r.Body)
		}
		rc := waitReceipt(t, f.exec, "TX-JANE1")
		if rc.Status != "processed" || rc.CustomerEmail != "jane@x.test" || rc.AmountCents == nil || *rc.AmountCents != 2000 {
			t.Fatalf("receipt %+v", rc)
		}
		if st, m, amt, _ := membershipOf(t, f.a, "jane@x.test", f.termID); st != "paid" || m != "shop" || amt != 2000 {
			t.Fatalf("membership %s %s %d", st, m, amt)
		}
		sentEmail(t, f.a, "jane@x.test", membership.ConfirmationKind)
		awaitWorkflow(t, f.a, workflows.ReceiptProcessingID(receipttest.DevShopDomain, "TX-JANE1"), "receipt_processing")

		// The same post again, and the same email with a new token.
		if r := postReceipt(f.anon, form); r.Status != 200 {
			t.Fatalf("replay = %d %s", r.Status, r.Body)
		}
		if r := postReceipt(f.anon, webhookForm(raw)); r.Status != 200 {
			t.Fatalf("new token = %d %s", r.Status, r.Body)
		}
		// Another copy of the transaction (re-sent: other headers).
		copyRaw := signedReceipt(t, receipttest.Sample{Email: "jane@x.test", TermName: f.term, TransactionID: "TX-JANE1"})
		if r := postReceipt(f.anon, webhookForm(copyRaw)); r.Status != 200 {
			t.Fatalf("copy = %d %s", r.Status, r.Body)
		}
		if n := countRows(t, f.a, `SELECT count(*) FROM receipts WHERE transaction_id = 'TX-JANE1'`); n != 2 {
			t.Fatalf("%d stored receipts of TX-JANE1, want the post and the copy", n)
		}
		if n := countRows(t, f.a, `SELECT count(*) FROM receipts WHERE transaction_id = 'TX-JANE1' AND status = 'duplicate'`); n != 1 {
			t.Fatalf("%d duplicates, want 1", n)
		}
		time.Sleep(300 * time.Millisecond)
		if n := countRows(t, f.a, `SELECT count(*) FROM emails WHERE kind = 'membership_paid' AND to_address = 'jane@x.test'`); n != 1 {
			t.Fatalf("%d confirmation emails, want 1", n)
		}
		// A token reused with another email is refused, and nothing is stored.
		other := webhookForm(signedReceipt(t, receipttest.Sample{Email: "jane@x.test", TermName: f.term}))
		other.Set("timestamp", form.Get("timestamp"))
		other.Set("token", form.Get("token"))
		other.Set("signature", form.Get("signature"))
		before := countRows(t, f.a, `SELECT count(*) FROM receipts`)
		if r := postReceipt(f.anon, other); r.Status != 401 {
			t.Fatalf("reused token with another body = %d, want 401", r.Status)
		}
		if n := countRows(t, f.a, `SELECT count(*) FROM receipts`); n != before {
			t.Fatalf("receipts %d → %d after a refused post", before, n)
		}
	})

	t.Run("ErrBadSignature", func(t *testing.T) {
		raw := signedReceipt(t, receipttest.Sample{Email: "jane@x.test", TermName: f.term})
		before := countRows(t, f.a, `SELECT count(*) FROM receipts`)
		form := webhookForm(raw)
		sig := []byte(form.Get("signature"))
		sig[0] ^= 1
		form.Set("signature", string(sig))
		if r := postReceipt(f.anon, form); r.Status != 401 {
			t.Fatalf("bad signature = %d, want 401", r.Status)
		}
		stale := receipttest.WebhookForm([]byte(testenv.Shop().WebhookKey), raw, time.Now().Add(-301*time.Second))
		if r := postReceipt(f.anon, stale); r.Status != 401 {
			t.Fatalf("stale timestamp = %d, want 401", r.Status)
		}
		wrongKey := receipttest.WebhookForm([]byte("another key"), raw, time.Now())
		if r := postReceipt(f.anon, wrongKey); r.Status != 401 {
			t.Fatalf("wrong key = %d, want 401", r.Status)
		}
		if n := countRows(t, f.a, `SELECT count(*) FROM receipts`); n != before {
			t.Fatalf("receipts %d → %d after refused posts", before, n)
		}
	})

	t.Run("ErrDKIMFails", func(t *testing.T) {
		kim := "kim@x.test"
		raw := signedReceipt(t, receipttest.Sample{Email: kim, TermName: f.term, TransactionID: "TX-FORGED"})
		forged := bytes.ReplaceAll(raw, []byte("$20.00"), []byte("$90.00"))
		if r := postReceipt(f.anon, webhookForm(forged)); r.Status != 406 {
			t.Fatalf("forged body = %d %s, want 406", r.Status, r.Body)
		}
		evil, err := receipttest.NewShopKey("evil.test", "dev")
		if err != nil {
			t.Fatal(err)
		}
		byOther, err := evil.Sign(receipttest.Sample{Email: kim, TermName: f.term, TransactionID: "TX-OTHER"}.Build())
		if err != nil {
			t.Fatal(err)
		}
		if r := postReceipt(f.anon, webhookForm(byOther)); r.Status != 406 {
			t.Fatalf("signed by another domain = %d, want 406", r.Status)
		}
		unknownShop, err := evil.Sign(receipttest.Sample{Email: kim, TermName: f.term, Domain: "evil.test"}.Build())
		if err != nil {
			t.Fatal(err)
		}
		if r := postReceipt(f.anon, webhookForm(unknownShop)); r.Status != 406 {
			t.Fatalf("unknown sender domain = %d, want 406", r.Status)
		}
		if _, _, _, n := membershipOf(t, f.a, kim, f.termID); n != 0 {
			t.Fatal("a rejected receipt created a membership")
		}
		var list struct {
			Items []receiptRow `json:"items"`
			Total int          `json:"total"`
		}
		f.exec.expect(200, "GET", "/api/admin/receipts?status=rejected", nil).JSON(t, &list)
		if list.Total != 3 {
			t.Fatalf("rejected receipts %+v", list)
		}
		// The transaction was not claimed: the genuine receipt still counts.
		if r := postReceipt(f.anon, webhookForm(raw)); r.Status != 200 {
			t.Fatalf("genuine receipt after a forged one = %d", r.Status)
		}
		if rc := waitReceipt(t, f.exec, "TX-FORGED"); rc.Status != "processed" {
			t.Fatalf("genuine receipt %+v", rc)
		}
		if st, m, _, n := membershipOf(t, f.a, kim, f.termID); st != "paid" || m != "shop" || n != 1 {
			t.Fatalf("kim's membership %s %s (%d), want created paid", st, m, n)
		}
	})

	t.Run("UnknownEmailParkedThenMatched", func(t *testing.T) {
		raw := signedReceipt(t, receipttest.Sample{Email: "nobody@elsewhere.test", TermName: f.term, TransactionID: "TX-NOBODY", Encoding: "html"})
		if r := postReceipt(f.anon, webhookForm(raw)); r.Status != 200 {
			t.Fatalf("post = %d", r.Status)
		}
		rc := waitReceipt(t, f.exec, "TX-NOBODY")
		if rc.Status != "parked" || !strings.Contains(rc.Reason, "no account") {
			t.Fatalf("receipt %+v", rc)
		}
		decAccount(t, f.a, f.anon, "lee@x.test", "member")
		f.exec.expect(404, "POST", "/api/admin/receipts/"+rc.ID.String()+"/match", map[string]any{"email": "ghost@x.test"})
		f.exec.expect(400, "POST", "/api/admin/receipts/"+rc.ID.String()+"/match", map[string]any{"email": ""})
		jane.expect(403, "POST", "/api/admin/receipts/"+rc.ID.String()+"/match", map[string]any{"email": "lee@x.test"})
		var matched receiptRow
		f.exec.expect(200, "POST", "/api/admin/receipts/"+rc.ID.String()+"/match", map[string]any{"email": "lee@x.test"}).JSON(t, &matched)
		if matched.Status != "processed" {
			t.Fatalf("matched %+v", matched)
		}
		if st, m, _, _ := membershipOf(t, f.a, "lee@x.test", f.termID); st != "paid" || m != "shop" {
			t.Fatalf("lee's membership %s %s", st, m)
		}
		sentEmail(t, f.a, "lee@x.test", membership.ConfirmationKind)
		f.exec.expect(409, "POST", "/api/admin/receipts/"+rc.ID.String()+"/match", map[string]any{"email": "lee@x.test"})
	})

	t.Run("ShortTotalParked", func(t *testing.T) {
		decAccount(t, f.a, f.anon, "sam@x.test", "member")
		raw := signedReceipt(t, receipttest.Sample{Email: "sam@x.test", TermName: f.term, TransactionID: "TX-SHORT", AmountCents: 1500, Encoding: "base64"})
		if r := postReceipt(f.anon, webhookForm(raw)); r.Status != 200 {
			t.Fatalf("post = %d", r.Status)
		}
		rc := waitReceipt(t, f.exec, "TX-SHORT")
		if rc.Status != "parked" || !strings.Contains(rc.Reason, "below the dues") {
			t.Fatalf("receipt %+v", rc)
		}
		awaitWorkflow(t, f.a, workflows.ReceiptProcessingID(receipttest.DevShopDomain, "TX-SHORT"), "receipt_processing_parked")
		if _, _, _, n := membershipOf(t, f.a, "sam@x.test", f.termID); n != 0 {
			t.Fatal("a short receipt created a membership")
		}
		r := f.exec.expect(409, "POST", "/api/admin/receipts/"+rc.ID.String()+"/match", map[string]any{"email": "sam@x.test"})
		if !strings.Contains(string(r.Body), "below the dues") {
			t.Fatalf("match of a short receipt: %s", r.Body)
		}
	})

	t.Run("UnreadableParked", func(t *testing.T) {
		unsigned := receipttest.Sample{Email: "jane@x.test", TermName: f.term, TransactionID: "TX-BROKEN"}.Build()
		unsigned = bytes.Replace(unsigned, []byte("Customer email:"), []byte("Customer:"), 1)
		raw, err := testenv.Shop().Key.Sign(unsigned)
		if err != nil {
			t.Fatal(err)
		}
		if r := postReceipt(f.anon, webhookForm(raw)); r.Status != 200 {
			t.Fatalf("post = %d %s", r.Status, r.Body)
		}
		var list struct {
			Items []receiptRow `json:"items"`
		}
		f.exec.expect(200, "GET", "/api/admin/receipts?status=parked", nil).JSON(t, &list)
		found := false
		for _, r := range list.Items {
			found = found || strings.Contains(r.Reason, "customer_email")
		}
		if !found {
			t.Fatalf("no parked unreadable receipt: %+v", list.Items)
		}
	})

	t.Run("ConcurrentDeliveriesPayOnce", func(t *testing.T) {
		decAccount(t, f.a, f.anon, "max@x.test", "member")
		raw := signedReceipt(t, receipttest.Sample{Email: "max@x.test", TermName: f.term, TransactionID: "TX-MANY"})
		var wg sync.WaitGroup
		codes := make([]int, 50)
		for i := range codes {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				codes[i] = postReceipt(f.anon, webhookForm(raw)).Status
			}(i)
		}
		wg.Wait()
		for i, c := range codes {
			if c != 200 {
				t.Fatalf("delivery %d = %d", i, c)
			}
		}
		if rc := waitReceipt(t, f.exec, "TX-MANY"); rc.Status != "processed" {
			t.Fatalf("receipt %+v", rc)
		}
		sentEmail(t, f.a, "max@x.test", membership.ConfirmationKind)
		time.Sleep(300 * time.Millisecond)
		if n := countRows(t, f.a, `SELECT count(*) FROM receipts WHERE transaction_id = 'TX-MANY'`); n != 1 {
			t.Fatalf("%d stored receipts, want 1", n)
		}
		if n := countRows(t, f.a, `SELECT count(*) FROM emails WHERE kind = 'membership_paid' AND to_address = 'max@x.test'`); n != 1 {
			t.Fatalf("%d confirmation emails, want 1", n)
		}
		if _, _, _, n := membershipOf(t, f.a, "max@x.test", f.termID); n != 1 {
			t.Fatalf("%d memberships, want 1", n)
		}
	})

	t.Run("ErrNotAForm", func(t *testing.T) {
		if r := f.anon.do("POST", "/api/webhooks/membership", `{"a":1}`); r.Status != 415 {
			t.Fatalf("JSON post = %d, want 415", r.Status)
		}
	})
}
