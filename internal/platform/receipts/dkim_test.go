package receipts_test

import (
	"bytes"
	"errors"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/emersion/go-msgauth/dkim"

	"hackdesk/dev/receipttest"
	"hackdesk/internal/platform/receipts"
)

func mustKey(tb testing.TB, domain string) receipttest.ShopKey {
	tb.Helper()
	k, err := receipttest.NewShopKey(domain, "dev")
	if err != nil {
		tb.Fatal(err)
	}
	return k
}

func mustSign(tb testing.TB, k receipttest.ShopKey, raw []byte) []byte {
	tb.Helper()
	signed, err := k.Sign(raw)
	if err != nil {
		tb.Fatal(err)
	}
	return signed
}

// lookupOf answers with the keys' TXT records, and NXDOMAIN otherwise.
func lookupOf(keys ...receipttest.ShopKey) receipts.LookupTXT {
	records := map[string][]string{}
	for _, k := range keys {
		name, value := k.TXTRecord()
		records[name] = append(records[name], value)
	}
	return func(domain string) ([]string, error) {
		if vs, ok := records[domain]; ok {
			return vs, nil
		}
		return nil, &net.DNSError{Err: "no such host", Name: domain, IsNotFound: true}
	}
}

func TestVerifyDKIM(t *testing.T) {
	t.Parallel()
	shop := mustKey(t, receipttest.DevShopDomain)
	evil := mustKey(t, "evil.test")
	rotated := mustKey(t, receipttest.DevShopDomain)
	lookup := lookupOf(shop, evil)
	receipt := receipttest.Sample{Email: "jane@example.com", TermName: "2026-2027", Date: sampleDate}.Build()
	signed := mustSign(t, shop, receipt)

	// A signed receipt with five evil.test signatures above the shop's:
	// only the first five are checked.
	buried := signed
	for range receipts.MaxSignatures {
		buried = mustSign(t, evil, buried)
	}
	fromUnsigned := bytes.Replace(signed, []byte("h=From:To:"), []byte("h=To:"), 1)
	if bytes.Equal(fromUnsigned, signed) {
		t.Fatalf("no h=From:To: in the signature:\n%s", signed)
	}

	cases := []struct {
		name   string
		raw    []byte
		domain string
		lookup receipts.LookupTXT
		reason string // in the error; "" passes
	}{
		{"OK", signed, receipttest.DevShopDomain, lookup, ""},
		{"OKDomainAnyCase", signed, "Shop.HackDesk.TEST", lookup, ""},
		{"OKLFLineEndings", bytes.ReplaceAll(signed, []byte("\r\n"), []byte("\n")), receipttest.DevShopDomain, lookup, ""},
		{"OKHeaderAddedInTransit", append([]byte("Received: from mx.example.net\r\n"), signed...), receipttest.DevShopDomain, lookup, ""},
		{"OKTwoSignatures", mustSign(t, evil, signed), receipttest.DevShopDomain, lookup, ""},
		{"ErrBodyChanged", bytes.Replace(signed, []byte("Total paid: $20.00"), []byte("Total paid: $2.00"), 1), receipttest.DevShopDomain, lookup, "body hash"},
		{"ErrFromChanged", bytes.Replace(signed, []byte("From: receipts@"), []byte("From: refunds@"), 1), receipttest.DevShopDomain, lookup, "did not verify"},
		{"ErrSecondFrom", append([]byte("From: receipts@shop.hackdesk.test\r\n"), signed...), receipttest.DevShopDomain, lookup, "2 From"},
		{"ErrOtherDomain", mustSign(t, evil, receipt), receipttest.DevShopDomain, lookup, "another domain"},
		{"ErrSenderElsewhere", mustSign(t, shop, receipttest.Sample{Email: "jane@example.com", Domain: "evil.test"}.Build()), receipttest.DevShopDomain, lookup, "sender domain evil.test"},
		{"ErrWrongDomain", signed, "other.test", lookup, "sender domain"},
		{"ErrUnsigned", receipt, receipttest.DevShopDomain, lookup, "no signature"},
		{"ErrLookupFails", signed, receipttest.DevShopDomain, func(string) ([]string, error) { return nil, errors.New("SERVFAIL") }, "SERVFAIL"},
		{"ErrNoKey", signed, receipttest.DevShopDomain, lookupOf(evil), "no key"},
		{"ErrRotatedKey", signed, receipttest.DevShopDomain, lookupOf(rotated), "did not verify"},
		{"ErrFromNotSigned", fromUnsigned, receipttest.DevShopDomain, lookup, "From field not signed"},
		{"ErrTooManySignatures", buried, receipttest.DevShopDomain, lookup, "first 5"},
		{"ErrTooLarge", append(signed, bytes.Repeat([]byte("x"), receipts.MaxSize)...), receipttest.DevShopDomain, lookup, "larger"},
		{"ErrFoldedHeader", append([]byte("Comments: a\r\n"+strings.Repeat(" a\r\n", receipts.MaxFolds+1)), signed...), receipttest.DevShopDomain, lookup, "folded"},
		{"ErrNoHeader", []byte("not a message"), receipttest.DevShopDomain, lookup, "empty line"},
		{"ErrNoDomain", signed, "", lookup, "no domain"},
		{"ErrNoLookup", signed, receipttest.DevShopDomain, nil, "no TXT lookup"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			err := receipts.VerifyDKIM(c.raw, c.domain, c.lookup)
			if c.reason == "" {
				if err != nil {
					t.Fatalf("VerifyDKIM: %v", err)
				}
				return
			}
			if !errors.Is(err, receipts.ErrDKIM) {
				t.Fatalf("VerifyDKIM: %v, want ErrDKIM", err)
			}
			t.Log(err)
			if !strings.Contains(err.Error(), c.reason) {
				t.Errorf("VerifyDKIM: %q, want the reason %q", err, c.reason)
			}
		})
	}
}

// TestSampleFilesVerify checks the committed samples against the public
// key committed with them.
func TestSampleFilesVerify(t *testing.T) {
	t.Parallel()
	lookup, err := receipts.TXTFile(filepath.Join(sampleDir, "dkim.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range sampleFiles {
		raw := readSample(t, c.file)
		if err := receipts.VerifyDKIM(raw, receipttest.DevShopDomain, lookup); err != nil {
			t.Errorf("%s: %v", c.file, err)
		}
		appended := append(slices.Clip(raw), "Total paid: $1.00 CAD\r\n"...)
		if err := receipts.VerifyDKIM(appended, receipttest.DevShopDomain, lookup); !errors.Is(err, receipts.ErrDKIM) {
			t.Errorf("%s with a line appended: %v, want ErrDKIM", c.file, err)
		}
	}
}

func TestSenderDomain(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		raw  string
		want string // "" is an error
	}{
		{"OK", "From: receipts@shop.hackdesk.test\r\n\r\nbody", "shop.hackdesk.test"},
		{"Lowered", "Subject: x\r\nfrom :  Campus Shop\r\n <Receipts@Shop.HACKDESK.test>\r\n\r\n", "shop.hackdesk.test"},
		{"LF", "From: receipts@shop.hackdesk.test\n\nbody", "shop.hackdesk.test"},
		{"NoFrom", "Sender: receipts@shop.hackdesk.test\r\n\r\n", ""},
		{"TwoFields", "From: a@shop.hackdesk.test\r\nFrom: b@evil.test\r\n\r\n", ""},
		{"TwoAddresses", "From: a@shop.hackdesk.test, b@evil.test\r\n\r\n", ""},
		{"GroupOfOne", "From: shop: a@shop.hackdesk.test;\r\n\r\n", "shop.hackdesk.test"},
		{"GroupOfTwo", "From: shop: a@shop.hackdesk.test, b@evil.test;\r\n\r\n", ""},
		{"EmptyGroup", "From: shop:;\r\n\r\n", ""},
		{"NoHeaderEnd", "From: receipts@shop.hackdesk.test", ""},
		{"NotAnAddress", "From: receipts\r\n\r\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := receipts.SenderDomain([]byte(c.raw))
			if c.want == "" {
				if err == nil || !errors.Is(err, receipts.ErrInvalid) {
					t.Fatalf("SenderDomain = %q, %v; want ErrInvalid", got, err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Errorf("SenderDomain = %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

func TestTXTFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "dkim.txt")
	content := `# comment

dev._domainkey.shop.hackdesk.test   v=DKIM1; k=ed25519; p=AAAA
	Quoted._DomainKey.Example.Test.	"v=DKIM1; k=rsa; " "p=BBBB"
two.example.test one
two.example.test two
`
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	lookup, err := receipts.TXTFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		want []string
	}{
		{"dev._domainkey.shop.hackdesk.test", []string{"v=DKIM1; k=ed25519; p=AAAA"}},
		{"DEV._domainkey.shop.hackdesk.test.", []string{"v=DKIM1; k=ed25519; p=AAAA"}},
		{"quoted._domainkey.example.test", []string{"v=DKIM1; k=rsa; p=BBBB"}},
		{"two.example.test", []string{"one", "two"}},
	}
	for _, c := range cases {
		got, err := lookup(c.name)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("lookup(%q) = %q, %v; want %q", c.name, got, err, c.want)
		}
	}
	got, _ := lookup("two.example.test")
	got[0] = "changed"
	if again, _ := lookup("two.example.test"); again[0] != "one" {
		t.Errorf("a caller changed the records: %q", again)
	}

	_, err = lookup("nope.example.test")
	var dnsErr *net.DNSError
	if !errors.As(err, &dnsErr) || !dnsErr.IsNotFound {
		t.Errorf("unknown name: %v, want a not-found DNSError", err)
	}

	for name, bad := range map[string]string{
		"NoValue":      "only.a.name\n",
		"Unterminated": `x.test "v=DKIM1` + "\n",
		"TextBetween":  `x.test "a" b "c"` + "\n",
	} {
		p := filepath.Join(t.TempDir(), "bad.txt")
		if err := os.WriteFile(p, []byte("# first\n"+bad), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := receipts.TXTFile(p); err == nil || !strings.Contains(err.Error(), ":2:") {
			t.Errorf("%s: %v, want an error at line 2", name, err)
		}
	}
	if _, err := receipts.TXTFile(filepath.Join(t.TempDir(), "missing.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// A key that cannot be read for now (a temporary DNS failure) is neither a
// pass nor a failure: ErrDKIMTemporary, so the post is retried.
func TestVerifyDKIMTemporaryLookupFailure(t *testing.T) {
	t.Parallel()
	k, err := receipttest.NewShopKey(receipttest.DevShopDomain, "dev")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := k.Sign(receipttest.Sample{Email: "a@x.test", TermName: "2026-2027"}.Build())
	if err != nil {
		t.Fatal(err)
	}
	temporary := func(string) ([]string, error) {
		return nil, &net.DNSError{Err: "server misbehaving", IsTemporary: true}
	}
	err = receipts.VerifyDKIM(raw, receipttest.DevShopDomain, temporary)
	if !errors.Is(err, receipts.ErrDKIMTemporary) || errors.Is(err, receipts.ErrDKIM) {
		t.Fatalf("temporary lookup failure: %v, want ErrDKIMTemporary only", err)
	}
	permanent := func(string) ([]string, error) { return nil, &net.DNSError{Err: "no such host", IsNotFound: true} }
	if err := receipts.VerifyDKIM(raw, receipttest.DevShopDomain, permanent); !errors.Is(err, receipts.ErrDKIM) {
		t.Fatalf("missing key: %v, want ErrDKIM", err)
	}
}

// signWith signs raw as the shop would, covering exactly the header fields
// keys: a shop whose signature leaves some fields out.
func signWith(tb testing.TB, k receipttest.ShopKey, raw []byte, keys ...string) []byte {
	tb.Helper()
	raw = receipts.CRLF(raw)
	s, err := dkim.NewSigner(&dkim.SignOptions{Domain: k.Domain, Selector: k.Selector, Signer: k.Key,
		HeaderCanonicalization: dkim.CanonicalizationRelaxed, BodyCanonicalization: dkim.CanonicalizationRelaxed,
		HeaderKeys: keys})
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := s.Write(raw); err != nil {
		tb.Fatal(err)
	}
	if err := s.Close(); err != nil {
		tb.Fatal(err)
	}
	return append([]byte(s.Signature()), raw...)
}

// TestVerifyDKIMCoversMIMEFields: the MIME header fields Parse reads
// decide how the signed body is read, so a signature that leaves one of
// them out (which a relay could then swap, add or drop) does not vouch
// for the receipt.
func TestVerifyDKIMCoversMIMEFields(t *testing.T) {
	t.Parallel()
	shop := mustKey(t, receipttest.DevShopDomain)
	lookup := lookupOf(shop)
	plain := receipttest.Sample{Email: "jane@example.com", TermName: "2026-2027", Date: sampleDate}.Build()
	noCTE := bytes.Replace(plain, []byte("Content-Transfer-Encoding: 7bit\r\n"), nil, 1)
	if bytes.Equal(noCTE, plain) {
		t.Fatalf("no 7bit Content-Transfer-Encoding in the sample:\n%s", plain)
	}
	all := []string{"From", "To", "Subject", "MIME-Version", "Content-Type", "Content-Transfer-Encoding"}
	withoutCTE := []string{"From", "To", "Subject", "MIME-Version", "Content-Type"}
	swap := func(raw []byte) []byte {
		return bytes.Replace(raw, []byte("Content-Transfer-Encoding: 7bit"), []byte("Content-Transfer-Encoding: quoted-printable"), 1)
	}
	for _, c := range []struct {
		name   string
		raw    []byte
		reason string // "" passes
	}{
		{"OKAllSigned", signWith(t, shop, plain, all...), ""},
		{"OKAbsentFieldNotSigned", signWith(t, shop, noCTE, withoutCTE...), ""},
		{"OKShopSigner", mustSign(t, shop, plain), ""},
		{"ErrSignedFieldSwapped", swap(signWith(t, shop, plain, all...)), "did not verify"},
		{"ErrCTENotSigned", signWith(t, shop, plain, withoutCTE...), "Content-Transfer-Encoding not signed"},
		{"ErrCTESwapped", swap(signWith(t, shop, plain, withoutCTE...)), "Content-Transfer-Encoding not signed"},
		{"ErrCTEAdded", bytes.Replace(signWith(t, shop, noCTE, withoutCTE...), []byte("MIME-Version: 1.0\r\n"),
			[]byte("MIME-Version: 1.0\r\nContent-Transfer-Encoding: base64\r\n"), 1), "Content-Transfer-Encoding not signed"},
		{"ErrContentTypeNotSigned", signWith(t, shop, plain, "From", "MIME-Version", "Content-Transfer-Encoding"), "Content-Type not signed"},
		{"ErrMIMEVersionNotSigned", signWith(t, shop, plain, "From", "Content-Type", "Content-Transfer-Encoding"), "MIME-Version not signed"},
		{"ErrSecondContentTypeAbove", append([]byte("Content-Type: text/html\r\n"), signWith(t, shop, plain, all...)...), "Content-Type"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			err := receipts.VerifyDKIM(c.raw, receipttest.DevShopDomain, lookup)
			if c.reason == "" {
				if err != nil {
					t.Fatalf("VerifyDKIM: %v", err)
				}
				return
			}
			if !errors.Is(err, receipts.ErrDKIM) || !strings.Contains(err.Error(), c.reason) {
				t.Fatalf("VerifyDKIM: %v, want ErrDKIM with %q", err, c.reason)
			}
		})
	}
}
