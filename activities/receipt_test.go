package activities_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"testing"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"

	"hackdesk/activities"
	"hackdesk/dev/receipttest"
	"hackdesk/dev/testenv"
	"hackdesk/internal/platform/receipts"
)

// TestApplyReceipt runs ApplyReceipt on PostgreSQL: a verified receipt pays
// the membership once (created paid when the member had not joined), a
// second run returns the same outcome and records nothing new, and a
// receipt that was never verified is a permanent error.
func TestApplyReceipt(t *testing.T) {
	t.Parallel()
	store := testenv.Store(t)
	ctx := context.Background()
	one := func(sql string, args ...any) uuid.UUID {
		t.Helper()
		var id uuid.UUID
		if err := store.Pool().QueryRow(ctx, sql, args...).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	termID := one(`INSERT INTO terms (name, starts_on, ends_on, active) VALUES ('2026-2027', '2026-09-01', '2027-04-30', true) RETURNING id`)
	profile := one(`INSERT INTO profiles (email, display_name, password_hash) VALUES ('ana@x.test', 'Ana', '$argon2id$x') RETURNING id`)
	// stored stores a receipt as the webhook leaves it: the raw email and
	// what was read of it.
	stored := func(raw []byte, status, tx string) uuid.UUID {
		rc, err := receipts.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(raw)
		return one(`INSERT INTO receipts (body_sha256, raw, status, transaction_id, shop_domain, customer_email, amount_cents, term_name)
			VALUES ($1, $2, $3, $4, 'shop.hackdesk.test', $5, $6, $7) RETURNING id`,
			sum[:], raw, status, tx, rc.CustomerEmail, rc.TotalCents, rc.MembershipTerm())
	}
	a := &activities.ReceiptActivities{Store: store, DuesCents: 2000}

	id := stored(receipttest.Sample{Email: "ANA@x.test", TermName: "2026-2027", TransactionID: "TX-A"}.Build(), "processing", "TX-A")
	first, err := a.ApplyReceipt(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if first.Status != "processed" || first.MembershipID == nil || first.Email == nil {
		t.Fatalf("first run %+v", first)
	}
	// The reference names the email by key; the address is in the record.
	if e, err := a.Store.EmailGetByKey(ctx, first.Email.Key); err != nil || e.ToAddress != "ana@x.test" {
		t.Fatalf("recorded email %+v, %v", e, err)
	}
	second, err := a.ApplyReceipt(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if second.Status != "processed" || *second.MembershipID != *first.MembershipID || *second.Email != *first.Email {
		t.Fatalf("second run %+v, first %+v", second, first)
	}
	var status, method string
	var amount int64
	var receiptID uuid.UUID
	if err := store.Pool().QueryRow(ctx, `SELECT status, method, amount_cents, receipt_id FROM memberships WHERE profile_id = $1 AND term_id = $2`,
		profile, termID).Scan(&status, &method, &amount, &receiptID); err != nil {
		t.Fatal(err)
	}
	if status != "paid" || method != "shop" || amount != 2000 || receiptID != id {
		t.Fatalf("membership %s %s %d %s", status, method, amount, receiptID)
	}
	var emails int
	if err := store.Pool().QueryRow(ctx, `SELECT count(*) FROM emails WHERE idempotency_key = $1`, first.Email.Key).Scan(&emails); err != nil {
		t.Fatal(err)
	}
	if emails != 1 {
		t.Fatalf("%d confirmation emails recorded, want 1", emails)
	}

	// Another receipt for a membership that is paid is parked, not paid twice.
	again := stored(receipttest.Sample{Email: "ana@x.test", TermName: "2026-2027", TransactionID: "TX-B"}.Build(), "processing", "TX-B")
	out, err := a.ApplyReceipt(ctx, again)
	if err != nil {
		t.Fatal(err)
	}
	if out.Status != "parked" || out.Email != nil {
		t.Fatalf("a second payment: %+v", out)
	}

	for _, status := range []string{"received", "rejected", "duplicate"} {
		id := stored(receipttest.Sample{Email: "ana@x.test", TermName: "2026-2027"}.Build(), status, "TX-"+status)
		_, err := a.ApplyReceipt(ctx, id)
		var appErr *temporal.ApplicationError
		if !errors.As(err, &appErr) || appErr.Type() != activities.ErrTypeReceiptNotApplicable || !appErr.NonRetryable() {
			t.Errorf("a %s receipt: %v, want a non-retryable %s", status, err, activities.ErrTypeReceiptNotApplicable)
		}
	}
}
