package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"hackdesk/app"
	"hackdesk/dev/receipttest"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/account"
	"hackdesk/internal/platform/receipts"
)

// `hackdesk receipts sample` prints a receipt signed by the dev shop, and
// with --post delivers it to the webhook of a stack that trusts that shop:
// the member's membership of the active term ends up paid.
func TestReceiptsSample(t *testing.T) {
	dir := t.TempDir()
	shop, err := app.LoadDevShop(dir)
	if err != nil {
		t.Fatal(err)
	}
	out, err := runCmd(t, "", "receipts", "sample", "--email", "ana@x.test", "--term", "2030-2031", "--amount", "25", "--data", dir)
	if err != nil {
		t.Fatalf("sample: %v\n%s", err, out)
	}
	if err := receipts.VerifyDKIM([]byte(out), receipttest.DevShopDomain, mustTXT(t, shop.TXTFile)); err != nil {
		t.Fatalf("the printed receipt does not verify: %v", err)
	}
	rc, err := receipts.Parse([]byte(out))
	if err != nil || rc.CustomerEmail != "ana@x.test" || rc.TotalCents != 2500 || rc.MembershipTerm() != "2030-2031" {
		t.Fatalf("printed receipt %+v, %v", rc, err)
	}

	cfg := testenv.Config(t)
	cfg.WebhookSigningKey, cfg.DKIMTXTFile = shop.WebhookKey, shop.TXTFile
	a := testenv.App(t, cfg)
	ctx := context.Background()
	if _, err := a.Store.Pool().Exec(ctx, `INSERT INTO terms (name, starts_on, ends_on, active) VALUES ('2030-2031', '2030-09-01', '2031-04-30', true)`); err != nil {
		t.Fatal(err)
	}
	if _, err := account.Create(ctx, a.Store.Queries, "ana@x.test", "Ana", "password-ana@x.test", "member"); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DATABASE_URL", cfg.DatabaseURL) // the active term is read from it
	out, err = runCmd(t, "", "receipts", "sample", "--email", "ana@x.test", "--post", "--url", a.URL(), "--data", dir)
	if err != nil || !strings.Contains(out, "200 OK") {
		t.Fatalf("post: %v\n%s", err, out)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		var status string
		err := a.Store.Pool().QueryRow(ctx, `SELECT m.status FROM memberships m JOIN profiles p ON p.id = m.profile_id WHERE p.email = 'ana@x.test'`).Scan(&status)
		if err == nil && status == "paid" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("membership not paid: %q %v", status, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func mustTXT(t *testing.T, path string) receipts.LookupTXT {
	t.Helper()
	l, err := receipts.TXTFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return l
}
