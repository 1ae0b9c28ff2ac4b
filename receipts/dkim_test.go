package receipts

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/emersion/go-msgauth/dkim"
)

func mustKey(tb testing.TB, domain string) ShopKey {
	tb.Helper()
	k, err := NewShopKey(domain, "dev")
	if err != nil {
		tb.Fatal(err)
	}
	return k
}

func mustSign(tb testing.TB, k ShopKey, raw []byte) []byte {
	tb.Helper()
	signed, err := k.Sign(raw)
	if err != nil {
		tb.Fatal(err)
	}
	return signed
}

// lookupOf answers with the keys' TXT records, and NXDOMAIN otherwise.
func lookupOf(keys ...ShopKey) LookupTXT {
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
	shop := mustKey(t, DevShopDomain)
	evil := mustKey(t, "evil.test")
	rotated := mustKey(t, DevShopDomain)
	lookup := lookupOf(shop, evil)
	receipt := Sample{Email: "jane@example.com", TermName: "2026-2027", Date: sampleDate}.Build()
	signed := mustSign(t, shop, receipt)

	// A signed receipt with five evil.test signatures above the shop's:
	// only the first five are checked.
	buried := signed
	for range maxSignatures {
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
		lookup LookupTXT
		reason string // in the error; "" passes
	}{
		{"OK", signed, DevShopDomain, lookup, ""},
		{"OKDomainAnyCase", signed, "Shop.HackDesk.TEST", lookup, ""},
		{"OKLFLineEndings", bytes.ReplaceAll(signed, []byte("\r\n"), []byte("\n")), DevShopDomain, lookup, ""},
		{"OKHeaderAddedInTransit", append([]byte("Received: from mx.example.net\r\n"), signed...), DevShopDomain, lookup, ""},
		{"OKTwoSignatures", mustSign(t, evil, signed), DevShopDomain, lookup, ""},
		{"ErrBodyChanged", bytes.Replace(signed, []byte("Total paid: $20.00"), []byte("Total paid: $2.00"), 1), DevShopDomain, lookup, "body hash"},
		{"ErrFromChanged", bytes.Replace(signed, []byte("From: receipts@"), []byte("From: refunds@"), 1), DevShopDomain, lookup, "did not verify"},
		{"ErrSecondFrom", append([]byte("From: receipts@shop.hackdesk.test\r\n"), signed...), DevShopDomain, lookup, "2 From"},
		{"ErrOtherDomain", mustSign(t, evil, receipt), DevShopDomain, lookup, "another domain"},
		{"ErrSenderElsewhere", mustSign(t, shop, Sample{Email: "jane@example.com", Domain: "evil.test"}.Build()), DevShopDomain, lookup, "sender domain evil.test"},
		{"ErrWrongDomain", signed, "other.test", lookup, "sender domain"},
		{"ErrUnsigned", receipt, DevShopDomain, lookup, "no signature"},
		{"ErrLookupFails", signed, DevShopDomain, func(string) ([]string, error) { return nil, errors.New("SERVFAIL") }, "SERVFAIL"},
		{"ErrNoKey", signed, DevShopDomain, lookupOf(evil), "no key"},
		{"ErrRotatedKey", signed, DevShopDomain, lookupOf(rotated), "did not verify"},
		{"ErrFromNotSigned", fromUnsigned, DevShopDomain, lookup, "From field not signed"},
		{"ErrTooManySignatures", buried, DevShopDomain, lookup, "first 5"},
		{"ErrTooLarge", append(signed, bytes.Repeat([]byte("x"), MaxSize)...), DevShopDomain, lookup, "larger"},
		{"ErrFoldedHeader", append([]byte("Comments: a\r\n"+strings.Repeat(" a\r\n", maxFolds+1)), signed...), DevShopDomain, lookup, "folded"},
		{"ErrNoHeader", []byte("not a message"), DevShopDomain, lookup, "empty line"},
		{"ErrNoDomain", signed, "", lookup, "no domain"},
		{"ErrNoLookup", signed, DevShopDomain, nil, "no TXT lookup"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := VerifyDKIM(c.raw, c.domain, c.lookup)
			if c.reason == "" {
				if err != nil {
					t.Fatalf("VerifyDKIM: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrDKIM) {
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
	lookup, err := TXTFile(filepath.Join(sampleDir, "dkim.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range sampleFiles {
		raw := readSample(t, c.file)
		if err := VerifyDKIM(raw, DevShopDomain, lookup); err != nil {
			t.Errorf("%s: %v", c.file, err)
		}
		appended := append(slices.Clip(raw), "Total paid: $1.00 CAD\r\n"...)
		if err := VerifyDKIM(appended, DevShopDomain, lookup); !errors.Is(err, ErrDKIM) {
			t.Errorf("%s with a line appended: %v, want ErrDKIM", c.file, err)
		}
	}
}

func TestSignHeaderKeys(t *testing.T) {
	k := mustKey(t, DevShopDomain)
	cases := []struct {
		name string
		raw  []byte
		want []string
	}{
		{"Sample", Sample{Email: "jane@example.com"}.Build(), []string{"From", "To", "Subject", "Date", "Message-ID", "Content-Type", "MIME-Version", "Content-Transfer-Encoding"}},
		{"Minimal", []byte("X-Other: 1\r\nSubject: hi\nFrom: receipts@shop.hackdesk.test\n\nbody\n"), []string{"From", "Subject"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			signed := mustSign(t, k, c.raw)
			if !bytes.HasPrefix(signed, []byte("DKIM-Signature:")) {
				t.Fatalf("signed message starts %q", signed[:min(40, len(signed))])
			}
			verifs, err := dkim.VerifyWithOptions(bytes.NewReader(signed), &dkim.VerifyOptions{LookupTXT: lookupOf(k)})
			if err != nil || len(verifs) != 1 || verifs[0].Err != nil {
				t.Fatalf("verify: %v %+v", err, verifs)
			}
			if got := verifs[0].HeaderKeys; !slices.Equal(got, c.want) {
				t.Errorf("h= %v, want %v", got, c.want)
			}
			if !bytes.Contains(signed, []byte("a=ed25519-sha256")) || !bytes.Contains(signed, []byte("c=relaxed/relaxed")) {
				t.Errorf("want a=ed25519-sha256 and c=relaxed/relaxed:\n%s", signed)
			}
		})
	}
	if _, err := k.Sign([]byte("Subject: no sender\r\n\r\nbody\r\n")); err == nil {
		t.Error("Sign without From: no error")
	}
	if _, err := (ShopKey{Domain: DevShopDomain, Selector: "dev"}).Sign(Sample{}.Build()); err == nil {
		t.Error("Sign without a key: no error")
	}
}

func TestSenderDomain(t *testing.T) {
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
			got, err := SenderDomain([]byte(c.raw))
			if c.want == "" {
				if err == nil || !errors.Is(err, ErrInvalid) {
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
	lookup, err := TXTFile(path)
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
		if _, err := TXTFile(p); err == nil || !strings.Contains(err.Error(), ":2:") {
			t.Errorf("%s: %v, want an error at line 2", name, err)
		}
	}
	if _, err := TXTFile(filepath.Join(t.TempDir(), "missing.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func TestShopKeyTXT(t *testing.T) {
	k := mustKey(t, DevShopDomain)
	name, value := k.TXTRecord()
	if name != "dev._domainkey.shop.hackdesk.test" {
		t.Errorf("name %q", name)
	}
	p, ok := strings.CutPrefix(value, "v=DKIM1; k=ed25519; p=")
	if !ok {
		t.Fatalf("value %q", value)
	}
	pub, err := base64.StdEncoding.DecodeString(p)
	if err != nil || !bytes.Equal(pub, k.Key.Public().(ed25519.PublicKey)) {
		t.Errorf("p= is not the public key: %v", err)
	}

	other := mustKey(t, "evil.test")
	path := filepath.Join(t.TempDir(), "dkim.txt")
	if err := WriteTXTFile(path, k, other); err != nil {
		t.Fatal(err)
	}
	assertMode(t, path, 0o600)
	lookup, err := TXTFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []ShopKey{k, other} {
		name, value := key.TXTRecord()
		if got, err := lookup(name); err != nil || !slices.Equal(got, []string{value}) {
			t.Errorf("lookup(%q) = %q, %v; want %q", name, got, err, value)
		}
	}
	if err := VerifyDKIM(mustSign(t, k, Sample{Email: "jane@example.com"}.Build()), DevShopDomain, lookup); err != nil {
		t.Errorf("verify with the written file: %v", err)
	}

	for _, bad := range [][2]string{{"", "dev"}, {"shop..test", "dev"}, {"shop.test", ""}, {"shop.test", "a b"}, {"-shop.test", "dev"}} {
		if _, err := NewShopKey(bad[0], bad[1]); err == nil {
			t.Errorf("NewShopKey(%q, %q): no error", bad[0], bad[1])
		}
	}
}

func assertMode(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != want {
		t.Errorf("%s: mode %v, want %v", path, got, want)
	}
}

func TestLoadOrCreateShopKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "shop.pem")
	k1, err := LoadOrCreateShopKey(path, DevShopDomain, "dev")
	if err != nil {
		t.Fatal(err)
	}
	assertMode(t, path, 0o600)
	k2, err := LoadOrCreateShopKey(path, "Shop.Hackdesk.Test", "dev")
	if err != nil {
		t.Fatal(err)
	}
	if !k1.Key.Equal(k2.Key) {
		t.Error("the second load made a new key")
	}
	if k2.Domain != DevShopDomain || k2.Selector != "dev" {
		t.Errorf("loaded %s/%s", k2.Domain, k2.Selector)
	}
	if err := VerifyDKIM(mustSign(t, k2, Sample{Email: "jane@example.com"}.Build()), DevShopDomain, lookupOf(k1)); err != nil {
		t.Errorf("signed by the loaded key, verified with the created: %v", err)
	}

	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(ec)
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string][]byte{
		"NotPEM":  []byte("not a key"),
		"BadDER":  pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte("junk")}),
		"ECDSA":   pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}),
		"RSAType": pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: der}),
	} {
		p := filepath.Join(t.TempDir(), "bad.pem")
		if err := os.WriteFile(p, content, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadOrCreateShopKey(p, DevShopDomain, "dev"); err == nil {
			t.Errorf("%s: no error", name)
		}
		if got, _ := os.ReadFile(p); !bytes.Equal(got, content) {
			t.Errorf("%s: the file was overwritten", name)
		}
	}
}

// A key that cannot be read for now (a temporary DNS failure) is neither a
// pass nor a failure: ErrDKIMTemporary, so the post is retried.
func TestVerifyDKIMTemporaryLookupFailure(t *testing.T) {
	k, err := NewShopKey(DevShopDomain, "dev")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := k.Sign(Sample{Email: "a@x.test", TermName: "2026-2027"}.Build())
	if err != nil {
		t.Fatal(err)
	}
	temporary := func(string) ([]string, error) {
		return nil, &net.DNSError{Err: "server misbehaving", IsTemporary: true}
	}
	err = VerifyDKIM(raw, DevShopDomain, temporary)
	if !errors.Is(err, ErrDKIMTemporary) || errors.Is(err, ErrDKIM) {
		t.Fatalf("temporary lookup failure: %v, want ErrDKIMTemporary only", err)
	}
	permanent := func(string) ([]string, error) { return nil, &net.DNSError{Err: "no such host", IsNotFound: true} }
	if err := VerifyDKIM(raw, DevShopDomain, permanent); !errors.Is(err, ErrDKIM) {
		t.Fatalf("missing key: %v, want ErrDKIM", err)
	}
}

// signWith signs raw as the shop would, covering exactly the header fields
// keys: a shop whose signature leaves some fields out.
func signWith(tb testing.TB, k ShopKey, raw []byte, keys ...string) []byte {
	tb.Helper()
	raw = crlf(raw)
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
	shop := mustKey(t, DevShopDomain)
	lookup := lookupOf(shop)
	plain := Sample{Email: "jane@example.com", TermName: "2026-2027", Date: sampleDate}.Build()
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
			err := VerifyDKIM(c.raw, DevShopDomain, lookup)
			if c.reason == "" {
				if err != nil {
					t.Fatalf("VerifyDKIM: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrDKIM) || !strings.Contains(err.Error(), c.reason) {
				t.Fatalf("VerifyDKIM: %v, want ErrDKIM with %q", err, c.reason)
			}
		})
	}
}
