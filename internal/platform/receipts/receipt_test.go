package receipts_test

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hackdesk/dev/receipttest"
	"hackdesk/internal/platform/receipts"
)

var update = flag.Bool("update", false, "rewrite testdata/receipts from the Sample builder")

const sampleDir = "testdata/receipts"

var sampleDate = time.Date(2026, 9, 14, 13, 5, 0, 0, time.UTC)

// sampleFiles are the committed receipts: how each was built (Sample,
// then edit, then signed) and what Parse must make of the file.
var sampleFiles = []struct {
	file   string
	sample receipttest.Sample
	edit   func([]byte) []byte // the shop's own mistake, before signing
	want   receipts.Receipt
	field  string // the FieldError's field, when the file must fail
}{
	{
		file:   "plain.eml",
		sample: receipttest.Sample{Email: "jane@example.com", TermName: "2026-2027", TransactionID: "TX-8F3K2L9Q", OrderNumber: "100234", Date: sampleDate},
		want:   membership("100234", "TX-8F3K2L9Q", "jane@example.com", "Club Membership - 2026-2027", 2000),
	},
	{
		file:   "quoted-printable.eml",
		sample: receipttest.Sample{Email: "Ana.Lopez@Example.COM", TermName: "Été 2027", TransactionID: "TX-QP000001", OrderNumber: "100235", Date: sampleDate, Encoding: "quoted-printable"},
		want:   membership("100235", "TX-QP000001", "ana.lopez@example.com", "Club Membership - Été 2027", 2000),
	},
	{
		file:   "base64.eml",
		sample: receipttest.Sample{Email: "sam@example.org", TermName: "2026-2027", TransactionID: "TX-B64.0002", OrderNumber: "100236", Date: sampleDate, Encoding: "base64"},
		want:   membership("100236", "TX-B64.0002", "sam@example.org", "Club Membership - 2026-2027", 2000),
	},
	{
		file:   "html-only.eml",
		sample: receipttest.Sample{Email: "lee@example.com", TermName: "2026-2027", TransactionID: "TX-HTML_003", OrderNumber: "100237", Date: sampleDate, Encoding: "html"},
		want:   membership("100237", "TX-HTML_003", "lee@example.com", "Club Membership - 2026-2027", 2000),
	},
	{
		file:   "alternative.eml",
		sample: receipttest.Sample{Email: "kim@example.com", TermName: "2026-2027", TransactionID: "TX-ALT00004", OrderNumber: "100238", Date: sampleDate, Encoding: "alternative"},
		want:   membership("100238", "TX-ALT00004", "kim@example.com", "Club Membership - 2026-2027", 2000),
	},
	{
		file:   "short-total.eml",
		sample: receipttest.Sample{Email: "pat@example.com", AmountCents: 500, TermName: "2026-2027", TransactionID: "TX-SHORT005", OrderNumber: "100239", Date: sampleDate},
		want:   membership("100239", "TX-SHORT005", "pat@example.com", "Club Membership - 2026-2027", 500),
	},
	{
		file: "two-items.eml",
		sample: receipttest.Sample{Email: "alex@example.com", TermName: "2026-2027", TransactionID: "TX-TWO00006", OrderNumber: "100240", Date: sampleDate,
			Extra: []receipts.Item{{Description: "Club T-shirt (M)", Quantity: 2, UnitCents: 1500}}},
		want: func() receipts.Receipt {
			r := membership("100240", "TX-TWO00006", "alex@example.com", "Club Membership - 2026-2027", 2000)
			r.Items = append(r.Items, receipts.Item{Description: "Club T-shirt (M)", Quantity: 2, UnitCents: 1500})
			r.TotalCents = 5000
			return r
		}(),
	},
	{
		file:   "missing-transaction-id.eml",
		sample: receipttest.Sample{Email: "jane@example.com", TermName: "2026-2027", TransactionID: "TX-GONE0007", OrderNumber: "100241", Date: sampleDate},
		edit:   dropLine("Transaction ID:"),
		field:  "transaction_id",
	},
	{
		file:   "missing-customer-email.eml",
		sample: receipttest.Sample{Email: "jane@example.com", TermName: "2026-2027", TransactionID: "TX-NOMAIL08", OrderNumber: "100242", Date: sampleDate},
		edit:   dropLine("Customer email:"),
		field:  "customer_email",
	},
	{
		file:   "missing-total.eml",
		sample: receipttest.Sample{Email: "jane@example.com", TermName: "2026-2027", TransactionID: "TX-NOTOTAL9", OrderNumber: "100243", Date: sampleDate},
		edit:   dropLine("Total paid:"),
		field:  "total",
	},
}

func membership(order, tx, email, desc string, cents int64) receipts.Receipt {
	return receipts.Receipt{
		From:          "receipts@" + receipttest.DevShopDomain,
		ShopDomain:    receipttest.DevShopDomain,
		OrderNumber:   order,
		TransactionID: tx,
		Date:          sampleDate,
		CustomerEmail: email,
		Items:         []receipts.Item{{Description: desc, Quantity: 1, UnitCents: cents}},
		TotalCents:    cents,
		Currency:      "CAD",
	}
}

// dropLine removes the line starting with prefix from a plain message.
func dropLine(prefix string) func([]byte) []byte {
	return func(raw []byte) []byte {
		lines := bytes.Split(raw, []byte("\r\n"))
		lines = slices.DeleteFunc(lines, func(l []byte) bool { return bytes.HasPrefix(l, []byte(prefix)) })
		return bytes.Join(lines, []byte("\r\n"))
	}
}

// TestUpdateSampleFiles rewrites the committed samples, signed by a new
// key whose TXT record goes to dkim.txt (the private key is dropped):
//
//	go test ./receipts/ -run TestUpdateSampleFiles -update
//
// It is not parallel, so it is done before the parallel tests read the files.
func TestUpdateSampleFiles(t *testing.T) {
	if !*update {
		t.Skip("run with -update to rewrite " + sampleDir)
	}
	k := mustKey(t, receipttest.DevShopDomain)
	txt := filepath.Join(sampleDir, "dkim.txt")
	if err := receipttest.WriteTXTFile(txt, k); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(txt, 0o644); err != nil { // public, unlike a dev stack's
		t.Fatal(err)
	}
	for _, c := range sampleFiles {
		raw := c.sample.Build()
		if c.edit != nil {
			raw = c.edit(raw)
		}
		signed, err := k.Sign(raw)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sampleDir, c.file), signed, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func readSample(tb testing.TB, name string) []byte {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join(sampleDir, name))
	if err != nil {
		tb.Fatal(err)
	}
	return raw
}

func TestParseSampleFiles(t *testing.T) {
	t.Parallel()
	for _, c := range sampleFiles {
		t.Run(c.file, func(t *testing.T) {
			t.Parallel()
			got, err := receipts.Parse(readSample(t, c.file))
			if c.field != "" {
				var fe *receipts.FieldError
				if !errors.As(err, &fe) || fe.Field != c.field || !errors.Is(err, receipts.ErrInvalid) {
					t.Fatalf("Parse: %v, want a FieldError for %s", err, c.field)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			compareReceipt(t, got, c.want)
		})
	}
}

func compareReceipt(t *testing.T, got, want receipts.Receipt) {
	t.Helper()
	check := func(field string, g, w any) {
		t.Helper()
		if g != w {
			t.Errorf("%s = %v, want %v", field, g, w)
		}
	}
	check("From", got.From, want.From)
	check("ShopDomain", got.ShopDomain, want.ShopDomain)
	check("OrderNumber", got.OrderNumber, want.OrderNumber)
	check("TransactionID", got.TransactionID, want.TransactionID)
	check("Date", got.Date, want.Date)
	check("CustomerEmail", got.CustomerEmail, want.CustomerEmail)
	check("TotalCents", got.TotalCents, want.TotalCents)
	check("Currency", got.Currency, want.Currency)
	if !slices.Equal(got.Items, want.Items) {
		t.Errorf("Items = %+v, want %+v", got.Items, want.Items)
	}
}

// TestSampleFilesReadme checks every sample is listed in the README and
// every .eml file is in the table.
func TestSampleFilesReadme(t *testing.T) {
	t.Parallel()
	readme := string(readSample(t, "README.md"))
	files, err := filepath.Glob(filepath.Join(sampleDir, "*.eml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(sampleFiles) {
		t.Errorf("%d .eml files, %d in the table", len(files), len(sampleFiles))
	}
	for _, c := range sampleFiles {
		if !strings.Contains(readme, c.file) {
			t.Errorf("README.md does not mention %s", c.file)
		}
	}
}

// plainReceipt is a valid plain receipt with line edits: each key is a
// label prefix whose line is replaced by the value ("" drops it).
func plainReceipt(edits map[string]string) []byte {
	raw := string(receipttest.Sample{Email: "jane@example.com", TermName: "2026-2027", TransactionID: "TX-8F3K2L9Q", OrderNumber: "100234", Date: sampleDate}.Build())
	lines := strings.Split(raw, "\r\n")
	var out []string
	for _, l := range lines {
		kept := true
		for prefix, repl := range edits {
			if strings.HasPrefix(l, prefix) {
				kept = false
				if repl != "" {
					out = append(out, strings.Split(repl, "\n")...)
				}
			}
		}
		if kept {
			out = append(out, l)
		}
	}
	return []byte(strings.Join(out, "\r\n"))
}

func TestParseFieldErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		edits map[string]string
		field string
	}{
		{"MissingOrderNumber", map[string]string{"Order number:": ""}, "order_number"},
		{"BadOrderNumber", map[string]string{"Order number:": "Order number: 100 234"}, "order_number"},
		{"MissingTransactionID", map[string]string{"Transaction ID:": ""}, "transaction_id"},
		{"EmptyTransactionID", map[string]string{"Transaction ID:": "Transaction ID:   "}, "transaction_id"},
		{"TransactionIDBadChar", map[string]string{"Transaction ID:": "Transaction ID: TX:1"}, "transaction_id"},
		{"TransactionIDTooLong", map[string]string{"Transaction ID:": "Transaction ID: " + strings.Repeat("A", 65)}, "transaction_id"},
		{"TransactionIDTwice", map[string]string{"Transaction ID:": "Transaction ID: TX-1\nTransaction ID: TX-2"}, "transaction_id"},
		{"MissingDate", map[string]string{"Date: 2026": ""}, "date"},
		{"BadDate", map[string]string{"Date: 2026": "Date: 14/09/2026 13:05"}, "date"},
		{"MissingCustomerEmail", map[string]string{"Customer email:": ""}, "customer_email"},
		{"CustomerEmailList", map[string]string{"Customer email:": "Customer email: a@example.com, b@example.com"}, "customer_email"},
		{"CustomerEmailInvalid", map[string]string{"Customer email:": "Customer email: jane at example.com"}, "customer_email"},
		{"CustomerEmailTwice", map[string]string{"Customer email:": "Customer email: a@example.com\nCUSTOMER EMAIL: b@example.com"}, "customer_email"},
		{"MissingItem", map[string]string{"Item:": ""}, "item"},
		{"ItemNoQuantity", map[string]string{"Item:": "Item: Club Membership - 2026-2027 $20.00"}, "item"},
		{"ItemZeroQuantity", map[string]string{"Item:": "Item: Club Membership - 2026-2027  0 x $20.00"}, "item"},
		{"ItemNegativePrice", map[string]string{"Item:": "Item: Club Membership - 2026-2027  1 x -$20.00"}, "item"},
		{"ItemNoDescription", map[string]string{"Item:": "Item: 1 x $20.00"}, "item"},
		{"TooManyItems", map[string]string{"Item:": strings.Repeat("Item: Sticker  1 x $0.10\n", receipts.MaxItems) + "Item: Sticker  1 x $0.10"}, "item"},
		{"MissingTotal", map[string]string{"Total paid:": ""}, "total"},
		{"TotalNoCurrency", map[string]string{"Total paid:": "Total paid: $20.00"}, "total"},
		{"TotalNegative", map[string]string{"Total paid:": "Total paid: -$20.00 CAD"}, "total"},
		{"TotalThreeDecimals", map[string]string{"Total paid:": "Total paid: $20.001 CAD"}, "total"},
		{"TotalAbsurd", map[string]string{"Total paid:": "Total paid: $10,000,000.01 CAD"}, "total"},
		{"TotalZero", map[string]string{"Total paid:": "Total paid: $0.00 CAD"}, "total"},
		{"TotalBadCommas", map[string]string{"Total paid:": "Total paid: $1,02.50 CAD"}, "total"},
		{"NoFrom", map[string]string{"From:": ""}, "from"},
		{"TwoFromFields", map[string]string{"From:": "From: receipts@evil.test\nFrom: receipts@shop.hackdesk.test"}, "from"},
		{"TwoFromAddresses", map[string]string{"From:": "From: receipts@shop.hackdesk.test, receipts@evil.test"}, "from"},
		{"FromBadDomain", map[string]string{"From:": "From: receipts@[127.0.0.1]"}, "from"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := receipts.Parse(plainReceipt(c.edits))
			var fe *receipts.FieldError
			if !errors.As(err, &fe) || fe.Field != c.field {
				t.Fatalf("Parse: %v, want a FieldError for %s", err, c.field)
			}
			if !errors.Is(err, receipts.ErrInvalid) {
				t.Errorf("errors.Is(%v, ErrInvalid) = false", err)
			}
			if want := "receipt: " + c.field + ": "; !strings.HasPrefix(err.Error(), want) {
				t.Errorf("message %q does not start with %q", err, want)
			}
		})
	}
}

func TestParseInvalid(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		raw  []byte
	}{
		{"Empty", nil},
		{"NoBody", []byte("From: receipts@shop.hackdesk.test\r\nSubject: hi\r\n")},
		{"TooLarge", append(plainReceipt(nil), bytes.Repeat([]byte("x"), receipts.MaxSize)...)},
		{"NoText", []byte("From: receipts@shop.hackdesk.test\r\nContent-Type: text/html\r\n\r\n<p></p>\r\n")},
		{"TwoContentTypes", plainReceipt(map[string]string{"MIME-Version:": "MIME-Version: 1.0\nContent-Type: text/html"})},
		{"ManyParts", []byte("From: receipts@shop.hackdesk.test\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n" +
			strings.Repeat("--b\r\nContent-Type: text/plain\r\n\r\nhi\r\n", receipts.MaxParts+1) + "--b--\r\n")},
		{"FoldedHeader", append([]byte("Subject: a\r\n"+strings.Repeat(" a\r\n", receipts.MaxFolds+1)), plainReceipt(nil)...)},
		{"LargeHeader", append([]byte(strings.Repeat("X-Pad: "+strings.Repeat("a", 990)+"\r\n", 70)), plainReceipt(nil)...)},
		{"BadBase64", []byte("From: receipts@shop.hackdesk.test\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!!not base64 at all!!!!\r\n")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r, err := receipts.Parse(c.raw)
			if !errors.Is(err, receipts.ErrInvalid) {
				t.Fatalf("Parse = %+v, %v; want ErrInvalid", r, err)
			}
			t.Log(err)
			var fe *receipts.FieldError
			if errors.As(err, &fe) {
				t.Errorf("got a FieldError (%v), want a message error", err)
			}
		})
	}
}

func TestParseLimitsAllowReceipts(t *testing.T) {
	t.Parallel()
	// Just inside the limits: still a receipt.
	raw := append([]byte("Subject: a\r\n"+strings.Repeat(" a\r\n", receipts.MaxFolds)), plainReceipt(map[string]string{
		"Item:":       strings.Repeat("Item: Sticker  1 x $0.10\n", receipts.MaxItems-1) + "Item: Sticker  1 x $0.10",
		"Total paid:": "Total paid: $5.00 CAD",
	})...)
	r, err := receipts.Parse(raw)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if len(r.Items) != receipts.MaxItems || r.TotalCents != 500 {
		t.Errorf("%d items, total %d; want %d items, 500", len(r.Items), r.TotalCents, receipts.MaxItems)
	}
}

func TestParseLenient(t *testing.T) {
	t.Parallel()
	want := membership("100234", "TX-8F3K2L9Q", "jane@example.com", "Club Membership - 2026-2027", 2000)
	cases := []struct {
		name string
		raw  []byte
		want func(*receipts.Receipt)
	}{
		{"LFLineEndings", bytes.ReplaceAll(plainReceipt(nil), []byte("\r\n"), []byte("\n")), nil},
		{"LabelsAnyCaseAndSpacing", plainReceipt(map[string]string{
			"Order number:":   "  ORDER NUMBER :   100234  ",
			"Transaction ID:": "\ttransaction id:TX-8F3K2L9Q",
		}), nil},
		{"LinesInAnyOrder", plainReceipt(map[string]string{
			"Order number:": "",
			"Total paid:":   "Total paid: $20.00 cad\nOrder number: 100234",
		}), nil},
		{"AmountsWithoutDollarOrCents", plainReceipt(map[string]string{
			"Item:":       "Item: Club Membership - 2026-2027 1 x 20",
			"Total paid:": "Total paid: 20.00 CAD",
		}), nil},
		{"CustomerEmailWithName", plainReceipt(map[string]string{
			"Customer email:": "Customer email: Jane Doe <Jane@Example.com>",
		}), nil},
		{"FromWithName", plainReceipt(map[string]string{
			"From:": "From: =?utf-8?q?Campus_Shop?= <Receipts@Shop.Hackdesk.Test>",
		}), nil},
		{"ThousandsAndQuantity", plainReceipt(map[string]string{
			"Item:":       "Item: Club Membership - 2026-2027    1 x $20.00\nItem: Server rack 2U   3 x $1,000.50",
			"Total paid:": "Total paid: $3,021.50 CAD",
		}), func(r *receipts.Receipt) {
			r.Items = append(r.Items, receipts.Item{Description: "Server rack 2U", Quantity: 3, UnitCents: 100050})
			r.TotalCents = 302150
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := receipts.Parse(c.raw)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			w := want
			w.Items = slices.Clone(want.Items)
			if c.want != nil {
				c.want(&w)
			}
			compareReceipt(t, got, w)
		})
	}
}

func TestMembership(t *testing.T) {
	t.Parallel()
	r := receipts.Receipt{Items: []receipts.Item{
		{Description: "Club T-shirt (M)", Quantity: 1, UnitCents: 1500},
		{Description: "Club MEMBERSHIP - 2026-2027", Quantity: 1, UnitCents: 2000},
	}}
	cases := []struct {
		term string
		want bool
	}{
		{"2026-2027", true},
		{"membership - 2026", true},
		{"2025-2026", false},
		{"T-shirt", false},
		{"", false},
		{"  ", false},
	}
	for _, c := range cases {
		if got := r.MembershipFor(c.term); got != c.want {
			t.Errorf("MembershipFor(%q) = %v, want %v", c.term, got, c.want)
		}
	}
	terms := []struct {
		items []receipts.Item
		want  string
	}{
		{r.Items, "2026-2027"},
		{[]receipts.Item{{Description: "Membership - Fall - 2026"}}, "2026"},
		{[]receipts.Item{{Description: "Club Membership"}}, ""},
		{[]receipts.Item{{Description: "Club T-shirt - M"}}, ""},
		{nil, ""},
	}
	for _, c := range terms {
		if got := (receipts.Receipt{Items: c.items}).MembershipTerm(); got != c.want {
			t.Errorf("MembershipTerm(%+v) = %q, want %q", c.items, got, c.want)
		}
	}
}
