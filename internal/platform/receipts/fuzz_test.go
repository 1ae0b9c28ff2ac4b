package receipts_test

import (
	"errors"
	"net/mail"
	"path/filepath"
	"strings"
	"testing"

	"hackdesk/dev/receipttest"
	"hackdesk/internal/platform/receipts"
)

func addSampleSeeds(f *testing.F) {
	files, err := filepath.Glob(filepath.Join(sampleDir, "*.eml"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seed files: %v", err)
	}
	for _, name := range files {
		f.Add(readSample(f, filepath.Base(name)))
	}
}

// FuzzParse: Parse never panics, fails only with ErrInvalid, and what it
// accepts is a whole, valid receipt.
func FuzzParse(f *testing.F) {
	addSampleSeeds(f)
	f.Fuzz(func(t *testing.T, raw []byte) {
		r, err := receipts.Parse(raw)
		if err != nil {
			if !errors.Is(err, receipts.ErrInvalid) {
				t.Fatalf("error %v is not ErrInvalid", err)
			}
			return
		}
		checkReceipt(t, r)
	})
}

func checkReceipt(t *testing.T, r receipts.Receipt) {
	t.Helper()
	if !receipts.IsHostName(r.ShopDomain) || !strings.HasSuffix(r.From, "@"+r.ShopDomain) || strings.ToLower(r.From) != r.From {
		t.Errorf("From %q, ShopDomain %q", r.From, r.ShopDomain)
	}
	if !receipts.IDPattern.MatchString(r.OrderNumber) {
		t.Errorf("OrderNumber %q", r.OrderNumber)
	}
	if !receipts.IDPattern.MatchString(r.TransactionID) {
		t.Errorf("TransactionID %q", r.TransactionID)
	}
	if r.Date.IsZero() || r.Date.Location().String() != "UTC" {
		t.Errorf("Date %v", r.Date)
	}
	if a, err := mail.ParseAddress(r.CustomerEmail); err != nil || a.Address != r.CustomerEmail || strings.ToLower(r.CustomerEmail) != r.CustomerEmail {
		t.Errorf("CustomerEmail %q: %v", r.CustomerEmail, err)
	}
	if len(r.Items) == 0 {
		t.Error("no items")
	}
	for _, it := range r.Items {
		if strings.TrimSpace(it.Description) == "" || it.Quantity < 1 || it.Quantity > receipts.MaxQuantity || it.UnitCents < 0 || it.UnitCents > receipts.MaxCents {
			t.Errorf("item %+v", it)
		}
	}
	if r.TotalCents <= 0 || r.TotalCents > receipts.MaxCents {
		t.Errorf("TotalCents %d", r.TotalCents)
	}
	if len(r.Currency) != 3 || strings.Trim(r.Currency, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
		t.Errorf("Currency %q", r.Currency)
	}
}

// FuzzVerifyDKIM: VerifyDKIM never panics, fails only with ErrDKIM, and
// passes only messages whose sender is the shop.
func FuzzVerifyDKIM(f *testing.F) {
	addSampleSeeds(f)
	lookup, err := receipts.TXTFile(filepath.Join(sampleDir, "dkim.txt"))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		err := receipts.VerifyDKIM(raw, receipttest.DevShopDomain, lookup)
		if err != nil {
			if !errors.Is(err, receipts.ErrDKIM) {
				t.Fatalf("error %v is not ErrDKIM", err)
			}
			return
		}
		if d, err := receipts.SenderDomain(raw); err != nil || d != receipttest.DevShopDomain {
			t.Fatalf("verified, but SenderDomain = %q, %v", d, err)
		}
	})
}
